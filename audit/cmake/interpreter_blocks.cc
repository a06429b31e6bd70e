// The blocks of a list file (if, foreach, while, block), run by one loop over a stack of the
// blocks in progress, as CMake keeps its function blockers on a stack
// (cmMakefile::FunctionBlockers) rather than recursing per block. A config of 150,000
// nested if(TRUE) blocks (2.5 MB, within max_file_bytes) overflowed the C++ stack when each
// block was a recursive call; the depth of blocks is now bounded only by the commands and
// the work budget. Calls and include()s still recurse, EvaluatorLimits::max_depth deep.
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <memory>
#include <optional>

#include "audit/cmake/interpreter.h"
#include "audit/cmake/lists.h"
#include "audit/fs/path.h"

namespace rocm_audit {

/// An undecided if(): the branches that may run, each on a fork of the state it started
/// with, and how each ended.
struct Interpreter::Forked {
  State base;
  std::vector<Branch> branches;
  size_t k = 0;                ///< the branch running
  bool taken = false;          ///< one branch runs on every path: the base is not kept
  std::string unknown_so_far;  ///< the first condition not decided
  std::vector<State> normal;   ///< what the branches that ended normally left
  std::vector<Flow> ended;     ///< how the others ended
};

/// A foreach(): its items, and the value of its variable before, restored after.
struct Interpreter::Iterating {
  std::string var;
  std::vector<std::string> items;
  std::optional<CMakeValue> saved;
  size_t k = 0;               ///< the item running
  bool unknown_pass = false;  ///< the body runs once with an unknown item first
  Flow result = Flow::kNormal;
};

/// A block whose body is running, or the range Exec was given (kRange).
struct Interpreter::Running {
  enum Kind { kRange, kIf, kForked, kForeach, kWhile, kBlock } kind;
  size_t at = 0;                             ///< the command that opens it
  size_t next = 0, end = 0;                  ///< what is left of the range running
  size_t iteration = 0;                      ///< while()
  std::unique_ptr<Forked> forked = nullptr;  // initialized, so {kRange, i} needs no more fields
  std::unique_ptr<Iterating> loop = nullptr;
  std::vector<std::string> propagate = {};  ///< block(PROPAGATE)
};

namespace {

bool OpensBlock(std::string_view n) { return n == "if" || n == "foreach" || n == "while" || n == "block"; }

}  // namespace

// Each command of the range in turn; a block's body is pushed and run by the same loop, and
// when a range ends (at its end, or left by return(), break(), a limit...) its block says
// whether its body runs again (a loop, the next branch of an undecided if()) or how it ends.
Flow Interpreter::Exec(const ProgramPtr& p, size_t begin, size_t end) {
  std::vector<Running> stack;
  stack.push_back({Running::kRange, begin, begin, end});
  Flow flow = Flow::kNormal;
  while (true) {
    Running& top = stack.back();
    const size_t i = top.next;
    if (flow == Flow::kNormal && i < top.end && i < p->commands.size()) {
      const ListFileCommand& cmd = p->commands[i];
      rec_.SetCurrent(&cmd);
      if (++commands_run_ > limits_.max_commands) {
        SkipCode(std::string(cmd.name),
                 "the evaluation stopped after " + std::to_string(limits_.max_commands) + " commands");
        flow = Flow::kStop;
      } else if (StopsOverBudget(cmd.name)) {
        flow = Flow::kStop;
      } else if (OpensBlock(cmd.name)) {
        top.next = p->end[i] + 1;
        Running block{Running::kRange, i};
        if (Open(p, block, &flow)) stack.push_back(std::move(block));  // `top` is invalid now
      } else if (cmd.name == "function" || cmd.name == "macro") {
        top.next = p->end[i] + 1;
        Define(p, i);
      } else {
        top.next = i + 1;
        flow = Command(cmd);
      }
      continue;
    }
    if (stack.size() == 1) return flow;
    if (!Next(p, top, &flow)) stack.pop_back();
  }
}

// The body of `r` runs next, from `begin` to `end`.
bool Interpreter::Body(Interpreter::Running& r, size_t begin, size_t end, Flow* flow) {
  r.next = begin;
  r.end = end;
  *flow = Flow::kNormal;
  return true;
}

bool Interpreter::Open(const ProgramPtr& p, Running& r, Flow* flow) {
  *flow = Flow::kNormal;
  const std::string_view n = p->commands[r.at].name;
  if (n == "if") return r.kind = Running::kIf, OpenIf(p, r, flow);
  if (n == "foreach") return r.kind = Running::kForeach, OpenForeach(p, r, flow);
  if (n == "while") return r.kind = Running::kWhile, TestWhile(p, r, flow);
  return r.kind = Running::kBlock, OpenBlock(p, r, flow);
}

bool Interpreter::Next(const ProgramPtr& p, Running& r, Flow* flow) {
  switch (r.kind) {
    case Running::kIf: rec_.PopMissingTests(); return false;
    case Running::kForked: return NextBranch(r, flow);
    case Running::kForeach: return NextItem(p, r, flow);
    case Running::kWhile:
      if (*flow == Flow::kBreak) {
        *flow = Flow::kNormal;
        return false;
      }
      if (*flow == Flow::kReturn || *flow == Flow::kStop) return false;
      ++r.iteration;
      return TestWhile(p, r, flow);
    case Running::kBlock: CloseBlock(r); return false;
    default: return false;
  }
}

// ---- if() -------------------------------------------------------------------------------

bool Interpreter::OpenIf(const ProgramPtr& p, Running& r, Flow* flow) {
  auto f = std::make_unique<Forked>();
  f->branches = Branches(p, r.at, &f->taken, &f->unknown_so_far);
  if (f->branches.empty()) return false;
  if (f->branches.size() == 1 && f->taken && f->branches[0].reason.empty()) {
    rec_.PushMissingTests(f->branches[0].missing);
    return Body(r, f->branches[0].begin, f->branches[0].end, flow);
  }
  if (limits_.decided_only) {
    SkipCode("if", "not decided, and this evaluation takes only decided answers");
    *flow = Flow::kStop;
    return false;
  }
  // Undecided: every branch that may run, on a fork of the state each. The state is copied
  // for the base, for each branch and for each branch that ends normally, then merged:
  // charged before any copy is made, so that a loop forking a large state stops at the
  // budget instead of after the copies.
  Charge((2 * f->branches.size() + 2) * (vars_.CopyCost() + targets_.CopyCost()));
  if (StopsOverBudget("if")) {
    *flow = Flow::kStop;
    return false;
  }
  vars_.Compact();
  f->base = {vars_, targets_};
  r.kind = Running::kForked;
  r.forked = std::move(f);
  return StartBranch(r, flow);
}

// The branches that may run, up to the first one taken on every path (`taken`).
std::vector<Interpreter::Branch> Interpreter::Branches(const ProgramPtr& p, size_t at, bool* taken,
                                                       std::string* unknown_so_far) {
  std::vector<size_t> clauses{at};
  p->AppendClauses(at, &clauses);
  const size_t end = p->end[at];
  std::vector<Branch> out;
  for (size_t k = 0; k < clauses.size(); ++k) {
    const ListFileCommand& cmd = p->commands[clauses[k]];
    rec_.SetCurrent(&cmd);
    ConditionResult r;
    if (cmd.name == "else")
      r.value = Tri::kTrue;
    else
      r = Test(cmd);
    if (r.value == Tri::kFalse) continue;
    std::string reason = *unknown_so_far;
    if (r.value == Tri::kUnknown) {
      const std::string site = std::string(BaseName(p->file.str())) + ":" + std::to_string(cmd.line);
      std::string mine = DescribeCommand(cmd) + " at " + site + " depends on " +
                         (r.why.empty() ? "an unknown value" : r.why);
      reason = reason.empty() ? mine : reason;
      if (unknown_so_far->empty()) *unknown_so_far = mine;
    }
    out.push_back({clauses[k] + 1, k + 1 < clauses.size() ? clauses[k + 1] : end, reason, r.missing});
    if (r.value == Tri::kTrue) {
      *taken = true;
      break;
    }
  }
  return out;
}

bool Interpreter::StartBranch(Running& r, Flow* flow) {
  const Forked& f = *r.forked;
  const Branch& b = f.branches[f.k];
  if (f.k > 0) {  // the first starts from the state the base was copied from
    vars_ = f.base.vars;
    targets_ = f.base.targets;
  }
  rec_.PushUndecided(b.reason);
  rec_.PushMissingTests(b.missing);
  return Body(r, b.begin, b.end, flow);
}

bool Interpreter::NextBranch(Running& r, Flow* flow) {
  rec_.PopMissingTests();
  rec_.PopUndecided();
  Forked& f = *r.forked;
  if (*flow == Flow::kNormal)
    f.normal.push_back({std::move(vars_), std::move(targets_)});
  else
    f.ended.push_back(*flow);
  if (++f.k < f.branches.size()) return StartBranch(r, flow);
  *flow = MergeBranches(f);
  return false;
}

// After the branches of an undecided if(): a variable they leave different is unknown.
Flow Interpreter::MergeBranches(Forked& f) {
  if (!f.taken) f.normal.push_back(std::move(f.base));
  if (f.normal.empty()) {
    vars_ = std::move(f.base.vars);
    targets_ = std::move(f.base.targets);
    for (Flow e : {Flow::kReturn, Flow::kBreak, Flow::kContinue})
      if (std::find(f.ended.begin(), f.ended.end(), e) != f.ended.end()) return e;
    return Flow::kStop;
  }
  vars_ = std::move(f.normal.front().vars);
  targets_ = std::move(f.normal.front().targets);
  const std::string why = f.unknown_so_far.empty() ? "a branch not taken on every path" : f.unknown_so_far;
  for (size_t k = 1; k < f.normal.size(); ++k) {
    vars_.Merge(f.normal[k].vars, why);
    targets_.Merge(std::move(f.normal[k].targets));
  }
  // A branch that returned: the rest of this file or function runs only on the others. A
  // branch that stopped the configure (FATAL_ERROR) leaves the rest to every consumer that
  // configures: what it finds there is no less certain (CapnProto's Targets file, after
  // if(FOUND_LIBATOMIC) ... else() message(FATAL_ERROR)).
  if (std::any_of(f.ended.begin(), f.ended.end(), [](Flow e) { return e != Flow::kStop; }))
    rec_.PushUndecided(f.unknown_so_far);
  return Flow::kNormal;
}

// ---- foreach() --------------------------------------------------------------------------

// std::stoi's reading, which foreach(RANGE) uses: leading space, a sign, digits, anything
// after. Without digits or past an int it is CMake's error, returned in `error`.
static std::optional<int> StoiLike(const std::string& text, std::string* error) {
  errno = 0;
  char* end = nullptr;
  long v = std::strtol(text.c_str(), &end, 10);
  if (end == text.c_str()) {
    *error = "foreach Invalid integer: '" + text + "'";
    return std::nullopt;
  }
  if (errno == ERANGE || v < INT_MIN || v > INT_MAX) {
    *error = "foreach Integer out of range: '" + text + "'";
    return std::nullopt;
  }
  return static_cast<int>(v);
}

std::vector<std::string> Interpreter::ForeachItems(const Args& args, std::string* unknown, bool* failed) {
  std::vector<std::string> items;
  // An argument is one item, as cmForEachCommand takes them: an unquoted one was split when
  // it was expanded, so an escaped ';' in it ("Bar\;1.0") stays inside the item. Only a
  // variable's value (IN LISTS) is split here, keeping its empty elements as CMake does.
  auto take_list = [&](const CMakeValue& v) {
    if (!v.known) {
      if (unknown->empty()) *unknown = v.why;
      return;
    }
    for (std::string& item : SplitList(v.text, /*keep_empty=*/true)) items.push_back(std::move(item));
  };
  auto take = [&](const CMakeValue& v) {
    if (!v.known) {
      if (unknown->empty()) *unknown = v.why;
      return;
    }
    items.push_back(v.text);
  };
  if (args.size() > 1 && !args[1].quoted && args[1].value.text == "RANGE") {
    // As CMake's cmForEachCommand: `stop`, `start stop` or `start stop step`, ints read as
    // std::stoi does; a step of 0 counts towards stop; a step away from it is an error.
    // Other argument counts give start = stop = 0.
    long long n[3] = {0, 0, 0};
    const size_t count = args.size() - 2;
    for (size_t k = 2; count <= 3 && k < args.size(); ++k) {
      if (!args[k].value.known) {
        *unknown = args[k].value.why;
        return items;
      }
      std::string error;
      std::optional<int> v = StoiLike(args[k].value.text, &error);
      if (!v) {
        Fail(error);
        *failed = true;
        return items;
      }
      n[count == 1 ? 1 : k - 2] = *v;
    }
    long long start = n[0], stop = n[1], step = n[2];
    if (step == 0) step = start > stop ? -1 : 1;
    if ((start > stop && step > 0) || (start < stop && step < 0)) {
      Fail("foreach called with incorrect range specification: start " + std::to_string(start) + ", stop " +
           std::to_string(stop) + ", step " + std::to_string(step));
      *failed = true;
      return items;
    }
    // One item past the bound, so that the loop reports the bound rather than ending there.
    const unsigned long long span = start <= stop ? stop - start : start - stop;
    const unsigned long long total = span / static_cast<unsigned long long>(step < 0 ? -step : step) + 1;
    for (unsigned long long k = 0; k < total && k <= limits_.max_iterations; ++k)
      items.push_back(std::to_string(start + static_cast<long long>(k) * step));
  } else if (args.size() > 1 && !args[1].quoted && args[1].value.text == "IN") {
    enum { kNone, kLists, kItems } mode = kNone;
    for (size_t k = 2; k < args.size(); ++k) {
      const std::string& t = args[k].value.text;
      if (!args[k].quoted && (t == "LISTS" || t == "ZIP_LISTS")) {
        mode = kLists;
      } else if (!args[k].quoted && t == "ITEMS") {
        mode = kItems;
      } else if (mode == kLists) {
        if (const CMakeValue* v = Get(t)) take_list(*v);
      } else if (mode == kItems) {
        take(args[k].value);
      }
    }
  } else {
    for (size_t k = 1; k < args.size(); ++k) take(args[k].value);
  }
  return items;
}

bool Interpreter::OpenForeach(const ProgramPtr& p, Running& r, Flow* flow) {
  Args args = Expand(p->commands[r.at]);
  if (args.empty() || !args[0].value.known) return false;
  auto l = std::make_unique<Iterating>();
  l->var = args[0].value.text;
  std::string unknown;
  bool failed = false;
  l->items = ForeachItems(args, &unknown, &failed);
  if (failed) {  // CMake's fatal error: nothing after it runs
    *flow = Flow::kStop;
    return false;
  }
  if (const CMakeValue* old = Get(l->var)) l->saved = *old;
  r.loop = std::move(l);
  if (unknown.empty()) return NextIteration(p, r, flow);
  // An unknown list: the body once, with an unknown item, as an undecided branch.
  if (limits_.decided_only) {
    SkipCode("foreach", "over a list not known, and this evaluation takes only decided answers");
    *flow = Flow::kStop;
    return false;
  }
  Set(r.loop->var, CMakeValue::Unknown(unknown));
  rec_.PushUndecided(DescribeCommand(p->commands[r.at]) + " iterates over an unknown list (" + unknown + ")");
  r.loop->unknown_pass = true;
  return Body(r, r.at + 1, p->end[r.at], flow);
}

bool Interpreter::NextItem(const ProgramPtr& p, Running& r, Flow* flow) {
  Iterating& l = *r.loop;
  if (l.unknown_pass) {
    rec_.PopUndecided();
    l.unknown_pass = false;
    if (*flow == Flow::kStop) l.result = *flow;
  } else {
    rec_.PopLoopValue();
    if (*flow == Flow::kBreak) l.k = l.items.size();
    if (*flow == Flow::kReturn || *flow == Flow::kStop) l.result = *flow;
    ++l.k;
  }
  return NextIteration(p, r, flow);
}

// The next item's turn, or the end of the loop, which restores its variable.
bool Interpreter::NextIteration(const ProgramPtr& p, Running& r, Flow* flow) {
  Iterating& l = *r.loop;
  if (l.result == Flow::kNormal && l.k < l.items.size()) {
    if (l.k < limits_.max_iterations) {
      Set(l.var, {l.items[l.k]});
      rec_.PushLoopValue(l.items[l.k]);
      return Body(r, r.at + 1, p->end[r.at], flow);
    }
    SkipCode("foreach", "more than " + std::to_string(limits_.max_iterations) + " iterations");
  }
  if (l.saved)
    Set(l.var, *l.saved);
  else
    Unset(l.var);
  *flow = l.result;
  return false;
}

// ---- while() and block() ----------------------------------------------------------------

// Tests the condition before each iteration.
bool Interpreter::TestWhile(const ProgramPtr& p, Running& r, Flow* flow) {
  *flow = Flow::kNormal;
  if (r.iteration >= limits_.max_iterations) {
    SkipCode("while", "more than " + std::to_string(limits_.max_iterations) + " iterations");
    return false;
  }
  rec_.SetCurrent(&p->commands[r.at]);
  ConditionResult c = Test(p->commands[r.at]);
  if (c.value == Tri::kFalse) return false;
  if (c.value == Tri::kUnknown) {
    SkipCode("while", "a loop on an unknown condition (" + c.why + ")");
    return false;
  }
  return Body(r, r.at + 1, p->end[r.at], flow);
}

bool Interpreter::OpenBlock(const ProgramPtr& p, Running& r, Flow* flow) {
  Args args = Expand(p->commands[r.at]);
  bool collecting = false;
  for (const Arg& a : args) {
    if (a.value.text == "PROPAGATE")
      collecting = true;
    else if (collecting)
      r.propagate.push_back(a.value.text);
  }
  Charge(VariableScopes::CopyCost(vars_.Current()));
  if (StopsOverBudget("block")) {
    *flow = Flow::kStop;
    return false;
  }
  vars_.Compact();
  vars_.Push(vars_.Current());
  return Body(r, r.at + 1, p->end[r.at], flow);
}

void Interpreter::CloseBlock(Running& r) {
  VariableScopes::Variables inner = vars_.Pop();
  for (const std::string& name : r.propagate) {
    if (const CMakeValue* v = inner.Find(name))
      Set(name, *v);
    else
      Unset(name);
  }
}

}  // namespace rocm_audit
