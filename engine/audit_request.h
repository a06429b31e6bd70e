// What one audit is asked to do: the PATHs, the system they are judged in (--root layers,
// the loader's configuration), the policy, and the caps. The command line fills one from
// its options; tests and the whole-audit fuzz target fill one directly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "audit/gpu/bundle.h"
#include "audit/unpack/package_database.h"
#include "audit/unpack/unpack.h"
#include "checks/check_input.h"
#include "engine/not_built_packages.h"
#include "policy/policy.h"

namespace rocm_audit {

/// The default of --max-findings-per-file: far above any real file's count, far below what
/// one crafted file can make (a finding per RUNPATH entry of 100,000).
inline constexpr size_t kDefaultMaxFindingsPerFile = 5000;

/// The default of --max-report-bytes-per-file, the least text a file's findings (FindingBytes),
/// and again each list of its facts, may hold (ReportByteBudget, audit/model/finding.h). The
/// most a real file's findings were seen to hold is 71,028 bytes (libUsortlib.so, 169
/// findings, of Debian 12's /usr/lib/x86_64-linux-gnu audited over /; of sid's ROCm packages,
/// 47,804 bytes of a 17 KB CMake config), its longest list 9,588 bytes (a closure); 256 KiB of
/// text is about 1 MB of JSON report.
inline constexpr uint64_t kDefaultMaxReportBytesPerFile = uint64_t(256) << 10;

struct AuditRequest {
  std::vector<std::string> paths;
  std::vector<std::string> roots;  ///< --root layers, top first; none = the host
  /// --sibling: trees installed in the same operation as the audited ones (the other binary
  /// packages of one source), layered right below the top (design.md §1.1).
  std::vector<std::string> siblings;
  /// --no-base: packages (and siblings) are installed into an empty system, not over the
  /// --root layers or /.
  bool no_base = false;
  /// --installing: the names of the packages the top layers are; the files their installed
  /// copies own in a base layer (its dpkg database) are hidden there. Package PATHs add
  /// their own names.
  std::vector<PackageName> installing;
  /// --not-built: packages of the source installed in the same operation that this run does
  /// not have (an arch-only build's other packages) nor the base: what the audited files need
  /// and do not find may be theirs (engine/not_built_packages.h).
  std::vector<NotBuiltPackage> not_built;
  std::vector<std::string> library_path;  ///< --library-path, in order
  std::string ld_so_conf = "/etc/ld.so.conf";
  /// --default-dirs: the target ld.so's built-in directories (an empty list: none); unset =
  /// derived from each main object's interpreter.
  std::optional<std::vector<std::string>> default_dirs;
  BundleReadOptions bundles;                     ///< --max-decompressed, --verify-hash
  uint64_t decode_memory = uint64_t(128) << 20;  ///< --decode-memory: zstd windows of all workers
  std::vector<std::string> spill_dirs;           ///< --spill-dir: windows past 64 MiB, first that takes them
  CheckOptions checks;                           ///< --forbid-rpath, --require-arch, --isa-compat
  std::vector<std::string> cmake_prefix_path;    ///< --cmake-prefix-path: where CMake dependencies may be
  std::vector<PluginHostOption> plugin_hosts;    ///< --plugin-host: the host of the modules a glob matches
  /// --enable, --disable, --severity, --suppress, --baseline: which rules run (a check none
  /// of whose rules is enabled does not run), and what the report says of their findings.
  Policy policy;
  std::vector<std::string> suppress_files;  ///< the --suppress files, for the report's inputs
  UnpackLimits unpack;                      ///< --max-unpacked, --max-members, --max-ratio
  /// --symbols, and every side `diff` audits: each ELF file's facts list its exported and
  /// imported dynamic symbols (ElfFacts::exports, imports).
  bool symbol_facts = false;
  unsigned jobs = 0;  ///< 0 = hardware threads
  /// --max-findings-per-file: past it, a file's least severe findings are left out and one
  /// finding-limit finding counts them (engine/run_checks.h).
  size_t max_findings_per_file = kDefaultMaxFindingsPerFile;
  /// --max-report-bytes-per-file: a file's findings, and its facts' lists, hold at most
  /// ReportByteBudget(this, its size) bytes of text each; past it, the least severe findings
  /// are left out and counted by the finding-limit finding, and a list's last entries by its
  /// `<list>_left_out`.
  uint64_t max_report_bytes_per_file = kDefaultMaxReportBytesPerFile;
  /// The process ends right after the report (the command line): the audited files stay
  /// mapped and their models allocated until exit, which releases them at once, because
  /// unmapping thousands of files one by one costs more than the checks. Never for a caller
  /// that audits again in the same process.
  bool release_at_exit = false;
};

}  // namespace rocm_audit
