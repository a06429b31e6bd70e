#include "audit/cmake/installed_files.h"

#include <limits.h>
#include <sys/stat.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "audit/cmake/lists.h"
#include "audit/fs/open_file.h"
#include "audit/fs/path.h"

namespace rocm_audit {

InstalledFiles::InstalledFiles(const RootedFs& fs, std::vector<std::string> outside, bool has_base)
    : fs_(fs), has_base_(has_base) {
  for (std::string& o : outside) {
    while (!o.empty() && o.back() == '/') o.pop_back();
    everything_outside_ |= o.empty();
    outside_.insert(std::move(o));
  }
}

// IsUnderDirectory(path, o) for some o: o is `path` or `path` up to one of its slashes.
bool InstalledFiles::Outside(const std::string& path) const {
  if (everything_outside_) return true;
  if (outside_.empty()) return false;
  for (size_t i = 1; i <= path.size(); ++i)
    if ((i == path.size() || path[i] == '/') && outside_.count(std::string_view(path).substr(0, i)))
      return true;
  return false;
}

std::string InstalledFiles::HostOf(const std::string& path) const {
  std::string normal = NormalizePath(path);
  return Outside(normal) ? normal : fs_.HostPath(normal);
}

std::string InstalledFiles::InstalledPath(const std::string& host_path) const {
  return Outside(host_path) ? host_path : fs_.DisplayPath(host_path);
}

std::optional<std::string> InstalledFiles::Physical(const std::string& path, bool* through_proc) const {
  if (path.empty() || path[0] != '/') return std::nullopt;
  std::string cur;  // installed path so far, without ".."; "" is "/"
  for (std::string_view c : PathComponents(path)) {
    if (c == ".") continue;
    if (c != "..") {
      cur += "/" + std::string(c);
      continue;
    }
    if (cur.empty()) continue;  // "/.." is "/"
    auto dir = fs_.ResolveFully(HostOf(cur));
    if (!dir || !fs_.IsDirectory(dir->host)) return std::nullopt;
    if (through_proc) *through_proc |= dir->through_proc;
    cur = DirName(InstalledPath(dir->host));
    if (cur == "/") cur.clear();
  }
  return cur.empty() ? std::string("/") : cur;
}

struct InstalledFiles::ExistsAnswers {
  std::mutex mutex;
  std::unordered_map<std::string, Tri> answers;
  std::unordered_map<std::string, Tri> directories;  ///< IsDirectory()'s
  size_t bytes = 0;                                  ///< of the paths kept
};

namespace {

// A hostile config may ask for the existence of a new path on every step of a loop: past
// this many bytes of paths kept, answers are asked of the world again and not kept.
constexpr size_t kExistsAnswersMaxBytes = 16u << 20;

// The answer `in` keeps for `path`, asked of the world (`ask`) the first time.
template <class Ask>
Tri Remembered(std::mutex& mutex, std::unordered_map<std::string, Tri>& in, size_t& bytes,
               const std::string& path, Ask ask) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = in.find(path); it != in.end()) return it->second;
  }
  const Tri answer = ask();
  std::lock_guard<std::mutex> lock(mutex);
  if (bytes + path.size() <= kExistsAnswersMaxBytes && in.emplace(path, answer).second) bytes += path.size();
  return answer;
}

}  // namespace

Tri InstalledFiles::Exists(const std::string& path) const {
  auto ask = [&] {
    auto physical = Physical(path);
    return physical && fs_.Resolve(HostOf(*physical)) ? Tri::kTrue : Tri::kFalse;
  };
  return exists_ ? Remembered(exists_->mutex, exists_->answers, exists_->bytes, path, ask) : ask();
}

InstalledFiles InstalledFiles::RememberingExistence() const {
  InstalledFiles copy = *this;
  copy.exists_ = std::make_shared<ExistsAnswers>();
  return copy;
}

Tri InstalledFiles::IsDirectory(const std::string& path) const {
  // find_package()'s search asks it of each <name>* entry of the same directories for every
  // name searched there.
  auto ask = [&] {
    auto physical = Physical(path);
    auto host = physical ? fs_.Resolve(HostOf(*physical)) : std::nullopt;
    return host && fs_.IsDirectory(*host) ? Tri::kTrue : Tri::kFalse;
  };
  return exists_ ? Remembered(exists_->mutex, exists_->directories, exists_->bytes, path, ask) : ask();
}

Tri InstalledFiles::IsSymlink(const std::string& path) const {
  auto physical = Physical(path);
  if (!physical) return Tri::kFalse;
  struct stat st;
  return lstat(HostOf(*physical).c_str(), &st) == 0 && S_ISLNK(st.st_mode) ? Tri::kTrue : Tri::kFalse;
}

std::optional<std::string> InstalledFiles::RealPath(const std::string& path) const {
  auto physical = Physical(path);
  if (!physical) return std::nullopt;
  auto host = fs_.Resolve(HostOf(*physical));
  if (!host) return std::nullopt;
  return InstalledPath(*host);
}

bool InstalledFiles::Listing::MayHold(std::string_view name) const {
  if (!exists) return false;
  // Past PATH_MAX the lstat() fails otherwise (ENAMETOOLONG): left to Exists().
  if (!names || longest_host_path + 1 + name.size() >= PATH_MAX) return true;
  return names->MayHold(name);
}

// As the loader's search lists a directory (audit/loader/search_path.cc): where it resolves,
// in each layer, since RootedFs resolves a name in it as each layer's prefix + the path +
// '/' + the name, top layer first. /proc and /sys are never listed.
InstalledFiles::Listing InstalledFiles::List(const std::string& dir) const {
  Listing out;
  auto physical = Physical(dir);
  if (!physical) return out;
  auto resolved = fs_.ResolveFully(HostOf(*physical));
  if (!resolved) return out;
  out.exists = true;
  if (!resolved->KernelView().empty()) return out;
  const std::string path = resolved->path.empty() ? "/" : resolved->path;
  std::vector<std::string> hosts;
  out.longest_host_path = resolved->path.size();
  if (!resolved->in_layers) {
    hosts.push_back(path);
  } else {
    for (const std::string& layer : fs_.layers()) {
      const std::string prefix = layer == "/" ? "" : layer;  // "/" is the host's own tree
      hosts.push_back(prefix + path);
      out.longest_host_path = std::max(out.longest_host_path, prefix.size() + resolved->path.size());
    }
  }
  out.names = DirectoryNames::List(hosts);
  return out;
}

struct InstalledFiles::GlobAnswers {
  struct Answer {
    std::shared_ptr<const std::vector<std::string>> matches;
    bool cut = false;
  };
  /// A directory's entries (GlobKept(dir + "/*", kAsListed)) by name in any case.
  struct NameIndex {
    std::shared_ptr<const std::vector<std::string>> entries;
    std::vector<uint32_t> by_name;  ///< positions in `entries`, sorted by LessNoCase of their names
  };
  std::mutex mutex;
  std::map<std::pair<std::string, GlobOrder>, Answer> answers;
  std::map<std::string, std::shared_ptr<const NameIndex>, std::less<>> indexes;
};

std::vector<std::string> InstalledFiles::EntriesStartingWith(const std::string& dir,
                                                             std::string_view name) const {
  std::vector<std::string> out;
  if (!globs_) {
    for (std::string& e : GlobOnce(dir + "/*", nullptr, GlobOrder::kAsListed))
      if (StartsWithNoCase(BaseName(e), name)) out.push_back(std::move(e));
    return out;
  }
  std::shared_ptr<const GlobAnswers::NameIndex> index;
  {
    std::lock_guard<std::mutex> lock(globs_->mutex);
    if (auto it = globs_->indexes.find(dir); it != globs_->indexes.end()) index = it->second;
  }
  if (!index) {
    auto made = std::make_shared<GlobAnswers::NameIndex>();
    made->entries = GlobKept(dir + "/*", GlobOrder::kAsListed);
    const std::vector<std::string>& entries = *made->entries;
    made->by_name.resize(entries.size());
    for (size_t i = 0; i < entries.size(); ++i) made->by_name[i] = static_cast<uint32_t>(i);
    {  // each name found once, not once per comparison (a lib directory holds thousands)
      std::vector<std::string_view> names(entries.size());
      for (size_t i = 0; i < entries.size(); ++i) names[i] = BaseName(entries[i]);
      std::sort(made->by_name.begin(), made->by_name.end(),
                [&](uint32_t a, uint32_t b) { return LessNoCase(names[a], names[b]); });
    }
    std::lock_guard<std::mutex> lock(globs_->mutex);
    index = globs_->indexes.emplace(dir, std::move(made)).first->second;
  }
  const std::vector<std::string>& entries = *index->entries;
  std::vector<uint32_t> at;
  for (auto it = std::lower_bound(
           index->by_name.begin(), index->by_name.end(), name,
           [&](uint32_t e, std::string_view n) { return LessNoCase(BaseName(entries[e]), n); });
       it != index->by_name.end() && StartsWithNoCase(BaseName(entries[*it]), name); ++it)
    at.push_back(*it);
  std::sort(at.begin(), at.end());
  for (uint32_t i : at) out.push_back(entries[i]);
  return out;
}

InstalledFiles InstalledFiles::RememberingGlobs() const {
  InstalledFiles copy = *this;
  copy.globs_ = std::make_shared<GlobAnswers>();
  return copy;
}

std::shared_ptr<const std::vector<std::string>> InstalledFiles::GlobKept(const std::string& pattern,
                                                                         GlobOrder order, bool* cut) const {
  if (!globs_) {
    bool was_cut = false;
    auto out = std::make_shared<const std::vector<std::string>>(GlobOnce(pattern, &was_cut, order));
    if (cut) *cut = was_cut;
    return out;
  }
  auto key = std::make_pair(pattern, order);
  {
    std::lock_guard<std::mutex> lock(globs_->mutex);
    if (auto it = globs_->answers.find(key); it != globs_->answers.end()) {
      if (cut) *cut = it->second.cut;
      return it->second.matches;
    }
  }
  GlobAnswers::Answer answer;
  answer.matches = std::make_shared<const std::vector<std::string>>(GlobOnce(pattern, &answer.cut, order));
  if (cut) *cut = answer.cut;
  std::lock_guard<std::mutex> lock(globs_->mutex);
  return globs_->answers.emplace(std::move(key), std::move(answer)).first->second.matches;
}

std::vector<std::string> InstalledFiles::Glob(const std::string& pattern, bool* cut, GlobOrder order) const {
  if (!globs_) return GlobOnce(pattern, cut, order);
  return *GlobKept(pattern, order, cut);
}

std::vector<std::string> InstalledFiles::GlobOnce(const std::string& pattern, bool* cut,
                                                  GlobOrder order) const {
  std::vector<std::string> out;
  if (cut) *cut = false;
  if (pattern.empty() || pattern[0] != '/') return out;
  if (Outside(NormalizePath(pattern))) return RootedFs().Glob(pattern, cut, order);
  for (const std::string& host : fs_.Glob(pattern, cut, order)) out.push_back(InstalledPath(host));
  return out;
}

std::optional<std::string> InstalledFiles::Read(const std::string& path, size_t cap, std::string* why) const {
  std::string reason;
  std::optional<std::string> text = ReadRegular(path, cap, &reason);
  if (why) *why = std::move(reason);
  return text;
}

std::optional<std::string> InstalledFiles::ReadRegular(const std::string& path, size_t cap,
                                                       std::string* why) const {
  // What /proc and /sys hold is the reading process's: read here, the auditor's own
  // (/proc/self/cwd is the directory rocm-audit runs in), never the installed system's. A
  // ".." after a link into the host's /proc leads into the auditor's directories as well.
  bool through_proc = false;
  auto physical = Physical(path, &through_proc);
  std::string_view kernel = through_proc ? "/proc" : physical ? KernelFileSystemOf(*physical) : "";
  auto resolved = physical && kernel.empty() ? fs_.ResolveFully(HostOf(*physical)) : std::nullopt;
  if (resolved) kernel = resolved->KernelView();
  if (!kernel.empty()) {
    *why = "is in " + std::string(kernel) +
           ", which shows the process that reads it (the auditor's own here), not a file of the installed "
           "system";
    return std::nullopt;
  }
  if (!resolved) {
    *why = "does not exist";
    return std::nullopt;
  }
  // Regular files only, never blocking; a file of another type is named as the walk names it.
  RegularFileText file = ReadRegularFile(resolved->host, cap);
  if (!file.text) *why = std::move(file.why);
  return std::move(file.text);
}

}  // namespace rocm_audit
