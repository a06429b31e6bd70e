#include "audit/cmake/interpreter.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <optional>

#include "audit/cmake/cmake_modules.h"
#include "audit/cmake/consumer_dirs.h"
#include "audit/cmake/consumer_target_defaults.h"
#include "audit/cmake/expand.h"
#include "audit/cmake/lists.h"
#include "audit/cmake/target_namespace.h"
#include "audit/fs/path.h"

namespace rocm_audit {

// ---- Variables and records --------------------------------------------------------------

void Interpreter::Set(const std::string& name, CMakeValue value, bool parent_scope) {
  if (IsConsumerTargetDefault(name) && vars_.depth() == (parent_scope ? 2u : 1u))
    rec_.Out().consumer_scope_sites[name] = rec_.Site();
  vars_.Set(name, Bound(std::move(value)), parent_scope);
}

void Interpreter::AdoptVariables(const CMakeVariables& found, const CallerKeptVariables& keep) {
  if (!found.map()) return;
  Charge(VariableScopes::CopyCost(*found.map()));
  vars_.Adopt(*found.map(), keep);
  for (std::string_view name : kConsumerStandardVariables)
    if (const CMakeValue* v = found.Find(name); v && !keep.Keeps(name)) Set(std::string(name), *v);
}

// One walk of both maps in name order: Qt6's modules each bring Qt6's hundreds of commands,
// mostly those of the caller's map already, and a lookup of each from the root compared as
// many names again.
void Interpreter::ImportDefinitions(const std::map<std::string, CMakeDefinition>& defs) {
  auto at = definitions_.begin();
  for (const auto& [name, d] : defs) {
    for (int step = 0; at != definitions_.end() && at->first < name; ++step, ++at)
      if (step == 8) {  // far ahead: a lookup from the root is shorter
        at = definitions_.lower_bound(name);
        break;
      }
    if (at != definitions_.end() && at->first == name) {
      if (!at->second.SameAs(d)) at->second = d;
      ++at;
    } else {
      at = std::next(definitions_.emplace_hint(at, name, d));
    }
  }
}

void Interpreter::SetCache(const std::string& name, CMakeValue value, bool force) {
  vars_.SetCache(name, Bound(std::move(value)), force);
}

CMakeValue Interpreter::Bound(CMakeValue value) {
  Charge(value.text.size());
  if (value.text.size() > limits_.max_value_bytes) {
    ValueTooLong();
    value = CMakeValue::Unknown("a value longer than " + std::to_string(limits_.max_value_bytes) + " bytes");
  }
  return value;
}

CMakeValue Interpreter::UnknownResult(const std::string& command) const {
  CMakeSite s = rec_.Site();
  return CMakeValue::Unknown("the result of " + command + " at " + std::string(BaseName(s.file.str())) + ":" +
                             std::to_string(s.line) + ", which is never run");
}

void Interpreter::ValueTooLong() {
  Skip(rec_.Current() ? std::string(rec_.Current()->name) : "set",
       "a value longer than " + std::to_string(limits_.max_value_bytes) + " bytes is not evaluated");
}

// A command CMake does not know (neither built in nor defined by one of its modules) that no
// list file evaluated defined: decided only once every file that could have defined it was
// evaluated, the dependencies' too.
bool Interpreter::UnknownToCMake(const std::string& name) {
  if (IsCMakeCommand(name)) return false;
  if (dependency_seen_ && !foreign_targets_.located) return false;
  return !SkippedWhatMayDefineCommands();
}

bool Interpreter::SkippedWhatMayDefineCommands() {
  const std::vector<CMakeSkipped>& skipped = rec_.Out().skipped;
  return std::any_of(skipped.begin(), skipped.end(), [](const CMakeSkipped& s) {
    return s.command == "include" || s.command == "cmake_language";
  });
}

void Interpreter::NoteModuleIncluded(std::string_view module) {
  if (!modules_included_) return;
  const std::vector<std::string>& now = *modules_included_;
  if (std::find(now.begin(), now.end(), module) != now.end()) return;
  auto more = std::make_shared<std::vector<std::string>>(now);
  more->emplace_back(module);
  modules_included_ = std::move(more);
}

std::shared_ptr<const std::vector<std::string>> Interpreter::ModulesIncluded() {
  if (code_skipped_ || SkippedWhatMayDefineCommands()) return nullptr;
  return modules_included_;
}

// CMake's commands are global: a module's exist from its include() on, in whatever file ran
// it (sbml's config finds BZ2 through its own FindBZ2.cmake, which calls check_library_exists()
// and never includes CheckLibraryExists: a plain consumer stops there). CMake's own modules
// call each other's commands as they are loaded together, and are not judged here.
bool Interpreter::ModuleCommandMissing(const std::string& name) {
  return ModuleCommandDefined(name) == Tri::kFalse;
}

// The same knowledge answers if(COMMAND <module command>): ECM's ECMFindQmlModule guards its
// set_package_properties() by it, and a plain consumer, which never included FeatureSummary,
// skips that branch.
Tri Interpreter::ModuleCommandDefined(const std::string& name) {
  if (!IsModuleCommand(name) || InCMakeModuleDirectory(rec_.CurrentFile())) return Tri::kUnknown;
  const std::shared_ptr<const std::vector<std::string>> included = ModulesIncluded();
  if (!included) return Tri::kUnknown;
  return AnyModuleDefines(*included, name) ? Tri::kTrue : Tri::kFalse;
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
    return {std::string(arg.text)};
  }
  // Most arguments are plain words: nothing to expand, the text as written. (Two scans of the
  // text: find_first_of() looks each character up in the set, a call per character.)
  if (arg.text.find('$') == std::string::npos && arg.text.find('\\') == std::string::npos) {
    Charge(2 * arg.text.size());
    return {std::string(arg.text)};
  }
  VariableLookup vars = [this](std::string_view name) {
    const CMakeValue* v = vars_.Lookup(name);
    if (!v && in_condition_) NoteUnsetInCondition(name);
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
    } else if (v.text.find(';') == std::string::npos) {
      // One item, or none for an empty value: not split (a vector and a copy per argument).
      if (v.text.empty()) continue;
      Charge(kEntryWork);
      out.push_back({std::move(v), false});
    } else {
      std::vector<std::string> items = SplitList(v.text);
      Charge(items.size() * kEntryWork);
      for (std::string& item : items) out.push_back({{std::move(item)}, false});
    }
  }
  return out;
}

void Interpreter::NoteDependencyLoaded(const std::string& name, bool undecided) {
  ForeignTargets& f = foreign_targets_;
  if (!f.located) return;
  if (name.empty()) {  // a package whose name is not known here: anything may be defined
    f.loaded_partly = f.loaded_unevaluated = true;
    return;
  }
  const std::string key = ToLower(name);
  auto it = f.by_dependency.find(key);
  // One not among the located is not found, and defines nothing.
  if (it == f.by_dependency.end()) return;
  const auto& d = it->second;
  if (undecided || !d.known) f.loaded_partly = true;
  if (!undecided && !d.known && !d.evaluated && d.cmake_module)
    f.module_namespaces.merge(FindModuleNamespaces(name, d.targets));
  else if (undecided || (!d.known && !d.evaluated))
    f.loaded_unevaluated = true;
  if (!undecided && !d.known && d.evaluated) {
    f.partly_namespaces.merge(PartlyEvaluatedNamespaces(name, d.targets));
    f.loaded_partly_evaluated = true;
  }
  if (!undecided) f.loaded.insert(key);
}

void Interpreter::StoreMatches(const std::vector<std::string>& groups) {
  // ClearMatches: the variables up to the count stored last, when set and not empty.
  if (const CMakeValue* count = Get("CMAKE_MATCH_COUNT")) {
    const int n =
        count->known && !count->text.empty() && std::isdigit(static_cast<unsigned char>(count->text[0]))
            ? std::min(count->text[0] - '0', 9)
            : 9;
    for (int i = 0; i <= n; ++i)
      if (const CMakeValue* v = Get("CMAKE_MATCH_" + std::to_string(i)); v && !(v->known && v->text.empty()))
        Set("CMAKE_MATCH_" + std::to_string(i), {""});
    Set("CMAKE_MATCH_COUNT", {"0"});
  }
  // StoreMatches: the non-empty groups; the count is the highest of them.
  if (groups.empty()) return;
  size_t highest = 0;
  for (size_t i = 0; i < groups.size() && i < 10; ++i)
    if (!groups[i].empty()) {
      Set("CMAKE_MATCH_" + std::to_string(i), {groups[i]});
      highest = i;
    }
  Set("CMAKE_MATCH_COUNT", {std::to_string(highest)});
}

Interpreter::Resolution Interpreter::ResolveDependency(const CMakeDependency& d) {
  ForeignTargets& f = foreign_targets_;
  if (!f.resolver) {
    modules_included_ = nullptr;  // it may include any module (CMake's commands are global)
    return {};
  }
  const DependencyResolver::CallerScope caller{[this](std::string_view name) { return vars_.Lookup(name); },
                                               [this](std::string_view name) { return HasTarget(name); }};
  DependencyResolver::Answer a = f.resolver->Resolve(d, definitions_, caller);
  // Targets the dependency needed from a caller and this scope lacks as well: a caller of
  // this evaluation may have them (ignition-physics5-all defines the tpelib target that
  // ignition-physics5-tpe, found through tpe-plugin, checks for).
  if (a.absent_targets_tested)
    for (const std::string& name : *a.absent_targets_tested)
      if (!a.defined.targets.count(name) && !HasTarget(name)) NoteAbsentTarget(name);
  const std::string key = ToLower(d.name);
  if (a.counts) {
    // Asked for twice (other components), it defines what either call loads.
    auto [defined, first] = f.by_dependency.try_emplace(key);
    defined->second.targets = defined->second.targets.With(a.defined.targets);
    defined->second.known = (first || defined->second.known) && a.defined.known;
    defined->second.evaluated = (first || defined->second.evaluated) && a.defined.evaluated;
    defined->second.cmake_module = (first || defined->second.cmake_module) && a.defined.cmake_module;
  }
  if (a.package) f.packages[key] = std::move(*a.package);
  if (!a.modules_included)
    modules_included_ = nullptr;
  else
    for (const std::string& module : *a.modules_included) NoteModuleIncluded(module);
  return {a.absent, std::move(a.machine_variables), std::move(a.commands_from), std::move(a.caller_variables),
          std::move(a.caller_targets)};
}

// With a resolver, what the find_package() calls that ran so far define (cmFindPackageCommand
// loads a config when it is called, so a target it defines exists only after that call);
// without one, nothing is known of the dependencies.
Tri Interpreter::DependencyDefines(const std::string& name) const {
  const ForeignTargets& f = foreign_targets_;
  if (!f.located) return Tri::kUnknown;
  for (const std::string& d : f.loaded)
    if (f.by_dependency.at(d).targets.count(name)) return Tri::kTrue;
  if (!f.loaded_partly) return Tri::kFalse;
  if (f.loaded_unevaluated) return Tri::kUnknown;
  // Only dependencies evaluated in part are incomplete, and the name is in the namespace of
  // one: what it would define it defined where its evaluation reached (ignition-physics5-tpe's
  // Targets file tests ignition-physics5::ignition-physics5-tpelib, which nothing it finds
  // defines: CMake sets its _FOUND false).
  if (const std::string ns = TargetNamespace(name); !ns.empty() && f.partly_namespaces.count(ns))
    return Tri::kFalse;
  if (f.loaded_partly_evaluated || f.module_namespaces.count(TargetNamespaceOrName(name)))
    return Tri::kUnknown;
  // The others are CMake's Find modules, whose targets are in their own namespaces
  // (Halide_Python finds Python, then its Targets file tests Halide::Halide: CMake sets its
  // _FOUND false), as cmake-missing-target judges a link to a name outside them.
  return Tri::kFalse;
}

bool Interpreter::HasTarget(std::string_view name) const {
  const std::string n(name);
  return targets_.Has(n) || foreign_targets_.caller.count(n) || DependencyDefines(n) == Tri::kTrue;
}

Tri Interpreter::TargetExists(std::string_view name) {
  const std::string n(name);
  if (targets_.Find(n) || foreign_targets_.caller.count(n)) return Tri::kTrue;
  if (foreign_targets_.own.count(n) || absent_targets_.count(n)) return Tri::kFalse;
  if (!dependency_seen_) return NoteAbsentTarget(name), Tri::kFalse;
  if (Tri t = DependencyDefines(n); t != Tri::kUnknown) {
    if (t == Tri::kFalse) NoteAbsentTarget(name);
    return t;
  }
  // <Package>::x belongs to the package being loaded, not to a dependency.
  const CMakeValue* package = Get("CMAKE_FIND_PACKAGE_NAME");
  size_t colons = name.find("::");
  if (package && colons != std::string_view::npos &&
      ToLower(name.substr(0, colons)) == ToLower(package->text))
    return Tri::kFalse;
  foreign_targets_.asked = true;
  return Tri::kUnknown;
}

// Evaluated apart from a caller, these are where the caller's scope may decide otherwise
// (DependencyLocator::WithCallersScope).
void Interpreter::NoteUnsetInCondition(std::string_view name) {
  std::set<std::string>& names = rec_.Out().unset_in_conditions;
  if (names.size() < kMaxUnsetInConditions && !name.empty()) names.emplace(name);
}

// Likewise for targets (DependencyLocator::WithCallersScope): CMake's target table is the
// consumer's, holding what its find_package() calls before this one defined.
void Interpreter::NoteAbsentTarget(std::string_view name) {
  std::set<std::string>& names = rec_.Out().absent_targets_tested;
  if (names.size() < kMaxAbsentTargetsTested && !name.empty()) names.emplace(name);
}

ConditionResult Interpreter::Test(const ListFileCommand& cmd) {
  in_condition_ = true;
  Args args = Expand(cmd);
  in_condition_ = false;
  return Condition(args);
}

ConditionResult Interpreter::Condition(const Args& args) {
  ConditionContext c;
  c.variable = [this](std::string_view name) {
    const CMakeValue* v = Get(name);
    if (!v) NoteUnsetInCondition(name);
    return v;
  };
  c.exists = [this](const std::string& p) { return PathExists(p); };
  c.is_directory = [this](const std::string& p) {
    return InConsumerTree(NormalizePath(p)) ? Tri::kUnknown : files_.IsDirectory(p);
  };
  c.is_symlink = [this](const std::string& p) { return files_.IsSymlink(p); };
  c.target = [this](std::string_view name) { return TargetExists(name); };
  c.command = [this](std::string_view name) {
    const std::string key = ToLower(name);
    return definitions_.count(key) ? Tri::kTrue : ModuleCommandDefined(key);
  };
  c.charge = [this](size_t bytes) {
    Charge(bytes);
    return !OverBudget();
  };
  c.set_matches = [this](const std::vector<std::string>& groups) { StoreMatches(groups); };
  std::vector<ConditionArg> cargs;
  for (const Arg& a : args) cargs.push_back({a.value, a.quoted});
  return EvaluateCondition(std::move(cargs), c);
}

// ---- Files and commands -----------------------------------------------------------------

void Interpreter::NoteConsumerFile(const std::string& path) {
  const std::string p = NormalizePath(path);
  if (InConsumerTree(p)) consumer_files_.insert(p);
}

Tri Interpreter::PathExists(const std::string& path) const {
  const std::string p = NormalizePath(path);
  if (!InConsumerTree(p)) return files_.Exists(path);
  return consumer_files_.count(p) ? Tri::kTrue : Tri::kUnknown;
}

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
    program = files_.programs().Get(path, limits_.max_file_bytes, files_, &why);
    if (!program) {
      *failure = why;
      return Flow::kNormal;
    }
    programs_[path] = program;
  }
  if (!program->error.empty()) {
    rec_.Out().failures.push_back(
        {"parse error: " + program->error, {path, program->error_line}, rec_.Undecided()});
    return Flow::kStop;
  }
  if (rec_.FileDepth()) rec_.Out().included.push_back(path);

  const CMakeValue* old_file = Get("CMAKE_CURRENT_LIST_FILE");
  std::optional<CMakeValue> saved_file;
  if (old_file) saved_file = *old_file;
  Set("CMAKE_CURRENT_LIST_FILE", {path});
  Set("CMAKE_CURRENT_LIST_DIR", {DirName(path)});
  rec_.PushFile(program->file);  // shared by the sites of its commands
  const size_t mark = rec_.UndecidedMark();
  const ListFileCommand* saved_current = rec_.Current();

  Flow f = Exec(program, 0, program->commands.size());

  rec_.SetCurrent(saved_current);
  rec_.ResetUndecided(mark);
  rec_.PopFile();
  if (saved_file) Set("CMAKE_CURRENT_LIST_FILE", *saved_file);
  ListFileEnded();
  return f == Flow::kStop ? Flow::kStop : Flow::kNormal;
}

void Interpreter::ListFileEnded() {
  const CMakeValue* file = Get("CMAKE_CURRENT_LIST_FILE");
  if (!file) return;
  CMakeValue dir = file->known ? CMakeValue{DirName(file->text)} : *file;
  // Mostly it is so already: a write would be one more entry in every scope copied since.
  if (const CMakeValue* now = Get("CMAKE_CURRENT_LIST_DIR");
      now && *now == dir && now->maybe_unset == dir.maybe_unset)
    return;
  Set("CMAKE_CURRENT_LIST_DIR", std::move(dir));
}

bool Interpreter::StopsOverBudget(std::string_view command) {
  if (!OverBudget()) return false;
  SkipCode(std::string(command), "the evaluation stopped after " +
                                     std::to_string(limits_.max_work_bytes >> 20) +
                                     " MiB of values read, expanded, set and copied");
  return true;
}

Flow Interpreter::Command(const ListFileCommand& cmd) {
  const std::string n(cmd.name);
  Args args = Expand(cmd);
  if (auto it = definitions_.find(n); it != definitions_.end()) {
    Definition def = it->second;  // a copy: the body may redefine it
    return Call(def, args, rec_.Site(), n);
  }
  if (ModuleCommandMissing(n)) {
    // Recorded, and the evaluation goes on as for a consumer that included the module: a
    // caller that did (CMakeDependency::modules_included) gets what the config defines after.
    const std::string_view module = ModuleOfCommand(n);
    if (CMakeFailure* f =
            Fail("Unknown CMake command \"" + n + "\" (" + std::string(module) + " is not included).")) {
      f->module_command = n;
    }
    // CMake stops at the first; the module's commands are taken as defined from here on.
    NoteModuleIncluded(module);
  }
  if (CommandHandler handler = commands_(n)) return handler(*this, n, args);
  if (UnknownToCMake(n)) {
    if (CMakeFailure* f = Fail("Unknown CMake command \"" + n + "\".")) f->unknown_command = n;
    return Flow::kStop;  // cmMakefile stops the configure at it
  }
  return NotEvaluated(n);
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
    SkipCode(name, "calls nested deeper than " + std::to_string(limits_.max_depth));
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
    bind.Set("ARGV" + std::to_string(k), args[k].value);
  }
  for (size_t k = 0; k < def.params.size(); ++k)
    bind.Set(def.params[k], k < args.size() ? args[k].value : CMakeValue{});
  auto list = [&](const std::vector<std::string>& v) {
    return known ? CMakeValue{JoinList(v)} : CMakeValue::Unknown(why);
  };
  bind.Set("ARGC", {std::to_string(args.size())});
  bind.Set("ARGV", list(all));
  bind.Set("ARGN", list(rest));

  rec_.PushFrame(name, site, def.program->file);
  const ListFileCommand* saved_current = rec_.Current();
  Flow f;
  if (def.macro) {
    vars_.PushMacroArgs(std::move(bind));
    f = Exec(def.program, def.begin, def.end);
    vars_.PopMacroArgs();
  } else {
    vars_.Compact();
    VariableScopes::Variables scope = vars_.Current();
    bind.ForEach([&](const std::string& k, const CMakeValue& v) { scope.Set(k, v); });
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
