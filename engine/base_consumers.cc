#include "engine/base_consumers.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <thread>

#include "audit/elf/elf_reader.h"
#include "audit/elf/mapped_file_arena.h"
#include "audit/fs/program_directories.h"
#include "audit/inspect/collect_facts.h"
#include "audit/support/parallel.h"
#include "audit/unpack/package_format.h"

namespace rocm_audit {
namespace {

constexpr std::string_view kElfMagic(
    "\x7f"
    "ELF",
    4);

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
std::optional<std::vector<std::string>> NeededOf(int dir_fd, const ProgramDirectory& dir,
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

}  // namespace

// The scan's work, shared by its workers and by a caller that waits for it: the base's
// directories cut in chunks of files, taken in turn.
struct BaseConsumers::ScanWork {
  std::vector<ProgramDirectory> dirs;
  struct Chunk {
    size_t dir, first, end;
  };
  std::vector<Chunk> chunks;
  std::atomic<size_t> next{0};
  std::mutex mutex;
  std::vector<Scanned> found;
};

namespace {

// A chunk is at most this many files of one directory: a worker left at the lowest priority
// holds a waiting caller up for one chunk at most, not for a directory of 10,000 files.
constexpr size_t kFilesPerChunk = 64;

}  // namespace

std::vector<std::string> BaseKnownBeforehand(const AuditRequest& request,
                                             const std::vector<std::string>& inputs) {
  if (!request.roots.empty() || !request.siblings.empty() || request.no_base) return {};
  for (const std::string& input : inputs)
    if (auto format = DetectPackageFile(input);
        format == PackageFormat::kDeb || format == PackageFormat::kRpm)
      return {"/"};
  return {};
}

std::optional<ElfFacts> ReadConsumerFacts(const std::string& host) {
  std::string error;
  std::shared_ptr<llvm::MemoryBuffer> bytes = MapFile(host, &error);
  ElfModel model;
  if (!bytes || !ReadConsumer(bytes, host, &model)) return std::nullopt;
  ElfFacts elf;
  elf.machine = std::string(model.machine_name());
  elf.soname = model.soname;
  elf.needed.assign(model.needed.begin(), model.needed.end());
  elf.has_dynamic = true;
  CollectSymbols(model, &elf);
  return elf;
}

BaseConsumers::BaseConsumers(std::vector<std::string> layers, unsigned jobs)
    : layers_(std::move(layers)), jobs_(jobs ? jobs : std::max(1u, std::thread::hardware_concurrency())) {}

BaseConsumers::~BaseConsumers() {
  if (scanning_.valid()) scanning_.wait();
}

void BaseConsumers::ScanInBackground() {
  if (scanned_ || layers_.empty()) return;
  scanned_ = true;
  work_ = std::make_unique<ScanWork>();
  listed_ = std::promise<void>();
  listed_future_ = listed_.get_future();
  scanning_ = std::async(std::launch::async, [this] {
    try {
      List();
    } catch (...) {
      listed_.set_value();
      throw;
    }
    listed_.set_value();
    // Beside the audits, whose results the comparison waits for first, the scan takes the
    // cores they leave: its workers at the lowest priority.
    ParallelFor(jobs_, jobs_, [&](size_t) { ScanChunks(ScanMode::kBackground); });
  });
}

void BaseConsumers::AddIndexed(std::string installed, FileFacts consumer) {
  indexed_.push_back({std::move(installed), std::move(consumer)});
}

void BaseConsumers::List() {
  work_->dirs = ListProgramDirectories(layers_);
  for (size_t d = 0; d < work_->dirs.size(); ++d) {
    const size_t files = work_->dirs[d].files.size();
    cost_.files += files;
    for (size_t first = 0; first < files; first += kFilesPerChunk)
      work_->chunks.push_back({d, first, std::min(files, first + kFilesPerChunk)});
  }
}

void BaseConsumers::ScanChunks(ScanMode mode) {
  const bool background = mode == ScanMode::kBackground;
  ScanWork& w = *work_;
  // Linux's setpriority applies to the calling thread alone.
  if (background) setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19);
  // Each worker keeps its own arena, unmapped when it is done.
  MappedFileArena arena;
  std::vector<Scanned> mine;
  for (size_t i; (i = w.next.fetch_add(1)) < w.chunks.size();) {
    const ScanWork::Chunk& c = w.chunks[i];
    const ProgramDirectory& dir = w.dirs[c.dir];
    const int dir_fd = open(dir.host.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0) continue;
    for (size_t f = c.first; f < c.end; ++f)
      if (auto needed = NeededOf(dir_fd, dir, dir.files[f], arena))
        mine.push_back(
            {dir.installed + "/" + dir.files[f], dir.host + "/" + dir.files[f], std::move(*needed)});
    close(dir_fd);
    // A caller that helps holds the sides' facts meanwhile: its mappings go with each chunk,
    // so that its arena does not add a region of mapped files to the run's peak.
    if (mode == ScanMode::kHelping) arena.Release();
  }
  std::lock_guard lock(w.mutex);
  for (Scanned& s : mine) w.found.push_back(std::move(s));
}

void BaseConsumers::FinishScan() {
  if (scanning_.valid()) {
    // The caller needs the scan now: it takes the chunks left at its own priority, so that
    // workers starved at the lowest one (a loaded build machine) hold it up for a chunk each
    // at most.
    listed_future_.wait();
    ScanChunks(ScanMode::kHelping);
    scanning_.get();
  } else {
    if (scanned_ || layers_.empty()) return;
    scanned_ = true;
    work_ = std::make_unique<ScanWork>();
    List();
    ParallelFor(jobs_, jobs_, [&](size_t) { ScanChunks(ScanMode::kForeground); });
  }
  elf_ = std::move(work_->found);
  // By installed path, not in the order directories list their entries: the same report at
  // every run.
  std::sort(elf_.begin(), elf_.end(), [](const Scanned& a, const Scanned& b) { return a.path < b.path; });
  cost_.elf_files = elf_.size();
  cost_.workers = jobs_;
  work_.reset();
}

void BaseConsumers::PlaceSides() {
  placed_ = true;
  if (!replaced_) return;
  std::vector<std::string> installed;
  for (const Scanned& s : elf_) installed.push_back(s.path);
  for (const Indexed& i : indexed_) installed.push_back(i.installed);
  std::sort(installed.begin(), installed.end());
  installed.erase(std::unique(installed.begin(), installed.end()), installed.end());
  own_ = replaced_(installed);
}

const std::vector<FileFacts>& BaseConsumers::Linking(const std::string& soname) {
  if (auto it = linking_.find(soname); it != linking_.end()) return it->second;
  FinishScan();
  if (!placed_) PlaceSides();
  std::vector<FileFacts>& out = linking_[soname];
  for (const Scanned& s : elf_) {
    if (std::find(s.needed.begin(), s.needed.end(), soname) == s.needed.end() || own_.count(s.path)) continue;
    std::optional<ElfFacts> elf = ReadConsumerFacts(s.host);
    if (!elf) continue;
    ++cost_.symbol_tables;
    FileFacts f;
    f.path = s.path;
    f.kind = "elf";
    f.elf = std::move(*elf);
    out.push_back(std::move(f));
  }
  for (const Indexed& i : indexed_)
    if (!own_.count(i.installed) && std::find(i.facts.elf->needed.begin(), i.facts.elf->needed.end(),
                                              soname) != i.facts.elf->needed.end())
      out.push_back(i.facts);
  return out;
}

}  // namespace rocm_audit
