// A parsed list file with its blocks matched: where each if/foreach/while/function/macro/
// block ends and where an if()'s elseif()/else() are. Parsed once per path and shared by
// the calls of the functions it defines.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "audit/cmake/list_file.h"
#include "audit/cmake/shared_path.h"

namespace rocm_audit {

struct Program {
  SharedPath file;  ///< shared with the sites of its commands
  std::vector<ListFileCommand> commands;
  std::vector<ListFileArgument> arguments;  ///< the commands' (ListFile::arguments)
  std::unique_ptr<char[]> text_pool;        ///< their text (ListFile::text_pool)
  std::vector<uint32_t> end;                ///< an opening command's matching end
  /// (if(), its elseif() or else()) for each such clause, in order: few if()s have one, so
  /// no list is kept for every command.
  std::vector<std::pair<uint32_t, uint32_t>> clauses;
  std::string error;  ///< a parse error, or blocks that do not nest
  int error_line = 0;

  /// Appends the elseif() and else() commands of the if() at `at`, in order.
  void AppendClauses(size_t at, std::vector<size_t>* out) const;
};

using ProgramPtr = std::shared_ptr<const Program>;

/// Parses `text` as the list file `path` and matches its blocks.
ProgramPtr ParseProgram(const std::string& path, const std::string& text);

/// `name(args)` as written, cut to 120 characters: what an undecided record quotes.
std::string DescribeCommand(const ListFileCommand& cmd);

}  // namespace rocm_audit
