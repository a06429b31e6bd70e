#include "policy/name_glob.h"

#include <fnmatch.h>

#include <cctype>
#include <optional>
#include <string>

#include "audit/model/byte_text.h"

namespace rocm_audit {
namespace {

// "librocblas.so.4.2" -> "librocblas.so.4", then "librocblas.so"; nullopt when `text` has
// no version component after ".so" left to drop.
std::optional<std::string_view> DropSonameVersion(std::string_view text) {
  size_t dot = text.rfind('.');
  if (dot == std::string_view::npos || dot + 1 == text.size()) return std::nullopt;
  for (char c : text.substr(dot + 1))
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  std::string_view rest = text.substr(0, dot);
  if (!rest.ends_with(".so") && rest.find(".so.") == std::string_view::npos) return std::nullopt;
  return rest;
}

}  // namespace

std::string GlobOfWrittenText(std::string_view written) {
  std::string out;
  out.reserve(written.size());
  for (size_t i = 0; i < written.size(); ++i) {
    if (written[i] != '\\' || i + 1 == written.size()) {
      out += written[i];
    } else if (std::optional<char> byte = EscapedByteAt(written, i)) {
      out += '\\';
      out += *byte;
      i += 3;
    } else {  // an fnmatch escape, kept whole: "\\x" stays a backslash and an 'x'
      out += written.substr(i, 2);
      ++i;
    }
  }
  return out;
}

bool GlobMatches(std::string_view glob, std::string_view text) {
  return fnmatch(std::string(glob).c_str(), std::string(text).c_str(), 0) == 0;
}

bool NameGlobMatches(std::string_view glob, std::string_view text) {
  if (GlobMatches(glob, text)) return true;
  for (auto stem = DropSonameVersion(text); stem; stem = DropSonameVersion(*stem))
    if (GlobMatches(glob, *stem)) return true;
  return false;
}

}  // namespace rocm_audit
