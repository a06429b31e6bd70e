#include "checks/debian_depends.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "audit/fs/open_file.h"
#include "audit/fs/soname.h"
#include "audit/support/text.h"

namespace rocm_audit {
namespace {

// A dpkg status file of a real system is a few MB (Debian 12 with 3,000 packages: 4 MB);
// one larger is not read, and the base's relations are then unknown (open), never guessed.
constexpr size_t kMaxStatusFile = size_t(64) << 20;

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// One stanza of a dpkg status file: the fields this reader keeps, by lower-case name
// (deb822 field names are case-insensitive; continuation lines are joined).
struct Stanza {
  std::string package, status, version, depends, provides;
};

template <class Fn>
void ForEachStanza(std::string_view text, Fn fn) {
  Stanza s;
  std::string* last = nullptr;
  size_t at = 0;
  while (at <= text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(at, end - at);
    at = end + 1;
    if (Trim(line).empty()) {
      if (!s.package.empty()) fn(s);
      s = Stanza{};
      last = nullptr;
      continue;
    }
    if (line[0] == ' ' || line[0] == '\t') {
      if (last) *last += " " + std::string(Trim(line));
      continue;
    }
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string field = Lower(std::string(line.substr(0, colon)));
    const std::string value(Trim(line.substr(colon + 1)));
    last = field == "package"                             ? &s.package
           : field == "status"                            ? &s.status
           : field == "version"                           ? &s.version
           : field == "depends" || field == "pre-depends" ? &s.depends
           : field == "provides"                          ? &s.provides
                                                          : nullptr;
    if (last)
      *last += (last->empty() || last == &s.package || last == &s.status || last == &s.version ? "" : ", ") +
               value;
  }
  if (!s.package.empty()) fn(s);
}

}  // namespace

std::vector<std::string> RelationNames(const std::string& field) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= field.size()) {
    size_t end = field.find_first_of(",|", start);
    if (end == std::string::npos) end = field.size();
    std::string one(Trim(std::string_view(field).substr(start, end - start)));
    one = one.substr(0, one.find_first_of(" \t(:["));
    if (!one.empty()) out.push_back(std::move(one));
    start = end + 1;
  }
  return out;
}

std::string DebianLibraryPackage(std::string_view soname) {
  const std::optional<SonameParts> parts = ParseSoname(soname);
  if (!parts || parts->version.empty()) return "";
  const std::string name(parts->family);
  std::string out =
      name + (std::isdigit(static_cast<unsigned char>(name.back())) ? "-" : "") + std::string(parts->version);
  return Lower(std::move(out));
}

// A library file's name may go past its soname (libfoo.so.2.0.0 of soname libfoo.so.2): each
// shorter version is tried too; Debian's 64-bit time_t transition added "t64" to the names.
std::string DependedLibraryPackage(const PackageOfSet& package, std::string_view library) {
  for (std::string_view name = library; !name.empty();) {
    const std::string expected = DebianLibraryPackage(name);
    if (expected.empty()) return "";
    for (const std::string& d : package.depends)
      if (d == expected || d == expected + "t64") return d;
    const size_t dot = name.rfind('.');
    if (dot == std::string_view::npos || dot <= name.find(".so.") + 3) return "";
    name = name.substr(0, dot);
  }
  return "";
}

std::string InstalledVersion(std::string_view status_text, const std::string& name) {
  std::string version;
  ForEachStanza(status_text, [&](const Stanza& s) {
    if (s.package == name && s.status.ends_with(" installed")) version = s.version;
  });
  return version;
}

// The base is the layers below the set's own (the first): its first dpkg status file that is
// a regular file. The set's own packages are being installed: their base copies do not count.
void DependsWorld::ReadBase() {
  base_read_ = true;
  const std::vector<std::string> layers = fs_.layers();
  for (size_t i = 1; i < layers.size(); ++i) {
    const std::string path = (layers[i] == "/" ? "" : layers[i]) + "/var/lib/dpkg/status";
    std::optional<std::string> text =
        ReadRegularFile(path, kMaxStatusFile, PastCap::kRefused, Links::kRefuse).text;
    if (!text) continue;
    ForEachStanza(*text, [&](const Stanza& s) {
      // "install ok installed": dpkg counts a Depends satisfied by a configured package only.
      if (!s.status.ends_with(" installed")) return;
      if (std::any_of(set_.begin(), set_.end(), [&](const PackageOfSet& p) { return p.name == s.package; }))
        return;
      base_[s.package].depends = RelationNames(s.depends);
      for (const std::string& v : RelationNames(s.provides)) base_providers_[v].push_back(s.package);
    });
    return;
  }
}

bool DependsWorld::Follow(const std::string& name, DependsReach* reach, std::vector<std::string>* queue) {
  bool found = false;
  for (const PackageOfSet& p : set_)
    if (p.name == name || std::find(p.provides.begin(), p.provides.end(), name) != p.provides.end()) {
      found = true;
      if (reach->packages.insert(p.name).second)
        queue->insert(queue->end(), p.depends.begin(), p.depends.end());
    }
  if (!base_read_) ReadBase();
  std::vector<std::string> installed;
  if (base_.count(name)) installed.push_back(name);
  if (auto it = base_providers_.find(name); it != base_providers_.end())
    installed.insert(installed.end(), it->second.begin(), it->second.end());
  for (const std::string& i : installed) {
    found = true;
    if (reach->packages.insert(i).second) {
      const std::vector<std::string>& d = base_[i].depends;
      queue->insert(queue->end(), d.begin(), d.end());
    }
  }
  return found;
}

DependsReach DependsWorld::Reach(const PackageOfSet& from) {
  DependsReach reach;
  std::vector<std::string> queue = from.depends;
  std::unordered_set<std::string> seen;
  while (!queue.empty()) {
    std::string name = std::move(queue.back());
    queue.pop_back();
    if (!seen.insert(name).second) continue;
    if (!Follow(name, &reach, &queue)) reach.open.push_back(name);
  }
  std::sort(reach.open.begin(), reach.open.end());
  return reach;
}

}  // namespace rocm_audit
