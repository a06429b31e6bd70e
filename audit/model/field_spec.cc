#include "audit/model/field_spec.h"

#include <cctype>
#include <cstdlib>

namespace rocm_audit {
namespace {

// A recursive-descent parser over the declaration language of field_spec.h.
class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  bool Fields(std::vector<FieldSpec>* out, char close) {
    while (true) {
      while (Peek() == ' ') ++at_;
      if (at_ == text_.size() || Peek() == close) return true;
      FieldSpec spec;
      size_t start = at_;
      while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(Peek())) || Peek() == '_')) ++at_;
      if (at_ == start) return Fail("a field name");
      spec.name = std::string(text_.substr(start, at_ - start));
      if (Peek() == '?') {
        spec.optional = true;
        ++at_;
      }
      if (!Eat(':') || !Type(&spec.type)) return false;
      out->push_back(std::move(spec));
    }
  }

  bool Type(FieldType* type) {
    do {
      FieldType::One one;
      if (!One(&one)) return false;
      type->alternatives.push_back(std::move(one));
    } while (Peek() == '|' && ++at_);
    return true;
  }

  bool AtEnd() const { return at_ == text_.size(); }
  std::string error;

 private:
  bool One(FieldType::One* one) {
    static const std::pair<std::string_view, FieldType::Kind> kWords[] = {
        {"string", FieldType::kString}, {"path", FieldType::kPath}, {"integer", FieldType::kInteger},
        {"number", FieldType::kNumber}, {"bool", FieldType::kBool}, {"null", FieldType::kNull},
        {"any", FieldType::kAny}};
    if (Peek() == '[') {
      ++at_;
      one->kind = FieldType::kArray;
      one->element.emplace_back();
      return Type(&one->element[0]) && Eat(']');
    }
    if (Peek() == '{') {
      ++at_;
      if (text_.substr(at_, 2) == "*:") {
        at_ += 2;
        one->kind = FieldType::kMap;
        one->element.emplace_back();
        return Type(&one->element[0]) && Eat('}');
      }
      one->kind = FieldType::kObject;
      return Fields(&one->members, '}') && Eat('}');
    }
    for (const auto& [word, kind] : kWords)
      if (text_.substr(at_, word.size()) == word) {
        at_ += word.size();
        one->kind = kind;
        return true;
      }
    return Fail("a type");
  }

  char Peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }
  bool Eat(char c) {
    if (Peek() != c) return Fail(std::string("'") + c + "'");
    ++at_;
    return true;
  }
  bool Fail(const std::string& expected) {
    error = "expected " + expected + " at column " + std::to_string(at_ + 1) + " of \"" + std::string(text_) +
            "\"";
    return false;
  }

  std::string_view text_;
  size_t at_ = 0;
};

bool ConformsToOne(const nlohmann::ordered_json& v, const FieldType::One& one, std::string* why) {
  switch (one.kind) {
    case FieldType::kString:
    case FieldType::kPath: return v.is_string();
    case FieldType::kInteger: return v.is_number_integer();
    case FieldType::kNumber: return v.is_number();
    case FieldType::kBool: return v.is_boolean();
    case FieldType::kNull: return v.is_null();
    case FieldType::kAny: return true;
    case FieldType::kArray:
      if (!v.is_array()) return false;
      for (size_t i = 0; i < v.size(); ++i)
        if (!Conforms(v[i], one.element[0], why)) {
          *why = "[" + std::to_string(i) + "]" + *why;
          return false;
        }
      return true;
    case FieldType::kMap:
      if (!v.is_object()) return false;
      for (const auto& [k, e] : v.items())
        if (!Conforms(e, one.element[0], why)) {
          *why = "." + k + *why;
          return false;
        }
      return true;
    case FieldType::kObject: {
      if (!v.is_object()) return false;
      size_t known = 0;
      for (const FieldSpec& m : one.members) {
        auto it = v.find(m.name);
        if (it == v.end()) {
          if (m.optional) continue;
          *why = "." + m.name + ": missing";
          return false;
        }
        ++known;
        if (!Conforms(*it, m.type, why)) {
          *why = "." + m.name + *why;
          return false;
        }
      }
      if (known != v.size()) {
        *why = ": members not declared";
        return false;
      }
      return true;
    }
  }
  return false;
}

}  // namespace

bool ParseFieldSpecs(std::string_view text, std::vector<FieldSpec>* out, std::string* error) {
  Parser parser(text);
  if (parser.Fields(out, '\0') && parser.AtEnd()) return true;
  *error = parser.error.empty() ? "unexpected text in \"" + std::string(text) + "\"" : parser.error;
  return false;
}

std::vector<FieldSpec> FieldSpecs(std::string_view text) {
  std::vector<FieldSpec> out;
  std::string error;
  if (!ParseFieldSpecs(text, &out, &error)) std::abort();  // the rules' declarations are tested
  return out;
}

bool Conforms(const nlohmann::ordered_json& value, const FieldType& type, std::string* why) {
  std::string inner;
  for (const FieldType::One& one : type.alternatives) {
    inner.clear();
    if (ConformsToOne(value, one, &inner)) return true;
  }
  *why = inner.empty() ? ": " + value.dump().substr(0, 60) + " is not " + TypeText(type) : inner;
  return false;
}

std::string TypeText(const FieldType& type) {
  std::string out;
  for (const FieldType::One& one : type.alternatives) {
    if (!out.empty()) out += "|";
    switch (one.kind) {
      case FieldType::kString: out += "string"; break;
      case FieldType::kPath: out += "path"; break;
      case FieldType::kInteger: out += "integer"; break;
      case FieldType::kNumber: out += "number"; break;
      case FieldType::kBool: out += "bool"; break;
      case FieldType::kNull: out += "null"; break;
      case FieldType::kAny: out += "any"; break;
      case FieldType::kArray: out += "[" + TypeText(one.element[0]) + "]"; break;
      case FieldType::kMap: out += "{*:" + TypeText(one.element[0]) + "}"; break;
      case FieldType::kObject: {
        out += "{";
        for (size_t i = 0; i < one.members.size(); ++i)
          out += (i ? " " : "") + one.members[i].name + (one.members[i].optional ? "?:" : ":") +
                 TypeText(one.members[i].type);
        out += "}";
        break;
      }
    }
  }
  return out;
}

}  // namespace rocm_audit
