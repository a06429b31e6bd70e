#include "audit/fs/rooted_fs.h"

#include <dirent.h>
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <unordered_set>

namespace rocm_audit {
namespace {

// Linux's limit on symlinks followed in one path resolution (MAXSYMLINKS).
constexpr int kMaxSymlinks = 40;

std::deque<std::string> Components(std::string_view path) {
  std::deque<std::string> out;
  for (std::string_view part : PathComponents(path)) out.emplace_back(part);
  return out;
}

// glob(3)'s directory functions (GLOB_ALTDIRFUNC), counting the entries one call reads:
// glob() takes no context, so the count is the calling thread's.
thread_local size_t glob_entries_left = 0;

void* GlobOpenDir(const char* path) {
  if (glob_entries_left == 0) return nullptr;
  return opendir(path);
}

struct dirent* GlobReadDir(void* dir) {
  if (glob_entries_left == 0) return nullptr;
  --glob_entries_left;
  return readdir(static_cast<DIR*>(dir));
}

void GlobCloseDir(void* dir) { closedir(static_cast<DIR*>(dir)); }

}  // namespace

std::string ReadLink(const std::string& path) {
  char buf[PATH_MAX];
  ssize_t n = readlink(path.c_str(), buf, sizeof buf);
  return n < 0 ? std::string() : std::string(buf, static_cast<size_t>(n));
}

namespace {

std::string CanonicalLayer(const std::string& root) {
  std::error_code ec;
  auto canonical = std::filesystem::weakly_canonical(std::filesystem::absolute(root, ec), ec);
  std::string out = ec ? NormalizePath(root) : canonical.string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out == "/" ? std::string() : out;
}

}  // namespace

RootedFs::RootedFs(const std::string& root) {
  if (!root.empty() && CanonicalLayer(root) != "") layers_.push_back(CanonicalLayer(root));
}

RootedFs::RootedFs(const std::vector<std::string>& layers) {
  for (const auto& l : layers) layers_.push_back(CanonicalLayer(l));
  // A single host layer is no root at all.
  if (layers_.size() == 1 && layers_[0].empty()) layers_.clear();
}

void RootedFs::Hide(size_t layer, std::unordered_set<std::string> paths) {
  if (layer >= layers_.size()) return;
  if (hidden_.size() < layers_.size()) hidden_.resize(layers_.size());
  hidden_[layer] = std::make_shared<const std::unordered_set<std::string>>(std::move(paths));
}

size_t RootedFs::HiddenCount(size_t layer) const {
  return layer < hidden_.size() && hidden_[layer] ? hidden_[layer]->size() : 0;
}

std::vector<std::string> RootedFs::layers() const {
  std::vector<std::string> out;
  for (const auto& l : layers_) out.push_back(l.empty() ? "/" : l);
  return out;
}

std::string RootedFs::HostPath(std::string_view absolute) const {
  if (layers_.empty()) return std::string(absolute);
  return layers_.front() + NormalizePath(absolute);
}

std::optional<std::string> RootedFs::VirtualPath(const std::string& host_path) const {
  std::string norm = NormalizePath(host_path);
  // The longest matching layer: a layer may sit below another one's directory tree.
  const std::string* best = nullptr;
  for (const auto& l : layers_)
    if (IsUnderDirectory(norm, l) && (!best || l.size() > best->size())) best = &l;
  if (!best) return std::nullopt;
  std::string rest = norm.substr(best->size());
  return rest.empty() ? "/" : rest;
}

std::optional<std::string> RootedFs::TextBelowLayer(const std::string& host_path) const {
  const std::string* best = nullptr;
  for (const auto& l : layers_)
    if (host_path.starts_with(l) && (host_path.size() == l.size() || host_path[l.size()] == '/') &&
        (!best || l.size() > best->size()))
      best = &l;
  if (!best) return std::nullopt;
  std::string rest = host_path.substr(best->size());
  return rest.empty() ? "/" : rest;
}

size_t RootedFs::InstalledLength(const std::string& host_path) const {
  if (auto below = TextBelowLayer(host_path)) return below->size();
  return host_path.size();
}

std::string RootedFs::DisplayPath(const std::string& host_path) const {
  if (layers_.empty()) return host_path;
  // The layers are absolute; a path the walk met below a root given relative is not.
  std::optional<std::string> v;
  if (!host_path.empty() && host_path[0] != '/') {
    std::error_code ec;
    v = VirtualPath(std::filesystem::absolute(host_path, ec).string());
  } else {
    v = VirtualPath(host_path);
  }
  return v ? *v : host_path;
}

std::optional<std::string> RootedFs::Resolve(const std::string& host_path, std::string* why) const {
  auto r = ResolveFully(host_path, why);
  if (!r) return std::nullopt;
  return std::move(r->host);
}

std::optional<RootedFs::Resolved> RootedFs::ResolveFully(const std::string& host_path,
                                                         std::string* why) const {
  std::string absolute = host_path;
  if (absolute.empty() || absolute[0] != '/') {
    std::error_code ec;
    absolute = std::filesystem::absolute(host_path, ec).string();
  }
  // Outside every layer (or no root): the kernel's own view, one layer, the host. Below a
  // layer, the path as written: Follow takes each ".." in the directory it reaches, as the
  // kernel does (after a symlinked directory, the parent of its target), where normalising
  // the text first would take the parent of the link.
  auto virtual_path = TextBelowLayer(absolute);
  if (!virtual_path) virtual_path = VirtualPath(absolute);
  return Follow("", Components(virtual_path ? *virtual_path : absolute), virtual_path.has_value(), 0, why);
}

std::optional<RootedFs::Resolved> RootedFs::ResolveEntry(const Resolved& dir, const std::string& name,
                                                         std::string* why) const {
  return Follow(dir.path, {name}, dir.in_layers, 0, why);
}

std::optional<RootedFs::Resolved> RootedFs::ResolveChild(const Resolved& dir, const std::string& name,
                                                         std::string* why) const {
  return Follow(dir.path, {name}, dir.in_layers, dir.links, why);
}

std::optional<RootedFs::Resolved> RootedFs::Follow(std::string cur, std::deque<std::string> todo,
                                                   bool in_layers, int links, std::string* why) const {
  static const std::vector<std::string> kHost{""};
  const std::vector<std::string>& layers = in_layers ? layers_ : kHost;
  const std::string* holder = &layers.front();  // the layer the last component came from
  bool through_proc = false;
  while (!todo.empty()) {
    std::string comp = std::move(todo.front());
    todo.pop_front();
    if (comp == ".") continue;
    if (comp == "..") {
      size_t slash = cur.rfind('/');
      cur = slash == std::string::npos ? std::string() : cur.substr(0, slash);
      continue;
    }
    std::string next = cur + "/" + comp;
    struct stat st;
    holder = nullptr;
    bool too_long = false;
    for (size_t i = 0; i < layers.size(); ++i) {
      if (in_layers && !Shows(i, next)) continue;  // hidden there: no lstat, so no errno to read
      if (lstat((layers[i] + next).c_str(), &st) == 0) {
        holder = &layers[i];
        break;
      }
      too_long |= errno == ENAMETOOLONG;
    }
    if (!holder) {
      if (why) *why = too_long ? kPathTooLong : kNoSuchPath;
      return std::nullopt;
    }
    if (!S_ISLNK(st.st_mode)) {
      cur = std::move(next);
      continue;
    }
    if (++links > kMaxSymlinks) {
      // The kernel stops here either way (ELOOP); the message says whether the links
      // loop or only are many.
      todo.push_front(comp);
      if (why) *why = NeverEnds(cur, std::move(todo), in_layers) ? kSymlinkCycle : kTooManySymlinks;
      return std::nullopt;
    }
    through_proc |= holder->empty() && next.starts_with("/proc/");
    std::string target = ReadLink(*holder + next);
    std::deque<std::string> target_parts = Components(target);
    if (!target.empty() && target[0] == '/') cur.clear();
    todo.insert(todo.begin(), target_parts.begin(), target_parts.end());
  }
  if (cur.empty())
    return Resolved{cur, holder->empty() ? std::string("/") : *holder, in_layers, links, through_proc};
  // The final object lives in the top layer that has it (with one layer, the one that held
  // its last component).
  if (layers.size() > 1)
    for (size_t i = 0; i < layers.size(); ++i) {
      struct stat st;
      if ((!in_layers || Shows(i, cur)) && lstat((layers[i] + cur).c_str(), &st) == 0)
        return Resolved{cur, layers[i] + cur, in_layers, links, through_proc};
    }
  return Resolved{cur, *holder + cur, in_layers, links, through_proc};
}

bool RootedFs::NeverEnds(std::string cur, std::deque<std::string> todo, bool in_layers) const {
  // A cycle revisits a state (where the resolution is, what is left of it); a link that
  // names itself below it (l -> l/x) grows the rest forever instead. Either never ends
  // within the bound; a chain of distinct links ends well before it.
  constexpr int kBound = 4096;
  static const std::vector<std::string> kHost{""};
  const std::vector<std::string>& layers = in_layers ? layers_ : kHost;
  std::unordered_set<std::string> seen;
  for (int links = 0; !todo.empty();) {
    std::string comp = std::move(todo.front());
    todo.pop_front();
    if (comp == "." || comp == "..") {
      if (comp == "..") cur = cur.substr(0, cur.rfind('/') == std::string::npos ? 0 : cur.rfind('/'));
      continue;
    }
    std::string next = cur + "/" + comp;
    struct stat st;
    const std::string* holder = nullptr;
    for (size_t i = 0; i < layers.size(); ++i)
      if ((!in_layers || Shows(i, next)) && lstat((layers[i] + next).c_str(), &st) == 0) {
        holder = &layers[i];
        break;
      }
    if (!holder) return false;  // ends: at a missing component
    if (!S_ISLNK(st.st_mode)) {
      cur = std::move(next);
      continue;
    }
    std::string state = next;
    for (const std::string& part : todo) state += '\0' + part;
    if (!seen.insert(std::move(state)).second || ++links > kBound) return true;
    std::string target = ReadLink(*holder + next);
    std::deque<std::string> target_parts = Components(target);
    if (!target.empty() && target[0] == '/') cur.clear();
    todo.insert(todo.begin(), target_parts.begin(), target_parts.end());
  }
  return false;
}

std::vector<std::string> RootedFs::Glob(const std::string& absolute_pattern, bool* cut,
                                        GlobOrder order) const {
  std::vector<std::string> out;
  std::vector<std::string> seen;  // virtual paths already taken from a higher layer
  std::unordered_set<std::string> taken;
  static const std::vector<std::string> kHost{""};
  glob_entries_left = kMaxGlobEntries;
  const std::vector<std::string>& layers = layers_.empty() ? kHost : layers_;
  for (size_t l = 0; l < layers.size(); ++l) {
    const std::string& layer = layers[l];
    glob_t g{};
    g.gl_opendir = GlobOpenDir;
    g.gl_readdir = GlobReadDir;
    g.gl_closedir = GlobCloseDir;
    g.gl_stat = stat;
    g.gl_lstat = lstat;
    const int flags = GLOB_ALTDIRFUNC | (order == GlobOrder::kAsListed ? GLOB_NOSORT : 0);
    if (glob((layer + NormalizePath(absolute_pattern)).c_str(), flags, nullptr, &g) == 0) {
      for (size_t i = 0; i < g.gl_pathc; ++i) {
        std::string host = g.gl_pathv[i];
        std::string virt = host.substr(layer.size());
        if (!Shows(l, virt) || !taken.insert(virt).second) continue;
        seen.push_back(std::move(virt));
        out.push_back(std::move(host));
      }
    }
    globfree(&g);
  }
  if (cut) *cut = glob_entries_left == 0;
  if (order == GlobOrder::kAsListed) return out;
  std::vector<size_t> by_path(out.size());
  for (size_t i = 0; i < by_path.size(); ++i) by_path[i] = i;
  std::sort(by_path.begin(), by_path.end(), [&](size_t a, size_t b) { return seen[a] < seen[b]; });
  std::vector<std::string> sorted;
  sorted.reserve(out.size());
  for (size_t i : by_path) sorted.push_back(std::move(out[i]));
  return sorted;
}

bool RootedFs::IsDirectory(const std::string& host_path) const {
  auto real = Resolve(host_path);
  struct stat st;
  return real && stat(real->c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace rocm_audit
