// GPU code: bundles found everywhere, read by their length fields, CCOB v1-v3 with zstd and
// zlib, malformed variants, code-object identity, and the arch policy findings. Inputs are
// built by clang++-19/lld-19/clang-offload-bundler-19 (fixtures/make_gpu_tree.sh); other
// CCOB versions and zlib are made by re-heading that real output.
#include <gtest/gtest.h>
#include <llvm/Object/ELF.h>
#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Support/MD5.h>
#include <llvm/TargetParser/TargetParser.h>
#include <zlib.h>
#include <zstd.h>

#include <fstream>
#include <set>
#include <sstream>

#include "audit/arch_policy.h"
#include "audit/bundle_table.h"
#include "audit/ccob.h"
#include "audit/code_object.h"
#include "audit/device_code.h"
#include "tests/test_support.h"

namespace rocm_audit {
namespace {

using testing::ReadAll;
using testing::RunCommand;
using testing::TempDir;
using testing::WriteAll;

// The section's bytes, through LLVM's ELF reader.
std::string Section(const std::string& file, const std::string& name) {
  std::string bytes = ReadAll(file);
  auto elf = llvm::object::ELFFile<llvm::object::ELF64LE>::create(bytes);
  if (!elf) return "";
  for (const auto& s : cantFail(elf->sections()))
    if (cantFail(elf->getSectionName(s)) == name) {
      auto c = cantFail(elf->getSectionContents(s));
      return std::string(reinterpret_cast<const char*>(c.data()), c.size());
    }
  return "";
}

std::set<std::string> Targets(const DeviceInventory& inv) {
  std::set<std::string> out;
  for (const ArchOffer& o : inv.Offers()) out.insert(o.target.str());
  return out;
}

size_t ProblemCount(const DeviceInventory& inv) {
  size_t n = inv.problems.size();
  for (const Bundle& b : inv.bundles) n += b.problems.size();
  return n;
}

std::string AllProblems(const DeviceInventory& inv) {
  std::string out;
  for (const auto& p : inv.problems) out += p.message + "\n";
  for (const Bundle& b : inv.bundles)
    for (const auto& p : b.problems) out += p.message + "\n";
  return out;
}

DeviceInventory Inventory(FileKind kind, std::string_view bytes, BundleReadOptions o = {}) {
  return FindDeviceCode(kind, bytes, o);
}

class GpuTree : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!testing::HaveTool("clang++-19") || !testing::HaveTool("clang-offload-bundler-19")) return;
    dir_ = new TempDir;
    std::string out;
    ok_ = RunCommand(std::string(ROCM_AUDIT_FIXTURES_DIR) + "/make_gpu_tree.sh " + dir_->path() + " 2>&1", &out) == 0;
    if (!ok_) ADD_FAILURE() << out;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  void SetUp() override {
    if (!dir_) GTEST_SKIP() << "clang++-19 / clang-offload-bundler-19 not installed";
    ASSERT_TRUE(ok_);
  }
  static std::string P(const std::string& rel) { return *dir_ / rel; }

  // A real CCOB v2 (zstd) from the compiler, and the plain bundle inside it.
  static std::string RealCcob() { return Section(P("obj/ccob.o"), ".hip_fatbin"); }
  static std::string Decompressed(const std::string& ccob) {
    CcobHeader h;
    std::string error;
    EXPECT_TRUE(ParseCcobHeader(ccob, &h, &error)) << error;
    std::string out(h.uncompressed_size, '\0');
    size_t n = ZSTD_decompress(out.data(), out.size(), ccob.data() + h.header_size,
                               h.total_size - h.header_size);
    EXPECT_FALSE(ZSTD_isError(n));
    return out;
  }

  static TempDir* dir_;
  static bool ok_;
};
TempDir* GpuTree::dir_ = nullptr;
bool GpuTree::ok_ = false;

// CCOB headers (docs/formats.md 2.1), written the way clang's bundler writes them.
std::string CcobHeaderBytes(int version, int method, uint64_t payload, uint64_t raw, uint64_t hash) {
  std::string h = "CCOB";
  auto put = [&](uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) h.push_back(char(v >> (8 * i)));
  };
  put(version, 2);
  put(method, 2);
  if (version == 1) {
    put(raw, 4);
  } else if (version == 2) {
    put(24 + payload, 4);
    put(raw, 4);
  } else {
    put(32 + payload, 8);
    put(raw, 8);
  }
  put(hash, 8);
  return h;
}

uint64_t Md5Low(std::string_view bytes) {
  llvm::MD5 md5;
  md5.update(llvm::StringRef(bytes.data(), bytes.size()));
  llvm::MD5::MD5Result r;
  md5.final(r);
  return r.low();
}

std::string Zlib(std::string_view raw, int level) {
  uLongf n = compressBound(raw.size());
  std::string out(n, '\0');
  compress2(reinterpret_cast<Bytef*>(out.data()), &n, reinterpret_cast<const Bytef*>(raw.data()),
            raw.size(), level);
  out.resize(n);
  return out;
}

std::string Zstd(std::string_view raw) {
  std::string out(ZSTD_compressBound(raw.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), raw.data(), raw.size(), 3));
  return out;
}

std::string MakeCcob(int version, int method, std::string_view raw) {
  std::string payload = method == 1 ? Zstd(raw) : Zlib(raw, 6);
  return CcobHeaderBytes(version, method, payload.size(), raw.size(), Md5Low(raw)) + payload;
}

TEST_F(GpuTree, SharedLibraryHoldsPlainAndCompressedBundlesInOneSection) {
  std::string bytes = ReadAll(P("lib/libfat.so.1"));
  DeviceInventory inv = Inventory(FileKind::kElf, bytes);
  ASSERT_EQ(inv.bundles.size(), 2u) << AllProblems(inv);
  EXPECT_EQ(inv.bundles[0].format, BundleFormat::kPlain);
  EXPECT_EQ(inv.bundles[1].format, BundleFormat::kCcob);
  EXPECT_EQ(inv.bundles[1].ccob_version, 2);
  EXPECT_EQ(inv.bundles[1].compression, "zstd");
  EXPECT_EQ(inv.bundles[1].offset % 4096, 0u);
  EXPECT_EQ(inv.wrappers, 2u);  // both bundles registered, both cross-checked
  EXPECT_EQ(ProblemCount(inv), 0u) << AllProblems(inv);
  EXPECT_EQ(Targets(inv), (std::set<std::string>{"gfx906", "gfx90a:xnack+", "gfx1030"}));
  for (const BundleEntry* e : inv.DeviceEntries()) {
    ASSERT_TRUE(e->code_object) << e->id;
    EXPECT_EQ(e->code_object->processor, e->target->processor);
    EXPECT_EQ(e->code_object->kernels, 1u) << e->id;
    EXPECT_GE(e->code_object->code_object_version, 4);
  }
  const BundleEntry* xnack = nullptr;
  for (const BundleEntry* e : inv.DeviceEntries())
    if (e->target->processor == "gfx90a") xnack = e;
  ASSERT_TRUE(xnack);
  EXPECT_EQ(xnack->code_object->xnack, FeatureSetting::kOn);
  EXPECT_EQ(xnack->code_object->sramecc, FeatureSetting::kAny);
}

TEST_F(GpuTree, TwoCompressedBundlesInOneSectionAreBothRead) {
  DeviceInventory inv = Inventory(FileKind::kElf, ReadAll(P("lib/libccob.so.1")));
  ASSERT_EQ(inv.bundles.size(), 2u) << AllProblems(inv);
  EXPECT_EQ(ProblemCount(inv), 0u) << AllProblems(inv);
  EXPECT_EQ(Targets(inv), (std::set<std::string>{"gfx1030", "gfx1100"}));
}

TEST_F(GpuTree, EveryBundleAgreesWithClangOffloadBundlerList) {
  for (const char* lib : {"lib/libfat.so.1", "lib/libccob.so.1", "obj/plain.o"}) {
    std::string bytes = ReadAll(P(lib));
    DeviceInventory inv = Inventory(FileKind::kElf, bytes);
    for (const Bundle& b : inv.bundles) {
      TempDir tmp;
      WriteAll(tmp / "one", std::string_view(bytes).substr(b.file_offset, b.compressed_size));
      std::string listed;
      ASSERT_EQ(RunCommand("clang-offload-bundler-19 --list --type=o --input=" + tmp / "one", &listed), 0);
      std::set<std::string> theirs, ours;
      std::istringstream lines(listed);
      for (std::string l; std::getline(lines, l);) if (!l.empty()) theirs.insert(l);
      for (const BundleEntry& e : b.entries) ours.insert(e.id);
      EXPECT_EQ(ours, theirs) << lib << " bundle at " << b.offset;
    }
  }
}

TEST_F(GpuTree, RdcObjectArchiveMembersAndStandaloneFiles) {
  DeviceInventory rdc = Inventory(FileKind::kElf, ReadAll(P("obj/rdc.o")));
  ASSERT_EQ(rdc.bundles.size(), 1u);
  EXPECT_EQ(rdc.bundles[0].format, BundleFormat::kObjectSections);
  EXPECT_EQ(Targets(rdc), (std::set<std::string>{"gfx906", "gfx1030"}));
  for (const BundleEntry* e : rdc.DeviceEntries()) EXPECT_EQ(e->content, "bitcode");
  EXPECT_EQ(ProblemCount(rdc), 0u) << AllProblems(rdc);

  DeviceInventory ar = Inventory(FileKind::kArArchive, ReadAll(P("lib/libdevice.a")));
  ASSERT_EQ(ar.bundles.size(), 2u);
  std::set<std::string> members;
  for (const Bundle& b : ar.bundles) members.insert(b.member);
  EXPECT_EQ(members, (std::set<std::string>{"plain.o", "rdc.o"}));

  DeviceInventory plain = Inventory(FileKind::kOffloadBundle, ReadAll(P("co/bundle.hsaco")));
  DeviceInventory ccob = Inventory(FileKind::kCompressedBundle, ReadAll(P("co/compressed.hsaco")));
  DeviceInventory bare = Inventory(FileKind::kElf, ReadAll(P("co/kernel_gfx90a.co")));
  for (const DeviceInventory* inv : {&plain, &ccob, &bare}) {
    EXPECT_EQ(Targets(*inv), std::set<std::string>{"gfx90a"});
    EXPECT_EQ(ProblemCount(*inv), 0u) << AllProblems(*inv);
  }
  EXPECT_EQ(bare.bundles[0].format, BundleFormat::kCodeObject);
}

TEST_F(GpuTree, CcobVersionsOneToThreeWithZstdAndZlib) {
  std::string raw = Decompressed(RealCcob());
  for (int version : {1, 2, 3})
    for (int method : {0, 1}) {
      std::string ccob = MakeCcob(version, method, raw);
      BundleReadOptions o;
      o.verify_hash = true;
      DeviceInventory inv = Inventory(FileKind::kCompressedBundle, ccob, o);
      ASSERT_EQ(inv.bundles.size(), 1u) << version << method;
      const Bundle& b = inv.bundles[0];
      EXPECT_EQ(b.ccob_version, version);
      EXPECT_EQ(b.compression, method ? "zstd" : "zlib");
      EXPECT_EQ(b.uncompressed_size, raw.size());
      EXPECT_EQ(b.compressed_size, ccob.size());
      EXPECT_EQ(b.hash_ok, true);
      EXPECT_EQ(ProblemCount(inv), 0u) << version << method << AllProblems(inv);
      EXPECT_EQ(Targets(inv), std::set<std::string>{"gfx1030"});
    }
}

TEST_F(GpuTree, VersionOneBundlesEndWhereTheirStreamEnds) {
  // V1 has no size field: two in a row, 4096-aligned, are found by the stream's end.
  std::string raw = Decompressed(RealCcob());
  for (int method : {0, 1}) {
    std::string one = MakeCcob(1, method, raw);
    std::string section = one + std::string(4096 - one.size() % 4096, '\0') + one;
    DeviceInventory inv = Inventory(FileKind::kCompressedBundle, section);
    ASSERT_EQ(inv.bundles.size(), 2u) << method << AllProblems(inv);
    EXPECT_EQ(inv.bundles[1].offset, one.size() + 4096 - one.size() % 4096);
    EXPECT_EQ(ProblemCount(inv), 0u) << AllProblems(inv);
  }
}

TEST_F(GpuTree, PayloadsThatContainTheMagicBytesDoNotSplitBundles) {
  // Write both magics into the zero fill of a real plain bundle (between its table and
  // its first entry), then store it uncompressed (zlib level 0): the payload now holds
  // "CCOB" and "__CLANG_OFFLOAD_BUNDLE__" verbatim. A magic-scanning reader cuts there.
  std::string raw = Decompressed(RealCcob());
  std::string planted = "CCOB\x02\x00\x01\x00" + std::string(kBundleMagic);
  raw.replace(2048, planted.size(), planted);
  std::string payload = Zlib(raw, 0);
  ASSERT_NE(payload.find("CCOB"), std::string::npos);
  std::string ccob = CcobHeaderBytes(2, 0, payload.size(), raw.size(), Md5Low(raw)) + payload;
  std::string section = ccob + std::string(4096 - ccob.size() % 4096, '\0') + ccob;
  DeviceInventory inv = Inventory(FileKind::kCompressedBundle, section);
  ASSERT_EQ(inv.bundles.size(), 2u) << AllProblems(inv);
  EXPECT_EQ(ProblemCount(inv), 0u) << AllProblems(inv);
  // And the same plain bundle uncompressed: its table, not the planted magic, sets its end.
  std::string plain_section = raw + std::string(4096 - raw.size() % 4096, '\0') + raw;
  DeviceInventory plain = Inventory(FileKind::kOffloadBundle, plain_section);
  EXPECT_EQ(plain.bundles.size(), 2u) << AllProblems(plain);
}

TEST_F(GpuTree, MalformedCompressedBundlesAreFindingsNotCrashes) {
  std::string ccob = RealCcob();
  struct Case {
    std::string name, bytes, expect;
  };
  std::string corrupt = ccob;
  corrupt[24 + 4] ^= 0xff;  // the zstd frame header descriptor
  std::string past_end = ccob;
  past_end[8] = char(0xff);  // total size far beyond the container
  std::string huge = ccob;   // claims 100 GB uncompressed
  for (int i = 0; i < 4; ++i) huge[12 + i] = char(0xff);
  std::vector<Case> cases = {
      {"truncated", ccob.substr(0, ccob.size() / 2), "runs past the end"},
      {"header cut", ccob.substr(0, 10), "truncated"},
      {"size past end", past_end, "runs past the end"},
      {"corrupt payload", corrupt, "zstd"},
      {"bad version", std::string("CCOB\x09\x00\x01\x00", 8) + ccob.substr(8), "unknown CCOB version"},
      {"bad method", std::string("CCOB\x02\x00\x07\x00", 8) + ccob.substr(8), "unknown compression method"},
  };
  for (const Case& c : cases) {
    DeviceInventory inv = Inventory(FileKind::kCompressedBundle, c.bytes);
    EXPECT_NE(AllProblems(inv).find(c.expect), std::string::npos) << c.name << ": " << AllProblems(inv);
  }
  // A flipped byte mid-stream may still decode (zstd frames carry no checksum here): only
  // the header's MD5, checked with --verify-hash, is sure to notice.
  std::string flipped = ccob;
  flipped[ccob.size() / 2] ^= 0x5a;
  BundleReadOptions verify_flip;
  verify_flip.verify_hash = true;
  EXPECT_GT(ProblemCount(Inventory(FileKind::kCompressedBundle, flipped, verify_flip)), 0u);
  // Over the cap: refused before any work; under a raised cap it is just inconsistent.
  std::string raw = Decompressed(ccob);
  std::string big = MakeCcob(3, 1, raw);
  for (int i = 0; i < 8; ++i) big[16 + i] = i == 4 ? 0x17 : 0;  // 100 GB claimed (0x17'0000'0000)
  DeviceInventory capped = Inventory(FileKind::kCompressedBundle, big);
  EXPECT_NE(AllProblems(capped).find("over --max-decompressed"), std::string::npos) << AllProblems(capped);
  BundleReadOptions small;
  small.max_decompressed = raw.size() - 1;
  DeviceInventory tight = Inventory(FileKind::kCompressedBundle, MakeCcob(2, 1, raw), small);
  EXPECT_NE(AllProblems(tight).find("over --max-decompressed"), std::string::npos);
  // A wrong hash is found only when asked.
  std::string bad_hash = MakeCcob(2, 1, raw);
  bad_hash[16] ^= 1;
  EXPECT_EQ(ProblemCount(Inventory(FileKind::kCompressedBundle, bad_hash)), 0u);
  BundleReadOptions verify;
  verify.verify_hash = true;
  EXPECT_NE(AllProblems(Inventory(FileKind::kCompressedBundle, bad_hash, verify)).find("hash mismatch"),
            std::string::npos);
  // Every truncation of a real CCOB and of a plain bundle: a problem, never a crash.
  for (const std::string& whole : {ccob, raw})
    for (size_t n = 0; n < whole.size(); n += 97) {
      DeviceInventory inv = Inventory(whole[0] == 'C' ? FileKind::kCompressedBundle : FileKind::kOffloadBundle,
                                      std::string_view(whole).substr(0, n));
      if (n > 0) EXPECT_GT(ProblemCount(inv), 0u) << n;
    }
}

// Found by the ASan mutation run: a PT_NOTE with p_align 0 (which LLVM's notes() accepts
// and iterates with 4) made getDesc(0) assert, or misread without assertions.
TEST_F(GpuTree, NoteSegmentAlignmentZeroStillCountsKernels) {
  std::string co = ReadAll(P("co/kernel_gfx90a.co"));
  auto elf = cantFail(llvm::object::ELFFile<llvm::object::ELF64LE>::create(co));
  const auto& h = elf.getHeader();
  size_t note_phdr = SIZE_MAX;
  for (size_t i = 0; i < h.e_phnum; ++i)
    if (cantFail(elf.program_headers())[i].p_type == llvm::ELF::PT_NOTE) note_phdr = i;
  ASSERT_NE(note_phdr, SIZE_MAX);
  const size_t align_at = h.e_phoff + note_phdr * sizeof(llvm::ELF::Elf64_Phdr) + 48;  // p_align
  for (uint8_t align : {0, 1, 3}) {
    std::string patched = co;
    memset(patched.data() + align_at, 0, 8);
    patched[align_at] = char(align);
    CodeObjectInfo info;
    std::string error;
    bool ok = InspectCodeObject(patched, patched.size(), &info, &error);
    if (align == 3) {
      EXPECT_FALSE(ok);  // LLVM refuses alignments other than 0, 1, 4, 8: a broken note segment
      EXPECT_NE(error.find("note"), std::string::npos) << error;
    } else {
      ASSERT_TRUE(ok) << error;
      EXPECT_EQ(info.kernels, 1u) << "p_align " << int(align);
    }
  }
}

TEST_F(GpuTree, PlainBundleTableErrors) {
  std::string raw = Decompressed(RealCcob());
  std::string past = raw;
  // Entry 0 is the host: 24 bytes + its 27-byte ID; entry 1's size is the u64 at 32+51+8.
  ASSERT_EQ(raw.substr(32 + 24, 27), "host-x86_64-unknown-linux--");
  past[32 + 51 + 8 + 6] = char(0x7f);  // second entry's size: far past the end
  std::vector<BundleEntry> entries;
  uint64_t end = 0;
  std::string error;
  EXPECT_EQ(ParseBundleTable(past, past.size(), &entries, &end, &error), TableStatus::kError);
  EXPECT_NE(error.find("runs past the end"), std::string::npos) << error;
  std::string count = raw;
  count[24 + 6] = 1;  // entry count 2^48
  EXPECT_EQ(ParseBundleTable(count, count.size(), &entries, &end, &error), TableStatus::kError);
  EXPECT_EQ(ParseBundleTable(raw.substr(0, 40), raw.size(), &entries, &end, &error), TableStatus::kNeedMore);
}

TEST_F(GpuTree, EntryWhoseCodeObjectIsForAnotherProcessorIsAMismatch) {
  DeviceInventory inv = Inventory(FileKind::kOffloadBundle, ReadAll(P("co/mislabelled.hsaco")));
  ASSERT_EQ(inv.bundles.size(), 1u);
  ASSERT_EQ(inv.bundles[0].problems.size(), 1u);
  EXPECT_EQ(inv.bundles[0].problems[0].check, "bundle-id-mismatch");
  EXPECT_NE(inv.bundles[0].problems[0].message.find("for gfx906"), std::string::npos);
}

TEST_F(GpuTree, CliPolicyFindings) {
  std::string bin = ROCM_AUDIT_BINARY;
  std::string out;
  // missing-arch, with the available targets; exit 1.
  EXPECT_EQ(RunCommand(bin + " --no-progress --format json --require-arch gfx906,gfx1100 " + P("lib/libfat.so.1") +
                           " > " + P("r1.json"), &out), 1);
  auto r1 = nlohmann::json::parse(ReadAll(P("r1.json")));
  int missing = 0;
  for (const auto& f : r1["findings"])
    if (f["check"] == "missing-arch") {
      ++missing;
      EXPECT_EQ(f["arch"], "gfx1100");
      EXPECT_EQ(f["available"], (nlohmann::json{"gfx1030", "gfx906", "gfx90a:xnack+"}));
    }
  EXPECT_EQ(missing, 1);
  const auto& bundles = r1["files"][0]["bundles"];
  ASSERT_EQ(bundles.size(), 2u);
  for (const char* key : {"section", "offset", "format", "ccob_version", "compression", "compressed_size",
                          "uncompressed_size", "entries"})
    EXPECT_TRUE(bundles[1].contains(key)) << key;
  const auto& entry = bundles[1]["entries"][1];
  for (const char* key : {"id", "kind", "target_id", "processor", "features", "size", "code_object"})
    EXPECT_TRUE(entry.contains(key)) << key;
  for (const char* key : {"mach", "xnack", "sramecc", "abi_version", "kernels"})
    EXPECT_TRUE(entry["code_object"].contains(key)) << key;

  // The Solus case: gfx1031 served only by compat from CCOBs is a warning, not served
  // without --isa-compat; plain gfx90a is not served by gfx90a:xnack+ alone.
  RunCommand(bin + " --no-progress --format json --require-arch 'gfx1031;gfx90a' --isa-compat debian " +
                 P("lib/libccob.so.1") + " " + P("lib/libfat.so.1") + " > " + P("r2.json"));
  auto r2 = nlohmann::json::parse(ReadAll(P("r2.json")));
  std::multiset<std::string> got;
  for (const auto& f : r2["findings"])
    got.insert(f["check"].get<std::string>() + " " + f["arch"].get<std::string>() + " " +
               std::string(BaseName(f["file"].get<std::string>())));
  EXPECT_EQ(got, (std::multiset<std::string>{"ccob-isa-compat gfx1031 libccob.so.1", "ccob-isa-compat gfx1031 libfat.so.1",
                                             "missing-arch gfx90a libccob.so.1", "missing-arch gfx90a libfat.so.1"}));

  // stack-arch-gap through the closure, and missing-arch-data for the partial Tensile tree.
  RunCommand(bin + " --no-progress --format json " + P("lib/libapp.so.1") + " " + P("rocblas") + " > " + P("r3.json"));
  auto r3 = nlohmann::json::parse(ReadAll(P("r3.json")));
  std::multiset<std::string> r3got;
  for (const auto& f : r3["findings"])
    if (f.contains("arch")) r3got.insert(f["check"].get<std::string>() + " " + f["arch"].get<std::string>());
  EXPECT_EQ(r3got, (std::multiset<std::string>{"stack-arch-gap gfx1100", "stack-arch-gap gfx906",
                                               "stack-arch-gap gfx90a:xnack+", "missing-arch-data gfx90a",
                                               "missing-arch-data gfx1030"}));

  // A per-arch Tensile code object is not held to the whole arch list.
  EXPECT_EQ(RunCommand(bin + " --no-progress -q --require-arch gfx1100 " + P("co/kernel_gfx90a.co")), 0);
  // Text: a summary line per file and the matrix.
  RunCommand(bin + " --no-progress --arch-matrix " + P("lib/libfat.so.1"), &out);
  EXPECT_NE(out.find("2 bundles, CCOB v2 zstd"), std::string::npos) << out;
  EXPECT_NE(out.find("gfx906 gfx90a gfx1030"), std::string::npos) << out;
}

TEST(TargetIds, ParseEntryIdsOfEveryEra) {
  struct Case {
    const char* id;
    const char* kind;
    const char* triple;
    const char* target;
  };
  for (const Case& c : std::vector<Case>{
           {"hipv4-amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-", "hipv4", "amdgcn-amd-amdhsa-", "gfx90a:sramecc+:xnack-"},
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
  EXPECT_TRUE(ParseArchFile("# targets\ngfx906 gfx90a:xnack+ # MI210\n\ngfx1030;gfx1100\n", &list, &error)) << error;
  EXPECT_EQ(list.size(), 4u);
}

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
  EXPECT_EQ(CheckRequirement(T("gfx90a"), {offer("gfx90a:xnack+"), offer("gfx90a:xnack-")}, IsaCompat::kNone).by,
            ServedBy::kExact);
  EXPECT_EQ(CheckRequirement(T("gfx90a:xnack+"), {offer("gfx90a:xnack+")}, IsaCompat::kNone).by, ServedBy::kExact);
  EXPECT_EQ(CheckRequirement(T("gfx90a:xnack-"), {offer("gfx90a:xnack+")}, IsaCompat::kNone).by, ServedBy::kNone);
  Coverage partial = CheckRequirement(T("gfx906"), {offer("gfx906:sramecc+")}, IsaCompat::kNone);
  EXPECT_EQ(partial.unserved.size(), 2u);
  EXPECT_EQ(partial.modes, 4u);
  EXPECT_EQ(CheckRequirement(T("gfx1031"), {offer("gfx10-3-generic")}, IsaCompat::kNone).by, ServedBy::kGeneric);
  EXPECT_EQ(CheckRequirement(T("gfx942"), {offer("gfx9-4-generic")}, IsaCompat::kNone).by, ServedBy::kGeneric);
  EXPECT_EQ(CheckRequirement(T("gfx908"), {offer("gfx9-generic")}, IsaCompat::kNone).by, ServedBy::kNone);
  EXPECT_EQ(CheckRequirement(T("gfx1031"), {offer("gfx1030")}, IsaCompat::kNone).by, ServedBy::kNone);
  Coverage compat = CheckRequirement(T("gfx1031"), {offer("gfx1030", true)}, IsaCompat::kDebian);
  EXPECT_EQ(compat.by, ServedBy::kIsaCompat);
  EXPECT_TRUE(compat.compat_only_compressed);
  EXPECT_FALSE(CheckRequirement(T("gfx1031"), {offer("gfx1030", false)}, IsaCompat::kDebian).compat_only_compressed);
  EXPECT_TRUE(DebianIsaCompatible("gfx906", "gfx900"));
  EXPECT_FALSE(DebianIsaCompatible("gfx900", "gfx906"));
  EXPECT_TRUE(DebianIsaCompatible("gfx1012", "gfx1010"));
  EXPECT_FALSE(DebianIsaCompatible("gfx1010", "gfx1012"));
}

// Our processor table extends LLVM 19's; where LLVM knows a processor we must agree with it:
// name, feature modes, and the e_flags mach LLVM's own ELF reader maps to that name.
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
    memcpy(h.e_ident, "\x7f" "ELF\x02\x01\x01\x40\x03", 9);
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

}  // namespace
}  // namespace rocm_audit
