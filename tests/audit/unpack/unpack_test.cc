// The unpacker under hostile packages (fixtures/hostile_unpack47.py): the bytes of members it
// does not unpack (refused, metadata, members of a control archive) count against the
// package's caps as an unpacked member's do; metadata is kept once per kind; RPM headers and
// zip directories that lie, and sparse data past the cap, are refusals that say what lies.
#include "audit/unpack/unpack.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>

#include "audit/unpack/rpm_header.h"
#include "audit/unpack/zip_overlap.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;

// The hostile packages, made once for the suite.
class HostilePackages : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    // Appended, not a sum of temporaries: GCC 12 warns falsely on that (-Wstringop-overflow).
    std::string command = ROCM_AUDIT_FIXTURES_DIR "/hostile_unpack47.py packages ";
    command += dir_->path();
    ASSERT_EQ(RunCommand(command), 0);
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string Package(const std::string& name) { return *dir_ / name; }

  // Unpacks `name` into a fresh directory within `limits`; the problems it ends with.
  std::vector<UnpackProblem> Unpack(const std::string& name, PackageFormat format, UnpackLimits limits,
                                    UnpackedPackage* out = nullptr, double* seconds = nullptr) {
    TempDir into;
    UnpackBudget budget{limits};
    std::vector<UnpackProblem> problems;
    auto start = std::chrono::steady_clock::now();
    UnpackedPackage u = UnpackPackage(Package(name), format, into.path(), &budget, &problems);
    if (seconds) *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (out) *out = std::move(u);
    return problems;
  }

  static TempDir* dir_;
};
TempDir* HostilePackages::dir_ = nullptr;

// A cap's problem among `problems`, or nullptr.
const UnpackProblem* LimitOf(const std::vector<UnpackProblem>& problems) {
  for (const UnpackProblem& p : problems)
    if (p.limit) return &p;
  return nullptr;
}

UnpackLimits SmallLimits() {
  UnpackLimits limits;
  limits.max_bytes = uint64_t(64) << 20;
  return limits;
}

// 512 GiB of zeros behind an absolute name, in 16 MiB of zstd: refused, and its bytes, read
// to skip it, stop at --max-unpacked (before: read to the end unchecked, 27 s, no limit).
TEST_F(HostilePackages, ARefusedMembersBytesCountAgainstTheCaps) {
  double seconds = 0;
  std::vector<UnpackProblem> problems =
      Unpack("refused-member-512gib.tar.zst", PackageFormat::kTar, SmallLimits(), nullptr, &seconds);
  ASSERT_GE(problems.size(), 2u);
  EXPECT_EQ(problems[0].member, "/tmp/zeros.bin");
  EXPECT_EQ(problems[0].reason, "an absolute member name");
  const UnpackProblem* limit = LimitOf(problems);
  ASSERT_NE(limit, nullptr);
  EXPECT_THAT(limit->reason, HasSubstr("(--max-unpacked)"));
  EXPECT_LT(seconds, 5);
  // With the default caps, the ratio stops it.
  problems = Unpack("refused-member-512gib.tar.zst", PackageFormat::kTar, UnpackLimits{});
  ASSERT_NE(LimitOf(problems), nullptr);
  EXPECT_THAT(LimitOf(problems)->reason, HasSubstr("(--max-ratio): a decompression bomb"));
}

// The same member in a .deb's control.tar.zst: the control file is read, the bomb stops at
// the ratio, and the package says so (a skipped member is charged as it is read too).
TEST_F(HostilePackages, AControlArchivesMembersCountAgainstTheCaps) {
  UnpackedPackage out;
  std::vector<UnpackProblem> problems =
      Unpack("control-member-512gib.deb", PackageFormat::kDeb, UnpackLimits{}, &out);
  EXPECT_EQ(out.name, "bomb");
  const UnpackProblem* limit = LimitOf(problems);
  ASSERT_NE(limit, nullptr);
  EXPECT_EQ(limit->member, "control.tar.zst: /tmp/zeros.bin");
  EXPECT_THAT(limit->reason, HasSubstr("(--max-ratio)"));
}

// 6,000 METADATA members of 1 MiB: each read is charged, so the cap stops them; one text is
// kept (before: every one kept in memory, 6 GB, and no cap).
TEST_F(HostilePackages, MetadataMembersCountAgainstTheCapsAndOneIsKept) {
  UnpackedPackage out;
  std::vector<UnpackProblem> problems =
      Unpack("metadata-6000.whl", PackageFormat::kWheel, SmallLimits(), &out);
  const UnpackProblem* limit = LimitOf(problems);
  ASSERT_NE(limit, nullptr);
  EXPECT_THAT(limit->member, HasSubstr(".dist-info/METADATA"));
  EXPECT_THAT(out.name, ::testing::StartsWith("bloat"));
  EXPECT_EQ(out.depends, std::vector<std::string>{});
}

// 20,000 directory entries at one local entry: the package is refused, naming two of them
// (before: libarchive kept one entry per offset, no finding).
TEST_F(HostilePackages, ZipEntriesSharingALocalEntryAreRefused) {
  std::vector<UnpackProblem> problems = Unpack("one-local-entry.zip", PackageFormat::kZip, UnpackLimits{});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].member, "");
  EXPECT_FALSE(problems[0].limit);
  EXPECT_THAT(problems[0].reason, HasSubstr("'f00000' and 'f00001' share the local entry at offset 0"));
  EXPECT_THAT(problems[0].reason, HasSubstr("19999 of the 20000 entries"));
}

// A zip as Python's zipfile writes it overlaps nowhere.
TEST(ZipOverlaps, AnOrdinaryZipHasNone) {
  TempDir t;
  ASSERT_EQ(
      RunCommand("cd " + t.path() +
                 " && python3 -c \"import zipfile; z = zipfile.ZipFile('a.zip', 'w', zipfile.ZIP_DEFLATED); "
                 "[z.writestr('d/f%d' % i, 'x' * i * 100) for i in range(50)]; z.close()\""),
      0);
  EXPECT_EQ(ZipOverlaps(t / "a.zip", 200000), "");
  EXPECT_EQ(ZipOverlapsIn(ReadAll(t / "a.zip"), 200000), "");
}

// Data at offset 2^62 of a sparse member: refused naming the offset; the next member unpacks
// (before: "cannot write it (disk full?)", and the package stopped there).
TEST_F(HostilePackages, ASparseMembersOffsetPastTheCapIsTheReason) {
  UnpackedPackage out;
  std::vector<UnpackProblem> problems = Unpack("sparse-2-62.tar", PackageFormat::kTar, UnpackLimits{}, &out);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].member, "usr/lib/libsparse.so.1");
  EXPECT_FALSE(problems[0].limit);
  EXPECT_THAT(problems[0].reason, HasSubstr("a sparse member with data at offset 4611686018427387904"));
  EXPECT_EQ(out.members, std::vector<std::string>{"usr/share/doc/sparse/README"});
}

// Each lying part of an .rpm is named, and the package is not read (before: an empty package,
// no finding, but for the signature's magic, which libarchive checks too).
TEST_F(HostilePackages, RpmHeadersThatLieAreNamed) {
  const std::pair<const char*, const char*> cases[] = {
      {"lead-cut", "the lead is cut short: the file has 60 of its 96 bytes"},
      {"signature-no-magic", "the signature header at byte 96 has no header magic"},
      {"signature-count-past-file",
       "the signature header's index count 4096 and data size 0 reach byte 65648, past the end of the file "
       "("},
      {"header-data-past-file", "the header's index count 1 and data size 1048576 reach byte"},
      {"header-count-past-rpm", "the header's index count 65536 or data size 5 is past what rpm reads"},
      {"header-cut", "the header is cut short at byte 112"},
      {"no-payload", "no payload: the file ends with the header at byte 185"},
  };
  for (const auto& [name, reason] : cases) {
    UnpackedPackage out;
    std::vector<UnpackProblem> problems =
        Unpack(std::string("rpm/") + name + ".rpm", PackageFormat::kRpm, UnpackLimits{}, &out);
    ASSERT_EQ(problems.size(), 1u) << name;
    EXPECT_THAT(problems[0].reason, HasSubstr(std::string("not a readable RPM: ") + reason)) << name;
    EXPECT_TRUE(out.members.empty()) << name;
  }
  UnpackedPackage valid;
  EXPECT_EQ(ReadRpmHeader(Package("valid.rpm"), &valid), "");
  EXPECT_EQ(valid.name, "liar");
  EXPECT_EQ(valid.version, "1-1");
}

}  // namespace
}  // namespace rocm_audit::testing
