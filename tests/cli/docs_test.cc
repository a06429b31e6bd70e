// The README's two commands are the project's contract with a fresh machine: .ci/run
// must run the test command verbatim and install every package the setup command does.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>

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

TEST(Docs, CiRunsTheReadmeTestCommand) {
  std::string readme = Read("README.md"), ci = Read(".ci/run");
  std::string test = CommandAfter(readme, "Run all tests:");
  ASSERT_FALSE(test.empty());
  EXPECT_NE(ci.find(test), std::string::npos) << test;
}

TEST(Docs, CiInstallsEveryPackageTheReadmeInstalls) {
  std::string readme = Read("README.md"), ci = Read(".ci/run");
  std::string setup = CommandAfter(readme, "## Two commands");
  size_t install = setup.find("--no-install-recommends ");
  ASSERT_NE(install, std::string::npos) << setup;
  std::istringstream words(setup.substr(install + 24, setup.find(" &&", install) - install - 24));
  for (std::string pkg; words >> pkg;) EXPECT_NE(ci.find(" " + pkg), std::string::npos) << pkg;
}

}  // namespace
}  // namespace rocm_audit
