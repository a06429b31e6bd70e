// The regular files of a system's program and library directories (FHS usr/bin, usr/lib,
// ..., and /opt for vendor trees), directory by directory: what a scan for the ELF files
// that may link a library reads. Unlike the audit's walk (walk.h), nothing is classified or
// followed: a link to a library names a file met at its own path, a linked directory a tree
// met elsewhere (merged /usr), and the reader opens each file itself.
#pragma once

#include <string>
#include <vector>

namespace rocm_audit {

/// A directory of the system, with the names of its regular files.
struct ProgramDirectory {
  std::string installed;  ///< "/usr/lib"
  std::string host;       ///< where it is read
  std::vector<std::string> files;
};

/// The directories below the program and library directories of `layers` (host directories
/// of one installed system, top first; "/" is this machine's root), depth first, each with
/// its regular files; a path of a lower layer that a layer above holds is left out, as the
/// installed system shows the top one. Separate debug files (usr/lib/debug) load nothing
/// and are left out too. A directory that cannot be listed holds nothing.
std::vector<ProgramDirectory> ListProgramDirectories(const std::vector<std::string>& layers);

}  // namespace rocm_audit
