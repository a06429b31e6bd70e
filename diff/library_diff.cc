// symbols-removed and soname-changed: shared libraries of OLD and NEW matched by SONAME.
#include <map>
#include <set>
#include <string_view>

#include "diff/co_installable.h"
#include "diff/compare.h"
#include "diff/demangled_names.h"
#include "diff/installed_layout.h"
#include "diff/shared_libraries.h"
#include "diff/symbol_match.h"
#include "engine/comparison_rules.h"

namespace rocm_audit {
namespace {

// clang names each HIP translation unit's compilation with an exported __hip_cuid_<hash>,
// different at every build; the runtime matches host and device code by it inside the one
// library, and no other object references it. Nor does any reference a version node's mark.
bool NoInterface(std::string_view symbol) {
  return ParseSymbolName(symbol).name.starts_with("__hip_cuid_") || IsVersionNodeMark(symbol);
}

// The exports of `old_lib` that a program linked against it no longer finds in `now`, as
// ld.so would look them up there (symbol_match.h), as OLD names them.
std::vector<std::string> RemovedExports(const ElfFacts& old_lib, const ExportTable& now) {
  std::vector<std::string> removed;
  for (const std::string& s : old_lib.exports)
    if (!NoInterface(s) && !now.Binds(ReferenceTo(s))) removed.push_back(s);
  return removed;
}

// The version nodes of `was` that `now` no longer defines, and whether a symbol of OLD
// other than its mark belonged to each: an empty node binds no reference.
struct VersionsRemoved {
  std::vector<std::string> all, empty;
};
VersionsRemoved RemovedVersions(const ElfFacts& old_lib, const ExportTable& was, const ExportTable& now) {
  std::set<std::string_view> used;
  for (const std::string& s : old_lib.exports)
    if (!NoInterface(s)) used.insert(ParseSymbolName(s).version);
  VersionsRemoved out;
  for (std::string_view v : was.Versions())
    if (!now.Versions().count(v)) {
      out.all.emplace_back(v);
      if (!used.count(v)) out.empty.emplace_back(v);
    }
  return out;
}

// The files of NEW other than the library, then of the base, that link its SONAME and make
// a reference OLD's library bound and NEW's no longer binds.
nlohmann::ordered_json Hits(const Side& new_side, BaseConsumers& base, const FileFacts& lib,
                            const ExportTable& was, const ExportTable& now) {
  nlohmann::ordered_json hits = nlohmann::ordered_json::array();
  auto add = [&](const FileFacts& f) {
    std::vector<std::string> symbols;
    for (const std::string& s : f.elf->imports)
      if (!NoInterface(s) && was.Binds(s) && !now.Binds(s)) symbols.push_back(s);
    if (!symbols.empty()) hits.push_back({{"file", f.path}, {"symbols", symbols}});
  };
  for (const FileFacts& f : new_side.files)
    if (&f != &lib && f.elf && Links(*f.elf, lib.elf->soname)) add(f);
  for (const FileFacts& f : base.Linking(lib.elf->soname)) add(f);
  return hits;
}

std::string Listed(const std::vector<std::string>& items) {
  return items[0] + (items.size() > 1 ? ", ..." : "");
}

std::string RemovedMessage(const std::string& soname, const std::vector<std::string>& removed,
                           const VersionsRemoved& versions) {
  if (removed.empty())
    return soname + " keeps its SONAME and no longer defines the version node" +
           (versions.all.size() > 1 ? "s " : " ") + Listed(versions.all) +
           (versions.empty.size() == versions.all.size()
                ? ", which held no symbol: no reference names it"
                : ": NEW defines no version, which ld.so only warns of");
  const std::string lead = GroupByScope({removed[0]}).front().names.front();  // demangled
  std::string message = soname + " keeps its SONAME and no longer exports " + std::to_string(removed.size()) +
                        (removed.size() == 1 ? " symbol (" : " symbols (") + lead +
                        (removed.size() > 1 ? ", ...)" : ")");
  if (!versions.all.empty())
    message += "; version node" + std::string(versions.all.size() > 1 ? "s " : " ") + Listed(versions.all) +
               " removed";
  return message;
}

void SymbolsRemoved(const Side& new_side, BaseConsumers& base, const FileFacts& old_lib,
                    const FileFacts& new_lib, FindingSink& out) {
  if (!old_lib.elf->has_symbols || !new_lib.elf->has_symbols) return;
  const ExportTable was(old_lib.elf->exports, old_lib.elf->imports);
  const ExportTable now(new_lib.elf->exports, new_lib.elf->imports);
  const std::vector<std::string> removed = RemovedExports(*old_lib.elf, now);
  const VersionsRemoved versions = RemovedVersions(*old_lib.elf, was, now);
  if (removed.empty() && versions.all.empty()) return;
  const std::string& soname = new_lib.elf->soname;
  Finding f = MakeFinding(kSymbolsRemovedRule, new_lib.path);
  f.message = RemovedMessage(soname, removed, versions);
  // Nodes that go with no symbol a program could have bound break no program (an empty
  // node, or versions dropped altogether, dl-version.c then warning only): a note.
  if (removed.empty()) f.severity = Severity::kNote;
  nlohmann::ordered_json hits = Hits(new_side, base, new_lib, was, now);
  if (!hits.empty()) f.message += "; " + std::to_string(hits.size()) + " installed file(s) use them";
  nlohmann::ordered_json by_scope = nlohmann::ordered_json::array();
  for (ScopeGroup& g : GroupByScope(removed)) by_scope.push_back({{"scope", g.scope}, {"names", g.names}});
  f.fields = {{"soname", soname},
              {"old_file", old_lib.path},
              {"count", removed.size()},
              {"removed", removed},
              {"removed_by_scope", std::move(by_scope)},
              {"versions_removed", versions.all},
              {"hit", std::move(hits)}};
  out.Add(std::move(f));
}

std::string SonameChangedMessage(const Side& old_side, const Side& new_side, const FileFacts& old_lib,
                                 const FileFacts& new_lib, bool still, const OldPackageFate& fate,
                                 size_t hits) {
  const std::string& old_soname = old_lib.elf->soname;
  std::string message = old_soname + " became " + new_lib.elf->soname;
  const SidePackage* was = old_side.PackageOf(old_lib.path);
  const SidePackage* now = new_side.PackageOf(new_lib.path);
  if (!still && fate.stays && was && now)
    message += "; a transition: " + was->name + ", which provides " + old_soname +
               ", stays installable beside " + now->name;
  else if (!still && !fate.removed_by.empty())
    message += "; no file provides " + old_soname + " any more: " + was->name +
               ", which provides it, cannot stay installed (" + fate.removed_by + ")";
  else if (!still)
    message += "; no file provides " + old_soname + " any more";
  if (hits) message += "; " + std::to_string(hits) + " installed file(s) still link it";
  return message;
}

void SonameChanged(const Side& old_side, const Side& new_side, BaseConsumers& base, const FileFacts& old_lib,
                   const FileFacts& new_lib, FindingSink& out) {
  const std::string& old_soname = old_lib.elf->soname;
  const bool still = !SharedLibraries(new_side).BySoname(old_soname).empty();
  std::vector<std::string> hits;
  for (const FileFacts& f : new_side.files)
    if (f.elf && Links(*f.elf, old_soname)) hits.push_back(f.path);
  for (const FileFacts& f : base.Linking(old_soname)) hits.push_back(f.path);
  // Whether the old package stays installed beside NEW (dpkg: its name, Conflicts, Breaks,
  // Replaces), when no file of NEW provides the old SONAME.
  const OldPackageFate fate = still ? OldPackageFate{} : FateOfOldPackage(old_side, new_side, old_lib.path);
  Finding f = MakeFinding(kSonameChangedRule, new_lib.path);
  f.message = SonameChangedMessage(old_side, new_side, old_lib, new_lib, still, fate, hits.size());
  f.fields = {{"old_soname", old_soname},
              {"new_soname", new_lib.elf->soname},
              {"old_still_provided", still},
              {"hit", hits}};
  if (const SidePackage* was = old_side.PackageOf(old_lib.path)) f.fields["old_package"] = was->name;
  if (const SidePackage* now = new_side.PackageOf(new_lib.path)) f.fields["new_package"] = now->name;
  f.fields["old_package_stays"] = fate.stays && new_side.PackageOf(new_lib.path);
  if (!fate.removed_by.empty()) f.fields["old_package_removed_by"] = fate.removed_by;
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
      SonameChanged(old_side, new_side, base, *old_lib, *renamed, out);
    else
      LibraryRemoved(new_side, base, *old_lib, out);
  }
}

}  // namespace rocm_audit
