// --arch-matrix on the GPU fixture tree, built with clang++-19: one row per library and one
// per directory of standalone code objects (--verbose: per file), names whole, and each
// processor marked as served in every mode (x), only through its generic target (g), in some
// modes only (:), only through ISA compatibility (c) or not at all (.).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

using Matrix = std::map<std::string, std::map<std::string, char>>;  // row -> processor -> mark

Matrix ParseMatrix(const std::string& text) {
  Matrix m;
  std::istringstream in(text.substr(text.find("GPU processors by file")));
  std::string line;
  std::getline(in, line);
  std::getline(in, line);
  std::getline(in, line);
  std::vector<std::string> columns;
  std::istringstream header(line);
  for (std::string c; header >> c && c != "file";) columns.push_back(c);
  while (std::getline(in, line) && !line.empty()) {
    std::istringstream row(line);
    std::vector<char> marks(columns.size());
    for (char& mark : marks) row >> mark;
    std::string name;
    std::getline(row >> std::ws, name);
    for (size_t i = 0; i < columns.size(); ++i) m[name][columns[i]] = marks[i];
  }
  return m;
}

Matrix RunMatrix(const std::string& args) {
  std::string out;
  EXPECT_EQ(RunCommand(std::string(ROCM_AUDIT_BINARY) + " --no-progress --fail-on none --arch-matrix " + args,
                       &out),
            0);
  EXPECT_THAT(out, HasSubstr("GPU processors by file"));
  return ParseMatrix(out);
}

TEST(ArchMatrix, MarksHowEachProcessorIsServed) {
  Matrix m = RunMatrix(ROCM_AUDIT_GPU_TREE);
  EXPECT_EQ(m["generic/libgeneric.so.1"]["gfx1031"], 'g');
  EXPECT_EQ(m["generic/libgeneric.so.1"]["gfx1030"], 'g');
  EXPECT_EQ(m["generic/libgeneric.so.1"]["gfx906"], '.');
  EXPECT_EQ(m["lib/libccob.so.1"]["gfx1030"], 'x');
  EXPECT_EQ(m["lib/libccob.so.1"]["gfx1100"], 'x');
  EXPECT_EQ(m["lib/libccob.so.1"]["gfx1031"], '.');
  EXPECT_EQ(m["lib/libfat.so.1"]["gfx90a"], ':');  // gfx90a:xnack+ only
  EXPECT_EQ(m["lib/libfat.so.1"]["gfx906"], 'x');
  // Debian's ISA compatibility lets a gfx1031 load gfx1030 code.
  Matrix compat = RunMatrix(std::string("--isa-compat debian ") + ROCM_AUDIT_GPU_TREE);
  EXPECT_EQ(compat["lib/libccob.so.1"]["gfx1031"], 'c');
  EXPECT_EQ(compat["lib/libccob.so.1"]["gfx1030"], 'x');
}

TEST(ArchMatrix, GroupsStandaloneCodeByDirectoryUnlessVerbose) {
  Matrix grouped = RunMatrix(ROCM_AUDIT_GPU_TREE);
  size_t directories = 0;
  for (const auto& [row, marks] : grouped) {
    EXPECT_THAT(row, Not(HasSubstr("co/kernel")));
    directories += row.ends_with(" files)");
  }
  EXPECT_TRUE(grouped.count("co/ (5 files)"));
  Matrix each = RunMatrix(std::string("--verbose ") + ROCM_AUDIT_GPU_TREE);
  EXPECT_FALSE(each.count("co/ (5 files)"));
  EXPECT_GT(each.size(), grouped.size());
  EXPECT_GE(directories, 1u);
}

TEST(ArchMatrix, NamesStayWhole) {
  TempDir t;
  const std::string deep = "opt/rocm-7.0.0/lib/x86_64-linux-gnu/a-directory-long-enough-to-be-cut-before/lib";
  ASSERT_EQ(
      RunCommand("mkdir -p " + t / deep + " && cp " + ROCM_AUDIT_GPU_TREE + "/lib/libfat.so.1 " + t / deep),
      0);
  Matrix m = RunMatrix(t.path());
  ASSERT_TRUE(m.count(deep + "/libfat.so.1")) << m.begin()->first;
  EXPECT_EQ(m[deep + "/libfat.so.1"]["gfx906"], 'x');
}

}  // namespace
}  // namespace rocm_audit::testing
