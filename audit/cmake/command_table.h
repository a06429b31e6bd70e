// The command table: one entry per CMake command the evaluator runs or records, each a free
// handler (commands.h). Blocks (if, foreach, while, block, function, macro) are not here:
// the interpreter runs them, since they own the commands up to their end. string, list,
// file and cmake_path dispatch their subcommands through tables of the same shape
// (name_table.h), as CMake's cmCommands and cmSubcommandTable do.
#pragma once

#include <string_view>

#include "audit/cmake/command.h"
#include "audit/cmake/name_table.h"

namespace rocm_audit {

/// The handler of a command, or null for a command the evaluator does not evaluate.
CommandHandler FindCommand(std::string_view name);

}  // namespace rocm_audit
