// The JSON report read back: the one reader of what reports/json_report.cc writes, used by
// --baseline (policy/baseline.cc), by `diff`'s report sides (diff/side.cc) and fuzzed
// (fuzz/report_reader_fuzzer.cc). It lives in the model, not beside its writer, because
// policy/ sees only the model (docs/design.md §2).
//
// Such a file is user input (the hooks take the baseline from the source package being
// built), so it is parsed once, with its depth bounded before any value is built: a parsed
// value is copied, compared and walked recursively (nlohmann's copy constructor recurses once
// per level, and a baseline nested 30,000 deep overflowed the stack). Objects are kept in
// nlohmann::json's std::map, since ordered_json finds each member by a linear search and
// reads an object of n members in n² (80,000 members, 0.9 MB: 10 s).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rocm_audit {

/// How deep a JSON report read back may nest, the document itself counting as the first
/// level. What rocm-audit writes nests at most 8 deep (the document, files[], a file,
/// bundles[], a bundle, entries[], an entry, its code_object: tests/golden/fixed.json); the
/// rest is room for fields added later. docs/design.md §5.4 ("Reading a report back").
inline constexpr size_t kMaxReportDepth = 64;

/// `text` as a JSON value, its arrays and objects nested at most `max_depth` deep (0: a
/// scalar only). Iterative: the parse stops at the first array or object past the limit,
/// before it is built. False with `error` ("nests deeper than 64 levels", "not JSON: ...").
[[nodiscard]] bool ParseBoundedJson(std::string_view text, size_t max_depth, nlohmann::json* value,
                                    std::string* error);

/// A JSON report of schema_version 1: parsed by ParseBoundedJson(kMaxReportDepth), an
/// object whose "schema_version" is the integer 1, and every string value and member name
/// decoded from the lossless text the writer made of bytes (audit/model/byte_text.h), so that
/// names are the bytes an audit holds. The members each reader needs (findings[], files[])
/// are its own to check. False with `error` otherwise.
[[nodiscard]] bool ReadJsonReport(std::string_view text, nlohmann::json* report, std::string* error);

/// Whether `report` (read by ReadJsonReport) says it was written by rocm-audit: tool.name.
bool WrittenByRocmAudit(const nlohmann::json& report);

}  // namespace rocm_audit
