// What a per-file check sees: the audited object, its load closure, the loader
// configuration and the run's options. Checks read this and append findings; nothing else.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "audit/arch_policy.h"
#include "audit/bundle.h"
#include "audit/closure.h"
#include "audit/device_code.h"
#include "audit/elf_model.h"
#include "audit/finding.h"
#include "audit/search_path.h"
#include "audit/walk.h"

namespace rocm_audit {

struct CheckOptions {
  std::vector<std::string> forbid_rpath;  ///< --forbid-rpath globs
  std::string tmpdir;                     ///< $TMPDIR at start-up, if set
  std::vector<TargetId> required_archs;   ///< --require-arch, --require-arch-file
  IsaCompat isa_compat = IsaCompat::kNone;
  BundleReadOptions bundles;              ///< --max-decompressed, --verify-hash
};

/// What the run knows beyond one file: which files it audits on their own, and the device
/// targets of every object (closure members included), by real path.
struct RunContext {
  std::unordered_set<std::string> audited_real_paths;
  DeviceOfferCache* device_offers = nullptr;
};

struct FileContext {
  const WalkedFile& file;
  const ElfModel& model;
  const LoadClosure& closure;
  const LoaderConfig& loader;
  const CheckOptions& options;
  const RunContext& run;
};

/// A finding for `ctx.file` with the check's default severity.
Finding MakeFinding(const FileContext& ctx, std::string_view check);
/// The same for a file given by its path.
Finding MakeFinding(const std::string& file, std::string_view check);

}  // namespace rocm_audit
