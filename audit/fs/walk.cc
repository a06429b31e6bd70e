#include "audit/fs/walk.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "audit/fs/open_file.h"
#include "audit/fs/soname.h"

namespace rocm_audit {
namespace {

using Inode = std::pair<dev_t, ino_t>;

// "libfoo.so", "libfoo.so.6", "libfoo.so.6.4.3": what the loader or the link editor would
// try to open. Such a file that is neither ELF nor a linker script is itself a finding.
bool LooksLikeSharedLibraryName(std::string_view name) {
  const std::optional<SonameParts> parts = ParseSoname(name);
  return parts && (parts->stem.size() == name.size() || parts->NumericVersion());
}

std::string SpecialKind(mode_t mode) {
  std::string kind = SpecialFileKind(mode);
  return kind.empty() ? "not a regular file" : kind;
}

// Far deeper than any installed tree (Debian's deepest paths have about 20 components).
constexpr int kMaxDepth = 256;

class Walker {
 public:
  Walker(const RootedFs& fs, const std::function<void(size_t)>& on_entry) : fs_(fs), on_entry_(on_entry) {}

  /// The real paths of the input directories: what the walk may enter. A file input is
  /// audited itself but opens no tree.
  /// Returns the input's lstat when it is a regular file, which its visit then takes as its
  /// own: a run over 328 file PATHs stat'ed each three times before it opened it.
  std::optional<struct stat> AddTree(const std::string& input) {
    struct stat st;
    // A regular file is visited as one (Visit's lstat sees the same): nothing to resolve.
    if (lstat(input.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return st;
    if (auto real = fs_.Resolve(input); real && stat(real->c_str(), &st) == 0 && S_ISDIR(st.st_mode))
      trees_.push_back(*real);
    return std::nullopt;
  }

  /// `dir`: the resolved directory `path` was listed in (nullptr for inputs and deferred
  /// directories, which are resolved from the root).
  /// `known`: the lstat of `path` the caller made.
  void Visit(const std::string& path, const std::string& prefix, bool via_symlink, bool input = false,
             const RootedFs::Resolved* dir = nullptr, const struct stat* known = nullptr) {
    if (on_entry_) on_entry_(++entries_);
    struct stat st;
    if (known) {
      st = *known;
    } else if (lstat(path.c_str(), &st) != 0) {
      Problem(WalkProblem::kUnreadable, path, std::string("cannot stat: ") + strerror(errno));
      return;
    }
    if (S_ISLNK(st.st_mode)) {
      std::string why;
      auto resolved = Locate(path, dir, &why);
      if (!resolved) return Unresolved(path, why);
      const std::string* target = &resolved->host;
      if (!input && !InsideTrees(*target)) {
        Problem(WalkProblem::kOutsideTree, path,
                "links to " + OutsideTarget(path, *resolved) +
                    ", outside the audited paths: not followed, not audited as part of them");
        return;
      }
      if (stat(target->c_str(), &st) != 0) {
        Problem(WalkProblem::kUnreadable, path, std::string("cannot stat target: ") + strerror(errno));
        return;
      }
      return VisitResolved(path, prefix, st, true, &*resolved);
    }
    if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) return Special(path, st);
    // A path the layers resolve elsewhere (a higher layer's symlink on the way) is read
    // where the walk found it.
    auto resolved = Locate(path, dir, nullptr, input && known && S_ISREG(known->st_mode));
    VisitResolved(path, prefix, st, via_symlink, resolved ? &*resolved : nullptr);
  }

  void VisitResolved(const std::string& path, const std::string& prefix, const struct stat& st,
                     bool via_symlink, const RootedFs::Resolved* resolved) {
    if (S_ISDIR(st.st_mode)) {
      // A directory reached through a symlink (lib -> usr/lib) waits until every real
      // directory is walked, so files are reported under their installed paths.
      if (via_symlink && !draining_) {
        deferred_.push_back({path, prefix});
        return;
      }
      return VisitDirectory(path, prefix, st, via_symlink, resolved);
    }
    if (S_ISREG(st.st_mode))
      return VisitFile(path, prefix, st, via_symlink, resolved ? resolved->host : path);
    Special(path, st);
  }

  void Special(const std::string& path, const struct stat& st) {
    // Devices, sockets and FIFOs are never opened: reading a FIFO could block forever, and
    // a device (a link to /dev/zero named like a library) never ends.
    ++result_.counts["special"];
    result_.problems.push_back({WalkProblem::kSpecialFile, path, SpecialKind(st.st_mode) + ": not opened"});
  }

  WalkResult Finish() {
    draining_ = true;
    for (size_t i = 0; i < deferred_.size(); ++i) {
      auto [path, prefix] = deferred_[i];
      Visit(path, prefix, true);
    }
    for (size_t i = 0; i < candidates_.size(); ++i) {
      FileKind kind = candidates_.kind(i);
      ++result_.counts[std::string(FileKindName(kind))];
      if (kind != FileKind::kOther || LooksLikeSharedLibraryName(BaseName(candidates_.path(i))))
        result_.files.AddFrom(candidates_, i);
    }
    return std::move(result_);
  }

 private:
  // Where `path` resolves to: one component from the directory it was listed in, or every
  // component from the root when there is none. From the directory it is one lstat; from
  // the root it is one per component of the path, which would be most of a walk's lstat calls.
  // A regular file given as a PATH (`input_file`) is resolved as its directory, once for all
  // the inputs in it, and its name in it: 328 file PATHs in one directory resolved each of
  // its components 328 times. (A directory PATH may be a layer's root, which its parent,
  // outside the layers, would resolve on the host.)
  std::optional<RootedFs::Resolved> Locate(const std::string& path, const RootedFs::Resolved* dir,
                                           std::string* why, bool input_file = false) {
    if (dir) return fs_.ResolveEntry(*dir, std::string(BaseName(path)), why);
    if (!input_file) return fs_.ResolveFully(path, why);
    const std::string_view name = BaseName(path);
    const std::string parent = DirName(path);
    if (name.empty() || name == "." || name == ".." || parent.empty() || parent == path)
      return fs_.ResolveFully(path, why);
    auto [at, fresh] = input_dirs_.try_emplace(parent);
    if (fresh) at->second = fs_.ResolveFully(parent);
    // The whole path's reason and /proc mark are its own: those come from resolving it whole.
    if (!at->second || at->second->through_proc) return fs_.ResolveFully(path, why);
    // ResolveChild counts the links followed to the directory, as one resolution would.
    return fs_.ResolveChild(*at->second, std::string(name), why);
  }

  void VisitDirectory(const std::string& path, const std::string& prefix, const struct stat& st,
                      bool via_symlink, const RootedFs::Resolved* resolved) {
    if (!dirs_.insert({st.st_dev, st.st_ino}).second) return;  // seen: cycle or alias
    // The walk recurses, one frame a directory. The kernel's PATH_MAX lets a hostile tree
    // nest some 2,000 one-character directories, deeper than the stack holds those frames
    // (a sanitizer build's frames are several times larger): kMaxDepth stops it first.
    if (depth_ >= kMaxDepth) {
      Problem(WalkProblem::kUnreadable, path,
              "nested deeper than " + std::to_string(kMaxDepth) + " directories: not walked further");
      return;
    }
    DIR* dir = opendir(path.c_str());
    if (!dir) {
      Problem(WalkProblem::kUnreadable, path, std::string("cannot read directory: ") + strerror(errno));
      return;
    }
    std::vector<std::string> names;
    while (dirent* e = readdir(dir)) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
      names.emplace_back(e->d_name);
    }
    closedir(dir);
    std::sort(names.begin(), names.end());  // deterministic reports
    std::string base = path.size() > 1 && path.back() == '/' ? path : path + "/";
    ++depth_;
    for (const auto& n : names) Visit(base + n, prefix, via_symlink, false, resolved);
    --depth_;
  }

  void VisitFile(const std::string& path, const std::string& prefix, const struct stat& st, bool via_symlink,
                 const std::string& real) {
    Inode inode{st.st_dev, st.st_ino};
    auto known = first_.find(inode);
    if (known != first_.end()) {
      // Prefer the path that is not reached through a symlink: that is the installed file.
      auto& [index, was_symlink] = known->second;
      if (was_symlink && !via_symlink) {
        candidates_.Move(index, path, prefix);
        was_symlink = false;
      }
      return;
    }
    // Non-blocking, and the type checked again on the descriptor: a FIFO put in the file's
    // place since the stat above must not stop the walk.
    int fd = open(real.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
      Problem(WalkProblem::kUnreadable, path, std::string("cannot open: ") + strerror(errno));
      return;
    }
    struct stat opened;
    if (fstat(fd, &opened) == 0 && !S_ISREG(opened.st_mode)) {
      close(fd);
      return Special(path, opened);
    }
    char head[256];
    ssize_t n = pread(fd, head, sizeof head, 0);
    close(fd);
    if (n < 0) {
      Problem(WalkProblem::kUnreadable, path, std::string("cannot read: ") + strerror(errno));
      return;
    }
    first_[inode] = {candidates_.size(), via_symlink};
    candidates_.Add(path, real, prefix,
                    ClassifyFile(BaseName(path), std::string_view(head, static_cast<size_t>(n))),
                    static_cast<uint64_t>(st.st_size));
  }

  bool InsideTrees(const std::string& real) const {
    for (const std::string& t : trees_)
      if (IsUnderDirectory(real, t)) return true;
    return false;
  }

  // A link that does not resolve: a cycle, the kernel's link limit, a path too long, or a
  // target that is not there, each in its own words.
  void Unresolved(const std::string& path, std::string_view why) {
    if (why == kSymlinkCycle)
      Problem(WalkProblem::kSymlinkLoop, path, "symlink loops back on itself");
    else if (why == kTooManySymlinks)
      Problem(WalkProblem::kSymlinkLoop, path, std::string(why) + LinkTarget(path));
    else if (why == kPathTooLong)
      Problem(WalkProblem::kUnreadable, path,
              "cannot resolve the symlink: " + std::string(why) + LinkTarget(path));
    else
      Problem(WalkProblem::kDanglingSymlink, path, "symlink target does not exist" + LinkTarget(path));
  }

  // "/proc/self/cwd", "../../../x (../x)", "/usr/lib (/usr/lib in the --root system)": the
  // target as written, then where it lands when that differs, named as the user named the
  // tree (relative to the working directory for a relative PATH, root-relative in a --root
  // system). A link through the host's /proc lands in the auditing process's own state
  // (its working directory, its descriptors), which says nothing about the tree: not shown.
  PathText OutsideTarget(const std::string& path, const RootedFs::Resolved& resolved) const {
    const std::string raw = ReadLink(path);
    if (resolved.through_proc) return raw + " (in /proc: the auditing process's own state, not the tree's)";
    std::string shown = fs_.has_root() ? fs_.DisplayPath(resolved.host) : resolved.host;
    if (!fs_.has_root() && !path.empty() && path[0] != '/') {
      std::error_code ec;
      const auto cwd = std::filesystem::current_path(ec);
      if (!ec) shown = std::filesystem::path(shown).lexically_relative(cwd).string();
    }
    if (raw == shown || shown.empty()) return raw;
    // The target as written is the link's own words; where it lands is a path of this machine
    // for the report to show, unless it is already named as the user named the tree.
    return raw + " (" + (shown == resolved.host ? HostPath(shown) : PathText(shown)) + ")";
  }

  static std::string LinkTarget(const std::string& path) {
    std::string raw = ReadLink(path);
    return raw.empty() ? "" : " (-> " + raw + ")";
  }

  void Problem(WalkProblem::Kind kind, const std::string& path, const PathText& message) {
    result_.problems.push_back({kind, path, message.text(), message.paths()});
  }

  const RootedFs& fs_;
  const std::function<void(size_t)>& on_entry_;
  size_t entries_ = 0;
  int depth_ = 0;  ///< directories entered, below the input
  WalkResult result_;
  std::set<Inode> dirs_;
  std::map<Inode, std::pair<size_t, bool>> first_;                       // inode -> (candidate, via symlink)
  WalkedFiles candidates_;                                               // every regular file, in walk order
  std::vector<std::pair<std::string, std::string>> deferred_;            // (path, prefix)
  std::vector<std::string> trees_;                                       // real paths of the inputs
  std::map<std::string, std::optional<RootedFs::Resolved>> input_dirs_;  // an input's directory
  bool draining_ = false;
};

}  // namespace

WalkResult WalkInputs(const std::vector<std::string>& inputs, const RootedFs& fs,
                      const std::function<void(size_t)>& on_entry) {
  Walker walker(fs, on_entry);
  std::vector<std::optional<struct stat>> files;
  for (const auto& input : inputs) files.push_back(walker.AddTree(input));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string& input = inputs[i];
    std::string prefix = input;
    while (prefix.size() > 1 && prefix.back() == '/') prefix.pop_back();
    struct stat st;
    // A regular file's lstat is its stat (and it has no trailing slash, or lstat failed).
    if (files[i] || (stat(prefix.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))) {
      // A single file: its prefix is the directory above its lib/ or bin/ directory.
      std::string dir = DirName(prefix);
      std::string_view leaf = BaseName(dir);
      prefix = (leaf.substr(0, 3) == "lib" || leaf == "bin") ? DirName(dir) : dir;
    }
    walker.Visit(input, prefix, false, /*input=*/true, nullptr, files[i] ? &*files[i] : nullptr);
  }
  return walker.Finish();
}

}  // namespace rocm_audit
