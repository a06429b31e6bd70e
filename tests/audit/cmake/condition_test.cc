#include "audit/cmake/condition.h"

#include <gtest/gtest.h>

#include <map>

namespace rocm_audit {
namespace {

class Condition : public ::testing::Test {
 protected:
  Tri Eval(std::vector<ConditionArg> args) {
    ConditionContext c;
    c.variable = [this](std::string_view n) -> const CMakeValue* {
      auto it = vars.find(std::string(n));
      return it == vars.end() ? nullptr : &it->second;
    };
    c.exists = [](const std::string& p) { return p == "/there" ? Tri::kTrue : Tri::kFalse; };
    c.target = [](std::string_view) { return Tri::kFalse; };
    c.command = [](std::string_view) { return Tri::kFalse; };
    result = EvaluateCondition(std::move(args), c);
    return result.value;
  }
  static ConditionArg U(std::string s) { return {CMakeValue(std::move(s)), false}; }
  static ConditionArg Q(std::string s) { return {CMakeValue(std::move(s)), true}; }
  std::map<std::string, CMakeValue> vars;
  ConditionResult result;
};

TEST_F(Condition, ConstantsVariablesAndQuoting) {
  vars["V"] = CMakeValue("amd");
  vars["OFFV"] = CMakeValue("x-NOTFOUND");
  EXPECT_EQ(Eval({U("V")}), Tri::kTrue);
  EXPECT_EQ(Eval({U("OFFV")}), Tri::kFalse);
  EXPECT_EQ(Eval({U("UNSET")}), Tri::kFalse);
  EXPECT_EQ(Eval({Q("V")}), Tri::kFalse);  // a quoted string is never a variable name
  EXPECT_EQ(Eval({U("V"), U("STREQUAL"), Q("amd")}), Tri::kTrue);
  EXPECT_EQ(Eval({Q("V"), U("STREQUAL"), Q("amd")}), Tri::kFalse);
  EXPECT_EQ(Eval({U("ON")}), Tri::kTrue);
  EXPECT_EQ(Eval({U("0")}), Tri::kFalse);
}

// IN_LIST's right operand names a variable, quoted or not (cmConditionEvaluator, CMP0057
// NEW; checked with CMake 3.25: if(b IN_LIST "L") is true for set(L a b c)); its value keeps
// empty items, and its left operand is a variable's value when unquoted.
TEST_F(Condition, InListReadsTheVariableItsRightOperandNames) {
  vars["Pkg_FIND_COMPONENTS"] = CMakeValue("a;;b");
  vars["X"] = CMakeValue("b");
  EXPECT_EQ(Eval({Q("b"), U("IN_LIST"), Q("Pkg_FIND_COMPONENTS")}), Tri::kTrue);
  EXPECT_EQ(Eval({U("X"), U("IN_LIST"), Q("Pkg_FIND_COMPONENTS")}), Tri::kTrue);
  EXPECT_EQ(Eval({Q(""), U("IN_LIST"), U("Pkg_FIND_COMPONENTS")}), Tri::kTrue);
  EXPECT_EQ(Eval({Q("c"), U("IN_LIST"), Q("Pkg_FIND_COMPONENTS")}), Tri::kFalse);
  EXPECT_EQ(Eval({Q("a"), U("IN_LIST"), Q("a;b")}), Tri::kFalse);  // a list is no variable name
}

TEST_F(Condition, PrecedenceAndParentheses) {
  // NOT binds tighter than AND/OR, which go left to right.
  EXPECT_EQ(Eval({U("NOT"), U("1"), U("OR"), U("1")}), Tri::kTrue);
  EXPECT_EQ(Eval({U("NOT"), U("("), U("1"), U("OR"), U("1"), U(")")}), Tri::kFalse);
  EXPECT_EQ(Eval({U("1"), U("OR"), U("1"), U("AND"), U("0")}), Tri::kFalse);
  EXPECT_EQ(Eval({U("EXISTS"), Q("/there"), U("AND"), U("NOT"), U("EXISTS"), Q("/gone")}), Tri::kTrue);
  EXPECT_EQ(result.missing, std::vector<std::string>{"/gone"});
}

TEST_F(Condition, VersionsMatchesAndLists) {
  EXPECT_EQ(Eval({Q("3.25.1"), U("VERSION_LESS"), Q("3.12")}), Tri::kFalse);
  EXPECT_EQ(Eval({Q("6.4"), U("VERSION_GREATER_EQUAL"), Q("6.4.0")}), Tri::kTrue);
  EXPECT_EQ(Eval({Q("clang++-19"), U("MATCHES"), Q("clang\\+\\+")}), Tri::kTrue);
  vars["L"] = CMakeValue("a;b;c");
  EXPECT_EQ(Eval({Q("b"), U("IN_LIST"), U("L")}), Tri::kTrue);
  EXPECT_EQ(Eval({Q("d"), U("IN_LIST"), U("L")}), Tri::kFalse);
  EXPECT_EQ(Eval({U("DEFINED"), U("L")}), Tri::kTrue);
  EXPECT_LT(CompareVersions("1.2", "1.10"), 0);
}

TEST_F(Condition, UnknownOperandsAreUndecidedUnlessTheOtherSideDecides) {
  vars["P"] = CMakeValue::Unknown("the output of execute_process");
  EXPECT_EQ(Eval({U("P"), U("STREQUAL"), Q("amd")}), Tri::kUnknown);
  EXPECT_EQ(result.why, "the output of execute_process");
  EXPECT_EQ(Eval({U("NOT"), U("P")}), Tri::kUnknown);
  EXPECT_EQ(Eval({U("P"), U("AND"), U("0")}), Tri::kFalse);
  EXPECT_EQ(Eval({U("P"), U("OR"), U("1")}), Tri::kTrue);
  EXPECT_EQ(Eval({U("DEFINED"), U("ENV{HIP_PLATFORM}")}), Tri::kUnknown);
}

}  // namespace
}  // namespace rocm_audit
