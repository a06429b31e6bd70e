// The typed contract of findings: each rule declares its fields (Rule::fields); every
// finding the fixture trees produce has exactly those, in that order, of those types; and
// docs/report.schema.json says the same of every check.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "audit/model/field_spec.h"
#include "cli/options.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

using Json = nlohmann::ordered_json;

const char* const kEnvelope[] = {"check", "severity", "file",       "message",
                                 "hint",  "key",      "suppressed", "repeated"};

bool IsEnvelope(const std::string& name) {
  for (const char* e : kEnvelope)
    if (name == e) return true;
  return false;
}

std::map<std::string, std::vector<FieldSpec>> DeclaredFields() {
  std::map<std::string, std::vector<FieldSpec>> out;
  for (const Rule& r : KnownRules()) out[std::string(r.id)] = FieldSpecs(r.fields);
  return out;
}

TEST(DeclaredFields, TheLanguageParsesNestedTypesAndRefusesMalformedOnes) {
  std::vector<FieldSpec> specs;
  std::string error;
  ASSERT_TRUE(ParseFieldSpecs("a:string b?:[{x:path y?:integer}] c:[string]|{*:[path]} d:string|null", &specs,
                              &error))
      << error;
  ASSERT_EQ(specs.size(), 4u);
  EXPECT_TRUE(specs[1].optional);
  EXPECT_EQ(TypeText(specs[1].type), "[{x:path y?:integer}]");
  EXPECT_EQ(TypeText(specs[2].type), "[string]|{*:[path]}");
  EXPECT_TRUE(Conforms(Json::parse(R"({"libx.so.1": ["a"], "libx.so.2": ["b"]})"), specs[2].type, &error));
  EXPECT_FALSE(Conforms(Json::parse(R"([{"x": "p", "z": 1}])"), specs[1].type, &error));
  EXPECT_THAT(error, HasSubstr("not declared"));
  EXPECT_FALSE(Conforms(Json(3), specs[3].type, &error));
  for (const char* bad : {"a", "a:", "a:strin", "a:[string", "a:{x:path", "a:string b:[]"}) {
    specs.clear();
    EXPECT_FALSE(ParseFieldSpecs(bad, &specs, &error)) << bad;
  }
}

TEST(DeclaredFields, EveryRuleDeclaresTheFieldsItsKeysAndCausesName) {
  for (const Rule& r : KnownRules()) {
    std::vector<FieldSpec> specs;
    std::string error;
    ASSERT_TRUE(ParseFieldSpecs(r.fields, &specs, &error)) << r.id << ": " << error;
    std::set<std::string> names;
    for (const FieldSpec& s : specs) {
      EXPECT_TRUE(names.insert(s.name).second) << r.id << ": " << s.name << " twice";
      EXPECT_FALSE(IsEnvelope(s.name)) << r.id << ": " << s.name;
    }
    for (std::string_view list : {r.key_fields, r.cause_fields})
      for (const std::string& name : FieldNames(list))
        if (name != "*") EXPECT_TRUE(names.count(name)) << r.id << " names undeclared field " << name;
  }
}

// The runs of validators_test.cc's kind: every fixture tree, with the options that make
// every kind of finding.
TEST(DeclaredFields, EveryFixtureFindingHasItsDeclaredFieldsInOrder) {
  const auto declared = DeclaredFields();
  TempDir t;
  WriteAll(t / "waivers", "rpath-* * # a stale waiver, for the unused-waiver note\n");
  const std::string bin = std::string(ROCM_AUDIT_BINARY) + " --no-progress --fail-on none --format json ";
  std::set<std::string> seen;
  for (const std::string& args :
       {std::string(ROCM_AUDIT_DEMO_TREE) + " --suppress " + t / "waivers",
        std::string("--require-arch gfx906,gfx90a,gfx1030,gfx1100,gfx942 --verify-hash ") +
            ROCM_AUDIT_GPU_TREE,
        std::string(ROCM_AUDIT_CMAKE_TREE)}) {
    std::string out;
    ASSERT_EQ(RunCommand(bin + args + " 2>&1", &out), 0) << out;
    const Json report = Json::parse(out);
    const Json& findings = report["findings"];
    for (const Json& f : findings) {
      const std::string check = f["check"];
      seen.insert(check);
      auto it = declared.find(check);
      ASSERT_NE(it, declared.end()) << check;
      std::vector<std::string> names;
      for (const auto& [name, value] : f.items())
        if (!IsEnvelope(name)) names.push_back(name);
      std::vector<std::string> expected;
      for (const FieldSpec& spec : it->second) {
        auto field = f.find(spec.name);
        if (field == f.end()) {
          EXPECT_TRUE(spec.optional) << check << " lacks " << spec.name << ": " << f.dump();
          continue;
        }
        expected.push_back(spec.name);
        std::string why;
        EXPECT_TRUE(Conforms(*field, spec.type, &why)) << check << "." << spec.name << why;
      }
      EXPECT_EQ(names, expected) << check << ": undeclared or out of order: " << f.dump();
    }
  }
  // The runs reach most rules; a rule none reaches is held to its declaration by the schema test.
  EXPECT_GE(seen.size(), 15u);
}

// The JSON types a schema property allows ("string", "integer", "array", ...), through
// $ref, enum and oneOf.
std::set<std::string> SchemaTypes(const Json& defs, const Json& property) {
  if (property.contains("$ref")) {
    std::set<std::string> out = SchemaTypes(defs, defs[property["$ref"].get<std::string>().substr(8)]);
    if (property.contains("type")) out = SchemaTypes(defs, Json{{"type", property["type"]}});
    return out;
  }
  std::set<std::string> out;
  if (property.contains("type")) {
    const Json& type = property["type"];
    if (type.is_string()) out.insert(type.get<std::string>());
    for (const Json& t : type.is_array() ? type : Json::array()) out.insert(t.get<std::string>());
  } else if (property.contains("enum")) {
    for (const Json& v : property["enum"])
      out.insert(v.is_string() ? "string" : v.is_null() ? "null" : "other");
  } else if (property.contains("const")) {
    out.insert(property["const"].is_string() ? "string" : "other");
  }
  if (property.contains("oneOf"))
    for (const Json& alternative : property["oneOf"]) out.merge(SchemaTypes(defs, alternative));
  return out;
}

std::set<std::string> DeclaredTypes(const FieldType& type) {
  static const char* const kNames[] = {"string", "string", "integer", "number", "boolean",
                                       "null",   "any",    "array",   "object", "object"};
  std::set<std::string> out;
  for (const FieldType::One& one : type.alternatives) out.insert(kNames[one.kind]);
  return out;
}

// The schema's per-check definition of a finding names the declared fields, of the declared
// JSON types, and requires exactly the ones not marked optional.
TEST(DeclaredFields, TheJsonSchemaAgreesWithTheDeclarations) {
  const Json schema = Json::parse(ReadAll(std::string(ROCM_AUDIT_SOURCE_DIR) + "/docs/report.schema.json"));
  const Json& defs = schema["$defs"];
  std::map<std::string, std::string> def_of;  // check -> fields-* definition
  const Json& all_of = defs["finding"]["allOf"];
  for (const Json& branch : all_of) {
    const std::string ref = branch["then"]["$ref"];
    const Json& check = branch["if"]["properties"]["check"];
    if (check.contains("const")) def_of[check["const"]] = ref.substr(ref.rfind('/') + 1);
    if (check.contains("enum"))
      for (const Json& id : check["enum"]) def_of[id] = ref.substr(ref.rfind('/') + 1);
  }
  for (const auto& [check, specs] : DeclaredFields()) {
    std::set<std::string> properties, required, names, mandatory;
    // A definition may extend another through "$ref" (the CMake site fields).
    for (std::string def = def_of.count(check) ? def_of[check] : ""; !def.empty();) {
      const Json& d = defs[def];
      if (d.contains("properties"))
        for (const auto& [name, value] : d["properties"].items()) {
          properties.insert(name);
          for (const FieldSpec& s : specs)
            if (s.name == name)
              EXPECT_EQ(SchemaTypes(defs, value), DeclaredTypes(s.type)) << check << "." << name;
        }
      if (d.contains("required"))
        for (const Json& name : d["required"]) required.insert(name);
      def = d.contains("$ref") ? d["$ref"].get<std::string>().substr(8) : "";
    }
    for (const FieldSpec& s : specs) {
      names.insert(s.name);
      if (!s.optional) mandatory.insert(s.name);
    }
    EXPECT_EQ(properties, names) << check;
    EXPECT_EQ(required, mandatory) << check;
  }
}

}  // namespace
}  // namespace rocm_audit::testing
