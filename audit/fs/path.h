// Lexical path arithmetic: no file system access, no symlinks followed. RootedFs and the
// loader build on these; so do the checks that compare RPATH entries with prefixes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "audit/support/text.h"  // BaseName

namespace rocm_audit {

/// Lexically normalises an absolute path: removes "." and empty components, folds "..".
std::string NormalizePath(std::string_view path);
/// Directory part of a path ("/a/b/c" -> "/a/b", "c" -> ".").
std::string DirName(std::string_view path);
/// Whether `path` is `dir` or lies below it (component-wise; "/" or "" contains everything).
bool IsUnderDirectory(std::string_view path, std::string_view dir);
/// "/proc" or "/sys" when `path` (absolute, normalised) is one of them or lies below it, else
/// "". These are the kernel's views of the process and machine that open a path
/// (/proc/self/exe, /proc/self/cwd), never files a tree holds: what a path there names is
/// decided where the program runs, and under an audit it would be the auditor. /dev is not
/// one: its device nodes are never opened as files (special-file), and its tmpfs mounts
/// (/dev/shm) hold files like /tmp's; its links to the process (/dev/stdin, /dev/fd) lead
/// into /proc.
std::string_view KernelFileSystemOf(std::string_view path);
/// The non-empty components of a path ("/a//b/" -> "a", "b").
std::vector<std::string_view> PathComponents(std::string_view path);

}  // namespace rocm_audit
