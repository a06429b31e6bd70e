// A sentence of a finding that names paths of this machine, with where each of them lies in
// it: the report shows each path as it shows every path (relative to its input, below its
// root, as a package member; cli/shown_report.cc) without looking for paths among the words,
// and a name that merely looks like a path ("$ORIGIN/../lib", a symlink's target) stays as
// the file has it. Checks compose messages and hints from words and HostPath(...):
//
//   f.SetMessage(name + " was found at " + HostPath(resolved) + " but cannot be loaded");
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rocm_audit {

/// Where a path of this machine lies in a text: bytes [offset, offset + size).
struct TextPath {
  size_t offset = 0;
  size_t size = 0;
  bool operator==(const TextPath&) const = default;
};

/// Words, and the paths of this machine among them (in order, none overlapping).
class PathText {
 public:
  PathText() = default;
  PathText(std::string words) : text_(std::move(words)) {}  // NOLINT: words are a PathText
  PathText(const char* words) : text_(words) {}             // NOLINT: words are a PathText

  PathText& operator+=(const PathText& more) {
    for (const TextPath& p : more.paths_) paths_.push_back({p.offset + text_.size(), p.size});
    text_ += more.text_;
    return *this;
  }

  const std::string& text() const { return text_; }
  const std::vector<TextPath>& paths() const { return paths_; }

  /// `words` naming paths of this machine at `paths` (a text kept apart from its paths, as
  /// Finding::message and message_paths are).
  static PathText Marked(std::string words, std::vector<TextPath> paths) {
    PathText out(std::move(words));
    out.paths_ = std::move(paths);
    return out;
  }

  /// `host_path`, a path of this machine (as the walk or the loader names it).
  static PathText Path(std::string host_path) {
    PathText out(std::move(host_path));
    if (!out.text_.empty()) out.paths_.push_back({0, out.text_.size()});
    return out;
  }

 private:
  std::string text_;
  std::vector<TextPath> paths_;
};

inline PathText operator+(PathText a, const PathText& b) {
  a += b;
  return a;
}

/// A path of this machine in a sentence of a finding (PathText::Path).
inline PathText HostPath(std::string host_path) { return PathText::Path(std::move(host_path)); }

/// `paths` as paths of this machine, joined by `separator` ("a, b, c").
inline PathText HostPaths(const std::vector<std::string>& paths, std::string_view separator) {
  PathText out;
  for (size_t i = 0; i < paths.size(); ++i)
    out += (i ? PathText(std::string(separator)) : PathText()) + HostPath(paths[i]);
  return out;
}

/// `text` with each of `paths` replaced by `show(path)`, and the words between them by
/// `words(words)`. A path out of order or past the text (a text changed after its paths were
/// marked) is left to `words`.
template <typename Show, typename Words>
std::string FillPaths(std::string_view text, std::span<const TextPath> paths, const Show& show,
                      const Words& words) {
  std::string out;
  size_t at = 0;
  for (const TextPath& p : paths) {
    if (p.offset < at || p.offset > text.size() || p.size > text.size() - p.offset) continue;
    out += words(text.substr(at, p.offset - at));
    out += show(text.substr(p.offset, p.size));
    at = p.offset + p.size;
  }
  out += words(text.substr(at));
  return out;
}

}  // namespace rocm_audit
