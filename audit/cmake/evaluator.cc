#include "audit/cmake/evaluator.h"

#include <algorithm>

#include "audit/cmake/expand.h"
#include "audit/cmake/lists.h"
#include "audit/fs/path.h"

namespace rocm_audit {

struct CMakeEvaluator::Program {
  std::string file;
  std::vector<ListFileCommand> commands;
  std::vector<size_t> end;                    ///< an opening command's matching end
  std::vector<std::vector<size_t>> branches;  ///< an if()'s elseif()/else() commands
  std::string error;
  int error_line = 0;
};

namespace {

using ProgramPtr = std::shared_ptr<const CMakeEvaluator::Program>;

bool Opens(const std::string& n) {
  return n == "if" || n == "foreach" || n == "while" || n == "function" || n == "macro" || n == "block";
}
std::string CloserOf(const std::string& n) { return "end" + n; }

// Matches block openings with their ends; CMake refuses a file whose blocks do not nest.
void MatchBlocks(CMakeEvaluator::Program& p) {
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

std::string Describe(const ListFileCommand& cmd) {
  std::string out = cmd.name + "(";
  for (size_t i = 0; i < cmd.args.size(); ++i) {
    if (i) out += ' ';
    const auto& a = cmd.args[i];
    out += a.kind == ListFileArgument::kQuoted ? "\"" + a.text + "\"" : a.text;
  }
  if (out.size() > 120) out = out.substr(0, 117) + "...";
  return out + ")";
}

}  // namespace

CMakeEvaluator::CMakeEvaluator(const InstalledFiles& files, EvaluatorLimits limits)
    : files_(files), limits_(limits) {
  state_.scopes.emplace_back();
}

void CMakeEvaluator::Define(const std::string& name, std::string value) { Set(name, {std::move(value)}); }

void CMakeEvaluator::DefineUnknown(const std::string& name, std::string why) {
  Set(name, CMakeValue::Unknown(std::move(why)));
}

void CMakeEvaluator::Run(const std::string& path) {
  std::string failure;
  Flow f = RunFile(path, &failure);
  if (!failure.empty()) out_.failures.push_back({path + ": " + failure, {path, 0}, {}});
  if (f == Flow::kStop) out_.stopped = true;
}

CMakeEvaluation CMakeEvaluator::Take() {
  out_.targets = state_.targets;
  for (auto& [k, v] : state_.scopes.front()) out_.variables.emplace(k, v);
  return std::move(out_);
}

// ---- Variables --------------------------------------------------------------------------

const CMakeValue* CMakeEvaluator::Get(std::string_view name) const {
  const Variables& scope = state_.scopes.back();
  auto it = scope.find(std::string(name));
  return it == scope.end() ? nullptr : &it->second;
}

void CMakeEvaluator::Set(const std::string& name, CMakeValue value, bool parent_scope) {
  if (value.text.size() > limits_.max_value_bytes) {
    ValueTooLong();
    value = CMakeValue::Unknown("a value longer than " + std::to_string(limits_.max_value_bytes) + " bytes");
  }
  if (parent_scope) {
    if (state_.scopes.size() > 1) state_.scopes[state_.scopes.size() - 2][name] = std::move(value);
    return;
  }
  state_.scopes.back()[name] = std::move(value);
}

void CMakeEvaluator::Unset(const std::string& name, bool parent_scope) {
  if (parent_scope) {
    if (state_.scopes.size() > 1) state_.scopes[state_.scopes.size() - 2].erase(name);
    return;
  }
  state_.scopes.back().erase(name);
}

CMakeValue CMakeEvaluator::UnknownResult(const std::string& command) const {
  CMakeSite s = Site();
  return CMakeValue::Unknown("the result of " + command + " at " + std::string(BaseName(s.file)) + ":" +
                             std::to_string(s.line) + ", which is never run");
}

// ---- Records ----------------------------------------------------------------------------

CMakeSite CMakeEvaluator::Site() const {
  return {file_stack_.empty() ? std::string() : file_stack_.back(), current_ ? current_->line : 0};
}

CMakeSite CMakeEvaluator::UserSite() const { return frames_.empty() ? Site() : frames_.front().call; }

std::string CMakeEvaluator::Undecided() const {
  std::string out;
  for (const std::string& u : undecided_) {
    if (u.empty()) continue;
    if (!out.empty()) out += "; ";
    out += u;
  }
  return out;
}

CMakeReference* CMakeEvaluator::Reference(const std::string& path, const std::string& via,
                                          const std::string& target, bool optional, bool checked_by_cmake) {
  if (path.empty() || path[0] != '/') return nullptr;
  CMakeReference r;
  // "staging/../lib" is kept as written: the kernel, unlike a lexical normalisation, fails
  // it when staging/ does not exist.
  r.path = NormalizePath(path);
  if (std::string_view(path).find("..") != std::string_view::npos &&
      files_.Exists(path) != files_.Exists(r.path))
    r.path = path;
  r.via = via;
  r.site = UserSite();
  r.undecided = Undecided();
  r.target = target;
  r.optional = optional;
  r.checked_by_cmake = checked_by_cmake;
  std::string_view base = BaseName(r.path);
  for (auto it = loop_values_.rbegin(); it != loop_values_.rend(); ++it)
    if (!it->empty() && base.find(*it) != std::string_view::npos) {
      r.component = *it;
      break;
    }
  for (CMakeReference& old : out_.references) {
    if (old.path != r.path) continue;
    // The first reference to a path is kept, unless a decided one follows an undecided one.
    if (!old.undecided.empty() && r.undecided.empty()) {
      r.exists = old.exists;
      old = std::move(r);
    }
    return &old;
  }
  r.exists = files_.Exists(path) == Tri::kTrue;
  out_.references.push_back(std::move(r));
  return &out_.references.back();
}

void CMakeEvaluator::Skip(const std::string& command, const std::string& reason) {
  out_.skipped.push_back({command, Site(), reason});
}

void CMakeEvaluator::Fail(const std::string& message) {
  // A failure right after an EXISTS test that found nothing is the package's own check of
  // that file (set_and_check, the import check of generated Targets files): the finding is
  // the missing file, which stops the configure.
  for (auto level = missing_tests_.rbegin(); level != missing_tests_.rend(); ++level) {
    if (level->empty()) continue;
    if (CMakeReference* r = Reference(level->back(), frames_.empty() ? "if(EXISTS)" : frames_.back().name)) {
      r->stops_configure = true;
      return;
    }
  }
  out_.failures.push_back({message, UserSite(), Undecided()});
}

CMakeTarget* CMakeEvaluator::FindTarget(const std::string& name) {
  for (CMakeTarget& t : state_.targets)
    if (t.name == name) return &t;
  return nullptr;
}

// ---- Expansion --------------------------------------------------------------------------

CMakeValue CMakeEvaluator::ExpandOne(const ListFileArgument& arg) {
  if (arg.kind == ListFileArgument::kBracket) return {arg.text};
  VariableLookup vars = [this](std::string_view name) -> const CMakeValue* {
    if (!macro_args_.empty()) {
      auto it = macro_args_.back().find(std::string(name));
      if (it != macro_args_.back().end()) return &it->second;
    }
    return Get(name);
  };
  VariableLookup env = [this](std::string_view name) -> const CMakeValue* {
    env_value_ = CMakeValue::Unknown("the consumer's environment ($ENV{" + std::string(name) + "})");
    return &env_value_;
  };
  bool too_long = false;
  CMakeValue v = ExpandReferences(arg.text, vars, env, limits_.max_value_bytes, &too_long);
  if (too_long) ValueTooLong();
  return v;
}

void CMakeEvaluator::ValueTooLong() {
  Skip(current_ ? current_->name : "set",
       "a value longer than " + std::to_string(limits_.max_value_bytes) + " bytes is not evaluated");
}

std::vector<CMakeEvaluator::Arg> CMakeEvaluator::Expand(const ListFileCommand& cmd) {
  std::vector<Arg> out;
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
      for (std::string& item : SplitList(v.text)) out.push_back({{std::move(item)}, false});
    }
  }
  return out;
}

ConditionResult CMakeEvaluator::Condition(const std::vector<Arg>& args) {
  ConditionContext c;
  c.variable = [this](std::string_view name) { return Get(name); };
  c.exists = [this](const std::string& p) { return files_.Exists(p); };
  c.is_directory = [this](const std::string& p) { return files_.IsDirectory(p); };
  c.is_symlink = [this](const std::string& p) { return files_.IsSymlink(p); };
  c.target = [this](std::string_view name) {
    if (FindTarget(std::string(name))) return Tri::kTrue;
    if (!dependency_seen_ || own_targets_.count(std::string(name))) return Tri::kFalse;
    if (dependency_targets_.count(std::string(name))) return Tri::kTrue;
    if (dependency_targets_complete_) return Tri::kFalse;
    // <Package>::x belongs to the package being loaded, not to a dependency.
    const CMakeValue* package = Get("CMAKE_FIND_PACKAGE_NAME");
    size_t colons = name.find("::");
    if (package && colons != std::string_view::npos &&
        ToLower(name.substr(0, colons)) == ToLower(package->text))
      return Tri::kFalse;
    asked_dependency_targets_ = true;
    return Tri::kUnknown;
  };
  c.command = [this](std::string_view name) {
    return definitions_.count(ToLower(name)) ? Tri::kTrue : Tri::kUnknown;
  };
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

// ---- Control flow -----------------------------------------------------------------------

CMakeEvaluator::Flow CMakeEvaluator::RunFile(const std::string& path, std::string* failure) {
  if (file_stack_.size() >= static_cast<size_t>(limits_.max_depth)) {
    Skip("include",
         "nested deeper than " + std::to_string(limits_.max_depth) + " files; " + path + " not evaluated");
    return Flow::kNormal;
  }
  ProgramPtr program;
  if (auto it = programs_.find(path); it != programs_.end()) {
    program = it->second;
  } else {
    auto text = files_.Read(path, limits_.max_file_bytes);
    if (!text) {
      *failure = "cannot be read, or larger than " + std::to_string(limits_.max_file_bytes) + " bytes";
      return Flow::kNormal;
    }
    auto p = std::make_shared<Program>();
    p->file = path;
    ListFile parsed = ParseListFile(*text);
    p->commands = std::move(parsed.commands);
    p->error = parsed.error;
    p->error_line = parsed.error_line;
    if (p->error.empty()) MatchBlocks(*p);
    programs_[path] = p;
    program = p;
  }
  if (!program->error.empty()) {
    out_.failures.push_back({"parse error: " + program->error, {path, program->error_line}, Undecided()});
    return Flow::kStop;
  }
  if (!file_stack_.empty()) out_.included.push_back(path);

  const CMakeValue* old_file = Get("CMAKE_CURRENT_LIST_FILE");
  const CMakeValue* old_dir = Get("CMAKE_CURRENT_LIST_DIR");
  std::optional<CMakeValue> saved_file, saved_dir;
  if (old_file) saved_file = *old_file;
  if (old_dir) saved_dir = *old_dir;
  Set("CMAKE_CURRENT_LIST_FILE", {path});
  Set("CMAKE_CURRENT_LIST_DIR", {DirName(path)});
  file_stack_.push_back(path);
  const size_t mark = undecided_.size();
  const ListFileCommand* saved_current = current_;

  Flow f = Exec(program, 0, program->commands.size());

  current_ = saved_current;
  undecided_.resize(mark);
  file_stack_.pop_back();
  if (saved_file) Set("CMAKE_CURRENT_LIST_FILE", *saved_file);
  if (saved_dir) Set("CMAKE_CURRENT_LIST_DIR", *saved_dir);
  return f == Flow::kStop ? Flow::kStop : Flow::kNormal;
}

CMakeEvaluator::Flow CMakeEvaluator::Exec(const ProgramPtr& p, size_t begin, size_t end) {
  for (size_t i = begin; i < end && i < p->commands.size(); ++i) {
    const ListFileCommand& cmd = p->commands[i];
    current_ = &cmd;
    if (++commands_run_ > limits_.max_commands) {
      Skip(cmd.name, "the evaluation stopped after " + std::to_string(limits_.max_commands) + " commands");
      return Flow::kStop;
    }
    Flow f = Flow::kNormal;
    const std::string& n = cmd.name;
    if (n == "if") {
      f = ExecIf(p, i);
      i = p->end[i];
    } else if (n == "foreach") {
      f = ExecForeach(p, i);
      i = p->end[i];
    } else if (n == "while") {
      f = ExecWhile(p, i);
      i = p->end[i];
    } else if (n == "block") {
      f = ExecBlock(p, i);
      i = p->end[i];
    } else if (n == "function" || n == "macro") {
      std::vector<Arg> args = Expand(cmd);
      if (!args.empty() && args[0].value.known) {
        Definition d{n == "macro", {}, p, i + 1, p->end[i]};
        for (size_t k = 1; k < args.size(); ++k) d.params.push_back(args[k].value.text);
        definitions_[ToLower(args[0].value.text)] = std::move(d);
      }
      i = p->end[i];
    } else {
      f = Command(cmd);
    }
    if (f != Flow::kNormal) return f;
  }
  return Flow::kNormal;
}

CMakeEvaluator::Flow CMakeEvaluator::ExecIf(const ProgramPtr& p, size_t at) {
  std::vector<size_t> clauses{at};
  for (size_t b : p->branches[at]) clauses.push_back(b);
  const size_t end = p->end[at];
  std::vector<std::pair<size_t, size_t>> ranges;
  std::vector<std::string> reasons;
  std::vector<std::vector<std::string>> missing;
  std::string unknown_so_far;
  bool taken = false;
  for (size_t k = 0; k < clauses.size(); ++k) {
    const ListFileCommand& cmd = p->commands[clauses[k]];
    current_ = &cmd;
    std::pair<size_t, size_t> range{clauses[k] + 1, k + 1 < clauses.size() ? clauses[k + 1] : end};
    ConditionResult r;
    if (cmd.name == "else")
      r.value = Tri::kTrue;
    else
      r = Condition(Expand(cmd));
    if (r.value == Tri::kFalse) continue;
    std::string reason = unknown_so_far;
    if (r.value == Tri::kUnknown) {
      const std::string site = std::string(BaseName(p->file)) + ":" + std::to_string(cmd.line);
      std::string mine =
          Describe(cmd) + " at " + site + " depends on " + (r.why.empty() ? "an unknown value" : r.why);
      reason = reason.empty() ? mine : reason;
      if (unknown_so_far.empty()) unknown_so_far = mine;
    }
    ranges.push_back(range);
    reasons.push_back(reason);
    missing.push_back(r.missing);
    if (r.value == Tri::kTrue) {
      taken = true;
      break;
    }
  }
  if (ranges.empty()) return Flow::kNormal;
  if (ranges.size() == 1 && taken && reasons[0].empty()) {
    missing_tests_.push_back(missing[0]);
    Flow f = Exec(p, ranges[0].first, ranges[0].second);
    missing_tests_.pop_back();
    return f;
  }
  // Undecided: every branch that may run, on a fork of the state each.
  State base = state_;
  std::vector<State> normal;
  std::vector<Flow> ended;
  for (size_t k = 0; k < ranges.size(); ++k) {
    state_ = base;
    undecided_.push_back(reasons[k]);
    missing_tests_.push_back(missing[k]);
    Flow f = Exec(p, ranges[k].first, ranges[k].second);
    missing_tests_.pop_back();
    undecided_.pop_back();
    if (f == Flow::kNormal)
      normal.push_back(std::move(state_));
    else
      ended.push_back(f);
  }
  if (!taken) normal.push_back(base);
  if (normal.empty()) {
    state_ = std::move(base);
    for (Flow f : {Flow::kReturn, Flow::kBreak, Flow::kContinue})
      if (std::find(ended.begin(), ended.end(), f) != ended.end()) return f;
    return Flow::kStop;
  }
  // Merge: a variable the branches leave different is unknown afterwards.
  state_ = normal.front();
  for (size_t k = 1; k < normal.size(); ++k) {
    State& other = normal[k];
    for (size_t s = 0; s < state_.scopes.size() && s < other.scopes.size(); ++s) {
      Variables& mine = state_.scopes[s];
      for (auto& [name, value] : other.scopes[s]) {
        auto it = mine.find(name);
        if (it == mine.end() || !(it->second == value))
          mine[name] = CMakeValue::Unknown(unknown_so_far.empty() ? "a branch not taken on every path"
                                                                  : unknown_so_far);
      }
      for (auto& [name, value] : mine)
        if (!other.scopes[s].count(name) && value.known)
          value = CMakeValue::Unknown(unknown_so_far.empty() ? "a branch not taken on every path"
                                                             : unknown_so_far);
    }
    for (CMakeTarget& t : other.targets)
      if (!FindTarget(t.name)) state_.targets.push_back(std::move(t));
  }
  // A branch that returned: the rest of this file or function runs only on the others.
  if (!ended.empty()) undecided_.push_back(unknown_so_far);
  return Flow::kNormal;
}

CMakeEvaluator::Flow CMakeEvaluator::ExecForeach(const ProgramPtr& p, size_t at) {
  std::vector<Arg> args = Expand(p->commands[at]);
  if (args.empty() || !args[0].value.known) return Flow::kNormal;
  const std::string var = args[0].value.text;
  std::vector<std::string> items;
  std::string unknown;
  auto take = [&](const CMakeValue& v) {
    if (!v.known) {
      if (unknown.empty()) unknown = v.why;
      return;
    }
    for (std::string& item : SplitList(v.text)) items.push_back(std::move(item));
  };
  if (args.size() > 1 && !args[1].quoted && args[1].value.text == "RANGE") {
    long long from = 0, to = 0, step = 1;
    std::vector<long long> n;
    for (size_t k = 2; k < args.size(); ++k) {
      if (!args[k].value.known) unknown = args[k].value.why;
      n.push_back(std::atoll(args[k].value.text.c_str()));
    }
    if (n.size() == 1) to = n[0];
    if (n.size() >= 2) from = n[0], to = n[1];
    if (n.size() >= 3) step = n[2] > 0 ? n[2] : 1;
    for (long long v = from; v <= to && items.size() < limits_.max_iterations; v += step)
      items.push_back(std::to_string(v));
  } else if (args.size() > 1 && !args[1].quoted && args[1].value.text == "IN") {
    enum { kNone, kLists, kItems } mode = kNone;
    for (size_t k = 2; k < args.size(); ++k) {
      const std::string& t = args[k].value.text;
      if (!args[k].quoted && (t == "LISTS" || t == "ZIP_LISTS")) {
        mode = kLists;
      } else if (!args[k].quoted && t == "ITEMS") {
        mode = kItems;
      } else if (mode == kLists) {
        if (const CMakeValue* v = Get(t)) take(*v);
      } else if (mode == kItems) {
        take(args[k].value);
      }
    }
  } else {
    for (size_t k = 1; k < args.size(); ++k) take(args[k].value);
  }

  const CMakeValue* old = Get(var);
  std::optional<CMakeValue> saved;
  if (old) saved = *old;
  Flow result = Flow::kNormal;
  if (!unknown.empty()) {
    // An unknown list: the body once, with an unknown item, as an undecided branch.
    Set(var, CMakeValue::Unknown(unknown));
    undecided_.push_back(Describe(p->commands[at]) + " iterates over an unknown list (" + unknown + ")");
    Flow f = Exec(p, at + 1, p->end[at]);
    undecided_.pop_back();
    if (f == Flow::kStop) result = f;
  }
  for (size_t k = 0; k < items.size() && result == Flow::kNormal; ++k) {
    if (k >= limits_.max_iterations) {
      Skip("foreach", "more than " + std::to_string(limits_.max_iterations) + " iterations");
      break;
    }
    Set(var, {items[k]});
    loop_values_.push_back(items[k]);
    Flow f = Exec(p, at + 1, p->end[at]);
    loop_values_.pop_back();
    if (f == Flow::kBreak) break;
    if (f == Flow::kReturn || f == Flow::kStop) result = f;
  }
  if (saved)
    Set(var, *saved);
  else
    Unset(var);
  return result;
}

CMakeEvaluator::Flow CMakeEvaluator::ExecWhile(const ProgramPtr& p, size_t at) {
  for (size_t k = 0;; ++k) {
    if (k >= limits_.max_iterations) {
      Skip("while", "more than " + std::to_string(limits_.max_iterations) + " iterations");
      return Flow::kNormal;
    }
    current_ = &p->commands[at];
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

CMakeEvaluator::Flow CMakeEvaluator::ExecBlock(const ProgramPtr& p, size_t at) {
  std::vector<Arg> args = Expand(p->commands[at]);
  std::vector<std::string> propagate;
  bool collecting = false;
  for (const Arg& a : args) {
    if (a.value.text == "PROPAGATE")
      collecting = true;
    else if (collecting)
      propagate.push_back(a.value.text);
  }
  state_.scopes.push_back(state_.scopes.back());
  Flow f = Exec(p, at + 1, p->end[at]);
  Variables inner = std::move(state_.scopes.back());
  state_.scopes.pop_back();
  for (const std::string& name : propagate) {
    auto it = inner.find(name);
    if (it != inner.end())
      Set(name, it->second);
    else
      Unset(name);
  }
  return f;
}

CMakeEvaluator::Flow CMakeEvaluator::Call(const Definition& def, const std::vector<Arg>& args,
                                          const CMakeSite& site, const std::string& name) {
  if (frames_.size() >= static_cast<size_t>(limits_.max_depth)) {
    Skip(name, "calls nested deeper than " + std::to_string(limits_.max_depth));
    return Flow::kNormal;
  }
  Variables bind;
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

  frames_.push_back({name, site});
  const ListFileCommand* saved_current = current_;
  Flow f;
  if (def.macro) {
    macro_args_.push_back(std::move(bind));
    f = Exec(def.program, def.begin, def.end);
    macro_args_.pop_back();
  } else {
    Variables scope = state_.scopes.back();
    for (auto& [k, v] : bind) scope[k] = std::move(v);
    state_.scopes.push_back(std::move(scope));
    macro_args_.emplace_back();
    const size_t mark = undecided_.size();
    f = Exec(def.program, def.begin, def.end);
    undecided_.resize(mark);
    macro_args_.pop_back();
    state_.scopes.pop_back();
    if (f == Flow::kReturn) f = Flow::kNormal;
  }
  current_ = saved_current;
  frames_.pop_back();
  return f;
}

CMakeEvaluator::Flow CMakeEvaluator::Command(const ListFileCommand& cmd) {
  const std::string& n = cmd.name;
  std::vector<Arg> args = Expand(cmd);
  if (auto it = definitions_.find(n); it != definitions_.end()) {
    Definition def = it->second;  // a copy: the body may redefine it
    return Call(def, args, Site(), n);
  }
  if (n == "return") return Flow::kReturn;
  if (n == "break") return Flow::kBreak;
  if (n == "continue") return Flow::kContinue;
  if (n == "include") return Include(args);
  if (n == "include_guard") {
    const std::string& file = file_stack_.back();
    if (guarded_.count(file)) return Flow::kReturn;
    guarded_.insert(file);
    return Flow::kNormal;
  }
  if (n == "cmake_language" && args.size() >= 2 && args[0].value.text == "CALL" && args[1].value.known) {
    std::string callee = ToLower(args[1].value.text);
    if (auto it = definitions_.find(callee); it != definitions_.end()) {
      Definition def = it->second;
      return Call(def, std::vector<Arg>(args.begin() + 2, args.end()), Site(), callee);
    }
  }
  if (Data(n, args) || Paths(n, args) || Targets(n, args) || Recorded(n, args)) {
    if (stop_requested_) {
      stop_requested_ = false;
      return Flow::kStop;
    }
    return Flow::kNormal;
  }
  Skip(n, "a command rocm-audit does not evaluate");
  return Flow::kNormal;
}

}  // namespace rocm_audit
