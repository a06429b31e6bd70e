#include "audit/gpu/arch_policy.h"

#include <algorithm>
#include <array>

namespace rocm_audit {
namespace {

// Debian's rocm-hipamd 0025/0026 and rocr-runtime 0004 (Gentoo and Solus carry copies);
// the gfx10.1 rule follows the newest revision (comgr 6.4.1): gfx1010 code only.
constexpr std::array<std::string_view, 5> kGfx900Superset = {"gfx900", "gfx902", "gfx906", "gfx909",
                                                             "gfx90c"};
constexpr std::array<std::string_view, 4> kGfx900Equivalent = {"gfx900", "gfx902", "gfx909", "gfx90c"};
constexpr std::array<std::string_view, 4> kGfx101 = {"gfx1010", "gfx1011", "gfx1012", "gfx1013"};
constexpr std::array<std::string_view, 7> kGfx103 = {"gfx1030", "gfx1031", "gfx1032", "gfx1033",
                                                     "gfx1034", "gfx1035", "gfx1036"};

template <size_t N>
bool In(const std::array<std::string_view, N>& set, std::string_view v) {
  return std::find(set.begin(), set.end(), v) != set.end();
}

std::vector<FeatureSetting> Modes(FeatureSetting required, bool supported) {
  if (!supported) return {FeatureSetting::kUnsupported};
  if (required == FeatureSetting::kOn || required == FeatureSetting::kOff) return {required};
  return {FeatureSetting::kOn, FeatureSetting::kOff};
}

bool FeatureServes(FeatureSetting offered, FeatureSetting mode) {
  if (offered == FeatureSetting::kAny || offered == FeatureSetting::kUnsupported) return true;
  if (mode == FeatureSetting::kUnsupported) return true;
  return offered == mode;
}

std::string ModeName(std::string_view processor, FeatureSetting xnack, FeatureSetting sramecc) {
  TargetId id{std::string(processor), xnack, sramecc};
  return id.str();
}

bool SplitList(std::string_view text, std::vector<TargetId>* out, std::string* error) {
  size_t i = 0;
  while (i < text.size()) {
    size_t j = text.find_first_of(",; \t\r\n", i);
    if (j == std::string_view::npos) j = text.size();
    std::string_view item = text.substr(i, j - i);
    i = j + 1;
    if (item.empty()) continue;
    auto id = ParseTargetId(item, error);
    if (!id) return false;
    const ProcessorInfo* p = ProcessorByName(id->processor);
    if (!p) {
      *error = "unknown GPU processor '" + id->processor + "'";
      return false;
    }
    if ((id->xnack != FeatureSetting::kAny && !p->xnack) ||
        (id->sramecc != FeatureSetting::kAny && !p->sramecc)) {
      *error = "'" + std::string(item) + "': " + id->processor + " has no such feature mode";
      return false;
    }
    out->push_back(*id);
  }
  return true;
}

}  // namespace

bool ParseArchList(std::string_view text, std::vector<TargetId>* out, std::string* error) {
  return SplitList(text, out, error);
}

bool ParseArchFile(std::string_view contents, std::vector<TargetId>* out, std::string* error) {
  std::string without_comments;
  for (size_t i = 0; i < contents.size();) {
    size_t end = std::min(contents.find('\n', i), contents.size());
    std::string_view line = contents.substr(i, end - i);
    without_comments.append(line.substr(0, line.find('#')));
    without_comments.push_back('\n');
    i = end + 1;
  }
  return SplitList(without_comments, out, error);
}

bool DebianIsaCompatible(std::string_view device, std::string_view code) {
  if (In(kGfx900Superset, device)) return In(kGfx900Equivalent, code);
  if (In(kGfx101, device)) return code == "gfx1010";
  if (In(kGfx103, device)) return In(kGfx103, code);
  return false;
}

Coverage CheckRequirement(const TargetId& required, const std::vector<ArchOffer>& offers, IsaCompat compat) {
  const ProcessorInfo* info = ProcessorByName(required.processor);
  std::string_view generic = info ? info->generic : "";
  Coverage out;
  ServedBy worst = ServedBy::kExact;
  for (FeatureSetting x : Modes(required.xnack, !info || info->xnack)) {
    for (FeatureSetting s : Modes(required.sramecc, !info || info->sramecc)) {
      ++out.modes;
      ServedBy best = ServedBy::kNone;
      bool compat_uncompressed = false;
      for (const ArchOffer& o : offers) {
        if (!FeatureServes(o.target.xnack, x) || !FeatureServes(o.target.sramecc, s)) continue;
        ServedBy by = ServedBy::kNone;
        if (o.target.processor == required.processor)
          by = ServedBy::kExact;
        else if (!generic.empty() && o.target.processor == generic)
          by = ServedBy::kGeneric;
        else if (compat == IsaCompat::kDebian && DebianIsaCompatible(required.processor, o.target.processor))
          by = ServedBy::kIsaCompat;
        if (by == ServedBy::kNone) continue;
        if (by == ServedBy::kIsaCompat && !o.compressed) compat_uncompressed = true;
        if (best == ServedBy::kNone || by < best) best = by;
      }
      if (best == ServedBy::kNone) {
        out.unserved.push_back(ModeName(required.processor, x, s));
        continue;
      }
      if (best == ServedBy::kIsaCompat && !compat_uncompressed) out.compat_only_compressed = true;
      worst = std::max(worst, best);
    }
  }
  out.by = out.unserved.empty() ? worst : ServedBy::kNone;
  return out;
}

}  // namespace rocm_audit
