#include "checks/bundle_integrity.h"

#include "audit/hex.h"
#include "checks/check_context.h"

namespace rocm_audit {
namespace {

std::string Where(const Bundle& b) {
  std::string where = b.member.empty() ? "" : "archive member " + b.member + ", ";
  where += b.section.empty() ? "file" : b.section;
  return where + "+" + Hex(b.offset);
}

void Emit(const std::string& file, const BundleProblem& p, const Bundle* b, FindingSink& sink) {
  Finding f = MakeFinding(file, p.check);
  if (!p.error) f.severity = Severity::kWarning;
  f.message = b ? Where(*b) + ": " + p.message : p.message;
  if (b) {
    if (!b->section.empty()) f.fields["section"] = b->section;
    if (!b->member.empty()) f.fields["member"] = b->member;
    f.fields["offset"] = b->offset;
    f.fields["format"] = std::string(BundleFormatName(b->format));
  }
  f.fields["reason"] = p.message;
  sink.Add(std::move(f));
}

}  // namespace

void CheckBundleIntegrity(const std::string& file, const DeviceInventory& inventory,
                          FindingSink& sink) {
  for (const Bundle& b : inventory.bundles)
    for (const BundleProblem& p : b.problems) Emit(file, p, &b, sink);
  for (const BundleProblem& p : inventory.problems) Emit(file, p, nullptr, sink);
}

}  // namespace rocm_audit
