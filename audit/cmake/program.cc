#include "audit/cmake/program.h"

#include <atomic>

#include "audit/cmake/program_cache.h"

namespace rocm_audit {
namespace {

bool Opens(const std::string& n) {
  return n == "if" || n == "foreach" || n == "while" || n == "function" || n == "macro" || n == "block";
}
std::string CloserOf(const std::string& n) { return "end" + n; }

// Matches block openings with their ends; CMake refuses a file whose blocks do not nest.
void MatchBlocks(Program& p) {
  const size_t n = p.commands.size();
  p.end.assign(n, n);
  p.branches.assign(n, {});
  std::vector<size_t> open;
  for (size_t i = 0; i < n; ++i) {
    const std::string& name = p.commands[i].name;
    if (Opens(name)) {
      open.push_back(i);
    } else if (name == "elseif" || name == "else") {
      if (open.empty() || p.commands[open.back()].name != "if") {
        p.error = name + "() without if()";
        p.error_line = p.commands[i].line;
        return;
      }
      p.branches[open.back()].push_back(i);
    } else if (name.starts_with("end") && Opens(name.substr(3))) {
      if (open.empty() || CloserOf(p.commands[open.back()].name) != name) {
        p.error = "flow control statements are not properly nested (" + name + ")";
        p.error_line = p.commands[i].line;
        return;
      }
      p.end[open.back()] = i;
      open.pop_back();
    }
  }
  if (!open.empty()) {
    p.error = p.commands[open.back()].name + "() without end" + p.commands[open.back()].name + "()";
    p.error_line = p.commands[open.back()].line;
  }
}

}  // namespace

namespace {
std::atomic<size_t> programs_parsed{0};
}  // namespace

size_t ProgramsParsed() { return programs_parsed.load(std::memory_order_relaxed); }

ProgramPtr ParseProgram(const std::string& path, const std::string& text) {
  programs_parsed.fetch_add(1, std::memory_order_relaxed);
  auto p = std::make_shared<Program>();
  p->file = path;
  ListFile parsed = ParseListFile(text);
  p->commands = std::move(parsed.commands);
  p->text_pool = std::move(parsed.text_pool);
  p->error = parsed.error;
  p->error_line = parsed.error_line;
  if (p->error.empty()) MatchBlocks(*p);
  return p;
}

std::string DescribeCommand(const ListFileCommand& cmd) {
  std::string out = cmd.name + "(";
  for (size_t i = 0; i < cmd.args.size(); ++i) {
    if (i) out += ' ';
    const auto& a = cmd.args[i];
    if (a.kind == ListFileArgument::kQuoted)
      out.append("\"").append(a.text).append("\"");
    else
      out.append(a.text);
  }
  if (out.size() > 120) out = out.substr(0, 117) + "...";
  return out + ")";
}

}  // namespace rocm_audit
