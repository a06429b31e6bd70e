// What the audit learned about one CMake package config, for reports: the package, its
// version, the imported targets it defines with the files they name, the list files it
// includes, the dependencies it asks for, and the files it needs that are missing.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace rocm_audit {

struct CMakeTargetFacts {
  std::string name;
  std::string type;                       ///< SHARED, STATIC, INTERFACE, UNKNOWN, ...
  std::vector<std::string> locations;     ///< IMPORTED_LOCATION[_<CONFIG>], IMPORTED_IMPLIB[_<CONFIG>]
  std::vector<std::string> include_dirs;  ///< INTERFACE_INCLUDE_DIRECTORIES, install interface
};

struct CMakeDependencyFacts {
  std::string name;
  std::string version;  ///< "" when none is asked for
  std::string found;    ///< where its config is, "" when it was not found
  std::string via{};    ///< the Find module of the package that asks for it; "" when the config does
  /// Only when the request asks for symbols (what `diff` compares): the imported targets the
  /// found dependency makes available to the consumer, those of its own dependencies
  /// included, sorted (a consumer of the package may link them after find_package()).
  std::vector<std::string> targets{};
};

struct CMakeMissingFacts {
  std::string path;
  std::string via;
  std::string file;  ///< the list file that names it
  int line = 0;
  bool decided = true;  ///< false: named only on a branch the evaluation could not decide
};

struct CMakePackageFacts {
  std::string package;
  std::string version;  ///< "" without a version file
  std::vector<CMakeTargetFacts> targets;
  std::vector<std::string> includes;  ///< list files evaluated besides the config
  std::vector<CMakeDependencyFacts> dependencies;
  std::vector<CMakeMissingFacts> missing;  ///< files it needs that do not exist, in order met
  std::vector<std::string> components{};   ///< components a consumer may ask for, each evaluated
  /// Only when the request asks for symbols (what `diff` compares): the <Name>_* variables
  /// the config leaves set for its consumer (<Name>_INCLUDE_DIRS, <Name>_LIBRARIES, ...),
  /// sorted; find_package's own inputs (<Name>_FIND_*) left out.
  std::vector<std::string> result_variables{};
};

}  // namespace rocm_audit
