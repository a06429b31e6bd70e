// Arguments joined into one value, unknown as soon as one of them is: what set(), list()
// and string() make of their trailing arguments.
#pragma once

#include <string>
#include <vector>

#include "audit/cmake/interpreter.h"
#include "audit/cmake/lists.h"

namespace rocm_audit {

/// Arguments [from, to) as a list.
inline CMakeValue JoinArgs(const Args& a, size_t from, size_t to) {
  std::vector<std::string> texts;
  for (size_t k = from; k < to && k < a.size(); ++k) {
    if (!a[k].value.known) return CMakeValue::Unknown(a[k].value.why);
    texts.push_back(a[k].value.text);
  }
  return {JoinList(texts)};
}

/// Arguments [from, end) concatenated.
inline CMakeValue Concat(const Args& a, size_t from) {
  std::string text;
  for (size_t k = from; k < a.size(); ++k) {
    if (!a[k].value.known) return CMakeValue::Unknown(a[k].value.why);
    text += a[k].value.text;
  }
  return {text};
}

}  // namespace rocm_audit
