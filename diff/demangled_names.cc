#include "diff/demangled_names.h"

#include <cstdlib>
#include <map>
#include <string_view>

#include <llvm/Demangle/Demangle.h>

namespace rocm_audit {
namespace {

// As checks/undefined_symbols.cc: ItaniumDemangle.h recurses once per level of nesting with no
// depth bound; a longer name stays mangled.
constexpr size_t kMaxDemangledName = 4096;

std::string Take(char* text) {
  if (!text) return "";
  std::string out(text);
  std::free(text);
  return out;
}

// The scope of a demangled data or special name: a vtable's class ("vtable for ns::C" ->
// "ns::C"), else what precedes the last "::" outside template arguments.
std::string TextScope(std::string_view name) {
  if (const size_t f = name.find(" for "); f != std::string_view::npos)
    return std::string(name.substr(f + 5));
  int depth = 0;
  size_t last = std::string_view::npos;
  for (size_t i = 0; i + 1 < name.size(); ++i) {
    if (name[i] == '<' || name[i] == '(') ++depth;
    if ((name[i] == '>' || name[i] == ')') && depth > 0) --depth;
    if (depth == 0 && name[i] == ':' && name[i + 1] == ':') last = i;
  }
  return last == std::string_view::npos ? "" : std::string(name.substr(0, last));
}

// {scope, demangled name} of one mangled name, or {"", name} when it is none.
std::pair<std::string, std::string> Demangle(std::string_view name) {
  if (!name.starts_with("_Z") || name.size() > kMaxDemangledName) return {"", std::string(name)};
  llvm::ItaniumPartialDemangler d;
  const std::string mangled(name);
  if (d.partialDemangle(mangled.c_str())) return {"", mangled};  // true: not demangled
  size_t n = 0;
  std::string full = Take(d.finishDemangle(nullptr, &n));
  if (full.empty()) return {"", mangled};
  if (d.isFunction() && !d.isSpecialName()) return {Take(d.getFunctionDeclContextName(nullptr, &n)), full};
  return {TextScope(full), full};
}

}  // namespace

std::vector<ScopeGroup> GroupByScope(const std::vector<std::string>& symbols) {
  std::map<std::string, std::vector<std::string>> by_scope;
  for (const std::string& s : symbols) {
    const size_t at = s.find('@');
    auto [scope, name] = Demangle(std::string_view(s).substr(0, at));
    if (at != std::string::npos) name += s.substr(at);
    by_scope[scope].push_back(std::move(name));
  }
  std::vector<ScopeGroup> out;
  for (auto& [scope, names] : by_scope) out.push_back({scope, std::move(names)});
  return out;
}

}  // namespace rocm_audit
