#include "audit/cmake/interpreter.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <optional>

#include "audit/cmake/cmake_modules.h"
#include "audit/cmake/expand.h"
#include "audit/cmake/lists.h"
#include "audit/fs/path.h"

namespace rocm_audit {

// ---- Variables and records --------------------------------------------------------------

void Interpreter::Set(const std::string& name, CMakeValue value, bool parent_scope) {
  Charge(value.text.size());
  if (value.text.size() > limits_.max_value_bytes) {
    ValueTooLong();
    value = CMakeValue::Unknown("a value longer than " + std::to_string(limits_.max_value_bytes) + " bytes");
  }
  vars_.Set(name, std::move(value), parent_scope);
}

CMakeValue Interpreter::UnknownResult(const std::string& command) const {
  CMakeSite s = rec_.Site();
  return CMakeValue::Unknown("the result of " + command + " at " + std::string(BaseName(s.file)) + ":" +
                             std::to_string(s.line) + ", which is never run");
}

void Interpreter::ValueTooLong() {
  Skip(rec_.Current() ? rec_.Current()->name : "set",
       "a value longer than " + std::to_string(limits_.max_value_bytes) + " bytes is not evaluated");
}

void Interpreter::NoteUnsetName(std::string_view name, bool command) {
  if (!dependency_seen_ || foreign_targets_.asked || foreign_targets_.located) return;
  if (command) {
    foreign_targets_.asked = true;
    return;
  }
  // <Dep>_VERSION, or what a Find module sets in capitals (EIGEN_FOUND for find_package(Eigen)).
  for (const CMakeDependency& d : rec_.Out().dependencies)
    if (name.size() > d.name.size() + 1 && ToUpper(name.substr(0, d.name.size())) == ToUpper(d.name) &&
        name[d.name.size()] == '_') {
      foreign_targets_.asked = true;
      return;
    }
}

// A command CMake does not know (neither built in nor defined by one of its modules) that no
// list file evaluated defined: decided only once every file that could have defined it was
// evaluated, the dependencies' too.
bool Interpreter::UnknownToCMake(const std::string& name) {
  if (IsCMakeCommand(name)) return false;
  if (dependency_seen_ && !foreign_targets_.located) return false;
  const std::vector<CMakeSkipped>& skipped = rec_.Out().skipped;
  return std::none_of(skipped.begin(), skipped.end(), [](const CMakeSkipped& s) {
    return s.command == "include" || s.command == "cmake_language";
  });
}

bool Interpreter::Guard() {
  const std::string& file = rec_.CurrentFile();
  if (guarded_.count(file)) return true;
  guarded_.insert(file);
  return false;
}

// ---- Expansion --------------------------------------------------------------------------

CMakeValue Interpreter::ExpandOne(const ListFileArgument& arg) {
  if (arg.kind == ListFileArgument::kBracket) {
    Charge(arg.text.size());
    return {arg.text};
  }
  VariableLookup vars = [this](std::string_view name) {
    const CMakeValue* v = vars_.Lookup(name);
    if (!v) NoteUnsetName(name, false);
    return v;
  };
  VariableLookup env = [this](std::string_view name) -> const CMakeValue* {
    env_value_ = CMakeValue::Unknown("the consumer's environment ($ENV{" + std::string(name) + "})");
    return &env_value_;
  };
  bool too_long = false;
  CMakeValue v = ExpandReferences(arg.text, vars, env, limits_.max_value_bytes, &too_long);
  // A value cut off at the bound was built up to it first.
  Charge(arg.text.size() + (too_long ? limits_.max_value_bytes : v.text.size()));
  if (too_long) ValueTooLong();
  return v;
}

Args Interpreter::Expand(const ListFileCommand& cmd) {
  Args out;
  size_t total = 0;
  for (const ListFileArgument& a : cmd.args) {
    CMakeValue v = ExpandOne(a);
    // The arguments together are bounded too: "${s}" written a thousand times.
    if (v.text.size() > limits_.max_value_bytes - std::min(total, limits_.max_value_bytes)) {
      ValueTooLong();
      v = CMakeValue::Unknown("arguments longer than " + std::to_string(limits_.max_value_bytes) + " bytes");
    }
    total += v.text.size();
    if (a.kind != ListFileArgument::kUnquoted) {
      out.push_back({std::move(v), true});
    } else if (!v.known) {
      out.push_back({std::move(v), false});
    } else {
      std::vector<std::string> items = SplitList(v.text);
      Charge(items.size() * kEntryWork);
      for (std::string& item : items) out.push_back({{std::move(item)}, false});
    }
  }
  return out;
}

Tri Interpreter::TargetExists(std::string_view name) {
  if (targets_.Find(std::string(name))) return Tri::kTrue;
  if (!dependency_seen_ || foreign_targets_.own.count(std::string(name)) ||
      absent_targets_.count(std::string(name)))
    return Tri::kFalse;
  if (foreign_targets_.dependencies.count(std::string(name))) return Tri::kTrue;
  if (foreign_targets_.complete) return Tri::kFalse;
  // <Package>::x belongs to the package being loaded, not to a dependency.
  const CMakeValue* package = Get("CMAKE_FIND_PACKAGE_NAME");
  size_t colons = name.find("::");
  if (package && colons != std::string_view::npos &&
      ToLower(name.substr(0, colons)) == ToLower(package->text))
    return Tri::kFalse;
  foreign_targets_.asked = true;
  return Tri::kUnknown;
}

ConditionResult Interpreter::Condition(const Args& args) {
  ConditionContext c;
  c.variable = [this](std::string_view name) {
    const CMakeValue* v = Get(name);
    if (!v) NoteUnsetName(name, false);
    return v;
  };
  c.exists = [this](const std::string& p) { return files_.Exists(p); };
  c.is_directory = [this](const std::string& p) { return files_.IsDirectory(p); };
  c.is_symlink = [this](const std::string& p) { return files_.IsSymlink(p); };
  c.target = [this](std::string_view name) { return TargetExists(name); };
  c.command = [this](std::string_view name) {
    return definitions_.count(ToLower(name)) ? Tri::kTrue : Tri::kUnknown;
  };
  c.charge = [this](size_t bytes) { Charge(bytes); };
  c.set_matches = [this](const std::vector<std::string>& groups) {
    for (size_t i = 0; i < 10; ++i) {
      if (i < groups.size())
        Set("CMAKE_MATCH_" + std::to_string(i), {groups[i]});
      else
        Unset("CMAKE_MATCH_" + std::to_string(i));
    }
    Set("CMAKE_MATCH_COUNT", {std::to_string(groups.empty() ? 0 : groups.size() - 1)});
  };
  std::vector<ConditionArg> cargs;
  for (const Arg& a : args) cargs.push_back({a.value, a.quoted});
  return EvaluateCondition(std::move(cargs), c);
}

// ---- Files and commands -----------------------------------------------------------------

Flow Interpreter::RunFile(const std::string& path, std::string* failure) {
  if (rec_.FileDepth() >= static_cast<size_t>(limits_.max_depth)) {
    Skip("include",
         "nested deeper than " + std::to_string(limits_.max_depth) + " files; " + path + " not evaluated");
    return Flow::kNormal;
  }
  ProgramPtr program;
  if (auto it = programs_.find(path); it != programs_.end()) {
    program = it->second;
  } else {
    std::string why;
    auto text = files_.Read(path, limits_.max_file_bytes, &why);
    if (!text) {
      *failure = why;
      return Flow::kNormal;
    }
    program = programs_[path] = ParseProgram(path, *text);
  }
  if (!program->error.empty()) {
    rec_.Out().failures.push_back(
        {"parse error: " + program->error, {path, program->error_line}, rec_.Undecided()});
    return Flow::kStop;
  }
  if (rec_.FileDepth()) rec_.Out().included.push_back(path);

  const CMakeValue* old_file = Get("CMAKE_CURRENT_LIST_FILE");
  const CMakeValue* old_dir = Get("CMAKE_CURRENT_LIST_DIR");
  std::optional<CMakeValue> saved_file, saved_dir;
  if (old_file) saved_file = *old_file;
  if (old_dir) saved_dir = *old_dir;
  Set("CMAKE_CURRENT_LIST_FILE", {path});
  Set("CMAKE_CURRENT_LIST_DIR", {DirName(path)});
  rec_.PushFile(path);
  const size_t mark = rec_.UndecidedMark();
  const ListFileCommand* saved_current = rec_.Current();

  Flow f = Exec(program, 0, program->commands.size());

  rec_.SetCurrent(saved_current);
  rec_.ResetUndecided(mark);
  rec_.PopFile();
  if (saved_file) Set("CMAKE_CURRENT_LIST_FILE", *saved_file);
  if (saved_dir) Set("CMAKE_CURRENT_LIST_DIR", *saved_dir);
  return f == Flow::kStop ? Flow::kStop : Flow::kNormal;
}

Flow Interpreter::Exec(const ProgramPtr& p, size_t begin, size_t end) {
  for (size_t i = begin; i < end && i < p->commands.size(); ++i) {
    const ListFileCommand& cmd = p->commands[i];
    rec_.SetCurrent(&cmd);
    if (++commands_run_ > limits_.max_commands) {
      Skip(cmd.name, "the evaluation stopped after " + std::to_string(limits_.max_commands) + " commands");
      return Flow::kStop;
    }
    if (StopsOverBudget(cmd.name)) return Flow::kStop;
    Flow f = Flow::kNormal;
    const std::string& n = cmd.name;
    if (n == "if")
      f = ExecIf(p, i);
    else if (n == "foreach")
      f = ExecForeach(p, i);
    else if (n == "while")
      f = ExecWhile(p, i);
    else if (n == "block")
      f = ExecBlock(p, i);
    else if (n == "function" || n == "macro")
      Define(p, i);
    else
      f = Command(cmd);
    if (n == "if" || n == "foreach" || n == "while" || n == "block" || n == "function" || n == "macro")
      i = p->end[i];
    if (f != Flow::kNormal) return f;
  }
  return Flow::kNormal;
}

bool Interpreter::StopsOverBudget(const std::string& command) {
  if (!OverBudget()) return false;
  Skip(command, "the evaluation stopped after " + std::to_string(limits_.max_work_bytes >> 20) +
                    " MiB of values read, expanded, set and copied");
  return true;
}

Flow Interpreter::Command(const ListFileCommand& cmd) {
  const std::string& n = cmd.name;
  Args args = Expand(cmd);
  if (auto it = definitions_.find(n); it != definitions_.end()) {
    Definition def = it->second;  // a copy: the body may redefine it
    return Call(def, args, rec_.Site(), n);
  }
  if (CommandHandler handler = commands_(n)) return handler(*this, n, args);
  if (UnknownToCMake(n)) {
    Fail("Unknown CMake command \"" + n + "\".");
    return Flow::kStop;  // cmMakefile stops the configure at it
  }
  NoteUnsetName(n, true);
  return NotEvaluated(n);
}

// ---- Blocks -----------------------------------------------------------------------------

Flow Interpreter::ExecIf(const ProgramPtr& p, size_t at) {
  bool taken = false;
  std::string unknown_so_far;
  std::vector<Branch> branches = Branches(p, at, &taken, &unknown_so_far);
  if (branches.empty()) return Flow::kNormal;
  if (branches.size() == 1 && taken && branches[0].reason.empty()) {
    rec_.PushMissingTests(branches[0].missing);
    Flow f = Exec(p, branches[0].begin, branches[0].end);
    rec_.PopMissingTests();
    return f;
  }
  return ExecUndecided(p, branches, taken, unknown_so_far);
}

// The branches that may run, up to the first one taken on every path (`taken`).
std::vector<Interpreter::Branch> Interpreter::Branches(const ProgramPtr& p, size_t at, bool* taken,
                                                       std::string* unknown_so_far) {
  std::vector<size_t> clauses{at};
  for (size_t b : p->branches[at]) clauses.push_back(b);
  const size_t end = p->end[at];
  std::vector<Branch> out;
  for (size_t k = 0; k < clauses.size(); ++k) {
    const ListFileCommand& cmd = p->commands[clauses[k]];
    rec_.SetCurrent(&cmd);
    ConditionResult r;
    if (cmd.name == "else")
      r.value = Tri::kTrue;
    else
      r = Condition(Expand(cmd));
    if (r.value == Tri::kFalse) continue;
    std::string reason = *unknown_so_far;
    if (r.value == Tri::kUnknown) {
      const std::string site = std::string(BaseName(p->file)) + ":" + std::to_string(cmd.line);
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

// Undecided: every branch that may run, on a fork of the state each; a variable the
// branches leave different is unknown afterwards.
Flow Interpreter::ExecUndecided(const ProgramPtr& p, const std::vector<Branch>& branches, bool taken,
                                const std::string& unknown_so_far) {
  // The state is copied for the base, for each branch and for each branch that ends
  // normally, then merged: charged before any copy is made, so that a loop forking a large
  // state stops at the budget instead of after the copies.
  Charge((2 * branches.size() + 2) * (vars_.CopyCost() + targets_.CopyCost()));
  if (StopsOverBudget("if")) return Flow::kStop;
  State base{vars_, targets_};
  std::vector<State> normal;
  std::vector<Flow> ended;
  for (const Branch& b : branches) {
    vars_ = base.vars;
    targets_ = base.targets;
    rec_.PushUndecided(b.reason);
    rec_.PushMissingTests(b.missing);
    Flow f = Exec(p, b.begin, b.end);
    rec_.PopMissingTests();
    rec_.PopUndecided();
    if (f == Flow::kNormal)
      normal.push_back({std::move(vars_), std::move(targets_)});
    else
      ended.push_back(f);
  }
  if (!taken) normal.push_back(base);
  if (normal.empty()) {
    vars_ = std::move(base.vars);
    targets_ = std::move(base.targets);
    for (Flow f : {Flow::kReturn, Flow::kBreak, Flow::kContinue})
      if (std::find(ended.begin(), ended.end(), f) != ended.end()) return f;
    return Flow::kStop;
  }
  vars_ = normal.front().vars;
  targets_ = normal.front().targets;
  const std::string why = unknown_so_far.empty() ? "a branch not taken on every path" : unknown_so_far;
  for (size_t k = 1; k < normal.size(); ++k) {
    vars_.Merge(normal[k].vars, why);
    targets_.Merge(std::move(normal[k].targets));
  }
  // A branch that returned: the rest of this file or function runs only on the others. A
  // branch that stopped the configure (FATAL_ERROR) leaves the rest to every consumer that
  // configures: what it finds there is no less certain (CapnProto's Targets file, after
  // if(FOUND_LIBATOMIC) ... else() message(FATAL_ERROR)).
  if (std::any_of(ended.begin(), ended.end(), [](Flow f) { return f != Flow::kStop; }))
    rec_.PushUndecided(unknown_so_far);
  return Flow::kNormal;
}

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

Flow Interpreter::ExecForeach(const ProgramPtr& p, size_t at) {
  Args args = Expand(p->commands[at]);
  if (args.empty() || !args[0].value.known) return Flow::kNormal;
  const std::string var = args[0].value.text;
  std::string unknown;
  bool failed = false;
  std::vector<std::string> items = ForeachItems(args, &unknown, &failed);
  if (failed) return Flow::kStop;  // CMake's fatal error: nothing after it runs

  const CMakeValue* old = Get(var);
  std::optional<CMakeValue> saved;
  if (old) saved = *old;
  Flow result = Flow::kNormal;
  if (!unknown.empty()) {
    // An unknown list: the body once, with an unknown item, as an undecided branch.
    Set(var, CMakeValue::Unknown(unknown));
    rec_.PushUndecided(DescribeCommand(p->commands[at]) + " iterates over an unknown list (" + unknown + ")");
    Flow f = Exec(p, at + 1, p->end[at]);
    rec_.PopUndecided();
    if (f == Flow::kStop) result = f;
  }
  for (size_t k = 0; k < items.size() && result == Flow::kNormal; ++k) {
    if (k >= limits_.max_iterations) {
      Skip("foreach", "more than " + std::to_string(limits_.max_iterations) + " iterations");
      break;
    }
    Set(var, {items[k]});
    rec_.PushLoopValue(items[k]);
    Flow f = Exec(p, at + 1, p->end[at]);
    rec_.PopLoopValue();
    if (f == Flow::kBreak) break;
    if (f == Flow::kReturn || f == Flow::kStop) result = f;
  }
  if (saved)
    Set(var, *saved);
  else
    Unset(var);
  return result;
}

Flow Interpreter::ExecWhile(const ProgramPtr& p, size_t at) {
  for (size_t k = 0;; ++k) {
    if (k >= limits_.max_iterations) {
      Skip("while", "more than " + std::to_string(limits_.max_iterations) + " iterations");
      return Flow::kNormal;
    }
    rec_.SetCurrent(&p->commands[at]);
    ConditionResult r = Condition(Expand(p->commands[at]));
    if (r.value == Tri::kFalse) return Flow::kNormal;
    if (r.value == Tri::kUnknown) {
      Skip("while", "a loop on an unknown condition (" + r.why + ")");
      return Flow::kNormal;
    }
    Flow f = Exec(p, at + 1, p->end[at]);
    if (f == Flow::kBreak) return Flow::kNormal;
    if (f == Flow::kReturn || f == Flow::kStop) return f;
  }
}

Flow Interpreter::ExecBlock(const ProgramPtr& p, size_t at) {
  Args args = Expand(p->commands[at]);
  std::vector<std::string> propagate;
  bool collecting = false;
  for (const Arg& a : args) {
    if (a.value.text == "PROPAGATE")
      collecting = true;
    else if (collecting)
      propagate.push_back(a.value.text);
  }
  Charge(VariableScopes::CopyCost(vars_.Current()));
  if (StopsOverBudget("block")) return Flow::kStop;
  vars_.Push(vars_.Current());
  Flow f = Exec(p, at + 1, p->end[at]);
  VariableScopes::Variables inner = vars_.Pop();
  for (const std::string& name : propagate) {
    auto it = inner.find(name);
    if (it != inner.end())
      Set(name, it->second);
    else
      Unset(name);
  }
  return f;
}

// ---- function() and macro() -------------------------------------------------------------

void Interpreter::Define(const ProgramPtr& p, size_t at) {
  const ListFileCommand& cmd = p->commands[at];
  Args args = Expand(cmd);
  if (args.empty() || !args[0].value.known) return;
  Definition d{cmd.name == "macro", {}, p, at + 1, p->end[at]};
  for (size_t k = 1; k < args.size(); ++k) d.params.push_back(args[k].value.text);
  definitions_[ToLower(args[0].value.text)] = std::move(d);
}

bool Interpreter::CallIfDefined(const std::string& name, const Args& args, Flow* flow) {
  auto it = definitions_.find(name);
  if (it == definitions_.end()) return false;
  Definition def = it->second;  // a copy: the body may redefine it
  *flow = Call(def, args, rec_.Site(), name);
  return true;
}

Flow Interpreter::Call(const Definition& def, const Args& args, const CMakeSite& site,
                       const std::string& name) {
  if (rec_.FrameDepth() >= static_cast<size_t>(limits_.max_depth)) {
    Skip(name, "calls nested deeper than " + std::to_string(limits_.max_depth));
    return Flow::kNormal;
  }
  // Each argument is bound three times (ARGV<k>, ARGV, ARGN), each parameter once, and a
  // function's scope starts as a copy of its caller's: charged before any of it is made.
  size_t cost = (def.params.size() + args.size()) * kArgumentWork;
  for (const Arg& a : args) cost += 3 * a.value.text.size();
  if (!def.macro) cost += VariableScopes::CopyCost(vars_.Current());
  Charge(cost);
  if (StopsOverBudget(name)) return Flow::kStop;
  VariableScopes::Variables bind;
  std::vector<std::string> all, rest;
  bool known = true;
  std::string why;
  for (size_t k = 0; k < args.size(); ++k) {
    if (!args[k].value.known && known) known = false, why = args[k].value.why;
    all.push_back(args[k].value.text);
    if (k >= def.params.size()) rest.push_back(args[k].value.text);
    bind["ARGV" + std::to_string(k)] = args[k].value;
  }
  for (size_t k = 0; k < def.params.size(); ++k)
    bind[def.params[k]] = k < args.size() ? args[k].value : CMakeValue{};
  auto list = [&](const std::vector<std::string>& v) {
    return known ? CMakeValue{JoinList(v)} : CMakeValue::Unknown(why);
  };
  bind["ARGC"] = {std::to_string(args.size())};
  bind["ARGV"] = list(all);
  bind["ARGN"] = list(rest);

  rec_.PushFrame(name, site, def.program->file);
  const ListFileCommand* saved_current = rec_.Current();
  Flow f;
  if (def.macro) {
    vars_.PushMacroArgs(std::move(bind));
    f = Exec(def.program, def.begin, def.end);
    vars_.PopMacroArgs();
  } else {
    VariableScopes::Variables scope = vars_.Current();
    for (auto& [k, v] : bind) scope[k] = std::move(v);
    vars_.Push(std::move(scope));
    vars_.PushMacroArgs({});
    const size_t mark = rec_.UndecidedMark();
    f = Exec(def.program, def.begin, def.end);
    rec_.ResetUndecided(mark);
    vars_.PopMacroArgs();
    vars_.Pop();
    if (f == Flow::kReturn) f = Flow::kNormal;
  }
  rec_.SetCurrent(saved_current);
  rec_.PopFrame();
  return f;
}

}  // namespace rocm_audit
