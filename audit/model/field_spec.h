// The declared shape of a finding's fields (Rule::fields): a small type language, so that
// renderers emit exactly the declared fields in the declared order, paths are found and shown
// one way, and tests hold every finding and the JSON Schema against the declarations.
//
//   fields := field (' ' field)*          field := name ['?'] ':' type     ('?': may be absent)
//   type   := one ('|' one)*              one   := string | path | integer | number | bool |
//                                                  null | any | '[' type ']' | '{' fields '}' |
//                                                  '{*:' type '}'   (an object with any keys)
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace rocm_audit {

struct FieldSpec;

struct FieldType {
  enum Kind { kString, kPath, kInteger, kNumber, kBool, kNull, kAny, kArray, kObject, kMap };
  /// The alternatives (one for most fields; `string|null` has two).
  struct One {
    Kind kind = kAny;
    std::vector<FieldType> element;  ///< kArray, kMap: the element type (one entry)
    std::vector<FieldSpec> members;  ///< kObject: the members, in order
  };
  std::vector<One> alternatives;
};

struct FieldSpec {
  std::string name;
  bool optional = false;
  FieldType type;
};

/// Parses a declaration; false with `error` when it is malformed.
[[nodiscard]] bool ParseFieldSpecs(std::string_view text, std::vector<FieldSpec>* out, std::string* error);
/// ParseFieldSpecs for declarations known to be valid (the rules' own; a test parses them all).
std::vector<FieldSpec> FieldSpecs(std::string_view text);

/// Whether `value` has `type`; `why` says where it does not.
[[nodiscard]] bool Conforms(const nlohmann::ordered_json& value, const FieldType& type, std::string* why);

/// Calls `show` on every string of `value` that `type` declares a path, replacing it.
template <typename Show>
void ForEachPath(nlohmann::ordered_json& value, const FieldType& type, const Show& show);

/// `type` written back in the declaration language.
std::string TypeText(const FieldType& type);

// ---------------------------------------------------------------------------------------

template <typename Show>
void ForEachPath(nlohmann::ordered_json& value, const FieldType& type, const Show& show) {
  for (const FieldType::One& one : type.alternatives) {
    switch (one.kind) {
      case FieldType::kPath:
        if (value.is_string()) {
          value = show(value.get<std::string>());
          return;
        }
        break;
      case FieldType::kArray:
        if (value.is_array()) {
          for (auto& e : value) ForEachPath(e, one.element[0], show);
          return;
        }
        break;
      case FieldType::kMap:
        if (value.is_object()) {
          for (auto& [k, v] : value.items()) ForEachPath(v, one.element[0], show);
          return;
        }
        break;
      case FieldType::kObject:
        if (value.is_object()) {
          for (const FieldSpec& m : one.members)
            if (auto it = value.find(m.name); it != value.end()) ForEachPath(*it, m.type, show);
          return;
        }
        break;
      default: break;
    }
  }
}

}  // namespace rocm_audit
