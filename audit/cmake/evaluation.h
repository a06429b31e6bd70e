// What the static evaluation of one package's list files found, before any check judges
// it: the targets it defines, every file it references (and whether it exists), the
// dependencies it asks for, where it would stop a consumer's configure, and what could not
// be evaluated. Sites are paths of the installed system and 1-based lines. `undecided` is
// empty when the record is reached on every path through the files, and otherwise says
// which condition could not be decided and why.
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "audit/cmake/kept_variables.h"
#include "audit/cmake/shared_path.h"
#include "audit/cmake/value.h"
#include "audit/support/path_text.h"

namespace rocm_audit {

struct Program;

struct CMakeSite {
  SharedPath file;
  int line = 0;
};

/// A file or directory the package needs: an include()d list file, an imported target's
/// location, an include directory, a set_and_check path...
struct CMakeReference {
  std::string path;  ///< absolute, as the installed system names it
  std::string via;  ///< include, IMPORTED_LOCATION_RELEASE, INTERFACE_INCLUDE_DIRECTORIES, set_and_check, ...
  CMakeSite site;
  std::string undecided;
  std::string target;     ///< the imported target whose property names it, if any
  std::string component;  ///< a Targets file included for one component (composable_kernel's conv operations)
  std::string
      component_library;  ///< for a missing one: lib<component>.{a,so} under the prefix, "" when absent
  std::string asked_component{};  ///< named only when a consumer asks for this component
  std::string result_variable{};  ///< include(... RESULT_VARIABLE v) that found nothing: v
  bool exists = false;
  bool optional = false;         ///< include(... OPTIONAL): fine to miss
  bool stops_configure = false;  ///< a FATAL_ERROR of the package's own check is reached for it
  bool checked_by_cmake = true;  ///< false: CMake never looks (IMPORTED_SONAME); the consumer fails later
};

struct CMakeDependency {
  std::string name;
  std::string version;
  std::vector<std::string> hints;  ///< HINTS: searched after the consumer's CMAKE_PREFIX_PATH
  std::vector<std::string> paths;  ///< PATHS: searched after the system prefixes
  bool required = true;            ///< find_dependency, or find_package(... REQUIRED)
  bool exact = false;              ///< EXACT: the version file must call the version exact
  CMakeSite site;
  std::string undecided;
  std::string asked_component{};  ///< asked for only when a consumer asks for this component
  std::string module{};           ///< the Find<Name>.cmake of CMAKE_MODULE_PATH it loads, if any
  /// CMAKE_MODULE_PATH as the call had it ("" unset), which `module` runs with (Qt's
  /// FindWrapOpenXR.cmake includes QtFindWrapHelper from there), and the config found too.
  std::string module_path{};
  /// `module_path` is what every consumer has there (not unknown, not maybe unset).
  bool module_path_known = false;
  /// COMPONENTS (and the words after REQUIRED) and OPTIONAL_COMPONENTS it asks for: what a
  /// config defines may depend on them (Qt5Config.cmake loads Qt5<Component>Config.cmake).
  std::vector<std::string> components{};
  std::vector<std::string> optional_components{};
  /// <Name>_DIR as the call found it set: find_package() looks for the config in that
  /// directory before it searches any prefix (cmFindPackageCommand::HandlePackageMode).
  std::string dir{};
  /// NO_DEFAULT_PATH, NO_CMAKE_PATH, NO_SYSTEM_ENVIRONMENT_PATH, NO_CMAKE_SYSTEM_PATH given:
  /// the consumer's CMAKE_PREFIX_PATH, the PATH-derived prefixes, the system prefixes not searched.
  bool no_cmake_path = false;
  bool no_system_environment_path = false;
  bool no_cmake_system_path = false;
  /// Languages enabled at the call: C and CXX, the consumer project()'s, and those the configs
  /// run so far enable_language()d. FindMPI and FindOpenMP asked for no component define a
  /// target for each enabled language only.
  std::vector<std::string> languages{};
  /// CMake's modules included before the call (Interpreter::ModulesIncluded), whose commands
  /// the config found may call; null when any may have been.
  std::shared_ptr<const std::vector<std::string>> modules_included{};
  /// Its config, evaluated apart, stopped at a command the caller had defined, and it was
  /// evaluated again with the caller's commands: that command's definition ("name of
  /// file:line"); "" otherwise.
  std::string commands_from{};
  /// Its config, evaluated apart, tested variables that were unset there and that the caller
  /// had set at the call (a config runs in its caller's scope: adios2's tests MPI_FOUND,
  /// which DOLFINX found before): it was evaluated again with the caller's values of them.
  std::vector<std::pair<std::string, CMakeValue>> caller_variables{};
  /// Likewise the targets it tested for, found absent, and that the caller had (CMake's
  /// target table is one for the whole consumer: ignition-physics5-tpe's Targets file checks
  /// for the tpelib target ignition-physics5-all found before it).
  std::vector<std::string> caller_targets{};
};

/// Where the package would stop or fail a consumer's configure, other than a missing file.
struct CMakeFailure {
  std::string message;
  CMakeSite site;
  std::string undecided;
  std::string asked_component{};  ///< only a consumer that asks for this component fails
  /// The command unknown to CMake and to the list files run so far that stopped the evaluation
  /// here: a config evaluated apart from its caller, whose functions it may call (commands are
  /// global: ignition's FindUUID.cmake calls ignition-cmake2's _ign_cmake_parse_arguments).
  std::string unknown_command{};
  /// include(<Module>) found no module: the module. It fails whoever loads the config with no
  /// such module in its own CMAKE_MODULE_PATH.
  std::string module_not_found{};
  /// A command of one of CMake's modules called before any file included that module: the
  /// command. It fails whoever loads the config without having included the module first.
  std::string module_command{};
  /// <Name>_FOUND set FALSE: the files the config looked for (include OPTIONAL) and did not find
  std::vector<std::string> missing_files{};
  /// Where `message` names paths of this machine (a config, a file it did not find), for the
  /// finding that quotes it (Finding::message_paths); the config's own words name none.
  std::vector<TextPath> message_paths{};

  /// A failure that says `message` (words and paths of this machine) at `site`.
  static CMakeFailure Of(const PathText& message, CMakeSite site, std::string undecided = {}) {
    CMakeFailure f{message.text(), std::move(site), std::move(undecided)};
    f.message_paths = message.paths();
    return f;
  }
  PathText MessageText() const { return PathText::Marked(message, message_paths); }
};

/// A command that was recorded and not evaluated: unknown to the evaluator, never run
/// (execute_process, try_compile, ...), or cut short by a limit.
struct CMakeSkipped {
  std::string command;
  CMakeSite site;
  std::string reason;
};

struct CMakeTarget {
  std::string name;
  std::string type;  ///< SHARED, STATIC, INTERFACE, UNKNOWN, MODULE, OBJECT, EXECUTABLE, ALIAS
  bool imported = false;
  std::map<std::string, CMakeValue> properties;
  std::map<std::string, CMakeSite> set_at;  ///< where each property was last set
  CMakeSite defined_at;
  /// The policy version in effect where it was defined (cmake_policy(VERSION), the end of a
  /// range): CMake judges the target by the policies of that place (CMP0111).
  std::string policy_version;
  std::string asked_component{};  ///< defined only when a consumer asks for this component

  /// The link interface a consumer gets, and the property it is read from
  /// (cmGeneratorTarget::ComputeImportInfo): INTERFACE_LINK_LIBRARIES, or where that is unset
  /// the older IMPORTED_LINK_INTERFACE_LIBRARIES[_<CONFIG>] (bpp-raa's, whose "zlib" is
  /// -lzlib to the linker), every configuration's items together; null when none is set.
  std::pair<const CMakeValue*, std::string> LinkInterface(CMakeValue* joined) const {
    if (auto it = properties.find("INTERFACE_LINK_LIBRARIES"); it != properties.end())
      return {&it->second, it->first};
    std::string property;
    for (auto it = properties.lower_bound("IMPORTED_LINK_INTERFACE_LIBRARIES");
         it != properties.end() && it->first.starts_with("IMPORTED_LINK_INTERFACE_LIBRARIES"); ++it) {
      if (!it->second.known) return {&it->second, it->first};
      if (property.empty()) property = it->first;
      joined->text += (joined->text.empty() || it->second.text.empty() ? "" : ";") + it->second.text;
    }
    return {property.empty() ? nullptr : joined, property};
  }
};

/// A function() or macro() a list file defines. CMake's commands are global once defined
/// (cmState::AddScriptedCommand): a consumer that loaded the package through
/// find_dependency() can call them.
struct CMakeDefinition {
  bool macro = false;
  std::vector<std::string> params;
  std::shared_ptr<const Program> program;
  size_t begin = 0, end = 0;  ///< the body: commands [begin, end) of the program

  /// Defined by the same function()/macro() command: a package's commands imported again by
  /// each package that finds it are the same definitions, not new ones.
  bool SameAs(const CMakeDefinition& o) const { return program == o.program && begin == o.begin; }
};

using SharedDefinitions = std::shared_ptr<const std::map<std::string, CMakeDefinition>>;

/// The names of the imported targets a found package brings (its own and its dependencies'),
/// read-only and shared: every package that finds Qt6Core kept its own copy of the hundreds of
/// names below it, and so did each evaluation that asked for it.
class TargetNames {
 public:
  using Set = std::set<std::string>;
  TargetNames() = default;
  explicit TargetNames(Set names) : names_(std::make_shared<const Set>(std::move(names))) {}

  const Set& set() const { return names_ ? *names_ : Empty(); }
  Set::const_iterator begin() const { return set().begin(); }
  Set::const_iterator end() const { return set().end(); }
  size_t count(const std::string& name) const { return set().count(name); }
  bool empty() const { return set().empty(); }
  /// These and `more`: one of the two when it holds the other, shared again.
  TargetNames With(const TargetNames& more) const {
    if (!more.names_ || more.names_ == names_ || std::includes(begin(), end(), more.begin(), more.end()))
      return *this;
    if (!names_ || std::includes(more.begin(), more.end(), begin(), end())) return more;
    Set all = set();
    all.insert(more.begin(), more.end());
    return TargetNames(std::move(all));
  }

 private:
  static const Set& Empty() {
    static const Set kEmpty;
    return kEmpty;
  }
  std::shared_ptr<const Set> names_;
};

struct CMakeEvaluation {
  std::vector<CMakeTarget> targets;        ///< in definition order
  std::vector<std::string> included;       ///< list files evaluated besides the entry file
  std::vector<CMakeReference> references;  ///< one per path, the first (decided) one kept
  std::vector<CMakeDependency> dependencies;
  std::vector<CMakeFailure> failures;
  std::vector<CMakeSkipped> skipped;
  CMakeVariables variables;  ///< the top scope at the end
  bool stopped = false;      ///< a decided FATAL_ERROR ended the evaluation
  /// Some if() or loop was not decided (a value of the consumer's machine): what it left set
  /// may differ there.
  bool undecided = false;
  /// The functions and macros defined when it ended, its dependencies' included (find_package()
  /// imports them), by lower-case name; null for none. Shared: a package that defines none of
  /// its own keeps its dependency's map (Qt6's modules each end with Qt6's hundreds).
  SharedDefinitions definitions{};
  /// What the consumer's machine lacks by the audited world's answer, which a failure it leads
  /// to names ("pkg-config of the audited world: no mtdev.pc in pkg-config's path").
  std::vector<std::string> world_answers{};
  /// Variables an if(), elseif() or while() read while they were unset, by name or in
  /// ${}: evaluated apart from a caller, these are where the caller's scope may decide.
  std::set<std::string> unset_in_conditions{};
  /// Targets an if(TARGET) found absent, and those its dependencies found absent that this
  /// evaluation lacked too: likewise (the caller gives none the package defines itself).
  std::set<std::string> absent_targets_tested{};
  /// Where the top scope last got each variable that sets a property of the consumer's own
  /// targets (CMAKE_<LANG>_STANDARD): a config runs in its consumer's scope, and what it
  /// leaves there applies to every target the consumer adds after find_package().
  std::map<std::string, CMakeSite> consumer_scope_sites{};
  /// CMake's modules included when it ended, by its list files and its dependencies'
  /// (Interpreter::ModulesIncluded): a consumer has their commands after find_package().
  /// Null when any may have been.
  std::shared_ptr<const std::vector<std::string>> modules_included{};
};

}  // namespace rocm_audit
