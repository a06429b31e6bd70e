// Every bundle of every fat binary and standalone code-object file in Debian's real ROCm
// packages must list the same entry IDs as clang-offload-bundler-19 --list run on that
// bundle alone (cut out by our offsets and sizes). Runs when the corpus is present
// ($CORPUS, default $HOME/rocm-corpus) and skips otherwise.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "audit/fs/file_kind.h"
#include "audit/gpu/device_code.h"
#include "tests/support/audit_support.h"
#include "tests/support/test_support.h"

namespace rocm_audit {
namespace {

using testing::CorpusRoot;
using testing::RunCommand;
using testing::TempDir;

TEST(CorpusBundles, EveryBundleListsLikeClangOffloadBundler) {
  namespace fs = std::filesystem;
  std::string root = CorpusRoot() + "/sid-root/usr";
  std::error_code ec;
  if (!fs::is_directory(root, ec)) ROCM_AUDIT_SKIP_NO_CORPUS << "no corpus at " << root;
  TempDir tmp;
  size_t files = 0, bundles = 0, compressed = 0;
  for (auto it = fs::recursive_directory_iterator(root, ec); it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (ec || !it->is_regular_file(ec) || it->is_symlink(ec)) continue;
    std::ifstream in(it->path(), std::ios::binary);
    std::string head(64, '\0');
    in.read(head.data(), head.size());
    head.resize(in.gcount());
    FileKind kind = ClassifyFile(it->path().filename().string(), head);
    if (kind != FileKind::kElf && kind != FileKind::kOffloadBundle && kind != FileKind::kCompressedBundle)
      continue;
    std::stringstream all;
    in.seekg(0);
    all << in.rdbuf();
    std::string bytes = all.str();
    DeviceInventory inv = FindDeviceCode(kind, bytes, {});
    bool counted = false;
    for (const Bundle& b : inv.bundles) {
      if (b.format != BundleFormat::kPlain && b.format != BundleFormat::kCcob) continue;
      EXPECT_TRUE(b.problems.empty()) << it->path() << " +" << b.offset << ": " << b.problems[0].message;
      std::ofstream(tmp / "one", std::ios::binary).write(bytes.data() + b.file_offset, b.compressed_size);
      std::string listed;
      ASSERT_EQ(
          RunCommand("clang-offload-bundler-19 --list --type=o --input=" + tmp / "one" + " 2>&1", &listed), 0)
          << it->path() << " +" << b.offset << ": " << listed;
      std::set<std::string> theirs, ours;
      std::istringstream lines(listed);
      for (std::string l; std::getline(lines, l);)
        if (!l.empty()) theirs.insert(l);
      for (const BundleEntry& e : b.entries) ours.insert(e.id);
      EXPECT_EQ(ours, theirs) << it->path() << " bundle at +" << b.offset;
      ++bundles;
      compressed += b.format == BundleFormat::kCcob;
      counted = true;
    }
    files += counted;
  }
  RecordProperty("bundles", std::to_string(bundles));
  std::printf("compared %zu bundles (%zu CCOB) in %zu files with clang-offload-bundler-19 --list\n", bundles,
              compressed, files);
  EXPECT_GT(bundles, 0u);
}

}  // namespace
}  // namespace rocm_audit
