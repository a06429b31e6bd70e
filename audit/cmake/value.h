// A CMake value as the static evaluator knows it: a string, or unknown (the output of a
// command that is never run, the consumer's compiler, the environment). Unknown values
// propagate through every operation; `why` says where the first unknown came from.
#pragma once

#include <string>

namespace rocm_audit {

struct CMakeValue {
  CMakeValue() = default;
  CMakeValue(std::string t) : text(std::move(t)) {}  // NOLINT: a known value converts implicitly
  CMakeValue(const char* t) : text(t) {}             // NOLINT

  std::string text;
  std::string
      why;  ///< for an unknown value: what was not known, e.g. "the output of execute_process at x.cmake:12"
  // The flags together after the strings, so that they share one padded word: a run keeps
  // every package's variables and target properties.
  bool known = true;
  /// Set on some paths of an undecided if() and unset on others: if(DEFINED) of it is not
  /// known either (CMake's generated Targets files set <Name>_NOT_FOUND_MESSAGE_targets
  /// only when a target of another export set is missing, then test DEFINED).
  bool maybe_unset = false;

  static CMakeValue Unknown(std::string why) {
    CMakeValue v;
    v.known = false;
    v.why = std::move(why);
    return v;
  }
  bool operator==(const CMakeValue& o) const { return known == o.known && text == o.text; }
};

}  // namespace rocm_audit
