#include "checks/arch_coverage.h"

#include <set>

#include "audit/arch_data.h"
#include "audit/rooted_fs.h"

namespace rocm_audit {
namespace {

std::vector<std::string> Available(const std::vector<ArchOffer>& offers) {
  std::set<std::string> ids;
  for (const ArchOffer& o : offers) ids.insert(o.target.str());
  return std::vector<std::string>(ids.begin(), ids.end());
}

std::string Join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

}  // namespace

bool IsPerArchArtifact(const WalkedFile& file) {
  if (file.kind == FileKind::kArArchive) return false;
  for (const std::string& p : ProcessorsInName(BaseName(file.path)))
    if (ProcessorByName(p)) return true;
  return false;
}

void CheckArchCoverage(const WalkedFile& file, const DeviceInventory& inventory,
                       const CheckOptions& options, FindingSink& sink) {
  if (options.required_archs.empty()) return;
  std::vector<ArchOffer> offers = inventory.Offers();
  if (offers.empty() || IsPerArchArtifact(file)) return;
  for (const TargetId& want : options.required_archs) {
    Coverage c = CheckRequirement(want, offers, options.isa_compat);
    if (c.by == ServedBy::kNone) {
      Finding f = MakeFinding(file.path, "missing-arch");
      std::vector<std::string> available = Available(offers);
      f.message = "no device code for " + want.str() +
                  (c.unserved.size() < c.modes ? " (unserved modes: " + Join(c.unserved) + ")" : "") +
                  "; the file carries " + Join(available);
      f.hint = "add " + want.str() + " to GPU_TARGETS (or --offload-arch) and rebuild";
      f.fields["arch"] = want.str();
      f.fields["available"] = available;
      f.fields["unserved_modes"] = c.unserved;
      sink.Add(std::move(f));
    } else if (c.by == ServedBy::kIsaCompat && c.compat_only_compressed) {
      Finding f = MakeFinding(file.path, "ccob-isa-compat");
      std::vector<std::string> available = Available(offers);
      f.message = want.str() + " is served only through the distro's extended ISA compatibility, "
                  "by compressed bundles: the runtime asks CCOB unbundling for the exact ID and gets "
                  "nothing back, so the compatibility silently stops working";
      f.hint = "build " + want.processor + " natively, or build without --offload-compress";
      f.fields["arch"] = want.str();
      f.fields["available"] = available;
      sink.Add(std::move(f));
    }
  }
}

}  // namespace rocm_audit
