// What one audit is asked to do: the PATHs, the system they are judged in (--root layers,
// the loader's configuration), the policy, and the caps. The command line fills one from
// its options; tests and the whole-audit fuzz target fill one directly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "audit/gpu/bundle.h"
#include "audit/unpack/unpack.h"
#include "checks/check_input.h"
#include "policy/policy.h"

namespace rocm_audit {

struct AuditRequest {
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
  /// --enable, --disable, --severity, --suppress, --baseline: which rules run (a check none
  /// of whose rules is enabled does not run), and what the report says of their findings.
  Policy policy;
  std::vector<std::string> suppress_files;  ///< the --suppress files, for the report's inputs
  UnpackLimits unpack;                      ///< --max-unpacked, --max-members, --max-ratio
  /// --symbols, and every side `diff` audits: each ELF file's facts list its exported and
  /// imported dynamic symbols (ElfFacts::exports, imports).
  bool symbol_facts = false;
  unsigned jobs = 0;  ///< 0 = hardware threads
  /// The process ends right after the report (the command line): the audited files stay
  /// mapped and their models allocated until exit, which releases them at once, because
  /// unmapping thousands of files one by one costs more than the checks. Never for a caller
  /// that audits again in the same process.
  bool release_at_exit = false;
};

}  // namespace rocm_audit
