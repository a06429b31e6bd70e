// files[] of the JSON report: one object per audited file, from its typed facts. The only
// place that knows these field names; docs/design.md lists them.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "audit/model/file_facts.h"

namespace rocm_audit {

/// The most bundles files[].bundles lists for one file; "bundles_left_out" counts the rest.
/// A real library has hundreds; a crafted 50 MB file, 609,637 (367 MB of JSON listed).
inline constexpr size_t kMaxBundlesListed = 10000;

/// `with_bundles` false: "bundles" is left empty (FileFactsElementText fills it in).
nlohmann::ordered_json FileFactsToJson(const FileFacts& facts, bool with_bundles = true);

/// The element of files[] as text, as ArrayElementText(FileFactsToJson(facts)) gives it,
/// built a bundle at a time: a library's bundles are most of its element (a math library
/// has hundreds of bundles and thousands of entries), and their JSON tree built whole would
/// be held, larger than its text, on each worker at once.
std::string FileFactsElementText(const FileFacts& facts);

}  // namespace rocm_audit
