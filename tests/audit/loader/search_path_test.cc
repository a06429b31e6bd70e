// Dynamic string tokens as glibc's _dl_dst_substitute expands them (Debian's $LIB).
#include "audit/loader/search_path.h"

#include <gtest/gtest.h>
#include <llvm/BinaryFormat/ELF.h>

namespace rocm_audit {
namespace {

const ObjectIdentity kX86{2, llvm::ELF::EM_X86_64};

TEST(SearchPath, OriginForms) {
  LoaderConfig c{RootedFs("/sysroot-that-does-not-matter"), {}, {}, ""};
  EXPECT_EQ(ExpandSearchEntry("$ORIGIN/../lib", "/s/p/bin", kX86, c), "/s/p/bin/../lib");
  EXPECT_EQ(ExpandSearchEntry("${ORIGIN}/x", "/s/p/bin", kX86, c), "/s/p/bin/x");
  // An $ORIGIN result is already a host path: it is never re-rooted.
  EXPECT_EQ(ExpandSearchEntry("$ORIGIN", "/s/p", kX86, c), "/s/p");
}

TEST(SearchPath, LibAndPlatformFollowTheObjectsMachine) {
  LoaderConfig c{RootedFs(), {}, {}, ""};
  EXPECT_EQ(ExpandSearchEntry("/opt/$LIB/rocm", "/o", kX86, c), "/opt/lib/x86_64-linux-gnu/rocm");
  EXPECT_EQ(ExpandSearchEntry("/opt/${PLATFORM}", "/o", kX86, c), "/opt/x86_64");
  ObjectIdentity arm{2, llvm::ELF::EM_AARCH64};
  EXPECT_EQ(ExpandSearchEntry("/$LIB", "/o", arm, c), "/lib/aarch64-linux-gnu");
}

TEST(SearchPath, UnknownTokensStayLiteralAndKnownOnesWithoutValueDiscard) {
  LoaderConfig c{RootedFs(), {}, {}, ""};
  EXPECT_EQ(ExpandSearchEntry("/opt/$ROCM_PATH/lib", "/o", kX86, c), "/opt/$ROCM_PATH/lib");
  EXPECT_EQ(ExpandSearchEntry("/opt/$ORIGINAL", "/o", kX86, c), "/opt/$ORIGINAL");
  ObjectIdentity riscv{2, llvm::ELF::EM_RISCV};
  EXPECT_EQ(ExpandSearchEntry("/opt/$PLATFORM", "/o", riscv, c), std::nullopt);
}

TEST(SearchPath, AbsoluteEntriesAreReRooted) {
  LoaderConfig c{RootedFs("/"), {}, {}, ""};
  EXPECT_EQ(ExpandSearchEntry("/usr/lib", "/o", kX86, c), "/usr/lib");
  LoaderConfig rooted{RootedFs("/tmp"), {}, {}, ""};
  EXPECT_EQ(ExpandSearchEntry("/usr/lib", "/o", kX86, rooted), "/tmp/usr/lib");
}

TEST(SearchPath, DebianDefaultDirectories) {
  EXPECT_EQ(
      DefaultDirectories(kX86),
      (std::vector<std::string>{"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib", "/usr/lib"}));
}

}  // namespace
}  // namespace rocm_audit
