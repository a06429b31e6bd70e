#include "engine/comparison_rules.h"

namespace rocm_audit {

// Error: a program linked against the old library and not rebuilt fails at load (a versioned
// symbol: ld.so refuses the object) or at its first call (an unversioned one, bound lazily),
// while the package manager sees the same SONAME and keeps it installed. dpkg-gensymbols
// fails the build on a symbol missing from a maintained symbols file; abidiff reports it as
// an ABI break (without DWARF, only through its ELF symbol tables).
constinit const Rule kSymbolsRemovedRule{
    .id = "symbols-removed",
    .severity = Severity::kError,
    .title = "exported dynamic symbols removed without a SONAME change",
    .fix = "keep the symbols (or an alias), or change the SONAME so that dependent packages are rebuilt",
    .key_fields = "soname",
    .explanation =
        "The new version of a shared library no longer defines dynamic symbols that the old one "
        "exported (defined, global or weak, not hidden), or no longer defines a symbol version "
        "node, and it keeps the same SONAME. Every program and library linked against the old "
        "one still asks for that SONAME, so the package manager keeps them installed, and they "
        "fail when ld.so loads them (a versioned symbol or a version node) or at their first "
        "call of the symbol (an unversioned one bound lazily). Symbols are named as `nm -D "
        "--defined-only` names them, version included (`hipCreateSurfaceObject@@hip_4.2`), and "
        "a symbol is kept when ld.so would bind a reference to it in the new library (glibc's "
        "check_match: its version, or an unversioned definition; an unversioned reference the "
        "one default version). The absolute symbol each version node has (`VER@@VER`) is no "
        "symbol; a node removed with none of its symbols (an empty node) breaks no program and "
        "is a note. "
        "Either keep the symbols, or bump the SONAME so that dependent packages must be "
        "rebuilt. The finding lists the removed symbols, their count, the version nodes gone, "
        "and the installed files of NEW that reference one of them (`hit`).",
    .example =
        "usr/lib/x86_64-linux-gnu/librocrand.so.1\n"
        "  error[symbols-removed]: librocrand.so.1 keeps its SONAME and no longer exports 149 "
        "symbols (_Z25rocrand_make_state_mtgp32..., ...)\n"
        "    fix: keep the symbols (or an alias), or change the SONAME so that dependent "
        "packages are rebuilt",
    .cause_fields = "soname",
    .cause = "{soname} drops exported symbols without a SONAME change",
    .fields =
        "soname:string old_file:path count:integer removed:[string] "
        "removed_by_scope:[{scope:string names:[string]}] versions_removed:[string] "
        "hit:[{file:path symbols:[string]}] "
        "declared?:[{symbol:string package:string version:string}]",
};

// Note: a SONAME change is the correct way to break an ABI; what it costs is a rebuild of
// every reverse dependency, which the packager must schedule (Debian: a library transition).
// The files it strands are listed (`hit`).
constinit const Rule kSonameChangedRule{
    .id = "soname-changed",
    .severity = Severity::kNote,
    .title = "a library's SONAME changed: its reverse dependencies must be rebuilt",
    .fix = "rebuild every package that links the old SONAME, or keep providing it",
    .key_fields = "old_soname new_soname",
    .explanation =
        "A shared library of OLD is in NEW under another SONAME (matched by its name before "
        "`.so`). Programs linked against the old SONAME ask ld.so for that name; when no file "
        "of NEW provides it any more (`old_still_provided` false) they fail to load until they "
        "are rebuilt. The finding names the files of NEW that still link the old SONAME (`hit`). "
        "When the sides are packages, `old_package` and `new_package` name the packages of the "
        "two libraries; when the new one comes in a package of another name and NEW ships no "
        "package of the old one's name (`old_package_stays`), the old package is not replaced "
        "and stays installed beside the new one: a transition, whose consumers keep loading "
        "until they are rebuilt. Unless, as dpkg judges it, a package of NEW Conflicts with or "
        "Breaks the old package (or it one of NEW's), or Replaces it and ships its library's "
        "path: then installing NEW removes the old SONAME, and `old_package_removed_by` names "
        "the relation.",
    .example =
        "usr/lib/x86_64-linux-gnu/libamdhip64.so.6\n"
        "  note[soname-changed]: libamdhip64.so.5 became libamdhip64.so.6; no file provides "
        "libamdhip64.so.5 any more\n"
        "    fix: rebuild every package that links the old SONAME, or keep providing it",
    .fields =
        "old_soname:string new_soname:string old_still_provided:bool hit:[path] old_package?:string "
        "new_package?:string old_package_stays:bool old_package_removed_by?:string",
};

// Error when a file of NEW or of the base still links the SONAME (set per finding): it fails
// to load at the update, as ld.so reports "cannot open shared object file". Warning when no
// file that the run sees needs it: programs built elsewhere against it still break, and
// the package manager, seeing no SONAME change, schedules no rebuild.
constinit const Rule kLibraryRemovedRule{
    .id = "library-removed",
    .severity = Severity::kError,
    .title = "a shared library of OLD that no file of NEW provides, without a successor",
    .fix = "keep providing the SONAME (a compatibility package), or rebuild what links it",
    .key_fields = "soname",
    .explanation =
        "A shared library of OLD whose SONAME no file of NEW provides, and that no library of "
        "NEW succeeds under another SONAME (no soname-changed pair accounts for it). Every "
        "program and library linked against it fails to load once the update removes it. "
        "The finding names the installed files that still link the SONAME (`hit`): files of "
        "NEW, and files of the base NEW is installed over; with any of them it is an error, "
        "without, a warning.",
    .example =
        "lib/libgone.so.1\n"
        "  error[library-removed]: libgone.so.1 is no longer provided and has no successor; 1 "
        "installed file(s) still link it\n"
        "    fix: keep providing the SONAME (a compatibility package), or rebuild what links it",
    .fields = "soname:string hit:[path]",
};

// Warning: whether losing a processor breaks anyone depends on which GPUs the package is
// meant to serve (ROCm drops processors on purpose), which the comparison cannot see; the
// users of that GPU lose the library at the update. missing-arch rates the same gap of one
// tree the same way.
constinit const Rule kProcessorsLostRule{
    .id = "processors-lost",
    .severity = Severity::kWarning,
    .title = "GPU processors the old version had device code or data for, the new one lacks",
    .fix =
        "build the new version for the processors the old one served (--offload-arch, "
        "AMDGPU_TARGETS, Tensile's architecture list), or document the dropped support",
    .key_fields = "scope",
    .explanation =
        "A library (matched by SONAME), its Tensile/hipBLASLt data (`scope` data), or another "
        "directory of device code (`scope` directory, matched by its place below the install "
        "prefix) served processors in OLD that it does not serve in NEW: code objects, offload bundles and "
        "compressed bundle (CCOB) entries, and the "
        "processors the data files name. On such a GPU the HIP runtime finds no code object "
        "(\"hipErrorNoBinaryForGpu\") or rocBLAS no kernels, after an update that changed "
        "nothing else. `generic_only` lists the processors that had native code and are now "
        "served only through a generic target (gfx9-generic), which is slower and needs a "
        "newer runtime. The finding names the files of NEW that link the library (`hit`).",
    .example =
        "lib/libkernels.so\n"
        "  warning[processors-lost]: libkernels.so no longer has device code for gfx90a "
        "(it has gfx906)\n"
        "    fix: build the new version for the processors the old one served",
    .fields =
        "scope:string lost:[string] generic_only:[string] old_processors:[string] "
        "new_processors:[string] hit:[path]",
};

// Error: a consumer project whose find_package() or target_link_libraries() names what is
// gone stops configuring (CMake: "The link interface ... contains ... but the target was not
// found", or "Could not find a configuration ... component"). A raised dependency version
// is a warning (set per finding): it breaks only consumers whose dependency is older.
constinit const Rule kCMakeInterfaceRemovedRule{
    .id = "cmake-interface-removed",
    .severity = Severity::kError,
    .title =
        "a CMake package config lost imported targets, components or result variables, or raised a "
        "dependency "
        "version",
    .fix =
        "keep the targets and components (an ALIAS or INTERFACE target for a renamed one), "
        "or announce the break and bump the package's major version",
    .key_fields = "package",
    .explanation =
        "The package config of NEW (matched by package name) no longer defines imported targets, "
        "components or <Name>_* result variables (`removed_variables`: <Name>_INCLUDE_DIRS, "
        "<Name>_LIBRARIES, ...) that the one of OLD did. A consumer project that links such a "
        "target fails at generate time, one that asks for the component fails in "
        "find_package(), one that reads the variable gets an empty value. A "
        "dependency asked for with a higher version than before (`raised_dependencies`) fails "
        "configuring where that dependency is older; alone it makes the finding a warning. "
        "The finding names the package configs of NEW that depend on the package (`hit`).",
    .example =
        "lib/cmake/pkg/pkg-config.cmake\n"
        "  error[cmake-interface-removed]: package pkg no longer defines the imported target "
        "pkg::extra\n"
        "    fix: keep the targets and components, or announce the break",
    // removed_variables may be absent: reports of diff written before it compared result
    // variables lack it, and the schema (version 1) still describes them.
    .fields =
        "package:string removed_targets:[string] removed_components:[string] removed_variables?:[string] "
        "raised_dependencies:[{dependency:string old_version:string new_version:string}] hit:[path]",
};

// Warning, not error: the targets a consumer got from a dependency's config were never the
// package's own interface; a project that links them after find_package(<Pkg>) without
// finding <Dep> itself relies on how <Pkg> is implemented, as a program that calls a library's
// own dependencies through it without linking them does (GNU ld stopped resolving such
// symbols from indirect dependencies by default with --no-copy-dt-needed-entries, binutils
// 2.22, and called the consumer's link line wrong). It still stops those projects configuring
// (generate time: no such target), hence more than a note.
constinit const Rule kCMakeDependencyDroppedRule{
    .id = "cmake-dependency-dropped",
    .severity = Severity::kWarning,
    .title = "a CMake package config no longer loads a dependency whose targets its consumers got",
    .fix =
        "keep loading the dependency (find_dependency) while consumers may rely on it, or "
        "announce that consumers must find_package() it themselves",
    .key_fields = "package dependency",
    .explanation =
        "The package config of OLD loaded a dependency (find_dependency or find_package), which "
        "made that dependency's imported targets, and those of its own dependencies, available "
        "to every project after find_package(<Pkg>). The config of NEW (matched by package name) "
        "no longer asks for it, and no dependency it still loads brings those targets. A "
        "consumer that linked one of them without finding the dependency itself stops at "
        "generate time: the target does not exist. Relying on another package's dependencies "
        "is relying on how it is implemented, so this is a warning. One finding per dependency "
        "dropped, with its targets now gone (`count`; `targets` lists the first 100 by name, in byte "
        "order, `left_out` counts the rest) and the package configs of NEW that depend on the package "
        "(`hit`).",
    .example =
        "usr/lib/x86_64-linux-gnu/cmake/hip/hip-config.cmake\n"
        "  warning[cmake-dependency-dropped]: package hip no longer loads AMDDeviceLibs (it asks for "
        "it and finds it nowhere): 51 imported targets its consumers got are gone (asanrtl, ...)\n"
        "    fix: keep loading the dependency (find_dependency) while consumers may rely on it, or "
        "announce that consumers must find_package() it themselves",
    .cause_fields = "package dependency",
    .cause = "package {package} no longer loads {dependency}, whose targets its consumers got",
    .fields = "package:string dependency:string count:integer targets:[string] left_out:integer hit:[path]",
};

// As severe as the finding NEW has (set per finding): a defect the update brought in is the
// same defect as in an audit. The default, error, is the worst it can be.
constinit const Rule kNewFindingRule{
    .id = "new-finding",
    .severity = Severity::kError,
    .title = "a finding of NEW that OLD did not have",
    .fix = "see the finding's own rule (--explain RULE)",
    .key_fields = "baseline_key occurrence",
    .explanation =
        "An audit finding of NEW whose key (the key --baseline compares: the rule, the file "
        "below its input and the rule's key fields) no finding of OLD has: a defect the update "
        "brought in. Files are matched by what they are, not by their name: a shared library by "
        "its SONAME, a CMake package config by its package, any other file by its place below "
        "the install prefix, so a renamed library's old defect is not new. Its severity is the "
        "finding's own; `rule` names the audit rule, whose --explain says what it means; "
        "`occurrence` counts findings of one key from the second on (a RUNPATH listing a "
        "directory twice).",
    .example =
        "lib/libx.so.1\n"
        "  error[new-finding]: new in NEW: undefined symbol foo (undefined-symbol)\n"
        "    fix: see the finding's own rule (--explain RULE)",
    .fields = "rule:string baseline_key:string occurrence?:integer package?:string",
};

// Note: good news, listed so that the diff accounts for every finding of both sides.
constinit const Rule kFixedFindingRule{
    .id = "fixed-finding",
    .severity = Severity::kNote,
    .title = "a finding of OLD that NEW no longer has",
    .fix = "nothing to do",
    .key_fields = "baseline_key occurrence",
    .explanation =
        "An audit finding of OLD whose key no finding of NEW has, files matched by what they "
        "are as for new-finding: the update fixed it (or removed the file). `rule` names the "
        "audit rule.",
    .example =
        "lib/libx.so.1\n"
        "  note[fixed-finding]: fixed in NEW: undefined symbol foo (undefined-symbol)\n"
        "    fix: nothing to do",
    .fields = "rule:string baseline_key:string occurrence?:integer package?:string",
};

// As severe as the finding that says NEW's file cannot be read (an unparsable library is an
// error the update brought in); a note when it is OLD's (NEW's file is read): either way the
// side's other findings of that file are not news, and are not compared.
constinit const Rule kSideUnreadableRule{
    .id = "side-unreadable",
    .severity = Severity::kNote,
    .title = "a file one side could not read, whose findings are not compared",
    .fix = "see the finding's own rule (--explain RULE); compare again once both sides read the file",
    .key_fields = "side baseline_key",
    .explanation =
        "A file that one side of the diff could not read (malformed-file: it cannot be parsed, or "
        "a table of it could not be read; unreadable-file) and the other side could. The findings "
        "that side would have had of the file are unknown, so the other side's findings of it are "
        "neither new nor fixed: they are counted in `not_compared` instead of being reported as "
        "new-finding or fixed-finding, and a library NEW cannot read is not reported removed or as "
        "exporting less. When NEW is the side that cannot read the file, the finding is as severe "
        "as NEW's own (an unparsable library is an error the update brought in).",
    .example =
        "lib/libx.so.1\n"
        "  error[side-unreadable]: NEW could not read this file: elf file cannot be parsed: section "
        "headers: truncated (malformed-file); 2 findings of it not compared\n"
        "    fix: see the finding's own rule (--explain RULE); compare again once both sides read the file",
    .fields = "side:string rule:string baseline_key:string not_compared:integer",
};

// Error: dpkg-gensymbols fails a library package's build on a symbol its symbols file lists
// and the library no longer exports (check level 1, its default), since every package built
// against the symbol was given a dependency on this library package, which no longer
// provides it. Here for the binary package as shipped, whatever built it.
constinit const Rule kDebianSymbolsMissingRule{
    .id = "debian-symbols-missing",
    .severity = Severity::kError,
    .title = "a .deb's DEBIAN/symbols lists symbols its library does not export",
    .fix = "export the symbols again, or bump the SONAME; dpkg-gensymbols marks lost ones #MISSING",
    .key_fields = "soname package",
    .explanation =
        "A library package's symbols file (deb-symbols(5), written by dpkg-gensymbols into the "
        "control area of the .deb) tells dpkg-shlibdeps which version of the package each "
        "dependent needs, symbol by symbol. A symbol it lists (neither `(optional)`, nor kept as "
        "`#MISSING`, nor a `(regex)` pattern or of another architecture's `(arch=...)`) that the "
        "library of NEW with that SONAME does not export is one dependents were promised: "
        "dpkg-gensymbols fails the build on it. `missing` lists them as the file writes them, "
        "with the version that declared each; `(c++)` entries are matched against the demangled "
        "exports, `(symver)` ones against their version node.",
    .example =
        "usr/lib/x86_64-linux-gnu/libds.so.1\n"
        "  error[debian-symbols-missing]: DEBIAN/symbols of libds1 lists 1 symbol (ds_drop@Base 0.9) "
        "that libds.so.1 does not export\n"
        "    fix: export the symbols again, or bump the SONAME; dpkg-gensymbols marks lost ones #MISSING",
    .cause_fields = "package",
    .cause = "DEBIAN/symbols of {package} lists symbols its library does not export",
    .fields = "soname:string package:string count:integer missing:[string]",
};

// Warning: a dependent built against a symbol the file does not list is given a dependency on
// an older version of the package than the one that brought the symbol, and may be installed
// with a library that lacks it. dpkg-gensymbols adds new symbols itself (and fails on them
// from check level 2): a shipped file without them was not regenerated.
constinit const Rule kDebianSymbolsUnlistedRule{
    .id = "debian-symbols-unlisted",
    .severity = Severity::kWarning,
    .title = "a library exports symbols its .deb's DEBIAN/symbols does not list",
    .fix = "regenerate the symbols file (dpkg-gensymbols) so that each export has its version",
    .key_fields = "soname package",
    .explanation =
        "The library of NEW exports dynamic symbols that its package's symbols file "
        "(deb-symbols(5)) does not list, by name, `(c++)` demangled name or `(symver)` version "
        "node; symbols dpkg never lists (`_init`, `_fini`, `__bss_start`, `_edata`, `_end`, "
        "... its blacklist) are left out, and a file with a `(regex)` pattern is not judged. "
        "dpkg-shlibdeps gives a program built against such a symbol the library package's "
        "minimal version instead of the one that brought the symbol, so it may be installed "
        "with an older library that lacks it.",
    .example =
        "usr/lib/x86_64-linux-gnu/libds.so.1\n"
        "  warning[debian-symbols-unlisted]: libds.so.1 exports 1 symbol (ds_new@Base) that "
        "DEBIAN/symbols of libds1 does not list\n"
        "    fix: regenerate the symbols file (dpkg-gensymbols) so that each export has its version",
    .cause_fields = "package",
    .cause = "{package}'s DEBIAN/symbols misses symbols its library exports",
    .fields = "soname:string package:string count:integer unlisted:[string]",
};

// Error: Debian Policy 8.1 (run-time shared libraries) puts a run-time library in a package
// whose name changes whenever its SONAME changes, so that the old and new libraries are
// co-installable and dependents move one by one. A package keeping its name replaces the
// old library at the upgrade: every program still linked against the old SONAME breaks.
constinit const Rule kSonameBumpWithoutRenameRule{
    .id = "soname-bump-without-rename",
    .severity = Severity::kError,
    .title = "a library package kept its name across a SONAME bump",
    .fix = "ship the new SONAME in a package named after it (Debian Policy 8.1) and start a transition",
    .key_fields = "package new_soname",
    .explanation =
        "A package of NEW names a SONAME (in its DEBIAN/symbols, else its DEBIAN/shlibs) that succeeds "
        "one the package of the same name provided in OLD (the same name before `.so`), and no "
        "longer provides the old one. Debian Policy 8.1 names a library package after its "
        "SONAME (`libfoo.so.1` in `libfoo1`, `libfoo2.so.3` in `libfoo2-3`), so that the old "
        "and the new library can be installed together while their users are rebuilt; a "
        "package that keeps its name replaces the old library at the upgrade, and every "
        "program still linked against it fails to load. `expected_package` is the name "
        "Policy gives the new library's package.",
    .example =
        "usr/lib/x86_64-linux-gnu/libds.so.2\n"
        "  error[soname-bump-without-rename]: libds.so.1 became libds.so.2 in package libds1, "
        "which keeps its name: the new library's package is libds2 (Debian Policy 8.1), so that "
        "both can be installed while their users move\n"
        "    fix: ship the new SONAME in a package named after it (Debian Policy 8.1) and start a "
        "transition",
    .cause_fields = "package",
    .cause = "{package} kept its name across a SONAME bump",
    .fields = "package:string old_soname:string new_soname:string expected_package:string",
};

namespace {
const Rule* const kComparisonRules[] = {
    &kSymbolsRemovedRule,       &kSonameChangedRule,         &kLibraryRemovedRule,
    &kProcessorsLostRule,       &kCMakeInterfaceRemovedRule, &kCMakeDependencyDroppedRule,
    &kNewFindingRule,           &kFixedFindingRule,          &kSideUnreadableRule,
    &kDebianSymbolsMissingRule, &kDebianSymbolsUnlistedRule, &kSonameBumpWithoutRenameRule,
};
}  // namespace

std::span<const Rule* const> ComparisonRules() { return kComparisonRules; }

}  // namespace rocm_audit
