// The CMake module audits what `cmake --install` installed, after every install rule of the
// project, under either setting of policy CMP0082 (cmake_minimum_required 3.5 and 3.25),
// with the library installed from a subdirectory; it refuses, naming the policy, where it
// cannot run last; and it calls a tool error a tool error. The real cmake and rocm-audit.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A project whose library (with an undefined symbol) is installed by a subdirectory, and
// whose top-level CMakeLists.txt is `top` after the project() line.
void WriteProject(const TempDir& t, const std::string& minimum, const std::string& top) {
  WriteAll(t / "src/CMakeLists.txt", "cmake_minimum_required(VERSION " + minimum +
                                         ")\nproject(roc LANGUAGES C)\ninclude(RocmAudit)\n" + top);
  WriteAll(t / "src/sub/CMakeLists.txt",
           "add_library(roc-f SHARED f.c)\nset_target_properties(roc-f PROPERTIES SOVERSION 1)\n"
           "install(TARGETS roc-f LIBRARY DESTINATION lib)\n");
  WriteAll(t / "src/sub/f.c", "int roc_missing(void);\nint roc_f(void) { return roc_missing(); }\n");
  WriteAll(t / "src/later/CMakeLists.txt", "install(FILES CMakeLists.txt DESTINATION share/roc)\n");
}

// CMake wraps a message's lines and indents them: read as one line.
std::string Unwrapped(const std::string& out) { return std::regex_replace(out, std::regex("\n +"), " "); }

int Configure(const TempDir& t, std::string* out) {
  return RunCommand(CMakeModuleProjectCommand(t / "src", t / "build", t / "prefix", "", "2>&1"), out);
}

TEST(CMakeModule, AuditsAfterEverySubdirectoryInstallUnderEitherPolicy) {
  for (const char* minimum : {"3.5", "3.25"}) {
    TempDir t;
    WriteProject(t, minimum, "add_subdirectory(sub)\nrocm_audit_install()\n");
    std::string out;
    ASSERT_EQ(Configure(t, &out), 0) << minimum << "\n" << out;
    EXPECT_NE(RunCommand(ROCM_AUDIT_CMAKE_COMMAND " --install " + t / "build" + " 2>&1", &out), 0) << out;
    EXPECT_THAT(out, HasSubstr("undefined symbol roc_missing")) << minimum << "\n" << out;
    EXPECT_THAT(Unwrapped(out), HasSubstr("rocm-audit: " + t / "prefix" + " has findings at error or above"))
        << minimum << "\n"
        << out;
  }
}

TEST(CMakeModule, UnderTheOldPolicyASubdirectoryAddedAfterTheAuditIsRefused) {
  TempDir t;
  WriteProject(t, "3.5", "add_subdirectory(sub)\nrocm_audit_install()\nadd_subdirectory(later)\n");
  std::string out;
  EXPECT_NE(Configure(t, &out), 0) << out;
  EXPECT_THAT(Unwrapped(out), HasSubstr("comes after rocm_audit_install(); under policy CMP0082 OLD")) << out;
  // Under the new policy the same project audits after both subdirectories.
  TempDir n;
  WriteProject(n, "3.25", "add_subdirectory(sub)\nrocm_audit_install()\nadd_subdirectory(later)\n");
  ASSERT_EQ(Configure(n, &out), 0) << out;
  EXPECT_NE(RunCommand(ROCM_AUDIT_CMAKE_COMMAND " --install " + n / "build" + " 2>&1", &out), 0) << out;
  const size_t later = out.find("share/roc/CMakeLists.txt"), audit = out.find("rocm-audit: auditing");
  ASSERT_NE(later, std::string::npos) << out;
  EXPECT_LT(later, audit) << out;
}

TEST(CMakeModule, AToolErrorIsNotCalledFindings) {
  TempDir t;
  WriteProject(t, "3.25", "rocm_audit_install()\n");  // nothing is installed: no prefix
  std::string out;
  ASSERT_EQ(Configure(t, &out), 0) << out;
  EXPECT_NE(RunCommand(ROCM_AUDIT_CMAKE_COMMAND " --install " + t / "build" + " 2>&1", &out), 0) << out;
  EXPECT_THAT(Unwrapped(out),
              HasSubstr("could not audit " + t / "prefix" + ": a tool error, not a finding (exit 2"))
      << out;
  EXPECT_THAT(out, Not(HasSubstr("has findings")));
}

}  // namespace
}  // namespace rocm_audit::testing
