#include "diff/base_consumers.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <optional>

#include "audit/elf/elf_reader.h"
#include "audit/inspect/collect_facts.h"
#include "audit/support/parallel.h"
#include "diff/installed_layout.h"

namespace rocm_audit {
namespace {

// Where programs and the libraries they load are installed (FHS, and /opt for vendor
// trees such as /opt/rocm). Separate debug files under usr/lib/debug load nothing.
constexpr const char* kScannedDirs[] = {"usr/bin",     "usr/sbin",  "usr/lib", "usr/lib64",
                                        "usr/libexec", "usr/local", "opt",     "bin",
                                        "sbin",        "lib",       "lib64"};
constexpr std::string_view kDebugDir = "/usr/lib/debug";

// The regular files below `host` (a directory of the base, at `installed` on the installed
// system), depth first. The type comes from readdir's d_type, not a stat per entry: this walk
// meets every file of the base's program and library directories (82,000 on a Debian with
// 1,200 -dev packages); fstatat is asked only where the filesystem leaves it unknown.
// Symbolic links are not followed (a link to a library names a file the walk meets at its
// own path, a linked directory a tree met elsewhere: merged /usr).
void AddRegularFiles(const std::string& host, const std::string& installed, std::set<std::string>* seen,
                     std::vector<std::pair<std::string, std::string>>* out) {
  DIR* dir = opendir(host.c_str());
  if (!dir) return;
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
    std::string path = installed + "/" + std::string(name);
    if (type == DT_DIR && path != kDebugDir)
      subdirs.emplace_back(name);
    else if (type == DT_REG && seen->insert(path).second)
      out->emplace_back(std::move(path), host + "/" + std::string(name));
  }
  closedir(dir);
  for (const std::string& sub : subdirs) AddRegularFiles(host + "/" + sub, installed + "/" + sub, seen, out);
}

// Regular files below the layers' scanned directories, by installed path ("/usr/bin/x"),
// the top layer's copy of each.
std::vector<std::pair<std::string, std::string>> BaseFiles(const std::vector<std::string>& layers) {
  std::set<std::string> seen;
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& layer : layers) {
    const std::string root = layer == "/" ? "" : layer;
    for (const char* dir : kScannedDirs) {
      struct stat st;
      const std::string top = root + "/" + dir;
      if (lstat(top.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
      AddRegularFiles(top, "/" + std::string(dir), &seen, &out);
    }
  }
  return out;
}

bool StartsAsElf(const std::string& host) {
  const int fd = open(host.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
  if (fd < 0) return false;
  char magic[4] = {};
  const bool elf = pread(fd, magic, 4, 0) == 4 && std::string_view(magic, 4) ==
                                                      "\x7f"
                                                      "ELF";
  close(fd);
  return elf;
}

// A file the reader refuses is no consumer: ld.so would refuse it too.
bool ReadModel(const std::string& host, ElfModel* model, std::shared_ptr<llvm::MemoryBuffer>* keep) {
  std::string error;
  *keep = MapFile(host, &error);
  return *keep && ReadElf(*keep, host, model, &error) && model->has_dynamic;
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
  scanning_ = std::async(std::launch::async, [this] { Scan(); });
}

void BaseConsumers::Scan() {
  const auto files = BaseFiles(layers_);
  cost_.files = files.size();
  std::vector<Scanned> read(files.size());
  ParallelFor(files.size(), std::thread::hardware_concurrency(), [&](size_t i) {
    const auto& [path, host] = files[i];
    if (!StartsAsElf(host)) return;
    std::shared_ptr<llvm::MemoryBuffer> keep;
    ElfModel model;
    if (!ReadModel(host, &model, &keep)) return;
    read[i] = {path, host, {model.needed.begin(), model.needed.end()}};
  });
  for (Scanned& s : read)
    if (!s.host.empty()) elf_.push_back(std::move(s));
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
    Scan();
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
