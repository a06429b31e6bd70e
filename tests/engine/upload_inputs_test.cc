// The .changes reader on text: deb822 fields (names in any case, continuation lines), the
// OpenPGP cleartext frame (armor headers, dash-escaped lines, the signature), Files and
// Checksums-Sha256 merged by name, and what no .changes may say (a directory in a name, two
// sizes for one file, a field line that is no file entry, a message with no signature).
#include "engine/upload_inputs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace rocm_audit {
namespace {

constexpr std::string_view kMd5 = "0123456789abcdef0123456789abcdef";
constexpr std::string_view kSha = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

// " <sum><rest>\n", appended: GCC 12 warns falsely on a sum of temporaries (-Wstringop-overflow).
std::string Line(std::string_view sum, std::string_view rest) {
  std::string line = " ";
  line += sum;
  line += rest;
  line += '\n';
  return line;
}

std::string Body(const std::string& files, const std::string& sha) {
  return "Format: 1.8\nSource: roctap\nBinary: libroctap1\nChanges:\n roctap (1.0-1) unstable; "
         "urgency=medium\n"
         " .\n   * Test.\nChecksums-Sha256:\n" +
         sha + "Files:\n" + files;
}

TEST(UploadInputs, ReadsFilesAndChecksumsByName) {
  const std::string text = Body(Line(kMd5, " 12 libs optional libroctap1_1.0-1_amd64.deb") +
                                    Line(kMd5, " 7 libs optional roctap_1.0-1_amd64.buildinfo"),
                                Line(kSha, " 12 libroctap1_1.0-1_amd64.deb"));
  std::vector<UploadedFile> files;
  std::string error;
  ASSERT_TRUE(ParseChangesText(text, &files, &error)) << error;
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].name, "libroctap1_1.0-1_amd64.deb");
  EXPECT_EQ(files[0].size, 12u);
  EXPECT_EQ(files[0].md5, kMd5);
  EXPECT_EQ(files[0].sha256, kSha);
  EXPECT_EQ(files[1].name, "roctap_1.0-1_amd64.buildinfo");
  EXPECT_EQ(files[1].sha256, "");
}

TEST(UploadInputs, SkipsTheOpenPgpFrameAndUnescapesDashes) {
  // A signer may escape any line with "- " (RFC 4880 7.1): here the Files field's own line.
  std::string body = Body(" " + std::string(kMd5) + " 3 libs optional a.deb\n", "");
  body.replace(body.find("Files:"), 6, "- Files:");
  const std::string signed_text = "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA512\n\n" + body +
                                  "-----BEGIN PGP SIGNATURE-----\n\niQEzBAEBCgAdFiEE\n=abcd\n"
                                  "-----END PGP SIGNATURE-----\n";
  std::vector<UploadedFile> files;
  std::string error;
  ASSERT_TRUE(ParseChangesText(signed_text, &files, &error)) << error;
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].name, "a.deb");
  // Armor with no signature is no signed message.
  files.clear();
  EXPECT_FALSE(
      ParseChangesText("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA512\n\n" + body, &files, &error));
  EXPECT_THAT(error, ::testing::HasSubstr("without its signature"));
}

TEST(UploadInputs, FieldNamesInAnyCaseAndCarriageReturns) {
  std::string text = "format: 1.8\r\nFILES:\r\n " + std::string(kMd5) + " 3 libs optional a.udeb\r\n";
  std::vector<UploadedFile> files;
  std::string error;
  ASSERT_TRUE(ParseChangesText(text, &files, &error)) << error;
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].name, "a.udeb");
}

TEST(UploadInputs, RefusesWhatNoChangesSays) {
  const std::pair<std::string, const char*> cases[] = {
      {"Format: 1.8\nSource: x\n", "no Files field"},
      {Body(" " + std::string(kMd5) + " 3 libs optional ../../etc/a.deb\n", ""), "cannot read"},
      {Body(" " + std::string(kMd5) + " 3 libs optional sub/a.deb\n", ""), "cannot read"},
      {Body(" " + std::string(kMd5) + " 3x libs optional a.deb\n", ""), "cannot read"},
      {Body(" " + std::string(kMd5) + " 99999999999999999999999 libs optional a.deb\n", ""), "cannot read"},
      {Body(" nothex libs optional a.deb x\n", ""), "cannot read"},
      {Body(" " + std::string(kMd5) + " 3 libs optional a.deb\n", " " + std::string(kSha) + " 4 a.deb\n"),
       "two sizes"},
      {" continuation first\nFiles:\n", "continues no field"},
  };
  for (const auto& [text, why] : cases) {
    std::vector<UploadedFile> files;
    std::string error;
    EXPECT_FALSE(ParseChangesText(text, &files, &error)) << text;
    EXPECT_THAT(error, ::testing::HasSubstr(why)) << text;
  }
}

TEST(UploadInputs, TellsUploadDescriptionsByName) {
  EXPECT_TRUE(IsUploadDescription("up/x_1_amd64.changes"));
  EXPECT_TRUE(IsUploadDescription("x_1.dsc"));
  EXPECT_FALSE(IsUploadDescription("x_1_amd64.deb"));
  EXPECT_FALSE(IsUploadDescription("changes"));
}

}  // namespace
}  // namespace rocm_audit
