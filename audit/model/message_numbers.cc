#include "audit/model/message_numbers.h"

#include <charconv>

namespace rocm_audit {
namespace {

bool WordByte(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool Digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

MessageNumbers SplitNumbers(std::string_view message) {
  MessageNumbers out;
  out.shape.reserve(message.size());
  for (size_t i = 0; i < message.size();) {
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
