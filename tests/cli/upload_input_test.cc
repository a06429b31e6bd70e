// A .changes as a PATH, made by the real dpkg-buildpackage (its .deb files and -dbgsym
// packages, its .buildinfo): the binary packages it lists are audited together as one set,
// signed or not; a listed file that is missing or not the uploaded one, a .dsc and a
// source-only .changes are upload-not-audited findings, never an empty pass.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "tests/cli/debian_source_fixture.h"
#include "tests/support/report_findings.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string kBin = ROCM_AUDIT_BINARY;

struct Outcome {
  int status;
  std::string out;
};

Outcome AuditOf(const std::string& args) {
  Outcome a;
  a.status = RunCommand(kBin + " --no-progress " + args + " 2>&1", &a.out);
  return a;
}

// One build of the source, shared by the tests below (each copies what it changes).
class UploadInput : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    WriteRoctapSource(*dir_ / "roctap-1.0", {});
    std::string out;
    ASSERT_EQ(RunCommand(BuildPackageCommand(*dir_ / "roctap-1.0"), &out), 0) << out;
  }
  static void TearDownTestSuite() { delete dir_; }
  // A copy of the upload in `to`: the .changes and every file beside it.
  static void CopyUpload(const std::string& to) {
    ASSERT_EQ(RunCommand("mkdir -p " + to + " && cp " + dir_->path() + "/*.changes " + dir_->path() +
                         "/*.deb " + dir_->path() + "/*.buildinfo " + to + "/"),
              0);
  }
  static TempDir* dir_;
  const std::string changes_ = "roctap_1.0-1_amd64.changes";
};
TempDir* UploadInput::dir_ = nullptr;

TEST_F(UploadInput, ItsBinaryPackagesAreAuditedTogether) {
  const std::string listed = ReadAll(*dir_ / changes_);
  ASSERT_THAT(listed, HasSubstr("roctap-tools-dbgsym_1.0-1_amd64.deb")) << listed;
  Outcome a = AuditOf("--format json -o " + *dir_ / "report.json " + *dir_ / changes_);
  EXPECT_EQ(a.status, 0) << a.out;
  const nlohmann::json report = nlohmann::json::parse(ReadAll(*dir_ / "report.json"));
  // The five .deb files it lists, the -dbgsym ones too; the program finds its library in the set.
  std::set<std::string> names;
  for (const nlohmann::json& p : report["inputs"]["packages"]) names.insert(p["name"].get<std::string>());
  EXPECT_EQ(names, (std::set<std::string>{"libroctap1", "roctap-tools", "libroctap-dev", "libroctap1-dbgsym",
                                          "roctap-tools-dbgsym"}));
  EXPECT_FALSE(ChecksIn(report).count("unresolved-library"));
  EXPECT_FALSE(ChecksIn(report).count("upload-not-audited"));
  a = AuditOf(*dir_ / changes_);
  EXPECT_THAT(a.out, HasSubstr("audited as installed over the base /")) << a.out;
}

// OpenPGP cleartext signature, made by the real gpg with a key of the test's own.
TEST_F(UploadInput, ASignedChangesIsReadAsItsText) {
  TempDir t;
  CopyUpload(t / "up");
  std::string out;
  ASSERT_EQ(RunCommand("export GNUPGHOME=" + t / "gnupg" + " && mkdir -m 700 " + t / "gnupg" +
                           " && gpg --batch --passphrase '' --quick-gen-key 'Test <test@rocm-audit.invalid>' "
                           "ed25519 sign never 2>&1 && gpg --batch --clearsign -o " +
                           t / "up/signed.changes " + t / "up/" + changes_ + " 2>&1 && gpgconf --kill all",
                       &out),
            0)
      << out;
  ASSERT_THAT(ReadAll(t / "up/signed.changes"), HasSubstr("-----BEGIN PGP SIGNATURE-----"));
  Outcome a = AuditOf("--format json -o " + t / "report.json " + t / "up/signed.changes");
  EXPECT_EQ(a.status, 0) << a.out;
  EXPECT_THAT(ReadAll(t / "report.json"), HasSubstr("\"name\": \"roctap-tools\""));
}

TEST_F(UploadInput, AFileNotAsListedIsAFindingAndTheRestIsAudited) {
  TempDir t;
  CopyUpload(t / "up");
  // Same size, one byte changed; another listed file gone; a third a link to a device.
  ASSERT_EQ(
      RunCommand("printf 'X' | dd of=" + t / "up/libroctap-dev_1.0-1_amd64.deb" +
                 " bs=1 seek=100 conv=notrunc 2>/dev/null && rm " + t / "up/roctap-tools_1.0-1_amd64.deb" +
                 " && ln -sf /dev/zero " + t / "up/libroctap1-dbgsym_1.0-1_amd64.deb"),
      0);
  Outcome a = AuditOf("--format json -o " + t / "report.json " + t / "up/" + changes_);
  EXPECT_EQ(a.status, 1) << a.out;
  a = AuditOf(t / "up/" + changes_);
  EXPECT_THAT(a.out, HasSubstr("error[upload-not-audited]: libroctap-dev_1.0-1_amd64.deb: its SHA-256 is "))
      << a.out;
  EXPECT_THAT(a.out, HasSubstr("not the file that was uploaded")) << a.out;
  EXPECT_THAT(a.out, HasSubstr("roctap-tools_1.0-1_amd64.deb: listed in the .changes, but not next to it"))
      << a.out;
  // A device never ends: not read.
  EXPECT_THAT(a.out, HasSubstr("libroctap1-dbgsym_1.0-1_amd64.deb: cannot be read: not a regular file"))
      << a.out;
  const std::string report = ReadAll(t / "report.json");
  EXPECT_THAT(report, HasSubstr("\"name\": \"libroctap1\"")) << report;
  EXPECT_THAT(report, Not(HasSubstr("\"name\": \"libroctap-dev\""))) << report;
}

// A .changes whose files only Files lists (no Checksums-Sha256, as before format 1.8): MD5.
TEST_F(UploadInput, WithoutSha256TheMd5OfFilesIsChecked) {
  TempDir t;
  CopyUpload(t / "up");
  ASSERT_EQ(RunCommand("cd " + t / "up" + " && awk '/^[^ ]/ { skip = ($0 ~ /^Checksums-Sha/) } !skip' " +
                       changes_ + " > md5 && mv md5 " + changes_),
            0);
  ASSERT_THAT(ReadAll(t / "up/" + changes_), Not(HasSubstr("Checksums-Sha256")));
  EXPECT_EQ(AuditOf(t / "up/" + changes_).status, 0);
  ASSERT_EQ(RunCommand("printf 'X' | dd of=" + t / "up/libroctap1_1.0-1_amd64.deb" +
                       " bs=1 seek=100 conv=notrunc 2>/dev/null"),
            0);
  Outcome a = AuditOf(t / "up/" + changes_);
  EXPECT_EQ(a.status, 1) << a.out;
  EXPECT_THAT(a.out, HasSubstr("libroctap1_1.0-1_amd64.deb: its MD5 is ")) << a.out;
}

// dpkg-buildpackage -S: a real .dsc and a real source-only .changes.
TEST_F(UploadInput, ASourcePackageOrASourceOnlyUploadIsAFinding) {
  TempDir t;
  WriteRoctapSource(t / "roctap-1.0", {});
  std::string out;
  ASSERT_EQ(RunCommand(BuildPackageCommand(t / "roctap-1.0", "-S"), &out), 0) << out;
  Outcome a = AuditOf(t / "roctap_1.0-1.dsc");
  EXPECT_EQ(a.status, 1) << a.out;
  EXPECT_THAT(a.out, HasSubstr("error[upload-not-audited]: a source package (.dsc) names no binary package"))
      << a.out;
  a = AuditOf(t / "roctap_1.0-1_source.changes");
  EXPECT_EQ(a.status, 1) << a.out;
  EXPECT_THAT(a.out, HasSubstr("error[upload-not-audited]: names no binary package (.deb, .udeb)")) << a.out;
}

}  // namespace
}  // namespace rocm_audit::testing
