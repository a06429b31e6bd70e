// The commands, as one table (ninja's kTools[] in ninja.cc, CMake's table of `cmake -E`
// commands): each row a name, its synopsis, what it does, how its PATHs are checked and the
// function that runs it. Each option of the options table (options.h) names the commands that
// take it, so the parser, --help, `help COMMAND` and the man page's COMMANDS section all read
// one table. Adding a command is a bit here, a row in commands.cc, its entry function, and its
// bit on the options it takes (design.md, "Adding a command").
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace rocm_audit {

struct CliOptions;

/// One bit per row of the table: an option's `commands` is a set of them.
enum CommandBit : unsigned {
  kAuditCommand = 1u << 0,  ///< the default, run when no command is named
  kDiffCommand = 1u << 1,
  kHelpCommand = 1u << 2,
  kIndexCommand = 1u << 3,
};
/// The options every command takes (--help).
constexpr unsigned kEveryCommand = ~0u;

struct Command {
  CommandBit bit;
  /// The word that names it on the command line, first among the arguments that are no
  /// option or option value. The default command's name ("audit") names it in messages and
  /// in `help audit` only: a PATH named audit stays a PATH.
  std::string_view name;
  std::string_view synopsis;     ///< usage lines, '\n'-separated, each after "rocm-audit "
  std::string_view summary;      ///< one line, for the list of commands
  std::string_view description;  ///< --help's text above the options
  /// Checks the PATHs and options once all are parsed (PATHs in options->audit.paths, or the
  /// sides of diff); false with `error` for a usage error.
  bool (*check_arguments)(CliOptions* options, std::string* error);
  /// Runs the command; returns the exit status (0 clean, 1 findings, 2 usage or tool error).
  int (*run)(CliOptions& options);
};

std::span<const Command> AllCommands();
/// The default command, run when no command is named.
const Command& DefaultCommand();
/// The row of `bit`.
const Command& CommandOf(CommandBit bit);
/// The command `word` names on the command line; nullptr when it names none (or the default,
/// which no word selects).
const Command* NamedCommand(std::string_view word);
/// Any row named `name`, the default's included (`help audit`); nullptr for none.
const Command* CommandNamed(std::string_view name);

// The entry functions, one per row.
int RunAudit(CliOptions& options);  ///< audit_command.cc
int RunDiff(CliOptions& options);   ///< diff_command.cc
int RunHelp(CliOptions& options);   ///< commands.cc
int RunIndex(CliOptions& options);  ///< index_command.cc

}  // namespace rocm_audit
