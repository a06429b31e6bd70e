// Valid libraries ld.so loads, in shapes that cost a reader memory by claims or that a reader
// tuned to one ABI calls malformed (fixtures/hostile_elf47.py, the hostile tree's elf47/):
// each audited by the real binary under the bounds, 10 s of CPU and 4 GiB of address
// space (ulimit -t, ulimit -v), and audited normally: no malformed-file error, its undefined
// symbols reported as undefined-symbol.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

// AddressSanitizer reserves terabytes of address space for its shadow and runs several times
// slower: under it only the CPU bound holds, widened.
#ifdef ROCM_AUDIT_ASAN
constexpr const char* kLimits = "ulimit -t 60";
#else
constexpr const char* kLimits = "ulimit -t 10 && ulimit -v 4194304";
#endif

struct Audited {
  int exit_code = -1;
  std::map<std::string, std::set<std::string>> severities;  ///< by check
  std::string malformed;                                    ///< the malformed-file messages
};

// The audit of `rel` (below the hostile tree) under 10 s of CPU and 4 GiB of address space:
// past either the shell's limit kills it (SIGXCPU) or its allocations fail.
Audited AuditLimited(const TempDir& t, const std::string& rel) {
  const std::string report = t / "report.json";
  Audited out;
  out.exit_code = RunCommand(std::string(kLimits) +
                             " && exec '" ROCM_AUDIT_BINARY
                             "' --no-progress --format json '" ROCM_AUDIT_HOSTILE_TREE "/" +
                             rel + "' > '" + report + "'");
  auto json = nlohmann::json::parse(ReadAll(report), nullptr, /*allow_exceptions=*/false);
  EXPECT_TRUE(json.is_object()) << rel << ": no report";
  if (!json.is_object()) return out;
  for (const auto& f : json["findings"]) {
    out.severities[f.value("check", "")].insert(f.value("severity", ""));
    if (f.value("check", "") == "malformed-file") out.malformed += f.value("message", "") + "\n";
  }
  return out;
}

void ExpectAuditedNormally(const Audited& a, const std::string& rel) {
  EXPECT_TRUE(a.exit_code == 0 || a.exit_code == 1) << rel << ": exit " << a.exit_code;
  EXPECT_FALSE(a.severities.count("malformed-file") && a.severities.at("malformed-file").count("error"))
      << rel << ": " << a.malformed;
}

// 20,000 undefined symbols named by the suffixes of one 1 MiB string (1.5 MB): was 4 GB and
// 12 s, then malformed-file. The names looked up stop at the cap of names per file, a note.
TEST(HostileElf47, UndefinedSymbolsNamedBySuffixesOfOneString) {
  TempDir t;
  Audited a = AuditLimited(t, "elf47/names/libsuffixes.so");
  ExpectAuditedNormally(a, "libsuffixes.so");
  EXPECT_TRUE(a.severities.count("undefined-symbol"));
  EXPECT_THAT(a.malformed, ::testing::HasSubstr("undefined dynamic symbols were not looked up"));
}

// 4,096 version needs, or 4,096 version definitions, naming one 1 MiB string: was 4 GB, then
// malformed-file. The needs are weak (ld.so only warns): nothing to report.
TEST(HostileElf47, VersionNamesOfOneString) {
  for (const std::string rel : {"elf47/names/libneeds.so", "elf47/names/libdefines.so"}) {
    TempDir t;
    Audited a = AuditLimited(t, rel);
    ExpectAuditedNormally(a, rel);
    EXPECT_FALSE(a.severities.count("malformed-file")) << rel << ": " << a.malformed;
  }
}

// PT_DYNAMIC ends the file without DT_NULL (ld.so reads the page's zeros), an s390x library
// with 8-byte .hash words, a 100 GiB sparse library: each was malformed-file.
TEST(HostileElf47, ValidFilesTheReaderCalledMalformed) {
  for (const std::string rel :
       {"elf47/eof/libateof.so", "elf47/s390x/libs390x.so", "elf47/sparse/libsparse.so"}) {
    TempDir t;
    Audited a = AuditLimited(t, rel);
    ExpectAuditedNormally(a, rel);
    EXPECT_FALSE(a.severities.count("malformed-file")) << rel << ": " << a.malformed;
  }
}

// diff of elf47/names/exports-old against `to`, under the bounds: its findings by check,
// and each symbols-removed finding checked (one export, named by its head and a digest).
std::map<std::string, int> DiffedExports(const std::string& to) {
  TempDir t;
  const std::string report = t / "report.json";
  const std::string dir = ROCM_AUDIT_HOSTILE_TREE "/elf47/names/";
  const int exit_code = RunCommand(std::string(kLimits) +
                                   " && exec '" ROCM_AUDIT_BINARY "' diff --no-progress --format json '" +
                                   dir + "exports-old' '" + dir + to + "' > '" + report + "'");
  EXPECT_EQ(exit_code, 1) << to;
  auto json = nlohmann::json::parse(ReadAll(report), nullptr, /*allow_exceptions=*/false);
  std::map<std::string, int> checks;
  if (!json.is_object()) return checks;
  for (const auto& f : json["findings"]) {
    ++checks[f.value("check", "")];
    if (f.value("check", "") != "symbols-removed") continue;
    EXPECT_EQ(f.value("count", 0), 1) << to;
    if (f["removed"].size() != 1u) continue;
    const std::string name = f["removed"][0].get<std::string>();
    EXPECT_EQ(name.substr(0, 8), "vvvvvvvv") << to;
    EXPECT_LT(name.size(), 1100u) << to;
  }
  return checks;
}

// The same shape on the exporting side, through diff: 20,000 exports named by the suffixes of
// one 1 MiB string in OLD, NEW without the last. Copying each name into the set of exports
// was 10 GB; each long name is now kept as its head and a digest. The one dropped export is
// symbols-removed, and the file is no fixed, new or unreadable finding.
TEST(HostileElf47, ExportsNamedBySuffixesOfOneStringAreComparedByDiff) {
  EXPECT_EQ(DiffedExports("exports-new"), (std::map<std::string, int>{{"symbols-removed", 1}}));
}

// NEW past the cap of undefined names looked up: a malformed-file note that says the rest of
// the file was audited. The file is compared (its export dropped is still symbols-removed),
// not set aside as one side could not read it.
TEST(HostileElf47, ANoteThatTheRestWasAuditedLeavesTheFileCompared) {
  const std::map<std::string, int> checks = DiffedExports("exports-capped-new");
  EXPECT_EQ(checks.count("symbols-removed") ? checks.at("symbols-removed") : 0, 1);
  EXPECT_FALSE(checks.count("side-unreadable"));
  EXPECT_FALSE(checks.count("fixed-finding"));
}

}  // namespace
}  // namespace rocm_audit::testing
