#include "audit/fs/path_display.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <unordered_map>

#include "audit/fs/path.h"

namespace rocm_audit {
namespace {

// A relative path as the absolute path it names, not normalised.
std::string Rooted(std::string_view path) {
  if (!path.empty() && path[0] == '/') return std::string(path);
  std::error_code ec;
  static const std::string cwd = std::filesystem::current_path(ec).string();
  return cwd + "/" + std::string(path);
}

// The absolute, lexically normalised form of a path (relative to the working directory).
std::string Absolute(std::string_view path) { return NormalizePath(Rooted(path)); }

// Whether folding the ".." of an absolute path changes what it names. ld.so and the kernel
// take "a/bin/../lib" through a/bin as it is (a symlink to usr/bin makes it a/usr/lib), so the
// folded "a/lib" stands for it only where both name the same file; where only one of them
// exists, or they are two files, the report shows the path as written ("a/staging/../lib" of
// a CMake finding, where staging/ does not exist but a/lib does). Where neither exists (a
// package's tree, gone once its audit ends) nothing tells them apart and the folded form is
// shown.
bool DotDotMatters(std::string_view path) {
  if (path.empty() || path[0] != '/' || path.find("/..") == std::string_view::npos) return false;
  struct stat as_written, folded;
  const bool written_exists = stat(std::string(path).c_str(), &as_written) == 0;
  const bool folded_exists = stat(NormalizePath(path).c_str(), &folded) == 0;
  if (written_exists != folded_exists) return true;
  return written_exists && (as_written.st_dev != folded.st_dev || as_written.st_ino != folded.st_ino);
}

// The path with symlinks resolved, or "" when it does not exist.
std::string Real(const std::string& path) {
  std::error_code ec;
  std::filesystem::path real = std::filesystem::canonical(path, ec);
  return ec ? std::string() : real.string();
}

// Real() of many paths, each directory resolved once: a path that is no symbolic link
// itself is its directory's real path and its name, for one lstat(2), where realpath(3)
// reads every component of every path again (a readlink(2) each, for each input).
class RealPaths {
 public:
  std::string Of(const std::string& path) {
    const std::string_view name = BaseName(path);
    if (name.empty() || name == "." || name == "..") return Real(path);
    struct stat st;
    if (lstat(path.c_str(), &st) != 0) return std::string();
    if (S_ISLNK(st.st_mode)) return Real(path);
    auto [dir, fresh] = dirs_.try_emplace(DirName(path));
    if (fresh) dir->second = Real(dir->first);
    if (dir->second.empty()) return std::string();
    return (dir->second == "/" ? std::string() : dir->second) + "/" + std::string(name);
  }

 private:
  std::unordered_map<std::string, std::string> dirs_;  ///< directory as written -> Real()
};

std::string Join(const std::string& shown, std::string_view rest) {
  if (rest.empty()) return shown.empty() ? "." : shown;
  if (shown.empty() || shown.back() == '/') return shown + std::string(rest);
  return shown + "/" + std::string(rest);
}

}  // namespace

void PathDisplay::Map(const std::string& host, std::string shown) {
  shown_[Absolute(host)] = std::move(shown);
  // As given too: messages name walked files by the PATH argument as it was typed.
  if (!host.empty() && host[0] != '/') {
    std::string given = host;
    while (given.size() > 1 && given.back() == '/') given.pop_back();
    if (std::find(relative_.begin(), relative_.end(), given) == relative_.end()) relative_.push_back(given);
  }
}

void PathDisplay::NameInText(const std::string& host, std::string given) {
  while (given.size() > 1 && given.back() == '/') given.pop_back();
  named_[Absolute(host)] = std::move(given);
}

std::string PathDisplay::Show(std::string_view host_path) const {
  if (host_path.empty()) return std::string(host_path);
  // A relative path (below a PATH given relative) is judged as the absolute path it names.
  const std::string written = Rooted(host_path);
  if (DotDotMatters(written)) {  // shown up to its first "..", and as written from there
    std::string_view w(written);
    size_t at = w.find("/..");
    while (at != std::string_view::npos && at + 3 < w.size() && w[at + 3] != '/') at = w.find("/..", at + 1);
    if (at != std::string_view::npos && at > 0) return Show(w.substr(0, at)) + std::string(w.substr(at));
  }
  std::string absolute = Absolute(host_path);
  // A relative value that no PATH was given as ("FindThreads.cmake of CMake", a config's
  // relative include directory) is not a path of this machine: it stays as written.
  if (absolute_) return NamesHostPath(host_path) ? absolute : std::string(host_path);
  std::string ancestor = absolute;
  while (true) {
    if (auto it = shown_.find(ancestor); it != shown_.end()) {
      std::string_view rest = std::string_view(absolute).substr(ancestor.size());
      while (!rest.empty() && rest.front() == '/') rest.remove_prefix(1);
      return Join(it->second, rest);
    }
    if (ancestor == "/") return std::string(host_path);
    ancestor = DirName(ancestor);
  }
}

bool PathDisplay::NamesHostPath(std::string_view word) const {
  if (word.starts_with('/')) return true;
  return std::any_of(relative_.begin(), relative_.end(), [&](const std::string& given) {
    return word == given ||
           (word.starts_with(given) && word.size() > given.size() && word[given.size()] == '/') ||
           given == ".";
  });
}

std::string PathDisplay::ShowInText(std::string_view host_path) const {
  std::string shown = Show(host_path);
  if (shown == "." && !absolute_)
    if (auto named = named_.find(Absolute(host_path)); named != named_.end()) shown = named->second;
  return shown;
}

PathDisplay MakePathDisplay(const std::vector<std::string>& inputs, const std::vector<std::string>& roots,
                            bool absolute) {
  PathDisplay display;
  display.SetAbsolute(absolute);
  // Each root as given and with its symlinks resolved, resolved once: every input is
  // compared with them, and resolving a root again for each would stat it again.
  std::vector<std::string> root_forms;
  for (const std::string& r : roots) {
    display.Map(r, "/");
    root_forms.push_back(Absolute(r));
    if (std::string real = Real(r); !real.empty()) {
      display.Map(real, "/");
      root_forms.push_back(std::move(real));
    }
  }
  auto under_root = [&](const std::string& path) {
    return std::any_of(root_forms.begin(), root_forms.end(),
                       [&](const std::string& form) { return IsUnderDirectory(path, form); });
  };
  // Several inputs are told apart by their last component, unless two share it.
  std::vector<std::string> names;
  for (const std::string& in : inputs) names.emplace_back(BaseName(Absolute(in)));
  RealPaths reals;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string& in = inputs[i];
    std::string real = reals.Of(in);
    // Inside a root, the root's mapping already names it root-relative.
    if (under_root(Absolute(in)) || (!real.empty() && under_root(real))) continue;
    std::error_code ec;
    bool directory = std::filesystem::is_directory(in, ec);
    std::string shown;
    if (inputs.size() == 1)
      shown = directory ? "" : names[i];
    else
      shown = std::count(names.begin(), names.end(), names[i]) == 1 ? names[i]
                                                                    : NormalizePath("/" + in).substr(1);
    if (shown.empty()) {  // the one PATH, a directory: named in sentences as it was given
      display.NameInText(in, in);
      if (!real.empty()) display.NameInText(real, in);
    }
    display.Map(in, shown);
    if (!real.empty()) display.Map(real, shown);
  }
  return display;
}

}  // namespace rocm_audit
