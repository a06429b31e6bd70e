#include "audit/cmake/variable_scopes.h"

namespace rocm_audit {

const CMakeValue* VariableScopes::Get(std::string_view name) const {
  const Variables& scope = scopes_.back();
  auto it = scope.find(std::string(name));
  return it == scope.end() ? nullptr : &it->second;
}

const CMakeValue* VariableScopes::Lookup(std::string_view name) const {
  if (!macro_args_.empty()) {
    auto it = macro_args_.back().find(std::string(name));
    if (it != macro_args_.back().end()) return &it->second;
  }
  return Get(name);
}

void VariableScopes::Set(const std::string& name, CMakeValue value, bool parent_scope) {
  if (parent_scope) {
    if (scopes_.size() > 1) scopes_[scopes_.size() - 2][name] = std::move(value);
    return;
  }
  scopes_.back()[name] = std::move(value);
}

void VariableScopes::Unset(const std::string& name, bool parent_scope) {
  if (parent_scope) {
    if (scopes_.size() > 1) scopes_[scopes_.size() - 2].erase(name);
    return;
  }
  scopes_.back().erase(name);
}

size_t VariableScopes::CopyCost(const Variables& scope) {
  size_t bytes = 0;
  for (const auto& [name, value] : scope)
    bytes += name.size() + value.text.size() + value.why.size() + kEntryWork;
  return bytes;
}

size_t VariableScopes::CopyCost() const {
  size_t bytes = 0;
  for (const Variables& s : scopes_) bytes += CopyCost(s);
  for (const Variables& s : macro_args_) bytes += CopyCost(s);
  return bytes;
}

VariableScopes::Variables VariableScopes::Pop() {
  Variables inner = std::move(scopes_.back());
  scopes_.pop_back();
  return inner;
}

void VariableScopes::Merge(const VariableScopes& other, const std::string& why) {
  for (size_t s = 0; s < scopes_.size() && s < other.scopes_.size(); ++s) {
    Variables& mine = scopes_[s];
    for (auto& [name, value] : other.scopes_[s]) {
      auto it = mine.find(name);
      if (it == mine.end() || !(it->second == value)) mine[name] = CMakeValue::Unknown(why);
    }
    for (auto& [name, value] : mine)
      if (!other.scopes_[s].count(name) && value.known) value = CMakeValue::Unknown(why);
  }
}

}  // namespace rocm_audit
