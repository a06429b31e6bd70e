// The CMake packages of the audited tree: every walked <Name>Config.cmake or
// <name>-config.cmake, evaluated (in parallel) as find_package() would load it from the
// installed system, and its dependencies located.
#pragma once

#include <string>
#include <vector>

#include "audit/cmake/package_config.h"
#include "audit/fs/rooted_fs.h"
#include "audit/fs/walk.h"

namespace rocm_audit {

struct AuditedPackage {
  size_t file = 0;  ///< index of its config in the walked files
  CMakePackage package;
};

/// What evaluating the packages cost, in units that do not depend on the machine: a test
/// holds them to growing linearly with the packages audited.
struct CMakeRunStats {
  /// Package evaluations: each audited package once, each config outside the audited ones
  /// once per request (components) a dependency makes of it.
  size_t evaluations = 0;
  size_t config_searches = 0;  ///< (prefix, name) searches that read the prefix's directories
  size_t parses = 0;           ///< list files parsed (ProgramsParsed)
  /// Entry list files evaluated, configs and version files (ListFilesEvaluated): each
  /// evaluation of a package runs its config once per pass and per round it is evaluated in.
  size_t list_file_evaluations = 0;
};

/// The consumer whose find_package() loads the audited configs.
struct CMakeConsumer {
  std::vector<std::string> prefixes;  ///< --cmake-prefix-path entries (paths of the installed system)
  /// The RootedFs is a whole system (not --no-base), whose pkg-config answers for the consumer's.
  bool has_base = true;
  /// An installed system was given (any --root, `--root /` too, which leaves the RootedFs
  /// without layers): the consumer is on it, and find_package() searches its PATH-derived
  /// and system prefixes (CMAKE_SYSTEM_PREFIX_PATH).
  bool installed_system = false;
};

std::vector<AuditedPackage> EvaluateCMakePackages(const WalkedFiles& files, const RootedFs& fs,
                                                  const CMakeConsumer& consumer,
                                                  CMakeRunStats* stats = nullptr);

}  // namespace rocm_audit
