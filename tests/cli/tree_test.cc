// --tree against libtree (Debian's libtree 3.1, the reference for drawing a load closure)
// on every executable and shared library of the fixture trees: the same edges, each found
// the same way (RUNPATH, RPATH, ld.so.conf, default directories), the same names not found.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <tuple>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

using Edge = std::tuple<std::string, std::string, std::string>;  // parent, child, how found

// libtree's words for how a library was found; ours name the object whose path it was.
std::string HowFound(const std::string& label) {
  if (label.starts_with("RUNPATH") || label == "runpath") return "runpath";
  if (label.starts_with("RPATH") || label == "rpath") return "rpath";
  if (label == "--library-path" || label == "LD_LIBRARY_PATH") return "LD_LIBRARY_PATH";
  if (label == "default" || label == "default path") return "default path";
  return label;
}

// Every parent -> child edge of a tree drawn with ├── └── │ (4 columns a level).
std::set<Edge> Edges(const std::string& tree) {
  std::set<Edge> edges;
  std::vector<std::string> stack;
  std::istringstream in(tree);
  std::string line;
  bool root = true;
  while (std::getline(in, line)) {
    if (line.empty() || line.find("┊") != std::string::npos) continue;
    std::string name = line, label = "-";
    size_t columns = 0;
    if (!root) {
      size_t start = line.rfind("── ");
      if (start == std::string::npos) continue;
      for (size_t i = 0; i < start; ++i) columns += (static_cast<unsigned char>(line[i]) & 0xC0) != 0x80;
      name = line.substr(start + std::string("── ").size());
    }
    if (size_t drawn = name.find(" (drawn above)"); drawn != std::string::npos) name.erase(drawn);
    if (size_t version = name.find(" version "); version != std::string::npos) name.erase(version);
    if (name.ends_with(" not found")) {
      name.erase(name.size() - 10);
      label = "not found";
    } else if (size_t open = name.find(" ["); open != std::string::npos) {
      label = HowFound(name.substr(open + 2, name.rfind(']') - open - 2));
      name.erase(open);
    }
    while (!name.empty() && name.back() == ' ') name.pop_back();
    size_t depth = root ? 0 : columns / 4 + 1;
    // The root is named as each tool names its input (rocm-audit below the PATH, libtree as
    // given); only the edges below it are compared.
    if (root) name = "<root>";
    root = false;
    stack.resize(depth);
    if (depth > 0) edges.insert({stack[depth - 1], name, label});
    stack.push_back(name);
  }
  return edges;
}

TEST(Tree, SameEdgesAsLibtreeOnEveryFixtureObject) {
  std::string list;
  ASSERT_EQ(RunCommand(std::string("find ") + ROCM_AUDIT_DEMO_TREE + " " + ROCM_AUDIT_GPU_TREE +
                           " -type f \\( -name '*.so*' -o -path '*/bin/*' \\) | sort",
                       &list),
            0);
  std::istringstream files(list);
  size_t compared = 0, with_edges = 0;
  for (std::string file; std::getline(files, file);) {
    std::string ours, theirs;
    if (RunCommand(std::string(ROCM_AUDIT_BINARY) + " --no-progress --fail-on none --tree " + file, &ours) !=
        0)
      continue;  // not an object ld.so loads (a linker script, a GPU code object)
    RunCommand(std::string(ROCM_AUDIT_LIBTREE) + " -vvv " + file + " 2>/dev/null", &theirs);
    std::set<Edge> a = Edges(ours), b = Edges(theirs);
    with_edges += !a.empty();
    EXPECT_EQ(a, b) << file << "\nrocm-audit --tree:\n" << ours << "\nlibtree -vvv:\n" << theirs;
    ++compared;
  }
  EXPECT_GE(compared, 15u);
  EXPECT_GE(with_edges, 10u);  // the comparison is not of empty trees
}

TEST(Tree, MarksWhatIsNotFoundAndMissingVersionsAndFoldsRepeats) {
  std::string out;
  EXPECT_EQ(RunCommand(std::string(ROCM_AUDIT_BINARY) + " --no-progress --ld-so-conf /nonexistent --tree " +
                           ROCM_AUDIT_DEMO_TREE + "/bin/rocm-demo",
                       &out),
            1);
  EXPECT_THAT(
      out,
      HasSubstr(
          "├── libMIOpen.so.1 [RUNPATH of rocm-demo]\n│   └── libamdhip64.so.6 [RUNPATH of libMIOpen.so.1]"));
  EXPECT_THAT(out, HasSubstr("libroctx64.so.4 not found"));
  EXPECT_THAT(out, HasSubstr("[default]"));
  RunCommand(std::string(ROCM_AUDIT_BINARY) + " --no-progress --ld-so-conf /nonexistent --tree " +
                 ROCM_AUDIT_DEMO_TREE + "/lib/libhipfft.so.0 " + ROCM_AUDIT_DEMO_TREE,
             &out);
  EXPECT_THAT(out,
              HasSubstr("└── librocfft.so.0 [RUNPATH of libhipfft.so.0] version LIBROCFFT_2.0 not found"));
  RunCommand(
      std::string(ROCM_AUDIT_BINARY) + " --no-progress --tree " + ROCM_AUDIT_GPU_TREE + "/lib/libapp.so.1",
      &out);
  EXPECT_THAT(out, HasSubstr("(drawn above)"));
  EXPECT_EQ(RunCommand(std::string(ROCM_AUDIT_BINARY) + " --no-progress --tree " + ROCM_AUDIT_GPU_TREE +
                       "/co/kernel_gfx906.co 2>/dev/null"),
            2);
}

}  // namespace
}  // namespace rocm_audit::testing
