// AMDGPU processors and target IDs: the vocabulary that bundle entry IDs, code-object
// e_flags and --require-arch share. LLVM 19 (our library) predates gfx950, gfx1153 and
// gfx9-4-generic, which ROCm 6.4/7 ship; the table below extends LLVM's and a unit test
// checks it against LLVM for every processor LLVM 19 knows.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include <string_view>
#include "audit/model/target_order.h"

namespace rocm_audit {

struct ProcessorInfo {
  uint32_t mach;             ///< EF_AMDGPU_MACH value in a code object's e_flags
  std::string_view name;     ///< canonical processor name, e.g. "gfx90a"
  bool xnack;                ///< the device has xnack on/off modes
  bool sramecc;              ///< the device has sramecc on/off modes
  std::string_view generic;  ///< the generic target that serves it ("" for none)
};

std::span<const ProcessorInfo> AllProcessors();
const ProcessorInfo* ProcessorByMach(uint32_t mach);
const ProcessorInfo* ProcessorByName(std::string_view name);
bool IsGenericProcessor(std::string_view name);

/// A feature setting in a target ID or code object.
enum class FeatureSetting { kAny, kOn, kOff, kUnsupported };
std::string_view FeatureSettingName(FeatureSetting s);  ///< "any" | "on" | "off" | "unsupported"

/// `<processor>(:<feature>(+|-))*`, e.g. gfx90a:sramecc+:xnack-.
struct TargetId {
  std::string processor;
  FeatureSetting xnack = FeatureSetting::kAny;
  FeatureSetting sramecc = FeatureSetting::kAny;

  /// Canonical spelling: features sorted (sramecc before xnack), "any" omitted.
  std::string str() const;
  /// Just the features, e.g. ":sramecc+:xnack-" ("" when both are any).
  std::string features() const;
  bool operator==(const TargetId&) const = default;
};

/// Parses a target ID. Returns nullopt (with `error`) for an empty processor, an unknown
/// feature, or a feature without +/-. Unknown processors are accepted (a newer compiler
/// than ours may have produced them); callers decide.
std::optional<TargetId> ParseTargetId(std::string_view text, std::string* error);

/// A bundle entry ID: `<kind>-<triple>[-<target-id>]`.
struct BundleEntryId {
  std::string kind;    ///< host, hip, hipv4, hcc, openmp, ...
  std::string triple;  ///< e.g. amdgcn-amd-amdhsa- (4 fields, environment possibly empty)
  std::string target;  ///< the raw target ID text ("" for host entries)
  bool device() const { return kind != "host"; }
};

/// Splits an entry ID the way clang-offload-bundler does (kind, then a triple of 3 or 4
/// fields, then the target ID, which may itself contain '-': gfx10-3-generic). Also reads
/// the pre-target-ID form hip-amdgcn-amd-amdhsa-gfx906. Returns nullopt when the ID has no
/// kind or triple at all.
std::optional<BundleEntryId> ParseBundleEntryId(std::string_view id);

/// The target ID an entry names; features it leaves out are any (the bundle reader turns
/// them to off for `hip` entries holding V2/V3 code objects, which cannot say "any").
std::optional<TargetId> EntryTargetId(const BundleEntryId& entry, std::string* error);

}  // namespace rocm_audit
