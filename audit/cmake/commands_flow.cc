// return, break, continue, include, include_guard, cmake_language(CALL): the commands that
// end a block or run another list file or function.
#include "audit/cmake/cmake_modules.h"
#include "audit/cmake/commands.h"
#include "audit/cmake/consumer_dirs.h"
#include "audit/cmake/lists.h"
#include "audit/fs/path.h"

namespace rocm_audit {

Flow ReturnCommand(Interpreter&, const std::string&, const Args&) { return Flow::kReturn; }
Flow BreakCommand(Interpreter&, const std::string&, const Args&) { return Flow::kBreak; }
Flow ContinueCommand(Interpreter&, const std::string&, const Args&) { return Flow::kContinue; }

// A second include of a guarded file returns at once.
Flow IncludeGuardCommand(Interpreter& in, const std::string&, const Args&) {
  return in.Guard() ? Flow::kReturn : Flow::kNormal;
}

Flow CMakeLanguageCommand(Interpreter& in, const std::string& name, const Args& a) {
  if (a.size() >= 2 && a[0].value.text == "CALL" && a[1].value.known) {
    Flow f = Flow::kNormal;
    if (in.CallIfDefined(ToLower(a[1].value.text), Args(a.begin() + 2, a.end()), &f)) return f;
  }
  return in.NotEvaluated(name);
}

Flow IncludeCommand(Interpreter& in, const std::string&, const Args& a) {
  if (a.empty()) return Flow::kNormal;
  bool optional = false;
  std::string result_var;
  for (size_t k = 1; k < a.size(); ++k) {
    if (a[k].value.text == "OPTIONAL") optional = true;
    if (a[k].value.text == "RESULT_VARIABLE" && k + 1 < a.size()) result_var = a[++k].value.text;
  }
  const CMakeValue& name = a[0].value;
  auto result = [&](CMakeValue v) {
    if (!result_var.empty()) in.Set(result_var, std::move(v));
  };
  if (!name.known) {
    in.Skip("include", "an include of a file not known here (" + name.why + ")");
    result(CMakeValue::Unknown(name.why));
    return Flow::kNormal;
  }
  std::string path = name.text;
  if (path.empty() || path[0] != '/') {
    // A module: CMAKE_MODULE_PATH first, then CMake's own modules.
    if (const CMakeValue* mp = in.Get("CMAKE_MODULE_PATH"); mp && mp->known)
      for (const std::string& dir : SplitList(mp->text))
        if (in.files().Exists(dir + "/" + path + ".cmake") == Tri::kTrue) {
          path = CollapsePath(dir + "/" + path + ".cmake");
          break;
        }
    if (path.empty() || path[0] != '/') {
      if (IsCMakeModule(path)) {
        in.NoteModuleIncluded(path);
        in.ListFileEnded();
        result({std::string(kCMakeRoot) + "/Modules/" + path + ".cmake"});
        return Flow::kNormal;
      }
      // A module name (no '/', no ".cmake") found nowhere: CMake then opens a file of that very
      // name in the consumer's source directory, which has none, and the configure fails
      // (KPim6Akonadi's include(ECMMarkAsTest), with no ECM in the module path).
      const CMakeValue* mp = in.Get("CMAKE_MODULE_PATH");
      if (!optional && (!mp || (mp->known && !mp->maybe_unset)) && path.find('/') == std::string::npos &&
          !path.ends_with(".cmake")) {
        if (CMakeFailure* f =
                in.Fail("include could not find requested file:\n  " + path +
                        "\n(no module of that name in CMAKE_MODULE_PATH or CMake's own modules)"))
          f->module_not_found = path;
        result({path + "-NOTFOUND"});
        return Flow::kNormal;
      }
      in.Skip("include",
              "include(" + path + "): neither a module of CMake " + std::string(kCMakeVersion) +
                  " nor in CMAKE_MODULE_PATH; it would be looked up in the consumer's source directory");
      result({path + "-NOTFOUND"});
      return Flow::kNormal;
    }
  }
  path = CollapsePath(path);
  if (std::string_view module = CMakeModuleOfFile(path); !module.empty()) {
    in.NoteModuleIncluded(module);
    result({path});  // as include(<Module>): CMake's module commands are the evaluator's own
    return Flow::kNormal;
  }
  if (InConsumerTree(NormalizePath(path))) {
    in.Skip("include", "include(" + path +
                           "): a file the consumer's configure generates in its own tree; not "
                           "evaluated");
    result(CMakeValue::Unknown("a file of the consumer's build (" + path + ")"));
    return Flow::kNormal;
  }
  if (in.files().Exists(path) != Tri::kTrue) {
    if (CMakeReference* r = in.Reference(path, "include", {}, optional)) r->result_variable = result_var;
    result({path + "-NOTFOUND"});
    return Flow::kNormal;
  }
  result({path});
  in.Reference(path, "include", {}, optional);
  std::string failure;
  Flow f = in.RunFile(path, &failure);
  if (!failure.empty()) in.Fail("include(" + HostPath(path) + "): the file " + failure);
  return f;
}

}  // namespace rocm_audit
