// Compressed offload bundles: CCOB v1-v3 with zstd and zlib (re-headed from real clang
// output), v1 ends found from the stream, and malformed headers and payloads as problems.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include <zstd.h>

#include "audit/gpu/ccob.h"
#include "audit/gpu/decode_memory.h"
#include "audit/gpu/device_code.h"
#include "tests/support/gpu_fixtures.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

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
    EXPECT_THAT(AllProblems(inv), HasSubstr(c.expect)) << c.name << ": " << AllProblems(inv);
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
  EXPECT_THAT(AllProblems(capped), HasSubstr("over --max-decompressed"));
  BundleReadOptions small;
  small.max_decompressed = raw.size() - 1;
  DeviceInventory tight = Inventory(FileKind::kCompressedBundle, MakeCcob(2, 1, raw), small);
  EXPECT_THAT(AllProblems(tight), HasSubstr("over --max-decompressed"));
  // A wrong hash is found only when asked.
  std::string bad_hash = MakeCcob(2, 1, raw);
  bad_hash[16] ^= 1;
  EXPECT_EQ(ProblemCount(Inventory(FileKind::kCompressedBundle, bad_hash)), 0u);
  BundleReadOptions verify;
  verify.verify_hash = true;
  EXPECT_THAT(AllProblems(Inventory(FileKind::kCompressedBundle, bad_hash, verify)),
              HasSubstr("hash mismatch"));
  // Every truncation of a real CCOB and of a plain bundle: a problem, never a crash.
  for (const std::string& whole : {ccob, raw})
    for (size_t n = 0; n < whole.size(); n += 97) {
      DeviceInventory inv =
          Inventory(whole[0] == 'C' ? FileKind::kCompressedBundle : FileKind::kOffloadBundle,
                    std::string_view(whole).substr(0, n));
      if (n > 0) EXPECT_GT(ProblemCount(inv), 0u) << n;
    }
}

// LLVM decompresses into a buffer of the header's size and keeps what the stream produced:
// an overstated size reads at the real size (every entry kept), an understated one fails.
TEST_F(GpuTree, OverstatedUncompressedSizeReadsAtTheRealSize) {
  std::string raw = Decompressed(RealCcob());
  for (int version : {2, 3}) {
    std::string payload = Zstd(raw);
    std::string over = CcobHeaderBytes(version, 1, payload.size(), raw.size() + 4096, Md5Low(raw)) + payload;
    DeviceInventory inv = Inventory(FileKind::kCompressedBundle, over);
    ASSERT_EQ(inv.bundles.size(), 1u);
    const Bundle& b = inv.bundles[0];
    ASSERT_EQ(b.problems.size(), 1u) << AllProblems(inv);
    EXPECT_EQ(b.problems[0].kind, BundleProblem::kOverstatedSize);
    EXPECT_EQ(b.uncompressed_size, raw.size());
    EXPECT_EQ(Targets(inv), std::set<std::string>{"gfx1030"});
    ASSERT_FALSE(b.entries.empty());
    for (const BundleEntry& e : b.entries)
      if (e.size) EXPECT_TRUE(e.code_object.has_value()) << e.id;

    std::string under = CcobHeaderBytes(version, 1, payload.size(), raw.size() - 1, Md5Low(raw)) + payload;
    DeviceInventory bad = Inventory(FileKind::kCompressedBundle, under);
    ASSERT_EQ(bad.bundles.size(), 1u);
    ASSERT_FALSE(bad.bundles[0].problems.empty());
    EXPECT_EQ(bad.bundles[0].problems[0].kind, BundleProblem::kMalformed) << AllProblems(bad);
  }
}

// The frame LLVM writes is decoded in one piece and read in place; every other framing is
// streamed. Both must see the same bundle, with the run's shared memory or without it.
TEST_F(GpuTree, EveryZstdFramingReadsTheSameBundle) {
  std::string raw = PaddedBundle(Decompressed(RealCcob()), 3 << 20);
  auto frame = [&](std::string_view part, bool with_size) {
    std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> cctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
    ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_contentSizeFlag, with_size ? 1 : 0);
    std::string out(ZSTD_compressBound(part.size()), '\0');
    ZSTD_outBuffer o{out.data(), out.size(), 0};
    ZSTD_inBuffer i{part.data(), part.size(), 0};
    EXPECT_EQ(ZSTD_compressStream2(cctx.get(), &o, &i, ZSTD_e_end), 0u);
    out.resize(o.pos);
    return out;
  };
  const size_t half = raw.size() / 2;
  const std::vector<std::pair<std::string, std::string>> payloads = {
      {"one frame (read whole)", Zstd(raw)},
      {"no content size (streamed)", frame(raw, false)},
      {"two frames (streamed)",
       frame(std::string_view(raw).substr(0, half), true) + frame(std::string_view(raw).substr(half), true)},
  };
  DecodeMemory shared(DecodeMemory::kLargeBlock);
  std::string reference;
  for (const auto& [name, payload] : payloads)
    for (DecodeMemory* memory : {static_cast<DecodeMemory*>(nullptr), &shared}) {
      std::string ccob = CcobHeaderBytes(3, 1, payload.size(), raw.size(), Md5Low(raw)) + payload;
      BundleReadOptions o;
      o.verify_hash = true;
      o.memory = memory;
      DeviceInventory inv = Inventory(FileKind::kCompressedBundle, ccob, o);
      ASSERT_EQ(inv.bundles.size(), 1u) << name;
      EXPECT_EQ(ProblemCount(inv), 0u) << name << AllProblems(inv);
      EXPECT_EQ(inv.bundles[0].hash_ok, true) << name;
      std::ostringstream seen;
      for (const BundleEntry& e : inv.bundles[0].entries)
        seen << e.id << ' ' << e.offset << ' ' << e.size << ' '
             << (e.code_object ? e.code_object->target_id().str() : "-") << '\n';
      if (reference.empty()) reference = seen.str();
      EXPECT_EQ(seen.str(), reference) << name;
      // Handed to a sink, the decoded bytes are the bundle, in order, whatever the path.
      CcobHeader h;
      std::string error, got;
      ASSERT_TRUE(ParseCcobHeader(ccob, &h, &error)) << error;
      DecodeResult r;
      EXPECT_TRUE(DecodeCcobPayload(
          h, std::string_view(ccob).substr(h.header_size), true, raw.size(), memory,
          [&](uint64_t offset, std::string_view chunk) {
            EXPECT_EQ(offset, got.size());
            got.append(chunk);
            return true;
          },
          &r, &error))
          << name << error;
      EXPECT_TRUE(got == raw) << name;
      EXPECT_EQ(r.consumed, payload.size()) << name;
    }
  EXPECT_THAT(reference, HasSubstr("gfx1030"));
  // Each decode's window came from the shared memory: one kept and reused, within budget.
  EXPECT_GT(shared.peak_large(), 0u);
  EXPECT_LE(shared.peak_large(), (raw.size() + (2 << 20)) & ~size_t((2 << 20) - 1)) << raw.size();
}

// LLVM's frame is decoded only as far as a bundle's reading looks (its table, its entries'
// ELF headers and notes): the 8 MiB after the code object are never produced, so no window
// of the bundle's size is taken, and what is read is what the whole decode reads.
TEST_F(GpuTree, OnlyTheBytesABundlesReadingLooksAtAreDecoded) {
  std::string raw = PaddedBundle(Decompressed(RealCcob()), 8 << 20);
  std::string payload = Zstd(raw);
  std::string ccob = CcobHeaderBytes(3, 1, payload.size(), raw.size(), Md5Low(raw)) + payload;
  DecodeMemory shared(DecodeMemory::kLargeBlock);
  BundleReadOptions prefix, whole;
  prefix.memory = &shared;
  whole.verify_hash = true;  // the hash needs every byte: decoded whole
  auto seen = [&](const BundleReadOptions& o) {
    DeviceInventory inv = Inventory(FileKind::kCompressedBundle, ccob, o);
    std::ostringstream out;
    out << AllProblems(inv);
    for (const Bundle& b : inv.bundles) {
      out << b.uncompressed_size << ' ' << b.compressed_size << '\n';
      for (const BundleEntry& e : b.entries)
        out << e.id << ' ' << e.offset << ' ' << e.size << ' ' << e.content << ' '
            << (e.code_object ? e.code_object->target_id().str() + " " +
                                    std::to_string(e.code_object->kernels.value_or(0))
                              : "-")
            << '\n';
    }
    return out.str();
  };
  EXPECT_EQ(seen(prefix), seen(whole));
  EXPECT_THAT(seen(prefix), HasSubstr("gfx1030"));
  EXPECT_EQ(shared.peak_large(), 0u);

  CcobHeader h;
  std::string error;
  ASSERT_TRUE(ParseCcobHeader(ccob, &h, &error)) << error;
  const std::string_view in = std::string_view(ccob).substr(h.header_size);
  auto decode = [&](std::string_view frame, uint64_t want, DecodeResult* r, WholeBundle* out) {
    return DecodeCcobPrefix(
        h, frame, true, raw.size(), nullptr, [&](std::string_view) { return want; }, r, out);
  };
  for (uint64_t want : {uint64_t(1), uint64_t(3) << 20, uint64_t(raw.size())}) {
    DecodeResult r;
    WholeBundle out;
    ASSERT_TRUE(decode(in, want, &r, &out)) << want;
    EXPECT_GE(out.bytes().size(), want);
    EXPECT_LT(out.bytes().size(), want + (1 << 20));  // not far past: a block or two
    EXPECT_TRUE(out.bytes() == std::string_view(raw).substr(0, out.bytes().size())) << want;
    EXPECT_EQ(r.produced, raw.size());
    EXPECT_EQ(r.consumed, in.size());
  }
  // Not the frame it reads: a truncated one, one with bytes after it, one with a checksum.
  DecodeResult r;
  WholeBundle out;
  EXPECT_FALSE(decode(in.substr(0, in.size() - 1), 1, &r, &out));
  EXPECT_FALSE(decode(std::string(in) + "x", 1, &r, &out));
  std::string checked(ZSTD_compressBound(raw.size()), '\0');
  std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> cctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 1);
  checked.resize(ZSTD_compress2(cctx.get(), checked.data(), checked.size(), raw.data(), raw.size()));
  EXPECT_FALSE(decode(checked, 1, &r, &out));
}

// Found by the ASan mutation run: a PT_NOTE with p_align 0 (which LLVM's notes() accepts
// and iterates with 4) made getDesc(0) assert, or misread without assertions.

}  // namespace
}  // namespace rocm_audit::testing
