// A parsed list file with its blocks matched: where each if/foreach/while/function/macro/
// block ends and where an if()'s elseif()/else() are. Parsed once per path and shared by
// the calls of the functions it defines.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "audit/cmake/list_file.h"

namespace rocm_audit {

struct Program {
  std::string file;
  std::vector<ListFileCommand> commands;
  std::unique_ptr<char[]> text_pool;          ///< holds the commands' arguments (ListFile::text_pool)
  std::vector<size_t> end;                    ///< an opening command's matching end
  std::vector<std::vector<size_t>> branches;  ///< an if()'s elseif()/else() commands
  std::string error;                          ///< a parse error, or blocks that do not nest
  int error_line = 0;
};

using ProgramPtr = std::shared_ptr<const Program>;

/// Parses `text` as the list file `path` and matches its blocks.
ProgramPtr ParseProgram(const std::string& path, const std::string& text);

/// `name(args)` as written, cut to 120 characters: what an undecided record quotes.
std::string DescribeCommand(const ListFileCommand& cmd);

}  // namespace rocm_audit
