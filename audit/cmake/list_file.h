// A CMake list file as the CMake language defines it: a sequence of command invocations,
// each a name and its arguments, kept unexpanded with their kind (unquoted, quoted,
// bracket), because expansion, list splitting and if()'s auto-dereference depend on it.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rocm_audit {

struct ListFileArgument {
  enum Kind { kUnquoted, kQuoted, kBracket };
  /// Raw: escapes and ${} references are left for expansion. Held by the ListFile's (then
  /// the Program's) `text_pool`.
  std::string_view text;
  Kind kind = kUnquoted;
};

/// Views into its ListFile's (then its Program's) `arguments` and `text_pool`: a run keeps
/// many parsed files (ProgramCache), and a string and a vector of its own for each command
/// would cost more than the text they hold.
struct ListFileCommand {
  std::string_view name;  ///< lower case (command names are case-insensitive)
  int line = 0;
  std::span<const ListFileArgument> args;
};

struct ListFile {
  std::vector<ListFileCommand> commands;
  std::vector<ListFileArgument> arguments;  ///< every command's, in order
  /// The names' and the arguments' text, one buffer for the file.
  std::unique_ptr<char[]> text_pool;
  std::string error;  ///< a parse error ("" when none): CMake refuses such a file whole
  int error_line = 0;
};

/// Tokenizes `text` (comments, bracket arguments and comments, quoted arguments with line
/// continuations, nested parentheses as "(" and ")" arguments).
ListFile ParseListFile(std::string_view text);

}  // namespace rocm_audit
