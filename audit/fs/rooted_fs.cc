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
  link_memo_ = std::make_shared<LinkMemo>();  // the outcomes were of the view before
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

// Resolves a path as the kernel does (a symlink's target taken from the link's directory,
// an absolute target from the root of the layers, ".." in the directory reached), past
// the kernel's 40 links: a resolution that follows more fails with ELOOP all the same,
// and the reason says whether it would end (kTooManySymlinks) or never does
// (kSymlinkCycle). Each link's outcome is kept in the view's LinkMemo once its target is
// resolved, and a link met again is not followed again: a directory of N links, each
// naming the next, costs N links followed for the whole run, where telling a cycle from
// a long chain anew from every link cost up to N each.
class PathFollower {
 public:
  PathFollower(const RootedFs& fs, bool in_layers, int links)
      : fs_(fs),
        layers_(in_layers ? fs.layers_ : Host()),
        in_layers_(in_layers),
        links_(static_cast<uint64_t>(links)) {}

  std::optional<RootedFs::Resolved> Run(std::string cur, std::deque<std::string> todo, std::string* why) {
    // A link is entered at most once per resolution (entered again, it is a cycle) and
    // each of its components taken once, so a resolution ends within the links and
    // components of the files; the bound is for views that change as they are read.
    constexpr size_t kMaxSteps = size_t{1} << 20;
    cur_ = std::move(cur);
    todo_ = std::move(todo);
    for (size_t steps = 0; !todo_.empty(); ++steps) {
      if (steps == kMaxSteps) return Failed(kSymlinkCycle, why);
      std::string comp = std::move(todo_.front());
      todo_.pop_front();
      if (!Step(std::move(comp), why)) return std::nullopt;
      CompleteFrames();
    }
    if (links_ > kMaxSymlinks) return Failed(kTooManySymlinks, why);
    return Finish();
  }

 private:
  // A link whose target is being resolved.
  struct Frame {
    std::string path;      ///< the link, in the installed system
    size_t rest;           ///< what todo_ holds once its target is resolved
    uint64_t links_at;     ///< links_ before it
    uint64_t volatile_at;  ///< volatile_ before it
  };

  static const std::vector<std::string>& Host() {
    static const std::vector<std::string> host{""};
    return host;
  }
  static uint8_t Counted(uint64_t links) { return static_cast<uint8_t>(std::min(links, kCountedLinks)); }
  static std::nullopt_t Failed(std::string_view reason, std::string* why) {
    if (why) *why = reason;
    return std::nullopt;
  }

  // One component of the path. False when the resolution fails there (`why` set).
  bool Step(std::string comp, std::string* why) {
    if (comp == ".") return true;
    if (comp == "..") {
      size_t slash = cur_.rfind('/');
      cur_ = slash == std::string::npos ? std::string() : cur_.substr(0, slash);
      return true;
    }
    std::string next = cur_ + "/" + comp;
    if (const LinkOutcome* known = fs_.link_memo_->Find(in_layers_, next)) return Apply(*known, why);
    struct stat st;
    bool too_long = false;
    std::optional<size_t> holder = HolderOf(next, &st, &too_long);
    if (!holder) {
      const std::string_view reason = too_long ? kPathTooLong : kNoSuchPath;
      FailFrames(LinkOutcome::Kind::kFails, reason, links_);
      // Past the kernel's limit, the kernel stopped before it met the missing component.
      Failed(links_ > kMaxSymlinks ? kTooManySymlinks : reason, why);
      return false;
    }
    holder_ = *holder;
    if (!S_ISLNK(st.st_mode)) {
      if (S_ISDIR(st.st_mode)) KeepDirectory(next);
      cur_ = std::move(next);
      return true;
    }
    return Enter(std::move(next), why);
  }

  // A directory is where it is: kept as an outcome of no links, so that the components
  // above every file of a tree (the layer's own path, /usr, /usr/lib) are looked at once
  // per run, not once per path that passes through them. One of the host's /proc or /sys
  // is not kept: it is the reading process's own state.
  void KeepDirectory(const std::string& path) const {
    if (layers_[holder_].empty() && !KernelFileSystemOf(path).empty()) return;
    fs_.link_memo_->Keep(in_layers_, path,
                         {LinkOutcome::Kind::kEnds, 0, static_cast<uint32_t>(holder_), path, {}});
  }

  // The top layer that shows `next` and has it (lstat), if any.
  std::optional<size_t> HolderOf(const std::string& next, struct stat* st, bool* too_long) const {
    for (size_t i = 0; i < layers_.size(); ++i) {
      if (in_layers_ && !fs_.Shows(i, next)) continue;  // hidden there: no lstat, so no errno to read
      fs_.CountLookup();
      if (lstat((layers_[i] + next).c_str(), st) == 0) return i;
      *too_long |= errno == ENAMETOOLONG;
    }
    return std::nullopt;
  }

  // A link met before, in this resolution or another one of the view.
  bool Apply(const LinkOutcome& known, std::string* why) {
    switch (known.kind) {
      case LinkOutcome::Kind::kNeverEnds:
        FailFrames(LinkOutcome::Kind::kNeverEnds, {}, 0);
        Failed(kSymlinkCycle, why);
        return false;
      case LinkOutcome::Kind::kFails: {
        const uint64_t at = links_ + known.links;
        FailFrames(LinkOutcome::Kind::kFails, known.why, at);
        Failed(at > kMaxSymlinks ? kTooManySymlinks : known.why, why);
        return false;
      }
      case LinkOutcome::Kind::kEnds: break;
    }
    links_ += known.links;
    cur_ = known.where;
    holder_ = known.holder;
    return true;
  }

  // A link met for the first time: its target's components go first.
  bool Enter(std::string path, std::string* why) {
    ++links_;
    if (open_.count(path)) {
      // Its own resolution needs it: it never ends, nor does any link open around it.
      FailFrames(LinkOutcome::Kind::kNeverEnds, {}, 0);
      Failed(kSymlinkCycle, why);
      return false;
    }
    const std::string& layer = layers_[holder_];
    through_proc_ |= layer.empty() && path.starts_with("/proc/");
    const uint64_t volatile_at = volatile_;
    if (layer.empty() && !KernelFileSystemOf(path).empty()) ++volatile_;
    fs_.CountLookup();
    const std::string target = ReadLink(layer + path);
    open_.insert(path);
    frames_.push_back({std::move(path), todo_.size(), links_ - 1, volatile_at});
    std::deque<std::string> parts = Components(target);
    if (!target.empty() && target[0] == '/') cur_.clear();
    todo_.insert(todo_.begin(), parts.begin(), parts.end());
    return true;
  }

  // The links whose targets are now resolved: each ends where the resolution is.
  void CompleteFrames() {
    while (!frames_.empty() && todo_.size() == frames_.back().rest) {
      const Frame& f = frames_.back();
      if (volatile_ == f.volatile_at)
        fs_.link_memo_->Keep(in_layers_, f.path,
                             {LinkOutcome::Kind::kEnds,
                              Counted(links_ - f.links_at),
                              static_cast<uint32_t>(holder_),
                              cur_,
                              {}});
      open_.erase(f.path);
      frames_.pop_back();
    }
  }

  // The resolution ends here without a place: so does every link still open.
  void FailFrames(LinkOutcome::Kind kind, std::string_view reason, uint64_t links_at_failure) {
    for (const Frame& f : frames_)
      if (volatile_ == f.volatile_at)
        fs_.link_memo_->Keep(
            in_layers_, f.path,
            {kind,
             kind == LinkOutcome::Kind::kFails ? Counted(links_at_failure - f.links_at) : uint8_t{0},
             0,
             {},
             reason});
    frames_.clear();
    open_.clear();
  }

  std::optional<RootedFs::Resolved> Finish() const {
    const int links = static_cast<int>(links_);
    const std::string& holder = layers_[holder_];
    if (cur_.empty())
      return RootedFs::Resolved{cur_, holder.empty() ? std::string("/") : holder, in_layers_, links,
                                through_proc_};
    // The final object lives in the top layer that has it (with one layer, the one that
    // held its last component).
    if (layers_.size() > 1)
      for (size_t i = 0; i < layers_.size(); ++i) {
        struct stat st;
        if (in_layers_ && !fs_.Shows(i, cur_)) continue;
        fs_.CountLookup();
        if (lstat((layers_[i] + cur_).c_str(), &st) == 0)
          return RootedFs::Resolved{cur_, layers_[i] + cur_, in_layers_, links, through_proc_};
      }
    return RootedFs::Resolved{cur_, holder + cur_, in_layers_, links, through_proc_};
  }

  const RootedFs& fs_;
  const std::vector<std::string>& layers_;
  const bool in_layers_;
  uint64_t links_;  ///< links followed so far, counted past the kernel's limit
  std::string cur_;
  std::deque<std::string> todo_;
  size_t holder_ = 0;  ///< the layer the last component came from
  bool through_proc_ = false;
  /// Links read from the host's /proc or /sys: an outcome that reads one is not kept.
  uint64_t volatile_ = 0;
  std::vector<Frame> frames_;
  std::unordered_set<std::string> open_;  ///< frames_' paths
};

std::optional<RootedFs::Resolved> RootedFs::Follow(std::string cur, std::deque<std::string> todo,
                                                   bool in_layers, int links, std::string* why) const {
  return PathFollower(*this, in_layers, links).Run(std::move(cur), std::move(todo), why);
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
