// Files with device code, grouped as the text and HTML reports show them: libraries one row
// each; standalone code objects and bundles (Tensile's per-arch files, hundreds alike) one row
// per directory, unless every file is asked for.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "audit/model/report.h"

namespace rocm_audit {

struct DeviceRow {
  std::string place;  ///< the file, or its directory ending in '/' for grouped standalone files
  std::vector<const FileFacts*> files;
};

/// Rows in report order; `per_file`: one row per file.
std::vector<DeviceRow> GroupDeviceFiles(const Report& report, bool per_file);

/// The best way any file of `row` serves `processor` (DeviceFacts::served), or nullopt.
std::optional<Served> RowServes(const DeviceRow& row, std::string_view processor);

/// Every processor some row serves, in processor order: the matrix's columns.
std::vector<std::string> ServedProcessors(const std::vector<DeviceRow>& rows);

}  // namespace rocm_audit
