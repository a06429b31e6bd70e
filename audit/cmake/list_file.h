// A CMake list file as the CMake language defines it: a sequence of command invocations,
// each a name and its arguments, kept unexpanded with their kind (unquoted, quoted,
// bracket), because expansion, list splitting and if()'s auto-dereference depend on it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rocm_audit {

struct ListFileArgument {
  enum Kind { kUnquoted, kQuoted, kBracket };
  std::string text;  ///< raw: escapes and ${} references are left for expansion
  Kind kind = kUnquoted;
};

struct ListFileCommand {
  std::string name;  ///< lower case (command names are case-insensitive)
  int line = 0;
  std::vector<ListFileArgument> args;
};

struct ListFile {
  std::vector<ListFileCommand> commands;
  std::string error;  ///< a parse error ("" when none): CMake refuses such a file whole
  int error_line = 0;
};

/// Tokenizes `text` (comments, bracket arguments and comments, quoted arguments with line
/// continuations, nested parentheses as "(" and ")" arguments).
ListFile ParseListFile(std::string_view text);

}  // namespace rocm_audit
