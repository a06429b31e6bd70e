#include "audit/cmake/assigned_variables.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>

namespace rocm_audit {
namespace {

// A name as a list file writes one outright: letters, digits and underscores.
bool IsPlainName(const ListFileArgument& a) {
  if (a.kind == ListFileArgument::kBracket || a.text.empty()) return false;
  return std::all_of(a.text.begin(), a.text.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// A name a module leaves its caller: not one of CMake's own settings (saved and restored
// around a search) and not a scratch name.
bool IsResultName(std::string_view name) {
  return !name.empty() && name[0] != '_' && !name.starts_with("CMAKE_");
}

// The index of the output argument of string(<mode> ...), from the signatures of CMake's
// string() documentation; nullopt for a mode that writes none or whose output is last.
std::optional<size_t> StringOutput(std::string_view mode, std::string_view sub, size_t n) {
  if (mode == "REGEX") return sub == "REPLACE" ? 4 : 3;  // MATCH, MATCHALL: <regex> <out>
  if (mode == "APPEND" || mode == "PREPEND" || mode == "CONCAT" || mode == "TIMESTAMP" || mode == "UUID" ||
      mode == "JSON" || mode == "MD5" || mode.starts_with("SHA"))
    return 1;
  if (mode == "JOIN" || mode == "TOLOWER" || mode == "TOUPPER" || mode == "LENGTH" || mode == "STRIP" ||
      mode == "GENEX_STRIP" || mode == "HEX" || mode == "CONFIGURE" || mode == "MAKE_C_IDENTIFIER")
    return 2;
  if (mode == "FIND" || mode == "REPLACE" || mode == "REPEAT") return 3;
  if (mode == "SUBSTRING" || mode == "COMPARE") return 4;
  if (mode == "ASCII" || mode == "RANDOM") return n - 1;
  return std::nullopt;
}

// The output arguments of one command, by CMake's signature of it.
void OutputsOf(const ListFileCommand& c, std::vector<const ListFileArgument*>& out) {
  const auto& a = c.args;
  auto at = [&](size_t k) {
    if (k < a.size()) out.push_back(&a[k]);
  };
  const std::string_view n = c.name;
  const std::string_view mode = a.empty() ? "" : std::string_view(a[0].text);
  static constexpr std::array<std::string_view, 12> kFirst = {"set",
                                                              "option",
                                                              "find_path",
                                                              "find_library",
                                                              "find_program",
                                                              "find_file",
                                                              "get_property",
                                                              "get_filename_component",
                                                              "get_target_property",
                                                              "get_cmake_property",
                                                              "separate_arguments",
                                                              "get_directory_property"};
  if (std::find(kFirst.begin(), kFirst.end(), n) != kFirst.end()) {
    at(0);
  } else if (n == "math") {
    at(1);
  } else if (n == "list" && a.size() >= 2) {
    if (mode == "LENGTH" || mode == "GET" || mode == "JOIN" || mode == "SUBLIST" || mode == "FIND")
      at(a.size() - 1);
    else
      at(1);
  } else if (n == "string" && !a.empty()) {
    if (auto k = StringOutput(mode, a.size() > 1 ? std::string_view(a[1].text) : "", a.size())) at(*k);
  } else if (n == "file" && !a.empty()) {
    if (mode == "GLOB" || mode == "GLOB_RECURSE" || mode == "RELATIVE_PATH") at(1);
    if (mode == "READ" || mode == "STRINGS" || mode == "TO_CMAKE_PATH" || mode == "TO_NATIVE_PATH" ||
        mode == "REAL_PATH" || mode == "SIZE" || mode == "READ_SYMLINK")
      at(2);
  } else if (n == "execute_process") {
    for (size_t k = 0; k + 1 < a.size(); ++k)
      if (a[k].text == "OUTPUT_VARIABLE" || a[k].text == "ERROR_VARIABLE" || a[k].text == "RESULT_VARIABLE" ||
          a[k].text == "RESULTS_VARIABLE")
        at(k + 1);
  }
}

}  // namespace

std::vector<std::string> DocumentedResultVariables(std::string_view text) {
  std::vector<std::string> names;
  constexpr std::string_view kTitle = "\nResult Variables\n";
  size_t at = text.find(kTitle);
  if (at == std::string_view::npos) return names;
  at += kTitle.size();
  // The section ends at the next title (a line underlined with ^, -, = or ~) or the comment's end.
  size_t end = text.find("#]", at);
  if (end == std::string_view::npos) end = text.size();
  size_t line = text.find('\n', at);  // past the title's own underline
  while (line != std::string_view::npos && line < end) {
    const size_t next = text.find('\n', line + 1);
    if (next == std::string_view::npos) break;
    const std::string_view under = text.substr(line + 1, next - line - 1);
    if (under.size() >= 3 && under.find_first_not_of(under[0]) == std::string_view::npos &&
        std::string_view("^-=~").find(under[0]) != std::string_view::npos && line > at) {
      end = std::min(end, text.rfind('\n', line - 1));
      break;
    }
    line = next;
  }
  const std::string_view section = text.substr(at, end - at);
  for (size_t open = section.find("``"); open != std::string_view::npos;) {
    const size_t close = section.find("``", open + 2);
    if (close == std::string_view::npos) break;
    const std::string_view name = section.substr(open + 2, close - open - 2);
    ListFileArgument a{name};
    if (IsPlainName(a) && IsResultName(name)) names.emplace_back(name);
    open = section.find("``", close + 2);
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::vector<std::string> VariablesItMaySet(const Program& p) {
  std::vector<std::string> names;
  std::vector<const ListFileArgument*> outputs;
  for (size_t i = 0; i < p.commands.size(); ++i) {
    const ListFileCommand& c = p.commands[i];
    // A function's variables are its own scope's (PARENT_SCOPE aside, rare in Find modules).
    if (c.name == "function" && i < p.end.size() && p.end[i] < p.commands.size()) {
      i = p.end[i];
      continue;
    }
    outputs.clear();
    OutputsOf(c, outputs);
    for (const ListFileArgument* a : outputs)
      if (IsPlainName(*a) && IsResultName(a->text)) names.emplace_back(a->text);
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace rocm_audit
