// The finished audit: what reports render. Reports never analyse; they read this.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "audit/finding.h"

namespace rocm_audit {

struct FileEntry {
  std::string path;
  std::string kind;
  nlohmann::ordered_json details = nlohmann::ordered_json::object();  ///< kind-specific fields
};

struct Report {
  nlohmann::ordered_json inputs = nlohmann::ordered_json::object();
  std::vector<FileEntry> files;            ///< audited files, in walk order
  std::map<std::string, size_t> counts;    ///< every walked file, by kind
  std::vector<Finding> findings;           ///< grouped by file (walk order), most severe first

  size_t Count(Severity s) const;
  /// Whether any finding is at or above `level`.
  bool HasFindingsAtOrAbove(Severity level) const;
};

}  // namespace rocm_audit
