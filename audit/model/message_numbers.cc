#include "audit/model/message_numbers.h"

#include <algorithm>
#include <charconv>

namespace rocm_audit {
namespace {

bool WordByte(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool Digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

MessageNumbers SplitNumbers(std::string_view message, std::span<const TextPath> paths) {
  MessageNumbers out;
  out.shape.reserve(message.size());
  size_t next_path = 0;
  for (size_t i = 0; i < message.size();) {
    while (next_path < paths.size() && paths[next_path].offset < i) ++next_path;
    if (next_path < paths.size() && paths[next_path].offset == i && paths[next_path].size > 0) {
      const size_t size = std::min(paths[next_path].size, message.size() - i);
      out.shape.append(message.substr(i, size));
      i += size;
      continue;
    }
    if (!Digit(message[i]) || (i > 0 && (WordByte(message[i - 1]) || message[i - 1] == '.'))) {
      out.shape += message[i++];
      continue;
    }
    size_t end = i;
    while (end < message.size() && Digit(message[end])) ++end;
    const bool joined = end < message.size() &&
                        (WordByte(message[end]) ||
                         (message[end] == '.' && end + 1 < message.size() && Digit(message[end + 1])));
    uint64_t value = 0;
    const auto [stop, error] = std::from_chars(message.data() + i, message.data() + end, value);
    if (joined || end - i > 19 || error != std::errc() || stop != message.data() + end) {
      out.shape.append(message.substr(i, end - i));
    } else {
      out.shape += '\0';
      out.numbers.push_back(value);
    }
    i = end;
  }
  return out;
}

}  // namespace rocm_audit
