#include "audit/cmake/variable_scopes.h"

namespace rocm_audit {

const CMakeValue* VariableScopes::Get(std::string_view name) const {
  if (const CMakeValue* v = scopes_.back().Find(name)) return v;
  return cache_.Find(name);
}

const CMakeValue* VariableScopes::Lookup(std::string_view name) const {
  if (!macro_args_.empty())
    if (const CMakeValue* v = macro_args_.back().Find(name)) return v;
  return Get(name);
}

void VariableScopes::Set(const std::string& name, CMakeValue value, bool parent_scope) {
  if (parent_scope) {
    if (scopes_.size() > 1) scopes_[scopes_.size() - 2].Set(name, std::move(value));
    return;
  }
  scopes_.back().Set(name, std::move(value));
}

void VariableScopes::Unset(const std::string& name, bool parent_scope) {
  if (parent_scope) {
    if (scopes_.size() > 1) scopes_[scopes_.size() - 2].Erase(name);
    return;
  }
  scopes_.back().Erase(name);
}

void VariableScopes::SetCache(const std::string& name, CMakeValue value, bool force) {
  if (force || !cache_.Find(name)) cache_.Set(name, std::move(value));
  scopes_.back().Erase(name);
}

VariableScopes::Variables VariableScopes::TakeTop() {
  Variables out = std::move(scopes_.front());
  cache_.ForEach([&](const std::string& name, const CMakeValue& value) {
    if (!out.Find(name)) out.Set(name, value);
  });
  return out;
}

size_t VariableScopes::CopyCost() const {
  size_t bytes = CopyCost(cache_);
  for (const Variables& s : scopes_) bytes += CopyCost(s);
  for (const Variables& s : macro_args_) bytes += CopyCost(s);
  return bytes;
}

VariableScopes::Variables VariableScopes::Pop() {
  Variables inner = std::move(scopes_.back());
  scopes_.pop_back();
  return inner;
}

// Per name, as merging every entry did: one `other` sets differently (or `mine` lacks) is
// unknown; one only `mine` sets stays only when it was unknown already. Copies made at the same
// if() share their map, so only the names either changed since can differ.
void VariableScopes::Merge(const VariableScopes& other, const std::string& why) {
  for (size_t s = 0; s < scopes_.size() && s < other.scopes_.size(); ++s)
    MergeScope(scopes_[s], other.scopes_[s], why);
  MergeScope(cache_, other.cache_, why);
}

void VariableScopes::MergeScope(Variables& mine, const Variables& theirs, const std::string& why) {
  std::vector<std::string> names;
  mine.ForEachMaybeDifferent(theirs, [&](const std::string& name) { names.push_back(name); });
  for (const std::string& name : names) {
    const CMakeValue* a = mine.Find(name);
    const CMakeValue* b = theirs.Find(name);
    if (!a && !b) continue;
    const bool maybe_unset = !a || !b || a->maybe_unset || b->maybe_unset;
    if (a && b && *a == *b && a->maybe_unset == maybe_unset) continue;
    // Different values are unknown; one the other path leaves unset is also maybe unset.
    CMakeValue merged = a && !a->known ? *a : CMakeValue::Unknown(why);
    merged.maybe_unset = maybe_unset;
    mine.Set(name, std::move(merged));
  }
}

}  // namespace rocm_audit
