// The documents held to the code: the README's two commands are the project's contract with
// a fresh machine (.ci/run runs them verbatim; the setup command installs every package the
// build needs), its options and checks are the option table's and the rules', and
// docs/benchmarks.md is generated from bench/results/.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "audit/model/severity.h"
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
  std::string setup = CommandAfter(readme, "## Two commands"), test = CommandAfter(readme, "To work on it:");
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
  EXPECT_THAT(ci, ::testing::HasSubstr("extract_readme_commands \"$repo/README.md\""));
  EXPECT_THAT(ci, ::testing::HasSubstr("run_in_root \"$root\" \"$clone\" \"$work/command.$n\""));
}

// CI's skip rule: a skip is allowed for the reasons of test_support.h, by the code the test
// prints (the absent corpus, needing root, an installed world), and for nothing else: a
// missing tool once skipped 12 GPU tests while CI stayed green, and the wording of an allowed
// reason without its code (a skip once said "no corpus" for a missing installed world) is
// refused.
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
  testing::WriteAll(t / "log",
                    block("Corpus.Ldd", "[skip:no-corpus] no corpus at /root/rocm-corpus/sid-root") +
                        block("Corpus.Chroot", "[skip:needs-root] chroot(2) needs root") +
                        block("World.Configs", "[skip:installed-world] 3 package configs installed") +
                        block("Gpu.Bundler", "clang-offload-bundler-19 not found") +
                        block("Corpus.Words", "no corpus at /usr"));
  testing::WriteAll(t / "allowed",
                    "The following tests did not run:\n\t  1 - Corpus.Ldd (Skipped)\n"
                    "\t  2 - Corpus.Chroot (Skipped)\n\t  3 - World.Configs (Skipped)\n\n"
                    "The following tests FAILED:\n");
  testing::WriteAll(t / "refused",
                    "The following tests did not run:\n\t  1 - Corpus.Ldd (Skipped)\n"
                    "\t  4 - Gpu.Bundler (Skipped)\n");
  testing::WriteAll(t / "uncoded", "The following tests did not run:\n\t  5 - Corpus.Words (Skipped)\n");
  std::string lib = std::string(ROCM_AUDIT_FIXTURES_DIR) + "/../.ci/lib.sh";
  auto check = [&](const std::string& output, std::string* said) {
    return testing::RunCommand(
        "bash -c 'source " + lib + " && check_skips " + t / output + " " + t / "log' 2>&1", said);
  };
  std::string said;
  EXPECT_EQ(check("allowed", &said), 0) << said;
  EXPECT_THAT(said,
              ::testing::HasSubstr("skipped, allowed: Corpus.Chroot: [skip:needs-root] chroot(2) needs root"))
      << said;
  EXPECT_THAT(said, ::testing::HasSubstr("skipped, allowed: World.Configs: [skip:installed-world]")) << said;
  EXPECT_NE(check("refused", &said), 0) << said;
  EXPECT_THAT(said, ::testing::HasSubstr("Gpu.Bundler: clang-offload-bundler-19 not found")) << said;
  EXPECT_NE(check("uncoded", &said), 0) << said;
  EXPECT_THAT(said, ::testing::HasSubstr("Corpus.Words: no corpus at /usr")) << said;
}

// The README's first command installs what building rocm-audit and its demo tree needs, and
// GoogleTest (the unit tests need nothing more: README, Developing), and builds without the
// test suite; the second installs what the other tests need and builds them.
// Each configure step names BUILD_TESTING: the build directory is shared, and the first
// command's OFF would stay in its cache.
TEST(Docs, FirstCommandInstallsTheBuildToolsOnly) {
  std::string setup = CommandAfter(Read("README.md"), "## Two commands");
  for (const char* pkg :
       {" g++ ", " cmake ", " ninja-build ", " pkg-config ", " llvm-19-dev ", " clang-19 ",
        " clang-tools-19 ", " lld-19 ", " libzstd-dev ", " zlib1g-dev ", " nlohmann-json3-dev ",
        " libarchive-dev ", " liblzma-dev ", " libgtest-dev ", " libgmock-dev "})
    EXPECT_THAT(setup, ::testing::HasSubstr(pkg)) << pkg;
  for (const char* pkg :
       {"npm", "chromium", "nix-bin", "debhelper", "lintian", "jsonschema", "clang-format", "liblief"})
    EXPECT_THAT(setup, ::testing::Not(::testing::HasSubstr(pkg))) << pkg;
  EXPECT_THAT(setup, ::testing::HasSubstr("-G Ninja"));
  EXPECT_THAT(setup, ::testing::HasSubstr(" -DBUILD_TESTING=OFF "));
  EXPECT_THAT(setup, ::testing::HasSubstr(" -DROCM_AUDIT_PRECOMPILED_HEADERS=ON "));
}

TEST(Docs, SecondCommandInstallsTheTestTools) {
  std::string test = CommandAfter(Read("README.md"), "To work on it:");
  for (const char* pkg :
       {" python3 ", " python3-yaml ", " python3-jsonschema ", " clang-format-19 ", " llvm-19 ",
        " libclang-rt-19-dev ", " zstd ", " libgtest-dev ", " libgmock-dev ", " libxml2-utils ", " libtree ",
        " chromium ", " tidy ", " debhelper ", " nix-bin ", " liblief-dev ", " lintian "})
    EXPECT_THAT(test, ::testing::HasSubstr(pkg)) << pkg;
  // Debian's npm wherever the machine has none: it conflicts with NodeSource's nodejs, which
  // brings its own (an apt-get install naming npm fails on such a machine).
  EXPECT_THAT(test, ::testing::HasSubstr(" $(command -v npm >/dev/null || echo npm) "));
  EXPECT_THAT(test, ::testing::HasSubstr("-G Ninja"));
  EXPECT_THAT(test, ::testing::HasSubstr(" -DBUILD_TESTING=ON "));
  // The unit loop (Developing) turns the external tests off in the same build directory.
  EXPECT_THAT(test, ::testing::HasSubstr(" -DROCM_AUDIT_EXTERNAL_TESTS=ON "));
  EXPECT_THAT(test, ::testing::HasSubstr("ctest --test-dir build"));
}

// The lines of README.md's ```sh blocks and its `inline code` spans: where it shows commands.
std::vector<std::string> ReadmeCode(const std::string& readme) {
  std::vector<std::string> code;
  std::istringstream in(readme);
  bool block = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("```")) {
      block = !block;
      continue;
    }
    if (block) {
      code.push_back(line);
      continue;
    }
    for (size_t open = line.find('`'); open != std::string::npos;) {
      size_t close = line.find('`', open + 1);
      if (close == std::string::npos) break;
      code.push_back(line.substr(open + 1, close - open - 1));
      open = line.find('`', close + 1);
    }
  }
  return code;
}

// The options a piece of README code gives rocm-audit: the words starting with '-' after each
// `rocm-audit` (up to a comment, a pipe or the next command), and those of a span that is
// itself options (`--fail-on none`). "--name=value" counts as "--name".
std::vector<std::string> OptionsShown(const std::string& code) {
  std::vector<std::string> shown;
  auto take = [&](std::istringstream& words) {
    for (std::string w; words >> w;) {
      if (w == "#" || w == "|" || w == "&&" || w == ";" || w.starts_with("#")) break;
      if (w.size() > 1 && w[0] == '-') shown.push_back(w.substr(0, w.find('=')));
    }
  };
  if (code.starts_with("--")) {
    std::istringstream words(code);
    take(words);
  }
  for (size_t at = code.find("rocm-audit"); at != std::string::npos; at = code.find("rocm-audit", at + 1)) {
    bool word_start = at == 0 || code[at - 1] == ' ' || code[at - 1] == '/';
    size_t end = at + std::string_view("rocm-audit").size();
    if (!word_start || (end < code.size() && code[end] != ' ')) continue;
    std::istringstream words(code.substr(end));
    take(words);
  }
  return shown;
}

// Every option the README shows rocm-audit with is one the option table (and so --help and
// the man page) has: a renamed or removed option cannot stay in the user's guide.
TEST(Docs, ReadmeShowsOnlyRealOptions) {
  std::set<std::string> known;
  for (const Option& o : AllOptions())
    for (std::string_view name : {o.short_name, o.long_name, o.alias})
      if (!name.empty()) known.insert(std::string(name));
  size_t checked = 0;
  for (const std::string& code : ReadmeCode(Read("README.md"))) {
    for (const std::string& option : OptionsShown(code)) {
      ++checked;
      EXPECT_TRUE(known.count(option)) << option << " in `" << code << "` is no option of rocm-audit";
    }
  }
  EXPECT_GT(checked, 30u);  // the examples, the limits table, the prose's options
}

// The README's checks table lists every rule a finding can name, once, with its default
// severity, and nothing else.
TEST(Docs, ReadmeListsEveryCheckWithItsSeverity) {
  std::string readme = Read("README.md");
  size_t section = readme.find("\n## Checks\n");
  ASSERT_NE(section, std::string::npos);
  std::map<std::string, std::string> listed;
  std::istringstream in(readme.substr(section + 1, readme.find("\n## ", section + 1) - section));
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("| `")) continue;
    size_t id_end = line.find("` | ");
    ASSERT_NE(id_end, std::string::npos) << line;
    std::string id = line.substr(3, id_end - 3);
    size_t severity = id_end + 4;
    EXPECT_TRUE(listed.emplace(id, line.substr(severity, line.find(" |", severity) - severity)).second)
        << id << " is listed twice";
  }
  for (const Rule& r : KnownRules()) {
    auto it = listed.find(std::string(r.id));
    if (it == listed.end()) {
      ADD_FAILURE() << r.id << " is not in the README's checks table";
      continue;
    }
    EXPECT_EQ(it->second, SeverityName(r.severity)) << r.id;
    listed.erase(it);
  }
  for (const auto& [id, severity] : listed)
    ADD_FAILURE() << id << " is in the README's checks table, but no rule";
}

// docs/benchmarks.md is bench/benchmarks_md.py's output for the results in bench/results/, so
// its figures are the results files' and a new results file shows in it.
TEST(Docs, BenchmarksPageIsGeneratedFromTheResults) {
  std::string source = std::string(ROCM_AUDIT_FIXTURES_DIR) + "/..";
  std::string page;
  ASSERT_EQ(testing::RunCommand(std::string(ROCM_AUDIT_DEBIAN_PYTHON3) + " " + source +
                                    "/bench/benchmarks_md.py " + source + "/bench/results",
                                &page),
            0);
  ASSERT_FALSE(page.empty());
  EXPECT_TRUE(page == Read("docs/benchmarks.md"))
      << "docs/benchmarks.md is stale: run python3 bench/benchmarks_md.py -o docs/benchmarks.md";
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
