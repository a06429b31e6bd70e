// A finding: one defect in one file, as data. Checks produce findings; reports render them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace rocm_audit {

enum class Severity { kNote = 0, kWarning = 1, kError = 2 };

std::string_view SeverityName(Severity s);
/// Parses "error" | "warning" | "note"; returns false on anything else.
bool ParseSeverity(std::string_view text, Severity* out);

struct Finding {
  std::string check;    ///< stable check ID from checks/registry.h
  Severity severity = Severity::kError;
  std::string file;     ///< the audited file (as found by the walk)
  std::string message;  ///< what is wrong, in one sentence
  std::string hint;     ///< what would fix it, specific to this finding
  /// The check's own machine-readable fields (symbol, version, library, ...):
  /// copied verbatim into the JSON report.
  nlohmann::ordered_json fields = nlohmann::ordered_json::object();
};

/// Collects findings. Checks only ever append here; they never print.
class FindingSink {
 public:
  virtual ~FindingSink() = default;
  virtual void Add(Finding finding) = 0;
};

class FindingList : public FindingSink {
 public:
  void Add(Finding finding) override { findings.push_back(std::move(finding)); }
  std::vector<Finding> findings;
};

}  // namespace rocm_audit
