#include "audit/gpu/project_device_facts.h"

#include <algorithm>

namespace rocm_audit {
namespace {

CodeObjectFacts ToFacts(const CodeObjectInfo& co) {
  CodeObjectFacts f;
  f.mach = co.mach;
  if (!co.processor.empty()) f.processor = co.processor;
  f.xnack = std::string(FeatureSettingName(co.xnack));
  f.sramecc = std::string(FeatureSettingName(co.sramecc));
  if (co.code_object_version) f.abi_version = co.code_object_version;
  f.kernels = co.kernels;
  f.type = co.type == 3 ? "dyn" : co.type == 1 ? "rel" : "other";
  if (co.generic_version) f.generic_version = co.generic_version;
  return f;
}

BundleEntryFacts ToFacts(const BundleEntry& e) {
  BundleEntryFacts f;
  f.id = e.id;
  if (e.parsed) f.kind = e.parsed->kind;
  if (e.target) {
    f.target_id = e.target->str();
    f.processor = e.target->processor;
    f.features = e.target->features();
  }
  f.offset = e.offset;
  f.size = e.size;
  f.content = e.content;
  if (e.code_object) f.code_object = ToFacts(*e.code_object);
  return f;
}

BundleFacts ToFacts(const Bundle& b) {
  BundleFacts f;
  f.section = b.section;
  f.member = b.member;
  f.offset = b.offset;
  f.file_offset = b.file_offset;
  f.format = std::string(BundleFormatName(b.format));
  if (b.ccob_version) f.ccob_version = b.ccob_version;
  if (!b.compression.empty()) f.compression = b.compression;
  f.compressed_size = b.compressed_size;
  f.uncompressed_size = b.uncompressed_size;
  f.hash = b.hash;
  f.hash_ok = b.hash_ok;
  f.valid = b.problems.empty();
  for (const BundleEntry& e : b.entries) f.entries.push_back(ToFacts(e));
  return f;
}

// Each known processor the offers serve at all, and how: the requirement "this processor, in
// every mode" checked as --require-arch checks it.
std::vector<ServedProcessor> ServedProcessors(const std::vector<ArchOffer>& offers, IsaCompat compat) {
  std::vector<ServedProcessor> out;
  if (offers.empty()) return out;
  std::vector<std::string> names;
  for (const ProcessorInfo& p : AllProcessors())
    if (!IsGenericProcessor(p.name)) names.emplace_back(p.name);
  SortTargetIds(&names);
  for (const std::string& name : names) {
    Coverage c = CheckRequirement(TargetId{name}, offers, compat);
    if (c.unserved.size() == c.modes) continue;
    Served how = !c.unserved.empty()            ? Served::kSomeModes
                 : c.by == ServedBy::kGeneric   ? Served::kGeneric
                 : c.by == ServedBy::kIsaCompat ? Served::kIsaCompat
                                                : Served::kAllModes;
    out.push_back({name, how});
  }
  return out;
}

}  // namespace

DeviceFacts ToDeviceFacts(const DeviceInventory& inventory, const std::vector<ArchOffer>& offers,
                          IsaCompat compat) {
  DeviceFacts out;
  for (const Bundle& b : inventory.bundles) out.bundles.push_back(ToFacts(b));
  for (const ArchOffer& o : offers) out.targets.push_back(o.target.str());
  SortTargetIds(&out.targets);
  out.fatbin_wrappers = inventory.wrappers;
  out.served = ServedProcessors(offers, compat);
  return out;
}

}  // namespace rocm_audit
