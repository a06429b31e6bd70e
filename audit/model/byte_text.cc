#include "audit/model/byte_text.h"

#include <cstdint>
#include <cstdio>

namespace rocm_audit {
namespace {

// One well-formed UTF-8 sequence, or one byte that does not start one.
struct Unit {
  size_t length = 1;
  uint32_t code_point = 0;
  bool valid = false;
};

// The Unicode Standard, Table 3-7 (well-formed byte sequences): no overlong forms, no
// surrogates, nothing past U+10FFFF. A byte that does not start such a sequence is one unit.
Unit NextUnit(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return {1, lead, true};
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the second byte's range
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  }
  if (length == 0 || i + length > s.size()) return {1, lead, false};
  if (byte(i + 1) < low || byte(i + 1) > high) return {1, lead, false};
  uint32_t cp = lead & (0x7F >> length);
  for (size_t k = 1; k < length; ++k) {
    if (k > 1 && (byte(i + k) & 0xC0) != 0x80) return {1, lead, false};
    cp = cp << 6 | (byte(i + k) & 0x3F);
  }
  return {length, cp, true};
}

// Bidirectional formatting characters: a terminal shows the text around them reordered
// (ALM, LRM, RLM, LRE..RLO, LRI..PDI).
bool IsBidiControl(uint32_t cp) {
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

// Characters a reader misreads although they are printable text to a parser: DEL, the C1
// controls (U+009B is the 8-bit CSI that starts a terminal escape), the bidirectional
// controls, the line and paragraph separators U+2028/U+2029 (a line break to editors,
// browsers and JavaScript before ES2019, not to a terminal or a JSON parser) and the
// noncharacters U+FFFE/U+FFFF.
bool IsMisread(uint32_t cp) {
  return cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || IsBidiControl(cp) || cp == 0x2028 || cp == 0x2029 ||
         cp == 0xFFFE || cp == 0xFFFF;
}

enum class Form { kLossless, kDisplay };

// How `unit` is written: "" when as it is, else its escape.
std::string EscapeOf(const Unit& unit, Form form, Newlines newlines) {
  char buf[16];
  if (!unit.valid) {
    std::snprintf(buf, sizeof buf, "\\x%02x", unit.code_point);
    return buf;
  }
  if (form == Form::kLossless) return "";
  const uint32_t cp = unit.code_point;
  if (newlines == Newlines::kKeep && (cp == '\n' || cp == '\t')) return "";
  if (cp < 0x20 || cp == 0x7F) {
    std::snprintf(buf, sizeof buf, "\\x%02x", cp);
    return buf;
  }
  if (IsMisread(cp)) {
    std::snprintf(buf, sizeof buf, "\\u%04x", cp);
    return buf;
  }
  return "";
}

// A backslash that would otherwise read as the start of an escape is doubled.
bool StartsLikeAnEscape(std::string_view rest, Form form) {
  if (rest.empty()) return false;
  const char c = rest.front();
  return c == '\\' || c == 'x' || (form == Form::kDisplay && c == 'u');
}

std::string Written(std::string_view bytes, Form form, Newlines newlines) {
  std::string out;
  out.reserve(bytes.size() + 8);
  for (size_t i = 0; i < bytes.size();) {
    const Unit unit = NextUnit(bytes, i);
    if (std::string escape = EscapeOf(unit, form, newlines); !escape.empty()) {
      out += escape;
    } else if (bytes[i] == '\\') {
      out += '\\';
      const std::string_view rest = bytes.substr(i + 1);
      if (StartsLikeAnEscape(rest, form) ||
          (!rest.empty() && !EscapeOf(NextUnit(bytes, i + 1), form, newlines).empty()))
        out += '\\';
    } else {
      out.append(bytes.substr(i, unit.length));
    }
    i += unit.length;
  }
  return out;
}

bool NeedsWriting(std::string_view bytes, Form form, Newlines newlines) {
  for (size_t i = 0; i < bytes.size();) {
    const Unit unit = NextUnit(bytes, i);
    if (bytes[i] == '\\' || !EscapeOf(unit, form, newlines).empty())
      return Written(bytes, form, newlines) != bytes;  // rare: names are plain text
    i += unit.length;
  }
  return false;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<char> EscapedByteAt(std::string_view text, size_t i) {
  if (i + 3 >= text.size() || text[i] != '\\' || text[i + 1] != 'x') return std::nullopt;
  int high = HexDigit(text[i + 2]), low = HexDigit(text[i + 3]);
  if (high < 0 || low < 0) return std::nullopt;
  return static_cast<char>(high * 16 + low);
}

std::string LosslessText(std::string_view bytes) { return Written(bytes, Form::kLossless, Newlines::kKeep); }

bool NeedsLosslessText(std::string_view bytes) {
  return NeedsWriting(bytes, Form::kLossless, Newlines::kKeep);
}

std::string BytesOfLosslessText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 == text.size()) {
      out += text[i];
    } else if (text[i + 1] == '\\') {
      out += '\\';
      ++i;
    } else if (std::optional<char> byte = EscapedByteAt(text, i)) {
      out += *byte;
      i += 3;
    } else {
      out += '\\';
    }
  }
  return out;
}

std::string EscapeMisreadInJson(std::string json) {
  size_t i = 0;
  // Every such character is at least one byte from 0x7F up: plain ASCII text is passed by.
  while (i < json.size() && static_cast<unsigned char>(json[i]) < 0x7F) ++i;
  if (i == json.size()) return json;
  std::string out(json, 0, i);
  out.reserve(json.size() + 16);
  while (i < json.size()) {
    const Unit unit = NextUnit(json, i);
    if (unit.valid && IsMisread(unit.code_point)) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", unit.code_point);
      out += buf;
    } else {
      out.append(json, i, unit.length);
    }
    i += unit.length;
  }
  return out;
}

std::string DisplayText(std::string_view bytes, Newlines newlines) {
  return Written(bytes, Form::kDisplay, newlines);
}

bool NeedsDisplayText(std::string_view bytes, Newlines newlines) {
  return NeedsWriting(bytes, Form::kDisplay, newlines);
}

}  // namespace rocm_audit
