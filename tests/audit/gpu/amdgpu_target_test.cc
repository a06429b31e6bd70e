// Target IDs and processors: entry IDs of every bundler era, and the processor table
// against LLVM 19 for every processor it knows.
#include <gtest/gtest.h>

#include <llvm/Object/ELFObjectFile.h>
#include <llvm/TargetParser/TargetParser.h>

#include <set>

#include "audit/gpu/amdgpu_target.h"
#include "audit/gpu/arch_policy.h"
#include "audit/gpu/code_object.h"

namespace rocm_audit::testing {
namespace {

TEST(TargetIds, ParseEntryIdsOfEveryEra) {
  struct Case {
    const char* id;
    const char* kind;
    const char* triple;
    const char* target;
  };
  for (const Case& c : std::vector<Case>{
           {"hipv4-amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-", "hipv4", "amdgcn-amd-amdhsa-",
            "gfx90a:sramecc+:xnack-"},
           {"host-x86_64-unknown-linux-gnu-", "host", "x86_64-unknown-linux-gnu", ""},
           {"hipv4-amdgcn-amd-amdhsa-unknown-gfx90a", "hipv4", "amdgcn-amd-amdhsa-unknown", "gfx90a"},
           {"hipv4-amdgcn-amd-amdhsa--gfx10-3-generic", "hipv4", "amdgcn-amd-amdhsa-", "gfx10-3-generic"},
           {"hip-amdgcn-amd-amdhsa-gfx906", "hip", "amdgcn-amd-amdhsa", "gfx906"},
       }) {
    auto e = ParseBundleEntryId(std::string_view(c.id, strlen(c.id)));
    ASSERT_TRUE(e) << c.id;
    EXPECT_EQ(e->kind, c.kind) << c.id;
    EXPECT_EQ(e->triple, c.triple) << c.id;
    EXPECT_EQ(e->target, c.target) << c.id;
  }
  EXPECT_FALSE(ParseBundleEntryId("nodash"));
  // Some producers count a NUL terminator in the ID length (comgr strips it too).
  auto nul = ParseBundleEntryId(std::string_view("hipv4-amdgcn-amd-amdhsa--gfx1030\0", 33));
  ASSERT_TRUE(nul);
  EXPECT_EQ(nul->target, "gfx1030");
  std::string error;
  auto id = ParseTargetId("gfx906+xnack", &error);  // V2/V3 spelling
  ASSERT_TRUE(id);
  EXPECT_EQ(id->xnack, FeatureSetting::kOn);
  EXPECT_FALSE(ParseTargetId("gfx90a:xnack", &error));
  EXPECT_FALSE(ParseTargetId("gfx90a:foo+", &error));
  std::vector<TargetId> list;
  EXPECT_FALSE(ParseArchList("gfx90a,gfx9999", &list, &error));
  EXPECT_FALSE(ParseArchList("gfx1030:xnack+", &list, &error));  // gfx1030 has no xnack modes
  list.clear();
  EXPECT_TRUE(ParseArchFile("# targets\ngfx906 gfx90a:xnack+ # MI210\n\ngfx1030;gfx1100\n", &list, &error))
      << error;
  EXPECT_EQ(list.size(), 4u);
}

TEST(AmdgpuProcessors, AgreeWithLlvm19) {
  using namespace llvm::AMDGPU;
  int checked = 0;
  for (int k = GK_AMDGCN_FIRST; k <= GK_AMDGCN_GENERIC_LAST; ++k) {
    llvm::StringRef name = getArchNameAMDGCN(GPUKind(k));
    if (name.empty()) continue;
    const ProcessorInfo* p = ProcessorByName(std::string_view(name.data(), name.size()));
    ASSERT_TRUE(p) << name.str();
    unsigned attr = getArchAttrAMDGCN(GPUKind(k));
    EXPECT_EQ(p->xnack, bool(attr & FEATURE_XNACK)) << name.str();
    EXPECT_EQ(p->sramecc, bool(attr & FEATURE_SRAMECC)) << name.str();
    // A header-only AMDGPU ELF with this mach: LLVM names its CPU.
    llvm::ELF::Elf64_Ehdr h{};
    memcpy(h.e_ident,
           "\x7f"
           "ELF\x02\x01\x01\x40\x03",
           9);
    h.e_type = llvm::ELF::ET_DYN;
    h.e_machine = llvm::ELF::EM_AMDGPU;
    h.e_version = 1;
    h.e_flags = p->mach | llvm::ELF::EF_AMDGPU_FEATURE_XNACK_ANY_V4;
    h.e_ehsize = sizeof h;
    std::string bytes(reinterpret_cast<const char*>(&h), sizeof h);
    auto obj = llvm::object::ObjectFile::createELFObjectFile(llvm::MemoryBufferRef(bytes, "h"));
    ASSERT_TRUE(bool(obj)) << llvm::toString(obj.takeError());
    auto cpu = (*obj)->tryGetCPUName();
    ASSERT_TRUE(cpu) << name.str();
    EXPECT_EQ(cpu->str(), name.str());
    ++checked;
  }
  EXPECT_GE(checked, 50);
}

TEST(TargetIds, SortedByProcessorAsPeopleListThem) {
  std::vector<std::string> ids = {"gfx1100", "gfx90a:xnack+", "gfx803",        "gfx10-3-generic",
                                  "gfx906",  "gfx1030",       "gfx90a",        "gfx9-generic",
                                  "gfx1201", "gfx942",        "gfx90a:xnack-", "gfx906"};
  SortTargetIds(&ids);
  EXPECT_EQ(
      ids, (std::vector<std::string>{"gfx803", "gfx906", "gfx90a", "gfx90a:xnack+", "gfx90a:xnack-", "gfx942",
                                     "gfx9-generic", "gfx1030", "gfx10-3-generic", "gfx1100", "gfx1201"}));
}

}  // namespace
}  // namespace rocm_audit::testing
