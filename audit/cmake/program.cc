#include "audit/cmake/program.h"

#include <algorithm>
#include <atomic>

#include "audit/cmake/program_cache.h"

namespace rocm_audit {
namespace {

bool Opens(std::string_view n) {
  return n == "if" || n == "foreach" || n == "while" || n == "function" || n == "macro" || n == "block";
}
std::string CloserOf(std::string_view n) { return "end" + std::string(n); }

// Matches block openings with their ends; CMake refuses a file whose blocks do not nest.
void MatchBlocks(Program& p) {
  const size_t n = p.commands.size();
  p.end.assign(n, static_cast<uint32_t>(n));
  std::vector<size_t> open;
  for (size_t i = 0; i < n; ++i) {
    const std::string_view name = p.commands[i].name;
    if (Opens(name)) {
      open.push_back(i);
    } else if (name == "elseif" || name == "else") {
      if (open.empty() || p.commands[open.back()].name != "if") {
        p.error = std::string(name) + "() without if()";
        p.error_line = p.commands[i].line;
        return;
      }
      p.clauses.emplace_back(open.back(), i);
    } else if (name.starts_with("end") && Opens(name.substr(3))) {
      if (open.empty() || CloserOf(p.commands[open.back()].name) != name) {
        p.error = "flow control statements are not properly nested (" + std::string(name) + ")";
        p.error_line = p.commands[i].line;
        return;
      }
      p.end[open.back()] = i;
      open.pop_back();
    }
  }
  // By if(), each one's in order: nested blocks interleave them.
  std::stable_sort(p.clauses.begin(), p.clauses.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  p.clauses.shrink_to_fit();
  if (!open.empty()) {
    const std::string name(p.commands[open.back()].name);
    p.error = name + "() without end" + name + "()";
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
  ListFile parsed = ParseListFile(text);  // read capped far below 2^32 commands (`end`)
  p->commands = std::move(parsed.commands);
  p->arguments = std::move(parsed.arguments);  // the commands' views stay valid: a move keeps the buffer
  p->text_pool = std::move(parsed.text_pool);
  p->error = parsed.error;
  p->error_line = parsed.error_line;
  if (p->error.empty()) MatchBlocks(*p);
  return p;
}

void Program::AppendClauses(size_t at, std::vector<size_t>* out) const {
  auto it = std::lower_bound(clauses.begin(), clauses.end(), at,
                             [](const std::pair<uint32_t, uint32_t>& c, size_t a) { return c.first < a; });
  for (; it != clauses.end() && it->first == at; ++it) out->push_back(it->second);
}

std::string DescribeCommand(const ListFileCommand& cmd) {
  std::string out = std::string(cmd.name) + "(";
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
