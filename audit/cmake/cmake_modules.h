// The modules of the CMake rocm-audit was built with (their names are read from its
// module directory at configure time): include(<Module>) of one of them is known to
// succeed and is not evaluated.
#pragma once

#include <string_view>
#include <vector>

namespace rocm_audit {

inline constexpr std::string_view kCMakeVersion = ROCM_AUDIT_CMAKE_VERSION;
inline constexpr std::string_view kCMakeRoot = ROCM_AUDIT_CMAKE_ROOT;

bool IsCMakeModule(std::string_view name);
/// The module a path names when it is a file of a CMake module directory
/// (/usr/share/cmake-<version>/Modules/<Module>.cmake, the installed system's or this CMake's)
/// and <Module> is one of IsCMakeModule's; "" otherwise. CMake's own Find modules include
/// their helpers by path (${CMAKE_CURRENT_LIST_DIR}/FindPackageHandleStandardArgs.cmake):
/// that is include(<Module>).
std::string_view CMakeModuleOfFile(std::string_view path);
/// `path` is a file of a CMake module directory, or of a directory under one (Internal/).
bool InCMakeModuleDirectory(std::string_view path);
/// A command CMake knows without a package defining it (lower-case name): a built-in one, or
/// a function or macro one of its modules defines.
bool IsCMakeCommand(std::string_view name);
/// A command only CMake's documented modules define (lower-case name): it exists once one of
/// them, or a module that includes one, has been include()d in the configure; before that
/// CMake stops at "Unknown CMake command". Not the built-in commands, nor those of the modules
/// project() loads.
bool IsModuleCommand(std::string_view name);
/// include(<module>) defines `command` (lower-case), itself or through the modules it includes
/// (CMakePackageConfigHelpers includes WriteBasicConfigVersionFile).
bool ModuleDefines(std::string_view module, std::string_view command);
/// One of `modules` defines `command` (ModuleDefines).
bool AnyModuleDefines(const std::vector<std::string>& modules, std::string_view command);
/// The documented module that defines a module command ("CheckLibraryExists"), for a message.
std::string_view ModuleOfCommand(std::string_view command);
/// Find<Name>.cmake exists: find_package(Name) in module mode needs no config.
bool HasFindModule(std::string_view package);
/// The imported targets CMake 3.25's Find<package>.cmake can define, from each module's
/// documentation ("Imported Targets"): these modules run compilers and programs
/// (try_compile, pkg-config, ...), so which of them a consumer gets is decided on its
/// machine, but no other target of the module's namespace exists. Null for a module not
/// listed here, whose targets are not known.
const std::vector<std::string_view>* FindModuleTargets(std::string_view package);
/// The language one of FindModuleTargets is for ("Fortran" for MPI::MPI_Fortran), "" for a
/// target of no language. FindMPI and FindOpenMP define a language's target only for a
/// language the consumer has enabled (and the call asks for, when it asks for components):
/// a C++ consumer has no MPI::MPI_Fortran.
std::string_view FindModuleTargetLanguage(std::string_view package, std::string_view target);

}  // namespace rocm_audit
