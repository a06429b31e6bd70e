// symbols-removed and soname-changed: shared libraries of OLD and NEW matched by SONAME.
#include <map>
#include <set>
#include <string_view>

#include "diff/compare.h"
#include "diff/installed_layout.h"
#include "diff/shared_libraries.h"
#include "engine/comparison_rules.h"

namespace rocm_audit {
namespace {

// "name@@V" and "name@V" are one export for a binary linked against it (its reference names
// the version, which either still defines); "name" is bound by any version's default.
struct Export {
  std::string_view name;
  std::string_view version;  ///< "" when unversioned
};

Export Split(std::string_view symbol) {
  const size_t at = symbol.find('@');
  if (at == std::string_view::npos) return {symbol, ""};
  std::string_view version = symbol.substr(at + 1);
  if (version.starts_with('@')) version.remove_prefix(1);
  return {symbol.substr(0, at), version};
}

// clang names each HIP translation unit's compilation with an exported __hip_cuid_<hash>,
// different at every build; the runtime matches host and device code by it inside the one
// library, and no other object references it.
bool BuildIdentity(std::string_view name) { return name.starts_with("__hip_cuid_"); }

// The exports of `old_lib` that `new_lib` no longer provides, as OLD names them.
std::vector<std::string> RemovedExports(const ElfFacts& old_lib, const ElfFacts& new_lib) {
  std::set<std::pair<std::string_view, std::string_view>> versioned;
  std::set<std::string_view> names;
  for (const std::string& s : new_lib.exports) {
    const Export e = Split(s);
    versioned.insert({e.name, e.version});
    names.insert(e.name);
  }
  std::vector<std::string> removed;
  for (const std::string& s : old_lib.exports) {
    const Export e = Split(s);
    if (BuildIdentity(e.name)) continue;
    const bool kept = e.version.empty() ? names.count(e.name) > 0 : versioned.count({e.name, e.version}) > 0;
    if (!kept) removed.push_back(s);
  }
  return removed;
}

std::set<std::string> Versions(const std::vector<std::string>& exports) {
  std::set<std::string> out;
  for (const std::string& s : exports)
    if (const Export e = Split(s); !e.version.empty()) out.insert(std::string(e.version));
  return out;
}

// The files of NEW other than the library, then of the base, that link its SONAME and import
// a removed symbol: an unversioned import is bound by any version of its name.
nlohmann::ordered_json Hits(const Side& new_side, BaseConsumers& base, const FileFacts& lib,
                            const std::vector<std::string>& removed) {
  std::set<std::pair<std::string_view, std::string_view>> gone;
  std::set<std::string_view> gone_names;
  for (const std::string& s : removed) {
    const Export e = Split(s);
    gone.insert({e.name, e.version});
    gone_names.insert(e.name);
  }
  nlohmann::ordered_json hits = nlohmann::ordered_json::array();
  auto add = [&](const FileFacts& f) {
    std::vector<std::string> symbols;
    for (const std::string& s : f.elf->imports) {
      const Export e = Split(s);
      if (e.version.empty() ? gone_names.count(e.name) > 0 : gone.count({e.name, e.version}) > 0)
        symbols.push_back(s);
    }
    if (!symbols.empty()) hits.push_back({{"file", f.path}, {"symbols", symbols}});
  };
  for (const FileFacts& f : new_side.files)
    if (&f != &lib && f.elf && Links(*f.elf, lib.elf->soname)) add(f);
  for (const FileFacts& f : base.Linking(lib.elf->soname)) add(f);
  return hits;
}

void SymbolsRemoved(const Side& new_side, BaseConsumers& base, const FileFacts& old_lib,
                    const FileFacts& new_lib, FindingSink& out) {
  if (!old_lib.elf->has_symbols || !new_lib.elf->has_symbols) return;
  const std::vector<std::string> removed = RemovedExports(*old_lib.elf, *new_lib.elf);
  if (removed.empty()) return;
  std::vector<std::string> versions_removed;
  const std::set<std::string> now = Versions(new_lib.elf->exports);
  for (const std::string& v : Versions(old_lib.elf->exports))
    if (!now.count(v)) versions_removed.push_back(v);
  const std::string& soname = new_lib.elf->soname;
  Finding f = MakeFinding(kSymbolsRemovedRule, new_lib.path);
  f.message = soname + " keeps its SONAME and no longer exports " + std::to_string(removed.size()) +
              (removed.size() == 1 ? " symbol (" : " symbols (") + removed[0] +
              (removed.size() > 1 ? ", ...)" : ")");
  if (!versions_removed.empty())
    f.message += "; version node" + std::string(versions_removed.size() > 1 ? "s " : " ") +
                 versions_removed[0] + (versions_removed.size() > 1 ? ", ..." : "") + " removed";
  nlohmann::ordered_json hits = Hits(new_side, base, new_lib, removed);
  if (!hits.empty()) f.message += "; " + std::to_string(hits.size()) + " installed file(s) use them";
  f.fields = {{"soname", soname},
              {"old_file", old_lib.path},
              {"count", removed.size()},
              {"removed", removed},
              {"versions_removed", versions_removed},
              {"hit", std::move(hits)}};
  out.Add(std::move(f));
}

void SonameChanged(const Side& new_side, BaseConsumers& base, const FileFacts& old_lib,
                   const FileFacts& new_lib, FindingSink& out) {
  const std::string& old_soname = old_lib.elf->soname;
  const bool still = !SharedLibraries(new_side).BySoname(old_soname).empty();
  std::vector<std::string> hits;
  for (const FileFacts& f : new_side.files)
    if (f.elf && Links(*f.elf, old_soname)) hits.push_back(f.path);
  for (const FileFacts& f : base.Linking(old_soname)) hits.push_back(f.path);
  Finding f = MakeFinding(kSonameChangedRule, new_lib.path);
  f.message = old_soname + " became " + new_lib.elf->soname +
              (still ? "" : "; no file provides " + old_soname + " any more");
  if (!hits.empty()) f.message += "; " + std::to_string(hits.size()) + " installed file(s) still link it";
  f.fields = {{"old_soname", old_soname},
              {"new_soname", new_lib.elf->soname},
              {"old_still_provided", still},
              {"hit", hits}};
  out.Add(std::move(f));
}

// No file of NEW provides the SONAME and none succeeds it: whoever still links it fails to load.
void LibraryRemoved(const Side& new_side, BaseConsumers& base, const FileFacts& old_lib, FindingSink& out) {
  const std::string& soname = old_lib.elf->soname;
  std::vector<std::string> hits;
  for (const FileFacts& f : new_side.files)
    if (f.elf && Links(*f.elf, soname)) hits.push_back(f.path);
  for (const FileFacts& f : base.Linking(soname)) hits.push_back(f.path);
  Finding f = MakeFinding(kLibraryRemovedRule, old_lib.path);
  f.message = soname + " is no longer provided and has no successor";
  if (!hits.empty()) f.message += "; " + std::to_string(hits.size()) + " installed file(s) still link it";
  if (hits.empty()) f.severity = Severity::kWarning;
  f.fields = {{"soname", soname}, {"hit", hits}};
  out.Add(std::move(f));
}

}  // namespace

void CompareLibraries(const Side& old_side, const Side& new_side, BaseConsumers& base, FindingSink& out) {
  const SharedLibraries now(new_side);
  const SharedLibraries was(old_side);
  const std::set<std::string> unread = UnreadPlaces(new_side);
  std::set<std::string_view> seen;
  for (const FileFacts* old_lib : was.All()) {
    if (!seen.insert(old_lib->elf->soname).second) continue;
    // A library NEW could not read (or whose symbols it could not) is neither removed nor
    // changed as far as anyone knows: the side-unreadable finding says so (finding_diff.cc).
    const FileFacts* same = now.First(old_lib->elf->soname);
    if (unread.count(PlaceBelowPrefix(same ? same->path : old_lib->path))) continue;
    if (same) {
      SymbolsRemoved(new_side, base, *old_lib, *same, out);
      continue;
    }
    if (const FileFacts* renamed = now.SameStem(old_lib->elf->soname))
      SonameChanged(new_side, base, *old_lib, *renamed, out);
    else
      LibraryRemoved(new_side, base, *old_lib, out);
  }
}

}  // namespace rocm_audit
