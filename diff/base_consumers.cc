#include "diff/base_consumers.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <unordered_set>

#include "audit/elf/elf_reader.h"
#include "audit/inspect/collect_facts.h"
#include "audit/support/parallel.h"
#include "diff/installed_layout.h"
#include "diff/mapped_file_arena.h"

namespace rocm_audit {
namespace {

// Where programs and the libraries they load are installed (FHS, and /opt for vendor
// trees such as /opt/rocm). Separate debug files under usr/lib/debug load nothing.
constexpr const char* kScannedDirs[] = {"usr/bin",     "usr/sbin",  "usr/lib", "usr/lib64",
                                        "usr/libexec", "usr/local", "opt",     "bin",
                                        "sbin",        "lib",       "lib64"};
constexpr std::string_view kDebugDir = "/usr/lib/debug";
constexpr std::string_view kElfMagic(
    "\x7f"
    "ELF",
    4);

// A directory of the base, with the names of its regular files.
struct BaseDirectory {
  std::string installed;  ///< "/usr/lib"
  std::string host;       ///< where it is read
  std::vector<std::string> files;
};

// The directories below `host` (a directory of the base, at `installed` on the installed
// system), depth first, each with its regular files. The type comes from readdir's d_type,
// not a stat per entry: this walk meets every file of the base's program and library
// directories (82,000 on a Debian with 1,200 -dev packages); fstatat is asked only where the
// filesystem leaves it unknown. Symbolic links are not followed (a link to a library names a
// file the walk meets at its own path, a linked directory a tree met elsewhere: merged /usr).
void AddDirectories(const std::string& host, const std::string& installed, std::vector<BaseDirectory>* out) {
  DIR* dir = opendir(host.c_str());
  if (!dir) return;
  BaseDirectory here{installed, host, {}};
  std::vector<std::string> subdirs;
  while (const dirent* e = readdir(dir)) {
    const std::string_view name = e->d_name;
    if (name == "." || name == "..") continue;
    unsigned char type = e->d_type;
    if (type == DT_UNKNOWN) {
      struct stat st;
      if (fstatat(dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
      type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
    }
    if (type == DT_DIR && installed + "/" + std::string(name) != kDebugDir)
      subdirs.emplace_back(name);
    else if (type == DT_REG)
      here.files.emplace_back(name);
  }
  closedir(dir);
  if (!here.files.empty()) out->push_back(std::move(here));
  for (const std::string& sub : subdirs) AddDirectories(host + "/" + sub, installed + "/" + sub, out);
}

// The directories below the layers' scanned directories with their regular files, the top
// layer's copy of each path.
std::vector<BaseDirectory> BaseDirectories(const std::vector<std::string>& layers) {
  std::vector<BaseDirectory> out;
  std::unordered_set<std::string> above;  // installed paths of the layers above this one
  for (const std::string& layer : layers) {
    const std::string root = layer == "/" ? "" : layer;
    const size_t first = out.size();
    for (const char* dir : kScannedDirs) {
      struct stat st;
      const std::string top = root + "/" + dir;
      if (lstat(top.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
      AddDirectories(top, "/" + std::string(dir), &out);
    }
    if (layers.size() == 1) break;
    for (size_t i = first; i < out.size(); ++i)
      std::erase_if(out[i].files,
                    [&](const std::string& name) { return above.count(out[i].installed + "/" + name) > 0; });
    for (size_t i = first; i < out.size(); ++i)
      for (const std::string& name : out[i].files) above.insert(out[i].installed + "/" + name);
  }
  return out;
}

// The reader's model of a base file's bytes. A file the reader refuses, or one without a
// dynamic section, is no consumer: ld.so would not load it either.
bool ReadConsumer(std::shared_ptr<llvm::MemoryBuffer> bytes, const std::string& host, ElfModel* model) {
  std::string error;
  return ReadElf(std::move(bytes), host, model, &error) && model->has_dynamic;
}

// The reader's model of the ELF file open at `fd`, its bytes mapped in `arena` (or on their
// own when the arena does not take them). A file the reader refuses is no consumer: ld.so
// would refuse it too.
bool ReadMapped(int fd, uint64_t size, const std::string& host, MappedFileArena& arena, ElfModel* model) {
  std::shared_ptr<llvm::MemoryBuffer> buffer;
  if (std::optional<std::string_view> bytes = arena.Map(fd, size)) {
    buffer = llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(bytes->data(), bytes->size()), host,
                                              /*RequiresNullTerminator=*/false);
  } else {
    auto own = llvm::MemoryBuffer::getOpenFile(llvm::sys::fs::convertFDToNativeFile(fd), host, size,
                                               /*RequiresNullTerminator=*/false, /*IsVolatile=*/false);
    if (!own) return false;
    buffer = std::move(*own);
  }
  return ReadConsumer(std::move(buffer), host, model);
}

// The DT_NEEDED names of the file `name` of `dir` (open at `dir_fd`) when it is an ELF file
// with a dynamic section; none for any other file, most of the base (scripts, data, headers),
// which costs an open relative to its directory and a read of 4 bytes.
std::optional<std::vector<std::string>> NeededOf(int dir_fd, const BaseDirectory& dir,
                                                 const std::string& name, MappedFileArena& arena) {
  const int fd = openat(dir_fd, name.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
  if (fd < 0) return std::nullopt;
  std::optional<std::vector<std::string>> out;
  char magic[4] = {};
  struct stat st;
  if (pread(fd, magic, 4, 0) == 4 && std::string_view(magic, 4) == kElfMagic && fstat(fd, &st) == 0 &&
      S_ISREG(st.st_mode)) {
    ElfModel model;
    if (ReadMapped(fd, static_cast<uint64_t>(st.st_size), dir.host + "/" + name, arena, &model))
      out.emplace(model.needed.begin(), model.needed.end());
  }
  close(fd);
  return out;
}

// A file mapped at its own place, read as ReadMapped reads it.
bool ReadModel(const std::string& host, ElfModel* model, std::shared_ptr<llvm::MemoryBuffer>* keep) {
  std::string error;
  *keep = MapFile(host, &error);
  return *keep && ReadConsumer(*keep, host, model);
}

// The directory of the base below which a side's file at `side_prefix` (below its input) is
// installed when the base holds it at `base_prefix`: "usr" for "usr" and "" (a side given
// at its usr/), "" for "opt/rocm" and "opt/rocm" (a side given at its root); none when
// `base_prefix` does not end with `side_prefix`.
std::optional<std::string> DirectoryAbove(std::string_view base_prefix, std::string_view side_prefix) {
  if (side_prefix.empty()) return std::string(base_prefix);
  if (base_prefix == side_prefix) return std::string();
  if (base_prefix.size() > side_prefix.size() && base_prefix.ends_with(side_prefix) &&
      base_prefix[base_prefix.size() - side_prefix.size() - 1] == '/')
    return std::string(base_prefix.substr(0, base_prefix.size() - side_prefix.size() - 1));
  return std::nullopt;
}

}  // namespace

BaseConsumers::BaseConsumers(std::vector<std::string> layers) : layers_(std::move(layers)) {}

BaseConsumers::~BaseConsumers() {
  if (scanning_.valid()) scanning_.wait();
}

void BaseConsumers::ScanInBackground() {
  if (scanned_ || layers_.empty()) return;
  scanned_ = true;
  scanning_ = std::async(std::launch::async, [this] { Scan(/*background=*/true); });
}

void BaseConsumers::Scan(bool background) {
  const std::vector<BaseDirectory> dirs = BaseDirectories(layers_);
  for (const BaseDirectory& d : dirs) cost_.files += d.files.size();
  // Each worker takes the next directory and keeps its own arena, unmapped when it is done.
  const unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::vector<Scanned>> found(jobs);
  std::atomic<size_t> next{0};
  ParallelFor(jobs, jobs, [&](size_t worker) {
    // Beside the audits, whose results the comparison waits for first, the scan takes the
    // cores they leave: the lowest priority, of this worker thread only (Linux's setpriority
    // applies to the thread). A diff of two .debs: 2.16 -> 2.06 s wall, median of 4.
    if (background) setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19);
    MappedFileArena arena;
    for (size_t i; (i = next.fetch_add(1)) < dirs.size();) {
      const BaseDirectory& dir = dirs[i];
      const int dir_fd = open(dir.host.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (dir_fd < 0) continue;
      for (const std::string& name : dir.files)
        if (auto needed = NeededOf(dir_fd, dir, name, arena))
          found[worker].push_back({dir.installed + "/" + name, dir.host + "/" + name, std::move(*needed)});
      close(dir_fd);
    }
  });
  for (std::vector<Scanned>& some : found)
    for (Scanned& s : some) elf_.push_back(std::move(s));
  // By installed path, not in the order directories list their entries: the same report at
  // every run.
  std::sort(elf_.begin(), elf_.end(), [](const Scanned& a, const Scanned& b) { return a.path < b.path; });
  cost_.elf_files = elf_.size();
}

void BaseConsumers::PlaceSides() {
  placed_ = true;
  std::vector<InstalledPlace> base(elf_.size());
  for (size_t i = 0; i < elf_.size(); ++i) base[i] = SplitAtPrefix(std::string_view(elf_[i].path).substr(1));
  for (const std::vector<std::string>& side : sides_) {
    // The side's prefixes (below its input) of each place it ships.
    std::map<std::string, std::set<std::string>, std::less<>> prefixes;
    for (const std::string& path : side) {
      InstalledPlace p = SplitAtPrefix(path);
      prefixes[std::move(p.place)].insert(std::move(p.prefix));
    }
    std::map<std::string, size_t> found_below;  // base directory -> the side's files found there
    for (const InstalledPlace& b : base)
      if (auto it = prefixes.find(b.place); it != prefixes.end())
        for (const std::string& prefix : it->second)
          if (auto dir = DirectoryAbove(b.prefix, prefix)) ++found_below[*dir];
    if (found_below.empty()) continue;
    // The first by name of those holding the most: a report is the same at every run.
    const std::string dir =
        std::max_element(found_below.begin(), found_below.end(), [](const auto& a, const auto& b) {
          return a.second < b.second;
        })->first;
    for (size_t i = 0; i < elf_.size(); ++i)
      if (auto it = prefixes.find(base[i].place); it != prefixes.end())
        for (const std::string& prefix : it->second)
          if (DirectoryAbove(base[i].prefix, prefix) == dir) own_.insert(elf_[i].path);
  }
}

const std::vector<FileFacts>& BaseConsumers::Linking(const std::string& soname) {
  if (auto it = linking_.find(soname); it != linking_.end()) return it->second;
  if (scanning_.valid()) scanning_.get();
  if (!scanned_ && !layers_.empty()) {
    scanned_ = true;
    Scan(/*background=*/false);
  }
  if (!placed_) PlaceSides();
  std::vector<FileFacts>& out = linking_[soname];
  for (const Scanned& s : elf_) {
    if (std::find(s.needed.begin(), s.needed.end(), soname) == s.needed.end() || own_.count(s.path)) continue;
    std::shared_ptr<llvm::MemoryBuffer> keep;
    ElfModel model;
    if (!ReadModel(s.host, &model, &keep)) continue;
    FileFacts f;
    f.path = s.path;
    f.kind = "elf";
    ElfFacts elf;
    elf.soname = model.soname;
    elf.needed = s.needed;
    elf.has_dynamic = true;
    CollectSymbols(model, &elf);
    ++cost_.symbol_tables;
    f.elf = std::move(elf);
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace rocm_audit
