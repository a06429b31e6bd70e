#include "audit/unpack/package_metadata.h"

#include "audit/support/text.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

namespace rocm_audit {
namespace {

// "Field: value" lines of the first paragraph; continuation lines (starting with a space)
// join the field before them.
void ForEachField(const std::string& text,
                  const std::function<void(const std::string&, const std::string&)>& f) {
  std::istringstream in(text);
  std::string line, field, value;
  auto flush = [&] {
    if (!field.empty()) f(field, std::string(Trim(value)));
    field.clear();
    value.clear();
  };
  while (std::getline(in, line)) {
    if (line.empty() || line == "\r") break;
    if ((line[0] == ' ' || line[0] == '\t') && !field.empty()) {
      value += " " + std::string(Trim(line));
      continue;
    }
    flush();
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    field = line.substr(0, colon);
    value = line.substr(colon + 1);
  }
  flush();
}

// The list a relation field of a .deb's control file goes to; nullptr for other fields.
std::vector<std::string>* RelationList(const std::string& field, UnpackedPackage* out) {
  if (field == "Depends" || field == "Pre-Depends") return &out->depends;
  if (field == "Provides") return &out->provides;
  if (field == "Conflicts") return &out->conflicts;
  if (field == "Breaks") return &out->breaks;
  if (field == "Replaces") return &out->replaces;
  return nullptr;
}

// "Source: name (version)" (deb-control(5)): the version only when it differs from the
// binary's (a binNMU, or a package built from another source version).
void ApplySource(const std::string& value, UnpackedPackage* out) {
  const size_t open = value.find('(');
  out->source = std::string(Trim(value.substr(0, open)));
  if (open == std::string::npos) return;
  const size_t close = value.find(')', open);
  out->source_version =
      std::string(Trim(value.substr(open + 1, close == std::string::npos ? close : close - open - 1)));
}

}  // namespace

void ApplyDebControl(const std::string& control, UnpackedPackage* out) {
  ForEachField(control, [&](const std::string& field, const std::string& value) {
    if (field == "Package") out->name = value;
    if (field == "Version") out->version = value;
    if (field == "Architecture") out->architecture = value;
    if (field == "Source") ApplySource(value, out);
    if (std::vector<std::string>* to = RelationList(field, out)) {
      std::istringstream list(value);
      for (std::string dep; std::getline(list, dep, ',');)
        if (std::string d(Trim(dep)); !d.empty()) to->push_back(d);
    }
  });
}

void ApplyWheelMetadata(const std::string& metadata, UnpackedPackage* out) {
  ForEachField(metadata, [&](const std::string& field, const std::string& value) {
    if (field == "Name") out->name = value;
    if (field == "Version") out->version = value;
    if (field == "Requires-Dist") out->depends.push_back(value);
  });
}

void ApplyCondaIndex(const std::string& index_json, UnpackedPackage* out) {
  nlohmann::json index = nlohmann::json::parse(index_json, nullptr, false);
  if (!index.is_object()) return;
  if (index.contains("name") && index["name"].is_string()) out->name = index["name"];
  if (index.contains("version") && index["version"].is_string()) out->version = index["version"];
  if (index.contains("depends") && index["depends"].is_array()) {
    const nlohmann::json& depends = index["depends"];
    for (const auto& d : depends)
      if (d.is_string()) out->depends.push_back(d);
  }
}

}  // namespace rocm_audit
