// Debian's own ABI records against the libraries (debian_symbols.h): what dpkg-gensymbols
// checks when a library package is built (scripts/dpkg-gensymbols.pl: symbols lost from the
// file, new symbols missing from it), here for the binary packages of NEW as shipped; the
// package version that declared a removed symbol (OLD's symbols file); and a SONAME bump that
// leaves the package name alone (Debian Policy 8.1: the package is named after the SONAME, so
// that the old and the new library can be installed side by side during the transition).
#include <llvm/Demangle/Demangle.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <map>
#include <set>

#include "diff/compare.h"
#include "diff/debian_symbols.h"
#include "diff/shared_libraries.h"
#include "engine/comparison_rules.h"
#include "engine/debian_records.h"

namespace rocm_audit {
namespace {

// At most this many names in a finding's list; `count` says how many there are.
constexpr size_t kNamesListed = 100;

struct Exports {
  std::set<std::string> names;      ///< as a symbols file writes them ("f@V", "f@Base")
  std::set<std::string> demangled;  ///< (c++) entries: "ns::f()@V"
  std::set<std::string> versions;   ///< (symver) entries
};

Exports ExportsOf(const ElfFacts& elf) {
  Exports out;
  for (const std::string& e : elf.exports) {
    std::string name = DebSymbolName(e);
    const size_t at = name.rfind('@');
    out.versions.insert(name.substr(at + 1));
    if (name.starts_with("_Z")) out.demangled.insert(llvm::demangle(name.substr(0, at)) + name.substr(at));
    out.names.insert(std::move(name));
  }
  return out;
}

bool Provides(const Exports& e, const DebSymbol& s) {
  if (s.symver) return e.versions.count(s.name) > 0;
  return s.cxx ? e.demangled.count(s.name) > 0 : e.names.count(s.name) > 0;
}

std::vector<std::string> FirstNames(const std::vector<std::string>& names) {
  return {names.begin(), names.begin() + static_cast<ptrdiff_t>(std::min(names.size(), kNamesListed))};
}

std::string Listed(const std::vector<std::string>& names) {
  return std::to_string(names.size()) + (names.size() == 1 ? " symbol (" : " symbols (") + names[0] +
         (names.size() > 1 ? ", ...)" : ")");
}

// dpkg-gensymbols' "some symbols or patterns disappeared": a symbol the file requires
// (neither optional, nor kept as #MISSING, nor a pattern or of another architecture) that the
// library does not export.
void Missing(const DebControlRecords& p, const DebSymbolsLibrary& lib, const FileFacts& file,
             const Exports& e, FindingSink& out) {
  std::vector<std::string> missing;
  for (const DebSymbol& s : lib.symbols)
    if (!s.optional && !s.deprecated && !s.regex && !s.other_arch && !Provides(e, s))
      missing.push_back(s.name + " " + s.minver);
  if (missing.empty()) return;
  Finding f = MakeFinding(kDebianSymbolsMissingRule, file.path);
  f.message = "DEBIAN/symbols of " + p.package + " lists " + Listed(missing) + " that " + lib.soname +
              " does not export";
  f.fields = {{"soname", lib.soname},
              {"package", p.package},
              {"count", missing.size()},
              {"missing", FirstNames(missing)}};
  out.Add(std::move(f));
}

// dpkg-gensymbols' "some new symbols appeared": an export no line of the file stands for. A
// file with a (regex) pattern is not judged: its patterns are Perl's.
void Unlisted(const DebControlRecords& p, const DebSymbolsLibrary& lib, const FileFacts& file,
              FindingSink& out) {
  std::set<std::string> listed, versions, demangled;
  for (const DebSymbol& s : lib.symbols) {
    if (s.regex) return;
    (s.symver ? versions : s.cxx ? demangled : listed).insert(s.name);
  }
  std::vector<std::string> unlisted;
  for (const std::string& e : file.elf->exports) {
    const std::string name = DebSymbolName(e);
    const size_t at = name.rfind('@');
    if (DpkgNeverLists(name.substr(0, at)) || listed.count(name) || versions.count(name.substr(at + 1)))
      continue;
    if (name.starts_with("_Z") && demangled.count(llvm::demangle(name.substr(0, at)) + name.substr(at)))
      continue;
    unlisted.push_back(name);
  }
  if (unlisted.empty()) return;
  Finding f = MakeFinding(kDebianSymbolsUnlistedRule, file.path);
  f.message =
      lib.soname + " exports " + Listed(unlisted) + " that DEBIAN/symbols of " + p.package + " does not list";
  f.fields = {{"soname", lib.soname},
              {"package", p.package},
              {"count", unlisted.size()},
              {"unlisted", FirstNames(unlisted)}};
  out.Add(std::move(f));
}

// The name Debian Policy 8.1 gives the package of `soname`: "libfoo.so.1" -> "libfoo1",
// "libfoo2.so.3" -> "libfoo2-3"; "libfoo-1.2.so" -> "libfoo-1.2".
std::string PolicyPackageName(std::string_view soname) {
  std::string name;
  if (const size_t so = soname.find(".so."); so != std::string_view::npos) {
    name = std::string(soname.substr(0, so));
    if (!name.empty() && std::isdigit(static_cast<unsigned char>(name.back()))) name += '-';
    name += soname.substr(so + 4);
  } else {
    name = std::string(soname.ends_with(".so") ? soname.substr(0, soname.size() - 3) : soname);
  }
  for (char& c : name) c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

// The SONAMEs each .deb of a side provides, by package name, as its own records say: the
// libraries its DEBIAN/symbols describes, else the lines of its DEBIAN/shlibs ("libfoo 1" ->
// "libfoo.so.1"; dh_makeshlibs writes "libfoo-1.2.so" as "libfoo 1.2" too, so the symbols
// file's SONAMEs are the better word).
std::map<std::string, std::set<std::string>> SonamesByPackage(const std::vector<DebControlRecords>& debs) {
  std::map<std::string, std::set<std::string>> out;
  for (const DebControlRecords& p : debs) {
    std::set<std::string>& sonames = out[p.package];
    for (const DebSymbolsLibrary& lib : ParseDebSymbols(p.symbols)) sonames.insert(lib.soname);
    if (!sonames.empty()) continue;
    for (const DebShlib& s : ParseDebShlibs(p.shlibs))
      if (s.type.empty() && !s.soversion.empty()) sonames.insert(s.library + ".so." + s.soversion);
  }
  return out;
}

// A package of NEW that provides a SONAME succeeding one the package of the same name
// provided in OLD (the same name before ".so"), and no longer provides that one.
void BumpsWithoutRename(const std::vector<DebControlRecords>& old_debs,
                        const std::vector<DebControlRecords>& new_debs, const Side& new_side,
                        FindingSink& out) {
  const auto was = SonamesByPackage(old_debs);
  const SharedLibraries now_libraries(new_side);
  for (const auto& [package, sonames] : SonamesByPackage(new_debs)) {
    auto it = was.find(package);
    if (it == was.end()) continue;
    for (const std::string& old_soname : it->second) {
      if (sonames.count(old_soname)) continue;
      for (const std::string& new_soname : sonames) {
        if (SonameStem(new_soname) != SonameStem(old_soname)) continue;
        const FileFacts* lib = now_libraries.First(new_soname);
        Finding f = MakeFinding(kSonameBumpWithoutRenameRule, lib ? lib->path : "");
        const std::string expected = PolicyPackageName(new_soname);
        f.message = old_soname + " became " + new_soname + " in package " + package +
                    ", which keeps its name: the new library's package is " + expected +
                    " (Debian Policy 8.1), so that both can be installed while their users move";
        f.fields = {{"package", package},
                    {"old_soname", old_soname},
                    {"new_soname", new_soname},
                    {"expected_package", expected}};
        out.Add(std::move(f));
      }
    }
  }
}

}  // namespace

void CompareDebianRecords(const Side& old_side, const Side& new_side, FindingSink& out) {
  const std::vector<DebControlRecords> new_debs = DebianRecordsOf(new_side.inputs);
  if (new_debs.empty()) return;
  const SharedLibraries now(new_side);
  for (const DebControlRecords& p : new_debs)
    for (const DebSymbolsLibrary& lib : ParseDebSymbols(p.symbols)) {
      const FileFacts* file = now.First(lib.soname);
      if (!file || !file->elf->has_symbols) continue;
      Missing(p, lib, *file, ExportsOf(*file->elf), out);
      Unlisted(p, lib, *file, out);
    }
  BumpsWithoutRename(DebianRecordsOf(old_side.inputs), new_debs, new_side, out);
}

void AddDeclaredVersions(const Side& old_side, std::vector<Finding>* findings) {
  // OLD's symbols files: SONAME -> symbol -> (package, minimal version).
  if (std::none_of(findings->begin(), findings->end(),
                   [](const Finding& f) { return f.check == kSymbolsRemovedRule.id; }))
    return;
  std::map<std::string, std::map<std::string, std::pair<std::string, std::string>>> declared;
  for (const DebControlRecords& p : DebianRecordsOf(old_side.inputs))
    for (const DebSymbolsLibrary& lib : ParseDebSymbols(p.symbols))
      for (const DebSymbol& s : lib.symbols)
        if (!s.cxx && !s.symver && !s.regex) declared[lib.soname][s.name] = {p.package, s.minver};
  for (Finding& f : *findings) {
    if (f.check != kSymbolsRemovedRule.id || !f.fields.contains("removed")) continue;
    auto lib = declared.find(f.fields.value("soname", ""));
    if (lib == declared.end()) continue;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& removed : f.fields["removed"]) {
      if (!removed.is_string()) continue;
      auto it = lib->second.find(DebSymbolName(removed.get<std::string>()));
      if (it == lib->second.end()) continue;
      list.push_back({{"symbol", removed}, {"package", it->second.first}, {"version", it->second.second}});
    }
    if (list.empty()) continue;
    f.message += "; " + list[0]["symbol"].get<std::string>() + " declared by " +
                 list[0]["package"].get<std::string>() + " " + list[0]["version"].get<std::string>() +
                 " (DEBIAN/symbols)";
    f.fields["declared"] = std::move(list);
  }
}

}  // namespace rocm_audit
