// One audit run: walk -> inspect each file -> loader facts for each loadable file -> the
// provider index -> every registered check, stage by stage -> the Report. Nothing here
// prints; progress goes to a callback.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "audit/gpu/bundle.h"
#include "audit/model/report.h"
#include "audit/unpack/unpack.h"
#include "checks/check_input.h"

namespace rocm_audit {

/// Takes one audited file's facts (its index in walk order, the facts): called from the
/// workers, in any order.
using FileFactsSink = std::function<void(size_t index, FileFacts&& facts)>;

struct AuditOptions {
  std::vector<std::string> paths;
  std::vector<std::string> roots;         ///< --root layers, top first; none = the host
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
  std::vector<std::string> disabled_rules;       ///< a check none of whose rules is enabled does not run
  UnpackLimits unpack;                           ///< --max-unpacked, --max-members, --max-ratio
  unsigned jobs = 0;                             ///< 0 = hardware threads
  /// The process ends right after the report (the command line): the audited files stay
  /// mapped and their models allocated until exit, which releases them at once. Unmapping
  /// a couple of thousand files one by one cost more than the run's checks. Never for a
  /// caller that audits again in the same process.
  bool release_at_exit = false;
  /// Where each audited file's facts go instead of Report::files, when set: called once the
  /// inputs are known (packages unpacked, roots resolved) to make the sink, which the
  /// workers then call, in any order, with each file's index in walk order and its facts.
  /// The report counts those files by kind (Report::streamed_by_kind). The command line
  /// sets it for reports that render no file's facts but as files[] of the JSON report.
  std::function<FileFactsSink(const ReportInputs& inputs)> file_facts_sink;
  /// Called from worker threads (the callee serialises): `phase` is "scanning" (total 0:
  /// not known yet), "reading" or "auditing".
  std::function<void(const char* phase, size_t done, size_t total)> progress;
};

/// Returns false (with `error`) only for tool errors: an input that does not exist, no
/// private directory for packages. Bad files and hostile packages are findings in `report`.
bool RunAudit(const AuditOptions& options, Report* report, std::string* error);

}  // namespace rocm_audit
