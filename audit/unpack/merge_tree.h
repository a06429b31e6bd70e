// Packages of a set are unpacked each into a directory of its own, in parallel, then moved
// into the set's one tree in the order of their file names, so that the tree is the same
// whatever the order and the timing: where two packages ship one path, the later by name
// keeps it, as if unpacked one after the other.
#pragma once

#include <string>
#include <vector>

#include "audit/unpack/unpack.h"

namespace rocm_audit {

/// Moves everything below `from` into `into` (both private directories of this run): a
/// path `into` lacks is moved whole (one rename for a directory), two directories merge,
/// and a file or link replaces a file or link. Nothing is moved below a symbolic link of
/// `into` or below a file, and a directory never replaces a file or the reverse: each such
/// member is a problem of `package`, as when unpacking.
void MoveTreeInto(const std::string& from, const std::string& into, const std::string& package,
                  std::vector<UnpackProblem>* problems);

}  // namespace rocm_audit
