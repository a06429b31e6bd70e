// The names a list file may assign, read from its text: what a CMake Find module that is not
// evaluated leaves unknown to its caller.
#include "audit/cmake/assigned_variables.h"

#include <gtest/gtest.h>

#include "audit/cmake/cmake_modules.h"
#include "tests/support/test_support.h"

namespace rocm_audit {
namespace {

std::vector<std::string> Assigned(const std::string& text) {
  ProgramPtr p = ParseProgram("/m/FindX.cmake", text);
  return VariablesItMaySet(*p);
}

using Names = std::vector<std::string>;

// The output argument of each signature, not its inputs: list(GET <list> <i> <out>) writes
// its last, string(REGEX REPLACE <re> <with> <out> <in>) its fifth.
TEST(AssignedVariables, EachCommandsOutputArgumentIsTheOneNamed) {
  EXPECT_EQ(Assigned("set(A 1)\nfind_library(B_LIBRARY NAMES b)\nmath(EXPR C \"1+1\")\n"),
            (Names{"A", "B_LIBRARY", "C"}));
  EXPECT_EQ(Assigned("list(GET IN 0 MAJOR)\nlist(APPEND LIST x)\nlist(LENGTH IN2 N)\n"),
            (Names{"LIST", "MAJOR", "N"}));
  EXPECT_EQ(Assigned("string(REGEX REPLACE \"x\" \"y\" OUT IN)\nstring(REGEX MATCH \"x\" M IN)\n"
                     "string(REPLACE a b R IN)\nstring(TOUPPER IN U)\nstring(SUBSTRING IN 0 1 S)\n"),
            (Names{"M", "OUT", "R", "S", "U"}));
  EXPECT_EQ(Assigned("execute_process(COMMAND py OUTPUT_VARIABLE O RESULT_VARIABLE R ERROR_QUIET)\n"
                     "file(STRINGS f.h LINES REGEX x)\nget_filename_component(D f DIRECTORY)\n"),
            (Names{"D", "LINES", "O", "R"}));
}

// A function's variables are its own; a macro's are its caller's. Names built by expansion,
// CMake's own settings (saved and restored) and scratch names are left out.
TEST(AssignedVariables, OnlyPlainNamesTheModulesScopeKeeps) {
  EXPECT_EQ(Assigned("function(f)\n  set(IN_FUNCTION 1)\nendfunction()\n"
                     "macro(m)\n  set(IN_MACRO 1)\nendmacro()\n"
                     "set(${prefix}_FOUND 1)\nset(\"QUOTED\" 1)\nset(CMAKE_FIND_LIBRARY_SUFFIXES .a)\n"
                     "set(_scratch 1)\nif(x)\n  set(IN_IF 1)\nendif()\n"),
            (Names{"IN_IF", "IN_MACRO", "QUOTED"}));
}

// FindPython sets its results through ${_PYTHON_PREFIX}_VERSION_MAJOR in a helper file; its
// documentation's "Result Variables" section names them (Shiboken6 compares
// Python_VERSION_MAJOR). Its "Hints", the consumer's inputs, are not taken.
TEST(AssignedVariables, TheResultVariablesSectionOfAModulesDocumentation) {
  const std::string text = testing::ReadAll(std::string(kCMakeRoot) + "/Modules/FindPython.cmake");
  ASSERT_FALSE(text.empty());
  const Names names = DocumentedResultVariables(text);
  for (const char* name :
       {"Python_FOUND", "Python_VERSION_MAJOR", "Python_EXECUTABLE", "Python_INCLUDE_DIRS"})
    EXPECT_TRUE(std::binary_search(names.begin(), names.end(), name)) << name;
  EXPECT_FALSE(std::binary_search(names.begin(), names.end(), "Python_ROOT_DIR"));  // a hint
  EXPECT_FALSE(std::binary_search(names.begin(), names.end(), "Python_FIND_STRATEGY"));

  EXPECT_EQ(DocumentedResultVariables("#[===[.rst:\nFindX\n-----\n\nResult Variables\n^^^^^^^^^^^^^^^^\n\n"
                                      "``X_FOUND``\n  found\n``X::X``\n  a target\n\nHints\n^^^^^\n\n"
                                      "``X_ROOT``\n#]===]\n"),
            (Names{"X_FOUND"}));
  EXPECT_TRUE(DocumentedResultVariables("set(X 1)\n").empty());
}

}  // namespace
}  // namespace rocm_audit
