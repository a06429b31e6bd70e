// Lexical path arithmetic: no file system access, no symlinks followed. RootedFs and the
// loader build on these; so do the checks that compare RPATH entries with prefixes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rocm_audit {

/// Lexically normalises an absolute path: removes "." and empty components, folds "..".
std::string NormalizePath(std::string_view path);
/// Directory part of a path ("/a/b/c" -> "/a/b", "c" -> ".").
std::string DirName(std::string_view path);
std::string_view BaseName(std::string_view path);
/// Whether `path` is `dir` or lies below it (component-wise; "/" or "" contains everything).
bool IsUnderDirectory(std::string_view path, std::string_view dir);
/// The non-empty components of a path ("/a//b/" -> "a", "b").
std::vector<std::string_view> PathComponents(std::string_view path);

}  // namespace rocm_audit
