// A finding: one defect in one file, as data. Checks produce findings; reports render them.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "audit/model/rule.h"
#include "audit/model/severity.h"

namespace rocm_audit {

/// Why an accepted finding does not count toward --fail-on: a waiver line or the baseline.
struct Suppression {
  std::string kind;    ///< "waiver" | "baseline"
  std::string reason;  ///< the waiver's reason; "present in the baseline" for the baseline
  std::string source;  ///< "FILE:LINE" of the waiver, or the baseline file
};

struct Finding {
  std::string check;  ///< the rule's stable ID (Rule::id)
  Severity severity = Severity::kError;
  std::string file;     ///< the audited file (as found by the walk)
  std::string message;  ///< what is wrong, in one sentence
  std::string hint;     ///< what would fix it, specific to this finding
  /// The check's own machine-readable fields (symbol, version, library, ...), an open
  /// record each check defines for itself: a new check adds fields without touching the
  /// model or a renderer. Copied verbatim into the JSON finding and SARIF properties.
  nlohmann::ordered_json fields = nlohmann::ordered_json::object();
  /// Stable across runs and machines (check, path below the audited input, key fields);
  /// set by the policy, empty before it runs.
  std::string key;
  /// Set when a waiver or the baseline accepts the finding: it is still reported, but
  /// counts toward neither the summary's severities nor the exit status.
  std::optional<Suppression> suppressed;
};

/// A finding of `rule` about `file`: the rule's default severity and generic fix, which the
/// check then makes specific.
Finding MakeFinding(const Rule& rule, const std::string& file);

/// Collects findings. Checks only ever append here; they never print.
class FindingSink {
 public:
  void Add(Finding finding) { findings.push_back(std::move(finding)); }
  std::vector<Finding> findings;
};

}  // namespace rocm_audit
