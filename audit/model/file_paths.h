// The path-valued fields of a file's facts, named once: the display shows each
// (cli/shown_report.cc), `diff` puts each below its input (diff/side.cc) whether the facts
// came from an audit or from the JSON report of one. A path field added to FileFacts is added
// here, and every one of them sees it; tests/audit/model/file_paths_test.cc holds the list
// against every string the JSON writer writes of a file.
#pragma once

#include <functional>
#include <string>

#include "audit/model/file_facts.h"

namespace rocm_audit {

/// Calls `visit` on each path `facts` holds, which may replace it: the file's own path, its
/// closure's objects and load-graph nodes, its device stack's libraries, its plugin host, its
/// Tensile data directory, and its CMake config's list files, target locations and include
/// directories, dependencies' configs and Find modules, and missing files with the list files
/// naming them. An empty field ("none") is not a path and is not visited.
void ForEachPath(FileFacts& facts, const std::function<void(std::string& path)>& visit);

}  // namespace rocm_audit
