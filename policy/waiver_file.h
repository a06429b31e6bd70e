// The waiver file of --suppress: one accepted finding (or family) per line, always with
// the reason it is accepted, like lintian's overrides:
//
//   # CHECK-ID   PATH-GLOB                  [KEY-GLOB]   # reason
//   undefined-symbol  libthread_db.so*       ps_*        # the debugger provides ps_* at run time
//
// PATH-GLOB is matched against the file's path below the audited input when it holds a
// '/', else against the file's name; KEY-GLOB against the values of the rule's key fields
// (the symbol, the library, the arch, ...). Library names match their versioned names.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "audit/model/finding.h"
#include "audit/model/rule.h"

namespace rocm_audit {

struct Waiver {
  std::string check;   ///< a rule ID or a glob over rule IDs
  std::string path;    ///< PATH-GLOB
  std::string key;     ///< KEY-GLOB; empty: any
  std::string reason;  ///< never empty
  std::string file;    ///< the waiver file, as named on the command line
  size_t line = 0;     ///< 1-based
  std::string text;    ///< the line as written, for the unused-waiver note

  std::string Source() const { return file + ":" + std::to_string(line); }
};

/// Parses `text` read from `file_name`. False with "FILE:LINE: what is wrong" for a line
/// without a reason, with too few or too many fields, or whose CHECK-ID matches no rule.
[[nodiscard]] bool ParseWaivers(std::string_view text, const std::string& file_name,
                                std::span<const Rule> rules, std::vector<Waiver>* out, std::string* error);

/// Whether `waiver` accepts `finding`, whose path below its input is `path` and whose key
/// fields hold `key_values`.
bool WaiverMatches(const Waiver& waiver, const Finding& finding, const std::string& path,
                   const std::vector<std::string>& key_values);

}  // namespace rocm_audit
