#include "audit/gpu/amdgpu_target.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace rocm_audit {
namespace {

// EF_AMDGPU_MACH values and feature modes: llvm/BinaryFormat/ELF.h and
// llvm/TargetParser/TargetParser.cpp (LLVM 19), then AMDGPUUsage.rst (LLVM 20+) for the
// processors LLVM 19 lacks (marked "newer"). Generic families: AMDGPUUsage "Generic
// Processors" (docs/design.md §F6).
constexpr ProcessorInfo kProcessors[] = {
    {0x020, "gfx600", false, false, ""},
    {0x021, "gfx601", false, false, ""},
    {0x03a, "gfx602", false, false, ""},
    {0x022, "gfx700", false, false, ""},
    {0x023, "gfx701", false, false, ""},
    {0x024, "gfx702", false, false, ""},
    {0x025, "gfx703", false, false, ""},
    {0x026, "gfx704", false, false, ""},
    {0x03b, "gfx705", false, false, ""},
    {0x028, "gfx801", true, false, ""},
    {0x029, "gfx802", false, false, ""},
    {0x02a, "gfx803", false, false, ""},
    {0x03c, "gfx805", false, false, ""},
    {0x02b, "gfx810", true, false, ""},
    {0x02c, "gfx900", true, false, "gfx9-generic"},
    {0x02d, "gfx902", true, false, "gfx9-generic"},
    {0x02e, "gfx904", true, false, "gfx9-generic"},
    {0x02f, "gfx906", true, true, "gfx9-generic"},
    {0x030, "gfx908", true, true, ""},
    {0x031, "gfx909", true, false, "gfx9-generic"},
    {0x03f, "gfx90a", true, true, ""},
    {0x032, "gfx90c", true, false, "gfx9-generic"},
    {0x040, "gfx940", true, true, "gfx9-4-generic"},
    {0x04b, "gfx941", true, true, "gfx9-4-generic"},
    {0x04c, "gfx942", true, true, "gfx9-4-generic"},
    {0x04f, "gfx950", true, true, "gfx9-4-generic"},  // newer
    {0x033, "gfx1010", true, false, "gfx10-1-generic"},
    {0x034, "gfx1011", true, false, "gfx10-1-generic"},
    {0x035, "gfx1012", true, false, "gfx10-1-generic"},
    {0x042, "gfx1013", true, false, "gfx10-1-generic"},
    {0x036, "gfx1030", false, false, "gfx10-3-generic"},
    {0x037, "gfx1031", false, false, "gfx10-3-generic"},
    {0x038, "gfx1032", false, false, "gfx10-3-generic"},
    {0x039, "gfx1033", false, false, "gfx10-3-generic"},
    {0x03e, "gfx1034", false, false, "gfx10-3-generic"},
    {0x03d, "gfx1035", false, false, "gfx10-3-generic"},
    {0x045, "gfx1036", false, false, "gfx10-3-generic"},
    {0x041, "gfx1100", false, false, "gfx11-generic"},
    {0x046, "gfx1101", false, false, "gfx11-generic"},
    {0x047, "gfx1102", false, false, "gfx11-generic"},
    {0x044, "gfx1103", false, false, "gfx11-generic"},
    {0x043, "gfx1150", false, false, "gfx11-generic"},
    {0x04a, "gfx1151", false, false, "gfx11-generic"},
    {0x055, "gfx1152", false, false, "gfx11-generic"},
    {0x058, "gfx1153", false, false, "gfx11-generic"},  // newer
    {0x048, "gfx1200", false, false, "gfx12-generic"},
    {0x04e, "gfx1201", false, false, "gfx12-generic"},
    {0x051, "gfx9-generic", true, false, ""},
    {0x05f, "gfx9-4-generic", true, true, ""},  // newer
    {0x052, "gfx10-1-generic", true, false, ""},
    {0x053, "gfx10-3-generic", false, false, ""},
    {0x054, "gfx11-generic", false, false, ""},
    {0x059, "gfx12-generic", false, false, ""},
};

bool ParseSign(char c, FeatureSetting* out) {
  if (c == '+')
    *out = FeatureSetting::kOn;
  else if (c == '-')
    *out = FeatureSetting::kOff;
  else
    return false;
  return true;
}

}  // namespace

std::span<const ProcessorInfo> AllProcessors() { return kProcessors; }

const ProcessorInfo* ProcessorByMach(uint32_t mach) {
  for (const auto& p : kProcessors)
    if (p.mach == mach) return &p;
  return nullptr;
}

const ProcessorInfo* ProcessorByName(std::string_view name) {
  for (const auto& p : kProcessors)
    if (p.name == name) return &p;
  return nullptr;
}

bool IsGenericProcessor(std::string_view name) { return name.ends_with("-generic"); }

std::string_view FeatureSettingName(FeatureSetting s) {
  switch (s) {
    case FeatureSetting::kAny: return "any";
    case FeatureSetting::kOn: return "on";
    case FeatureSetting::kOff: return "off";
    case FeatureSetting::kUnsupported: return "unsupported";
  }
  return "any";
}

std::string TargetId::features() const {
  std::string out;
  auto add = [&](std::string_view name, FeatureSetting s) {
    if (s == FeatureSetting::kOn) out += ":" + std::string(name) + "+";
    if (s == FeatureSetting::kOff) out += ":" + std::string(name) + "-";
  };
  add("sramecc", sramecc);
  add("xnack", xnack);
  return out;
}

std::string TargetId::str() const { return processor + features(); }

std::optional<TargetId> ParseTargetId(std::string_view text, std::string* error) {
  TargetId id;
  size_t end = text.find_first_of(":+");
  id.processor = std::string(text.substr(0, end));
  if (id.processor.empty()) {
    *error = "target ID '" + std::string(text) + "' has no processor";
    return std::nullopt;
  }
  std::string_view rest = end == std::string_view::npos ? "" : text.substr(end);
  while (!rest.empty()) {
    // ":xnack+" (target-ID syntax) or "+xnack" (code object V2/V3 syntax: present = on).
    std::string_view feature;
    FeatureSetting setting;
    if (rest[0] == ':') {
      size_t next = rest.find(':', 1);
      std::string_view item = rest.substr(1, next == std::string_view::npos ? next : next - 1);
      rest = next == std::string_view::npos ? "" : rest.substr(next);
      if (item.size() < 2 || !ParseSign(item.back(), &setting)) {
        *error = "feature '" + std::string(item) + "' in '" + std::string(text) + "' lacks + or -";
        return std::nullopt;
      }
      feature = item.substr(0, item.size() - 1);
    } else {
      size_t next = rest.find('+', 1);
      feature = rest.substr(1, next == std::string_view::npos ? next : next - 1);
      rest = next == std::string_view::npos ? "" : rest.substr(next);
      setting = FeatureSetting::kOn;
    }
    if (feature == "xnack")
      id.xnack = setting;
    else if (feature == "sramecc")
      id.sramecc = setting;
    else {
      *error = "unknown feature '" + std::string(feature) + "' in '" + std::string(text) + "'";
      return std::nullopt;
    }
  }
  return id;
}

std::optional<BundleEntryId> ParseBundleEntryId(std::string_view id) {
  // Producers sometimes count a NUL terminator in the ID length (comgr strips it too).
  while (!id.empty() && id.back() == '\0') id.remove_suffix(1);
  size_t dash = id.find('-');
  if (dash == std::string_view::npos || dash == 0) return std::nullopt;
  BundleEntryId out;
  out.kind = std::string(id.substr(0, dash));
  std::string_view rest = id.substr(dash + 1);
  // Triple fields: arch-vendor-os, then an optional environment. The bundler splits the
  // whole ID into at most 6 fields, so everything after the 4th triple field is the target.
  std::vector<std::string_view> fields;
  for (int i = 0; i < 4 && !rest.empty(); ++i) {
    size_t d = rest.find('-');
    fields.push_back(rest.substr(0, d));
    rest = d == std::string_view::npos ? std::string_view() : rest.substr(d + 1);
    if (d == std::string_view::npos) break;
  }
  if (fields.size() < 3) return std::nullopt;
  if (fields.size() == 4 && fields[3].starts_with("gfx") && out.kind != "host") {
    // Pre-target-ID form: hip-amdgcn-amd-amdhsa-gfx906 (3-field triple). The processor may
    // contain '-' (generic targets), so re-join what the split cut off.
    out.triple = std::string(fields[0]) + "-" + std::string(fields[1]) + "-" + std::string(fields[2]);
    out.target = std::string(fields[3]);
    if (!rest.empty()) out.target += "-" + std::string(rest);
    return out;
  }
  out.triple = std::string(fields[0]);
  for (size_t i = 1; i < fields.size(); ++i) out.triple += "-" + std::string(fields[i]);
  out.target = std::string(rest);
  return out;
}

std::optional<TargetId> EntryTargetId(const BundleEntryId& entry, std::string* error) {
  if (entry.target.empty()) {
    *error = "entry ID names no target";
    return std::nullopt;
  }
  auto id = ParseTargetId(entry.target, error);
  if (!id) return std::nullopt;
  if (const ProcessorInfo* p = ProcessorByName(id->processor)) {
    if (!p->xnack) id->xnack = FeatureSetting::kUnsupported;
    if (!p->sramecc) id->sramecc = FeatureSetting::kUnsupported;
  }
  return id;
}

}  // namespace rocm_audit
