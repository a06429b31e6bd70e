#include "reports/file_facts_json.h"

#include <algorithm>
#include <span>

#include "audit/model/finding.h"
#include "audit/support/hex.h"
#include "reports/json_element.h"

namespace rocm_audit {
namespace {

using Json = nlohmann::ordered_json;

// Every string of a file's facts at most kMaxFindingStringBytes, as in findings: a DT_NEEDED
// of 100 MB is shown by its start, the bytes left out and their hash (audit/model/finding.h).
void BoundStrings(Json& j) {
  if (j.is_string()) {
    if (j.get_ref<const std::string&>().size() > kMaxFindingStringBytes)
      j = BoundedText(std::move(j.get_ref<std::string&>()));
  } else if (j.is_array() || j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) BoundStrings(it.value());
  }
}

// The bytes of text of a list's entry: its strings and member names (8 for any other value),
// as FindingBytes counts a finding's fields.
uint64_t TextBytes(const Json& j) {
  if (j.is_string()) return j.get_ref<const std::string&>().size();
  if (!j.is_structured()) return 8;
  uint64_t bytes = 0;
  for (auto it = j.begin(); it != j.end(); ++it)
    bytes += (j.is_object() ? it.key().size() : 0) + TextBytes(*it);
  return bytes;
}

// The lists of a file's facts that quote names of the file or what it evaluates.
constexpr const char* kFileLists[] = {"needed",  "runpath", "rpath",     "exports",
                                      "imports", "closure", "unresolved"};
// A CMake config's: a loop of a few lines can import thousands of targets at long paths.
constexpr const char* kCMakeLists[] = {"targets", "includes", "dependencies", "missing", "components"};

// The lists `lists` of `j`: each at most `budget` bytes of text, cut where the budget runs
// out and the rest counted in "<list>_left_out" (closure_left_out also counts what
// kMaxClosureObjectsListed left out). A crafted file's DT_NEEDED entries can all point into
// one long name; each list has its own budget, so that a long `needed` never empties
// `unresolved`.
void CutListsToBudget(Json& j, uint64_t budget, std::span<const char* const> lists) {
  if (budget == 0) return;
  for (const char* list : lists) {
    auto it = j.find(list);
    if (it == j.end() || !it->is_array()) continue;
    size_t kept = 0;
    for (uint64_t used = 0; kept < it->size(); ++kept) {
      const uint64_t bytes = TextBytes((*it)[kept]);
      if (bytes > budget - used) break;
      used += bytes;
    }
    if (kept == it->size()) continue;
    const size_t left_out = it->size() - kept;
    it->erase(it->begin() + static_cast<std::ptrdiff_t>(kept), it->end());
    const std::string count = std::string(list) + "_left_out";
    j[count] = (j.contains(count) ? j[count].get<uint64_t>() : 0) + left_out;
  }
}

template <typename T>
Json OrNull(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}

Json CodeObjectToJson(const CodeObjectFacts& co) {
  Json j;
  j["mach"] = Hex(co.mach);
  j["processor"] = OrNull(co.processor);
  j["xnack"] = co.xnack;
  j["sramecc"] = co.sramecc;
  j["abi_version"] = OrNull(co.abi_version);
  j["kernels"] = OrNull(co.kernels);
  j["type"] = co.type;
  if (co.generic_version) j["generic_version"] = *co.generic_version;
  return j;
}

Json EntryToJson(const BundleEntryFacts& e) {
  Json j;
  j["id"] = e.id;
  j["kind"] = OrNull(e.kind);
  j["target_id"] = OrNull(e.target_id);
  j["processor"] = OrNull(e.processor);
  j["features"] = OrNull(e.features);
  j["offset"] = e.offset;
  j["size"] = e.size;
  if (!e.content.empty()) j["content"] = e.content;
  j["code_object"] = e.code_object ? CodeObjectToJson(*e.code_object) : Json(nullptr);
  return j;
}

Json BundleToJson(const BundleFacts& b) {
  Json j;
  if (!b.section.empty()) j["section"] = b.section;
  if (!b.member.empty()) j["member"] = b.member;
  j["offset"] = b.offset;
  j["file_offset"] = b.file_offset;
  j["format"] = b.format;
  j["ccob_version"] = OrNull(b.ccob_version);
  j["compression"] = OrNull(b.compression);
  j["compressed_size"] = b.compressed_size;
  j["uncompressed_size"] = b.uncompressed_size;
  if (b.hash) j["hash"] = Hex(*b.hash);
  if (b.hash_ok) j["hash_ok"] = *b.hash_ok;
  j["valid"] = b.valid;
  Json entries = Json::array();
  for (const BundleEntryFacts& e : b.entries) entries.push_back(EntryToJson(e));
  j["entries"] = std::move(entries);
  BoundStrings(j);
  return j;
}

Json CMakeToJson(const CMakePackageFacts& c) {
  Json targets = Json::array();
  for (const CMakeTargetFacts& t : c.targets)
    targets.push_back(
        {{"name", t.name}, {"type", t.type}, {"locations", t.locations}, {"include_dirs", t.include_dirs}});
  Json dependencies = Json::array();
  for (const CMakeDependencyFacts& d : c.dependencies) {
    dependencies.push_back({{"name", d.name},
                            {"version", d.version.empty() ? Json(nullptr) : Json(d.version)},
                            {"found", d.found.empty() ? Json(nullptr) : Json(d.found)}});
    if (!d.via.empty()) dependencies.back()["via"] = d.via;
    if (!d.targets.empty()) dependencies.back()["targets"] = d.targets;
  }
  Json missing = Json::array();
  for (const CMakeMissingFacts& m : c.missing)
    missing.push_back(
        {{"path", m.path}, {"via", m.via}, {"in", m.file}, {"line", m.line}, {"decided", m.decided}});
  Json j = {{"package", c.package},
            {"version", c.version.empty() ? Json(nullptr) : Json(c.version)},
            {"targets", std::move(targets)},
            {"includes", c.includes},
            {"dependencies", std::move(dependencies)},
            {"missing", std::move(missing)}};
  if (!c.components.empty()) j["components"] = c.components;
  if (!c.result_variables.empty()) j["result_variables"] = c.result_variables;
  return j;
}

}  // namespace

Json FileFactsToJson(const FileFacts& f, bool with_bundles) {
  Json j = {{"path", f.path}, {"kind", f.kind}};
  if (f.elf) {
    const ElfFacts& e = *f.elf;
    j["class"] = e.elf64 ? "ELF64" : "ELF32";
    j["machine"] = e.machine;
    if (!e.soname.empty()) j["soname"] = e.soname;
    if (e.has_dynamic) {
      j["needed"] = e.needed;
      if (e.has_runpath) j["runpath"] = e.runpath;
      if (!e.rpath.empty()) j["rpath"] = e.rpath;
    }
    if (e.has_symbols) {
      j["exports"] = e.exports;
      j["imports"] = e.imports;
    }
  }
  if (f.archive_members) j["members"] = *f.archive_members;
  if (f.non_elf_members) {
    Json named = Json::array();
    for (const NonElfMemberFacts::Named& m : f.non_elf_members->named)
      named.push_back({{"member", m.member}, {"format", m.format}});
    j["non_elf_members"] = {{"count", f.non_elf_members->count}, {"named", std::move(named)}};
  }
  if (f.device) {
    Json bundles = Json::array();
    const size_t listed = std::min(f.device->bundles.size(), kMaxBundlesListed);
    if (with_bundles)
      for (size_t i = 0; i < listed; ++i) bundles.push_back(BundleToJson(f.device->bundles[i]));
    j["bundles"] = std::move(bundles);
    if (f.device->bundles.size() > listed) j["bundles_left_out"] = f.device->bundles.size() - listed;
    j["device_targets"] = f.device->targets;
    if (f.device->fatbin_wrappers) j["fatbin_wrappers"] = f.device->fatbin_wrappers;
  }
  if (f.arch_data) {
    j["arch_data"] = {{"library", f.arch_data->library},
                      {"dir", f.arch_data->dir.empty() ? Json(nullptr) : Json(f.arch_data->dir)},
                      {"processors", f.arch_data->processors}};
  }
  if (f.device_stack)
    j["device_stack"] = {{"libraries", f.device_stack->libraries},
                         {"common_targets", f.device_stack->common_targets}};
  if (f.closure) {
    j["closure"] = f.closure->objects;
    if (f.closure->objects_left_out) j["closure_left_out"] = f.closure->objects_left_out;
    j["unresolved"] = f.closure->unresolved;
  }
  if (f.plugin)
    j["plugin"] = {{"rule", f.plugin->rule},
                   {"host", f.plugin->host.empty() ? Json(nullptr) : Json(f.plugin->host)},
                   {"host_path", f.plugin->host_path.empty() ? Json(nullptr) : Json(f.plugin->host_path)},
                   {"bound_by_host", f.plugin->bound_by_host}};
  if (f.cmake) j["cmake"] = CMakeToJson(*f.cmake);
  BoundStrings(j);
  CutListsToBudget(j, f.report_bytes, kFileLists);
  if (auto cmake = j.find("cmake"); cmake != j.end()) CutListsToBudget(*cmake, f.report_bytes, kCMakeLists);
  return j;
}

std::string FileFactsElementText(const FileFacts& f) {
  // The element is dumped with "bundles": [] and the bundles go in its place, each dumped
  // alone and indented to its depth (a member's array: 8 columns into the element).
  std::string text = ArrayElementText(FileFactsToJson(f, /*bundles=*/false));
  if (!f.device || f.device->bundles.empty()) return text;
  constexpr std::string_view kEmpty = "\n      \"bundles\": []";  // a raw newline: no string holds it
  const size_t at = text.find(kEmpty);
  if (at == std::string::npos) return ArrayElementText(FileFactsToJson(f));  // not reached
  std::string out = text.substr(0, at + kEmpty.size() - 1);
  out += "\n";
  const auto& bundles = f.device->bundles;
  const size_t listed = std::min(bundles.size(), kMaxBundlesListed);
  for (size_t i = 0; i < listed; ++i) {
    AppendIndented(DumpJson(BundleToJson(bundles[i])), "        ", &out);
    out += i + 1 < listed ? ",\n" : "\n";
  }
  out += "      ]";
  out.append(text, at + kEmpty.size(), std::string::npos);
  return out;
}

}  // namespace rocm_audit
