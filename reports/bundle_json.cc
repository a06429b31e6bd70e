#include "reports/bundle_json.h"

#include "audit/hex.h"

namespace rocm_audit {
namespace {

using Json = nlohmann::ordered_json;

Json CodeObjectToJson(const CodeObjectInfo& co) {
  Json j;
  j["mach"] = Hex(co.mach);
  j["processor"] = co.processor.empty() ? Json(nullptr) : Json(co.processor);
  j["xnack"] = std::string(FeatureSettingName(co.xnack));
  j["sramecc"] = std::string(FeatureSettingName(co.sramecc));
  j["abi_version"] = co.code_object_version ? Json(co.code_object_version) : Json(nullptr);
  j["kernels"] = co.kernels ? Json(*co.kernels) : Json(nullptr);
  j["type"] = co.type == 3 ? "dyn" : co.type == 1 ? "rel" : "other";
  if (co.generic_version) j["generic_version"] = co.generic_version;
  return j;
}

}  // namespace

Json BundlesToJson(const std::vector<Bundle>& bundles) {
  Json out = Json::array();
  for (const Bundle& b : bundles) {
    Json j;
    if (!b.section.empty()) j["section"] = b.section;
    if (!b.member.empty()) j["member"] = b.member;
    j["offset"] = b.offset;
    j["file_offset"] = b.file_offset;
    j["format"] = std::string(BundleFormatName(b.format));
    j["ccob_version"] = b.ccob_version ? Json(b.ccob_version) : Json(nullptr);
    j["compression"] = b.compression.empty() ? Json(nullptr) : Json(b.compression);
    j["compressed_size"] = b.compressed_size;
    j["uncompressed_size"] = b.uncompressed_size;
    if (b.hash) j["hash"] = Hex(*b.hash);
    if (b.hash_ok) j["hash_ok"] = *b.hash_ok;
    j["valid"] = b.problems.empty();
    Json entries = Json::array();
    for (const BundleEntry& e : b.entries) {
      Json je;
      je["id"] = e.id;
      je["kind"] = e.parsed ? Json(e.parsed->kind) : Json(nullptr);
      je["target_id"] = e.target ? Json(e.target->str()) : Json(nullptr);
      je["processor"] = e.target ? Json(e.target->processor) : Json(nullptr);
      je["features"] = e.target ? Json(e.target->features()) : Json(nullptr);
      je["offset"] = e.offset;
      je["size"] = e.size;
      if (!e.content.empty()) je["content"] = e.content;
      je["code_object"] = e.code_object ? CodeObjectToJson(*e.code_object) : Json(nullptr);
      entries.push_back(std::move(je));
    }
    j["entries"] = std::move(entries);
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace rocm_audit
