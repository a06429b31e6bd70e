// Commands that are recorded, never run: message() (FATAL_ERROR stops the configure),
// find_package/find_dependency (the dependency is noted; the check looks for its config),
// execute_process, try_compile, the find_* and check_* probes (their results are
// unknown), and commands with no effect on what a consumer imports.
#include <cctype>
#include <span>

#include "audit/cmake/cmake_modules.h"
#include "audit/cmake/evaluator.h"
#include "audit/cmake/lists.h"

namespace rocm_audit {
namespace {

// No effect on the targets, files or variables a consumer gets from the package.
constexpr std::string_view kNoEffect[] = {"cmake_policy",
                                          "cmake_minimum_required",
                                          "mark_as_advanced",
                                          "variable_watch",
                                          "define_property",
                                          "set_directory_properties",
                                          "set_source_files_properties",
                                          "include_directories",
                                          "add_definitions",
                                          "add_compile_options",
                                          "link_directories",
                                          "link_libraries",
                                          "set_package_properties",
                                          "feature_summary",
                                          "add_feature_info",
                                          "cmake_host_system_information",
                                          "project",
                                          "list_transform",
                                          "enable_testing",
                                          "remove_definitions",
                                          "set_tests_properties",
                                          "get_test_property",
                                          "site_name"};

// Probes of the consumer's toolchain or system: their result variable is unknown.
constexpr std::string_view kProbes[] = {
    "check_cxx_compiler_flag", "check_c_compiler_flag",     "check_compiler_flag",
    "check_include_file",      "check_include_file_cxx",    "check_include_files",
    "check_symbol_exists",     "check_cxx_symbol_exists",   "check_function_exists",
    "check_library_exists",    "check_cxx_source_compiles", "check_c_source_compiles",
    "check_cxx_source_runs",   "check_c_source_runs",       "check_source_compiles",
    "check_type_size",         "check_linker_flag",         "check_language"};

bool In(std::string_view name, std::span<const std::string_view> list) {
  for (std::string_view s : list)
    if (s == name) return true;
  return false;
}

}  // namespace

bool CMakeEvaluator::Recorded(const std::string& n, const std::vector<Arg>& a) {
  if (n == "cmake_policy" || n == "cmake_minimum_required") {
    // The policy version targets defined from here on are judged by: the end of a range
    // ("2.8.3...3.24" is 3.24), PUSH and POP around generated Targets files.
    const std::string first = a.empty() ? "" : a[0].value.text;
    if (n == "cmake_policy" && first == "PUSH") policy_versions_.push_back(policy_versions_.back());
    if (n == "cmake_policy" && first == "POP" && policy_versions_.size() > 1) policy_versions_.pop_back();
    if (first == "VERSION" && a.size() >= 2 && a[1].value.known) {
      const std::string& v = a[1].value.text;
      size_t dots = v.find("...");
      policy_versions_.back() = dots == std::string::npos ? v : v.substr(dots + 3);
    }
    return true;
  }
  if (n == "message") {
    if (a.empty()) return true;
    const std::string mode = a[0].quoted ? "" : a[0].value.text;
    if (mode != "FATAL_ERROR" && mode != "SEND_ERROR") return true;
    std::string text;
    bool known = true;
    for (size_t k = 1; k < a.size(); ++k) {
      text += a[k].value.text;
      known &= a[k].value.known;
    }
    if (!known) text += " (with values not known here)";
    Fail(text);
    if (mode == "FATAL_ERROR") stop_requested_ = true;
    return true;
  }
  if (n == "find_package" || n == "find_dependency") {
    if (a.empty() || !a[0].value.known) return true;
    CMakeDependency d;
    d.name = a[0].value.text;
    d.required = n == "find_dependency";
    d.site = UserSite();
    d.undecided = Undecided();
    std::string collecting;
    for (size_t k = 1; k < a.size(); ++k) {
      const std::string& t = a[k].value.text;
      if (t == "REQUIRED")
        d.required = true;
      else if (t == "HINTS" || t == "PATHS" || t == "COMPONENTS" || t == "OPTIONAL_COMPONENTS" ||
               t == "NAMES" || t == "CONFIGS" || t == "PATH_SUFFIXES")
        collecting = t;
      else if (t == "EXACT") {
        d.exact = true;
        collecting.clear();
      } else if (t == "QUIET" || t == "MODULE" || t == "CONFIG" || t == "NO_MODULE" || t.starts_with("NO_") ||
                 t == "GLOBAL") {
        collecting.clear();
      } else if (collecting == "HINTS" || collecting == "PATHS") {
        if (a[k].value.known) d.hints.push_back(t);
      } else if (k == 1 && collecting.empty() && !t.empty() &&
                 std::isdigit(static_cast<unsigned char>(t[0]))) {
        d.version = t;
      }
    }
    dependency_seen_ = true;
    out_.dependencies.push_back(d);
    // The dependency's own defects are its own findings: here it is taken as found when
    // required (a missing one is reported by the dependency check), unknown otherwise.
    Set(d.name + "_FOUND", d.required || n == "find_dependency"
                               ? CMakeValue{"1"}
                               : CMakeValue::Unknown("whether the consumer has " + d.name));
    return true;
  }
  if (n == "execute_process") {
    std::string command;
    for (size_t k = 0; k < a.size(); ++k) {
      const std::string& t = a[k].value.text;
      if (t.ends_with("_VARIABLE") && k + 1 < a.size())
        Set(a[k + 1].value.text, UnknownResult("execute_process"));
      if (t == "COMMAND" && k + 1 < a.size() && command.empty())
        command = a[k + 1].value.known ? a[k + 1].value.text : "<" + a[k + 1].value.why + ">";
    }
    Skip("execute_process", "never run (" + command + "); its output is unknown");
    return true;
  }
  if (n == "find_program" || n == "find_library" || n == "find_path" || n == "find_file") {
    if (!a.empty() && a[0].value.known) {
      const CMakeValue* old = Get(a[0].value.text);
      if (!old || IsFalseConstant(old->text)) Set(a[0].value.text, UnknownResult(n));
    }
    return true;
  }
  if (n == "try_compile" || n == "try_run") {
    if (!a.empty()) Set(a[0].value.text, UnknownResult(n));
    if (n == "try_run" && a.size() > 1) Set(a[1].value.text, UnknownResult(n));
    Skip(n, "never run; its result is unknown");
    return true;
  }
  if (In(n, kProbes)) {
    // check_cxx_compiler_flag(<flag> <var>), check_include_file(<file> <var>), ...: the
    // result variable is the last plain argument before any options.
    if (a.size() >= 2)
      Set(a[n == "check_symbol_exists" || n == "check_cxx_symbol_exists" ? 2 : 1].value.text,
          UnknownResult(n));
    return true;
  }
  if (n == "processorcount" || n == "get_directory_property" || n == "get_cmake_property" ||
      (n == "get_property" && !(a.size() >= 2 && a[1].value.text == "TARGET")) ||
      n == "get_source_file_property" || n == "cmake_host_system_information") {
    if (!a.empty()) Set(a[0].value.text, UnknownResult(n));
    return true;
  }
  if (n == "find_package_handle_standard_args") {
    // Sets <Name>_FOUND from the variables it is given; the configs here give known ones.
    if (!a.empty())
      Set(ToUpper(a[0].value.text) + "_FOUND", CMakeValue::Unknown("find_package_handle_standard_args"));
    return true;
  }
  if (n == "enable_language" || n == "add_custom_target" || n == "add_custom_command" ||
      n == "add_dependencies" || n == "install" || n == "configure_file" || n == "add_test" ||
      n == "add_subdirectory" || n == "export" || n == "write_basic_package_version_file" ||
      n == "configure_package_config_file") {
    Skip(n, "changes the consumer's build; not evaluated");
    return true;
  }
  return In(n, kNoEffect);
}

}  // namespace rocm_audit
