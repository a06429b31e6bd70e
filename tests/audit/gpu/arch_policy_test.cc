// Requirement modes, generic targets and the Debian ISA-compatibility map.
#include <gtest/gtest.h>

#include "audit/gpu/arch_policy.h"

namespace rocm_audit::testing {
namespace {

TEST(ArchPolicy, ModesGenericTargetsAndIsaCompat) {
  auto T = [](const char* s) {
    std::string e;
    return *ParseTargetId(s, &e);
  };
  auto offer = [&](const char* s, bool compressed = false) {
    TargetId t = T(s);
    std::string e;
    BundleEntryId id{"hipv4", "amdgcn-amd-amdhsa-", s};
    return ArchOffer{*EntryTargetId(id, &e), compressed};
  };
  EXPECT_EQ(CheckRequirement(T("gfx90a"), {offer("gfx90a")}, IsaCompat::kNone).by, ServedBy::kExact);
  EXPECT_EQ(CheckRequirement(T("gfx90a"), {offer("gfx90a:xnack+")}, IsaCompat::kNone).by, ServedBy::kNone);
  EXPECT_EQ(
      CheckRequirement(T("gfx90a"), {offer("gfx90a:xnack+"), offer("gfx90a:xnack-")}, IsaCompat::kNone).by,
      ServedBy::kExact);
  EXPECT_EQ(CheckRequirement(T("gfx90a:xnack+"), {offer("gfx90a:xnack+")}, IsaCompat::kNone).by,
            ServedBy::kExact);
  EXPECT_EQ(CheckRequirement(T("gfx90a:xnack-"), {offer("gfx90a:xnack+")}, IsaCompat::kNone).by,
            ServedBy::kNone);
  Coverage partial = CheckRequirement(T("gfx906"), {offer("gfx906:sramecc+")}, IsaCompat::kNone);
  EXPECT_EQ(partial.unserved.size(), 2u);
  EXPECT_EQ(partial.modes, 4u);
  EXPECT_EQ(CheckRequirement(T("gfx1031"), {offer("gfx10-3-generic")}, IsaCompat::kNone).by,
            ServedBy::kGeneric);
  EXPECT_EQ(CheckRequirement(T("gfx942"), {offer("gfx9-4-generic")}, IsaCompat::kNone).by,
            ServedBy::kGeneric);
  EXPECT_EQ(CheckRequirement(T("gfx908"), {offer("gfx9-generic")}, IsaCompat::kNone).by, ServedBy::kNone);
  EXPECT_EQ(CheckRequirement(T("gfx1031"), {offer("gfx1030")}, IsaCompat::kNone).by, ServedBy::kNone);
  Coverage compat = CheckRequirement(T("gfx1031"), {offer("gfx1030", true)}, IsaCompat::kDebian);
  EXPECT_EQ(compat.by, ServedBy::kIsaCompat);
  EXPECT_TRUE(compat.compat_only_compressed);
  EXPECT_FALSE(
      CheckRequirement(T("gfx1031"), {offer("gfx1030", false)}, IsaCompat::kDebian).compat_only_compressed);
  EXPECT_TRUE(DebianIsaCompatible("gfx906", "gfx900"));
  EXPECT_FALSE(DebianIsaCompatible("gfx900", "gfx906"));
  EXPECT_TRUE(DebianIsaCompatible("gfx1012", "gfx1010"));
  EXPECT_FALSE(DebianIsaCompatible("gfx1010", "gfx1012"));
}

// Our processor table extends LLVM 19's; where LLVM knows a processor we must agree with it:
// name, feature modes, and the e_flags mach LLVM's own ELF reader maps to that name.

}  // namespace
}  // namespace rocm_audit::testing
