// A CMake list file as the CMake language defines it: a sequence of command invocations,
// each a name and its arguments, kept unexpanded with their kind (unquoted, quoted,
// bracket), because expansion, list splitting and if()'s auto-dereference depend on it.
#pragma once

#include <memory>
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

struct ListFileCommand {
  std::string name;  ///< lower case (command names are case-insensitive)
  int line = 0;
  std::vector<ListFileArgument> args;
};

struct ListFile {
  std::vector<ListFileCommand> commands;
  /// The arguments' text, one buffer for the file: a std::string for each argument was most
  /// of a parsed file's memory, and a run keeps thousands of them (ProgramCache).
  std::unique_ptr<char[]> text_pool;
  std::string error;  ///< a parse error ("" when none): CMake refuses such a file whole
  int error_line = 0;
};

/// Tokenizes `text` (comments, bracket arguments and comments, quoted arguments with line
/// continuations, nested parentheses as "(" and ")" arguments).
ListFile ParseListFile(std::string_view text);

}  // namespace rocm_audit
