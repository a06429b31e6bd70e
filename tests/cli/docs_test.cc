// The README's two commands are the project's contract with a fresh machine: .ci/run
// must run the test command verbatim and install every package the setup command does.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>

#include "cli/options.h"
#include "tests/support/test_support.h"

namespace rocm_audit {
namespace {

std::string Read(const std::string& rel) {
  std::ifstream in(std::string(ROCM_AUDIT_FIXTURES_DIR) + "/../" + rel);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The first line of the first ```sh block after `heading`.
std::string CommandAfter(const std::string& readme, const std::string& heading) {
  size_t at = readme.find(heading);
  if (at == std::string::npos) return "";
  size_t block = readme.find("```sh\n", at);
  if (block == std::string::npos) return "";
  size_t start = block + 6;
  return readme.substr(start, readme.find('\n', start) - start);
}

// .ci/run takes both commands from the README (the fenced sh blocks of "## Two commands")
// and runs each in a fresh root: its extraction must yield exactly the README's commands.
TEST(Docs, CiTakesBothCommandsFromTheReadme) {
  std::string readme = Read("README.md");
  std::string setup = CommandAfter(readme, "## Two commands"), test = CommandAfter(readme, "Run all tests:");
  ASSERT_FALSE(setup.empty());
  ASSERT_FALSE(test.empty());
  testing::TempDir t;
  std::string source = std::string(ROCM_AUDIT_FIXTURES_DIR) + "/..";
  ASSERT_EQ(testing::RunCommand("bash -c 'source " + source + "/.ci/lib.sh && extract_readme_commands " +
                                source + "/README.md " + t / "command'"),
            0);
  EXPECT_EQ(testing::ReadAll(t / "command.1"), setup + "\n");
  EXPECT_EQ(testing::ReadAll(t / "command.2"), test + "\n");
  std::string ci = Read(".ci/run");
  EXPECT_NE(ci.find("extract_readme_commands \"$repo/README.md\""), std::string::npos);
  EXPECT_NE(ci.find("run_in_root \"$root\" \"$clone\" \"$work/command.$n\""), std::string::npos);
}

// CI's skip rule: a skip is allowed for the absent corpus or for needing root, and for
// nothing else (a missing tool once skipped 12 GPU tests while CI stayed green).
TEST(Docs, CiRefusesASkipForAnyOtherReason) {
  testing::TempDir t;
  auto block = [](const std::string& name, const std::string& reason) {
    return "1/3 Testing: " + name + "\n1/3 Test: " + name + "\nCommand: \"/b/tests\"\nOutput:\n" +
           "----------------------------------------------------------\n[ RUN      ] " + name + "\n" +
           "/src/tests/x_test.cc:44: Skipped\n" + reason + "\n\n[  SKIPPED ] " + name + " (0 ms)\n" +
           "<end of output>\nTest time =   0.01 "
           "sec\n----------------------------------------------------------\n" +
           "Test Skipped.\n";
  };
  testing::WriteAll(t / "log", block("Corpus.Ldd", "no corpus at /root/rocm-corpus/sid-root") +
                                   block("Corpus.Chroot", "chroot(2) needs root") +
                                   block("Gpu.Bundler", "clang-offload-bundler-19 not found"));
  testing::WriteAll(t / "allowed",
                    "The following tests did not run:\n\t  1 - Corpus.Ldd (Skipped)\n"
                    "\t  2 - Corpus.Chroot (Skipped)\n\nThe following tests FAILED:\n");
  testing::WriteAll(t / "refused",
                    "The following tests did not run:\n\t  1 - Corpus.Ldd (Skipped)\n"
                    "\t  3 - Gpu.Bundler (Skipped)\n");
  std::string lib = std::string(ROCM_AUDIT_FIXTURES_DIR) + "/../.ci/lib.sh";
  auto check = [&](const std::string& output, std::string* said) {
    return testing::RunCommand(
        "bash -c 'source " + lib + " && check_skips " + t / output + " " + t / "log' 2>&1", said);
  };
  std::string said;
  EXPECT_EQ(check("allowed", &said), 0) << said;
  EXPECT_NE(said.find("skipped, allowed: Corpus.Chroot: chroot(2) needs root"), std::string::npos) << said;
  EXPECT_NE(check("refused", &said), 0) << said;
  EXPECT_NE(said.find("Gpu.Bundler: clang-offload-bundler-19 not found"), std::string::npos) << said;
}

// The setup command installs what the build needs on a minimal machine: a generator's make
// program and every tool the configure step requires.
TEST(Docs, SetupCommandInstallsTheBuildTools) {
  std::string setup = CommandAfter(Read("README.md"), "## Two commands");
  for (const char* pkg : {" g++ ",
                          " cmake ",
                          " ninja-build ",
                          " clang-19 ",
                          " clang-tools-19 ",
                          " lld-19 ",
                          " llvm-19-dev ",
                          " clang-format-19 ",
                          " python3 ",
                          " binutils ",
                          " libxml2-utils ",
                          " python3-jsonschema ",
                          " libtree ",
                          " chromium ",
                          " tidy ",
                          " libarchive-dev ",
                          " zstd ",
                          " debhelper ",
                          " python3-yaml ",
                          " nix-bin ",
                          " liblief-dev "})
    EXPECT_NE(setup.find(pkg), std::string::npos) << pkg;
  // Debian's npm wherever the machine has none: it conflicts with NodeSource's nodejs, which
  // brings its own (an apt-get install naming npm fails on such a machine).
  EXPECT_NE(setup.find(" $(command -v npm >/dev/null || echo npm) "), std::string::npos);
  EXPECT_NE(setup.find("-G Ninja"), std::string::npos);
}

// The tests ctest would run in the build, counted the way ctest finds them: CTestTestfile.cmake,
// its subdirs() and include()s (gtest_discover_tests' lists). Running `ctest -N` here instead
// would overwrite the LastTest.log of the ctest run this test is part of, which CI reads.
size_t CountCtestTests(const std::string& file) {
  std::ifstream in(file);
  size_t count = 0;
  std::string dir = file.substr(0, file.rfind('/'));
  for (std::string line; std::getline(in, line);) {
    size_t open = line.find("(\""), close = line.rfind("\")");
    std::string arg =
        open != std::string::npos && close > open ? line.substr(open + 2, close - open - 2) : "";
    std::string_view l = line;
    while (!l.empty() && l.front() == ' ') l.remove_prefix(1);
    if (l.starts_with("subdirs(")) {
      count += CountCtestTests(dir + "/" + arg + "/CTestTestfile.cmake");
    } else if (l.starts_with("include(")) {
      count += CountCtestTests(arg);
    } else if (l.starts_with("add_test(") && line.find("_NOT_BUILT") == std::string::npos) {
      ++count;
    }
  }
  return count;
}

// The README quotes how many tests the second command runs: the number is the build's own,
// so adding a test without updating the README fails here.
TEST(Docs, ReadmeQuotesTheBuildsTestCount) {
  size_t tests = CountCtestTests(ROCM_AUDIT_BUILD_DIR "/CTestTestfile.cmake");
  ASSERT_GT(tests, 100u);
  std::string count = std::to_string(tests);
  std::string readme = Read("README.md");
  EXPECT_NE(readme.find("(" + count + " tests;"), std::string::npos)
      << "the README must quote the build's " << count << " tests as \"(" << count << " tests;\"";
}

// docs/design.md names, for every rule, the file that declares it and makes its findings;
// the file must exist and hold the rule's ID as a declaration (`.id = "id",` in a kRules
// entry or a rule constant).
TEST(Docs, DesignNamesTheFileOfEveryRule) {
  std::string design = Read("docs/design.md");
  size_t table = design.find("### Each rule's file");
  ASSERT_NE(table, std::string::npos);
  for (const Rule& r : KnownRules()) {
    std::string row = "| `" + std::string(r.id) + "` | `";
    size_t at = design.find(row, table);
    ASSERT_NE(at, std::string::npos) << r.id << " has no row";
    size_t start = at + row.size();
    std::string file = design.substr(start, design.find('`', start) - start);
    std::string source = Read(file);
    ASSERT_FALSE(source.empty()) << file;
    std::string id = "\"" + std::string(r.id) + "\"";
    bool declared = source.find(".id = " + id + ",") != std::string::npos;
    EXPECT_TRUE(declared) << r.id << " is not declared in " << file;
  }
}

}  // namespace
}  // namespace rocm_audit
