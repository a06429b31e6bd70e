// The consumer index: who in a distribution's archive links what, so that `diff` can say who
// an update hits beyond the machine it runs on (design.md §1.3). `rocm-audit index
// PACKAGE...` writes one JSON object per line for each ELF file ld.so could load (a host ELF
// file with a dynamic section) of each package: the package, its version and architecture,
// the file's installed path, its SONAME, DT_NEEDED names and imported symbols (`name@VERSION`
// as `nm -D` shows them). Each line stands alone and names its package, so indexes made of
// parts of the archive on many machines merge by concatenation (`cat`), in any order.
// `diff --consumers INDEX...` reads them beside the installed base (base_consumers.h).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "audit/unpack/unpack.h"
#include "engine/base_consumers.h"

namespace rocm_audit {

/// The marker every line carries, with the format's version: a line without it is not
/// of an index.
inline constexpr const char* kConsumerIndexKey = "rocm_audit_consumer_index";

/// One package that could not be indexed whole, or a member refused: what the run says on
/// standard error; the package's other files are indexed.
struct IndexProblem {
  std::string package;
  std::string message;
};

/// Unpacks each of `packages` (each alone: its own budget of `limits`, its own directory,
/// removed once it is indexed), `jobs` at a time (0: the hardware's threads), and writes
/// their lines to `out` in the order of `packages`, each package's files by path. False with
/// `error` for a tool error (a PATH that is not a package, no private directory).
bool IndexPackages(const std::vector<std::string>& packages, const UnpackLimits& limits, unsigned jobs,
                   std::ostream& out, std::vector<IndexProblem>* problems, std::string* error);

/// Reads the index `file` (lines of IndexPackages, concatenated) into `base`'s consumers,
/// each named "PACKAGE:/installed/path". An empty line is skipped; any other line that is
/// not an index record is a tool error naming the file and line.
bool ReadConsumerIndex(const std::string& file, BaseConsumers* base, std::string* error);

}  // namespace rocm_audit
