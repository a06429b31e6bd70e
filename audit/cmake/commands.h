// The handlers of the command table (command_table.cc), one free function per command or
// per family of commands that share their arguments, grouped in files by concept:
//   commands_flow.cc       return, break, continue, include, include_guard, cmake_language
//   commands_variables.cc  set, unset, option, math, cmake_parse_arguments, separate_arguments
//   commands_string.cc     string() and its subcommand table
//   commands_list.cc       list() and its subcommand tables
//   commands_paths.cc      get_filename_component
//   commands_cmake_path.cc cmake_path() and its subcommand tables
//   commands_file.cc       file() and its subcommand table
//   commands_targets.cc    add_library, add_executable, set_property, the target_* commands, ...
//   commands_recorded.cc   commands recorded and never run: message, find_*, execute_process, ...
// A handler reads and sets state through the Interpreter; the Flow it returns ends the
// enclosing block, function or file (return(), message(FATAL_ERROR)) or not.
#pragma once

#include <string>

#include "audit/cmake/interpreter.h"

namespace rocm_audit {

// commands_flow.cc
Flow ReturnCommand(Interpreter& in, const std::string& name, const Args& a);
Flow BreakCommand(Interpreter& in, const std::string& name, const Args& a);
Flow ContinueCommand(Interpreter& in, const std::string& name, const Args& a);
Flow IncludeCommand(Interpreter& in, const std::string& name, const Args& a);
Flow IncludeGuardCommand(Interpreter& in, const std::string& name, const Args& a);
Flow CMakeLanguageCommand(Interpreter& in, const std::string& name, const Args& a);
// commands_variables.cc
Flow SetCommand(Interpreter& in, const std::string& name, const Args& a);
Flow UnsetCommand(Interpreter& in, const std::string& name, const Args& a);
Flow OptionCommand(Interpreter& in, const std::string& name, const Args& a);
Flow MathCommand(Interpreter& in, const std::string& name, const Args& a);
Flow ParseArgumentsCommand(Interpreter& in, const std::string& name, const Args& a);
Flow SeparateArgumentsCommand(Interpreter& in, const std::string& name, const Args& a);
// commands_string.cc, commands_list.cc
Flow StringCommand(Interpreter& in, const std::string& name, const Args& a);
Flow ListCommand(Interpreter& in, const std::string& name, const Args& a);
// commands_paths.cc, commands_cmake_path.cc, commands_file.cc
Flow GetFilenameComponentCommand(Interpreter& in, const std::string& name, const Args& a);
Flow CMakePathCommand(Interpreter& in, const std::string& name, const Args& a);
Flow FileCommand(Interpreter& in, const std::string& name, const Args& a);
// commands_targets.cc
Flow AddTargetCommand(Interpreter& in, const std::string& name, const Args& a);
Flow SetTargetPropertiesCommand(Interpreter& in, const std::string& name, const Args& a);
Flow SetPropertyCommand(Interpreter& in, const std::string& name, const Args& a);
Flow GetTargetPropertyCommand(Interpreter& in, const std::string& name, const Args& a);
Flow GetPropertyCommand(Interpreter& in, const std::string& name, const Args& a);
Flow TargetUsageCommand(Interpreter& in, const std::string& name, const Args& a);
// commands_recorded.cc
Flow PolicyCommand(Interpreter& in, const std::string& name, const Args& a);
Flow MessageCommand(Interpreter& in, const std::string& name, const Args& a);
Flow FindPackageCommand(Interpreter& in, const std::string& name, const Args& a);
Flow PkgCheckModulesCommand(Interpreter& in, const std::string& name, const Args& a);
Flow ExecuteProcessCommand(Interpreter& in, const std::string& name, const Args& a);
Flow FindFileCommand(Interpreter& in, const std::string& name, const Args& a);
Flow TryCompileCommand(Interpreter& in, const std::string& name, const Args& a);
Flow ProbeCommand(Interpreter& in, const std::string& name, const Args& a);
Flow UnknownResultCommand(Interpreter& in, const std::string& name, const Args& a);
Flow HandleStandardArgsCommand(Interpreter& in, const std::string& name, const Args& a);
Flow SelectLibraryConfigurationsCommand(Interpreter& in, const std::string& name, const Args& a);
Flow ChangesBuildCommand(Interpreter& in, const std::string& name, const Args& a);
Flow NoEffectCommand(Interpreter& in, const std::string& name, const Args& a);

/// "/a/b/../c/" -> "/a/c": CMake collapses absolute paths lexically (commands_paths.cc).
std::string CollapsePath(const std::string& p);

}  // namespace rocm_audit
