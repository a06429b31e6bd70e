// LosslessText and DisplayText (audit/model/byte_text.h): how names that are not UTF-8 or
// hold control characters are written, losslessly (JSON) and for display (terminal, XML).
#include "audit/model/byte_text.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <random>
#include <string>

namespace rocm_audit::testing {
namespace {

TEST(LosslessText, Utf8PassesThroughAndEachInvalidByteIsEscaped) {
  EXPECT_EQ(LosslessText("libamdhip64.so.6"), "libamdhip64.so.6");
  EXPECT_EQ(LosslessText("lib\xc3\xa9t\xc3\xa9.so \xe2\x82\xac \xf0\x9f\x94\xa5"),
            "lib\xc3\xa9t\xc3\xa9.so \xe2\x82\xac \xf0\x9f\x94\xa5");
  EXPECT_FALSE(NeedsLosslessText("lib\xc3\xa9t\xc3\xa9.so"));
  EXPECT_EQ(LosslessText("lib\xfe.so"), "lib\\xfe.so");
  EXPECT_EQ(LosslessText("lib\xff.so"), "lib\\xff.so");
  // Controls are UTF-8: JSON escapes them itself.
  EXPECT_EQ(LosslessText("a\x1b[2K\rb"), "a\x1b[2K\rb");
  // Overlong forms, surrogates, past U+10FFFF, truncated sequences: byte by byte.
  EXPECT_EQ(LosslessText("\xc0\xaf"), "\\xc0\\xaf");
  EXPECT_EQ(LosslessText("\xed\xa0\x80"), "\\xed\\xa0\\x80");
  EXPECT_EQ(LosslessText("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");
  EXPECT_EQ(LosslessText("\xe2\x82"), "\\xe2\\x82");
  EXPECT_EQ(LosslessText("\xe2\x82x"), "\\xe2\\x82x");
}

TEST(LosslessText, ABackslashIsDoubledOnlyWhereItWouldReadAsAnEscape) {
  EXPECT_EQ(LosslessText("C:\\rocm\\lib"), "C:\\rocm\\lib");
  EXPECT_FALSE(NeedsLosslessText("C:\\rocm\\lib"));
  EXPECT_EQ(LosslessText("lib\\xfe.so"), "lib\\\\xfe.so");  // the four characters, not the byte
  EXPECT_EQ(LosslessText("a\\\\b"), "a\\\\\\b");
  EXPECT_EQ(LosslessText("a\\\xfe"), "a\\\\\\xfe");
  EXPECT_EQ(LosslessText("a\\"), "a\\");
  EXPECT_NE(LosslessText("lib\\xfe.so"), LosslessText("lib\xfe.so"));
}

// Every string, read back, is the bytes it was made from; so distinct bytes never share a
// text. Random strings over the bytes that matter: backslash, 'x', hex digits, controls,
// UTF-8 lead and continuation bytes.
TEST(LosslessText, ReadsBackAsTheSameBytes) {
  // Appended, not a sum of temporaries: GCC 12 warns falsely on that (-Wstringop-overflow).
  std::string alphabet("\\xXfe0a9u\x1b\n", 12);
  alphabet.push_back('\0');
  alphabet += "\xc3\xa9\x80\xbf\xed\xf0\x90\xfe\xff";
  std::mt19937 random(34);
  for (int round = 0; round < 20000; ++round) {
    std::string bytes;
    for (int n = random() % 9; n > 0; --n) bytes += alphabet[random() % alphabet.size()];
    const std::string text = LosslessText(bytes);
    ASSERT_EQ(BytesOfLosslessText(text), bytes) << text;
    ASSERT_EQ(NeedsLosslessText(bytes), text != bytes);
  }
  EXPECT_EQ(BytesOfLosslessText("C:\\rocm"), "C:\\rocm");
  EXPECT_EQ(BytesOfLosslessText("\\xzz\\"), "\\xzz\\");
}

TEST(DisplayText, ControlsAndInvalidBytesAreShownNotWritten) {
  const std::string needed = "libc.so.6\x1b[2K\rrocm-audit: 0 files audited; no findings";
  EXPECT_EQ(DisplayText(needed), "libc.so.6\\x1b[2K\\x0drocm-audit: 0 files audited; no findings");
  EXPECT_EQ(DisplayText(std::string("a\0b\x07\x08\x7f", 6)), "a\\x00b\\x07\\x08\\x7f");
  EXPECT_EQ(DisplayText("\xc2\x9b"
                        "31m"),
            "\\u009b31m");  // C1 CSI
  EXPECT_EQ(DisplayText("abc\xe2\x80\xae"
                        "cba"),
            "abc\\u202ecba");                         // RIGHT-TO-LEFT OVERRIDE
  EXPECT_EQ(DisplayText("\xef\xbf\xbf"), "\\uffff");  // not an XML character
  EXPECT_EQ(DisplayText("a\xe2\x80\xa8"
                        "b\xe2\x80\xa9"),
            "a\\u2028b\\u2029");  // LINE and PARAGRAPH SEPARATOR
  EXPECT_EQ(DisplayText("lib\xfe\xff.so"), "lib\\xfe\\xff.so");
  EXPECT_EQ(DisplayText("a\nb\tc"), "a\\x0ab\\x09c");
  EXPECT_EQ(DisplayText("a\nb\tc\r", Newlines::kKeep), "a\nb\tc\\x0d");
  EXPECT_EQ(DisplayText("lib\xc3\xa9t\xc3\xa9.so"), "lib\xc3\xa9t\xc3\xa9.so");
  EXPECT_EQ(DisplayText("\\u202e"), "\\\\u202e");
  EXPECT_FALSE(NeedsDisplayText("/opt/rocm/lib/librocblas.so.4"));
  EXPECT_TRUE(NeedsDisplayText("a\x1b"));
}

// Whatever the input, display text holds no byte below 0x20 (but the kept newline and
// tab), no DEL, and is valid UTF-8.
TEST(DisplayText, NeverWritesAControlOrInvalidUtf8) {
  std::mt19937 random(34);
  for (int round = 0; round < 5000; ++round) {
    std::string bytes;
    for (int n = random() % 16; n > 0; --n) bytes += static_cast<char>(random() % 256);
    const std::string shown = DisplayText(bytes);
    for (unsigned char c : shown) ASSERT_TRUE(c >= 0x20 && c != 0x7f) << shown;
    ASSERT_NO_THROW(nlohmann::json(shown).dump()) << shown;  // strict: UTF-8 or it throws
  }
}

}  // namespace
}  // namespace rocm_audit::testing
