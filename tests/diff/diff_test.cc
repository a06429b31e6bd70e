// `diff OLD NEW` on pairs of trees the real toolchain builds (fixtures/make_diff_pairs.sh):
// every kind of break is found with the files of NEW it hits, a pair that only adds gives
// no warning or error, and two JSON reports compare as the trees do.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "audit/model/field_spec.h"
#include "diff/demangled_names.h"
#include "diff/diff.h"
#include "diff/package_verdict.h"
#include "diff/shared_libraries.h"
#include "engine/known_rules.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using Json = nlohmann::ordered_json;

const std::string kPairs = ROCM_AUDIT_DIFF_PAIRS;
const std::string kBin = ROCM_AUDIT_BINARY;

Report DiffTrees(const std::string& pair, const std::string& from = "old", const std::string& to = "new",
                 const std::vector<std::string>& roots = {}) {
  AuditRequest request;
  request.ld_so_conf = "/nonexistent";
  request.roots = roots;
  Report report;
  std::string error;
  EXPECT_TRUE(
      Diff(request, {kPairs + "/" + pair + "/" + from}, {kPairs + "/" + pair + "/" + to}, &report, &error))
      << error;
  return report;
}

std::vector<const Finding*> Of(const Report& r, std::string_view check, std::string_view file) {
  std::vector<const Finding*> out;
  for (const Finding& f : r.findings)
    if (f.check == check && f.file == file) out.push_back(&f);
  return out;
}

TEST(Diff, SymbolDroppedWithoutSonameBumpIsAnErrorNamingWhoBindsIt) {
  const Report r = DiffTrees("diff");
  const auto found = Of(r, "symbols-removed", "lib/libdrop.so.1");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.fields["soname"], "libdrop.so.1");
  EXPECT_EQ(f.fields["count"], 1);
  EXPECT_EQ(f.fields["removed"], Json::array({"drop_me"}));
  // consumer binds drop_me; bystander links the library and binds keep() only.
  EXPECT_EQ(f.fields["hit"], Json::parse(R"([{"file": "bin/consumer", "symbols": ["drop_me"]}])"));
}

TEST(Diff, VersionNodeRemovedCountsWithItsSymbols) {
  const Report r = DiffTrees("diff");
  const auto found = Of(r, "symbols-removed", "lib/libver.so.1");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  // The node's mark (the absolute symbol VER_2@@VER_2 ld defines for it) is no symbol.
  EXPECT_EQ(f.fields["removed"], Json::array({"bar@@VER_2"}));
  EXPECT_EQ(f.fields["count"], 1);
  EXPECT_EQ(f.fields["versions_removed"], Json::array({"VER_2"}));
  EXPECT_EQ(f.fields["hit"], Json::parse(R"([{"file": "bin/consumer", "symbols": ["bar@VER_2"]}])"));
}

TEST(Diff, SonameChangeIsANoteNamingWhoStillLinksTheOldOne) {
  const Report r = DiffTrees("diff");
  const auto found = Of(r, "soname-changed", "lib/libren.so.2");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->severity, Severity::kNote);
  EXPECT_EQ(found[0]->fields["old_soname"], "libren.so.1");
  EXPECT_EQ(found[0]->fields["old_still_provided"], false);
  EXPECT_EQ(found[0]->fields["hit"], Json::array({"bin/renuser"}));
}

TEST(Diff, ProcessorDroppedFromAFatBinaryIsLost) {
  const Report r = DiffTrees("diff");
  const auto found = Of(r, "processors-lost", "lib/libkern.so.1");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->severity, Severity::kWarning);
  EXPECT_EQ(found[0]->fields["scope"], "library");
  EXPECT_EQ(found[0]->fields["lost"], Json::array({"gfx90a"}));
  EXPECT_EQ(found[0]->fields["old_processors"], Json::array({"gfx906", "gfx90a"}));
  EXPECT_EQ(found[0]->fields["new_processors"], Json::array({"gfx906"}));
}

// The base NEW is installed over (--root diff/base) is scanned, not audited: its programs
// and libraries that link a changed library are hit, by their absolute installed path.
TEST(Diff, FilesOfTheBaseThatBindARemovedSymbolOrLinkAGoneSonameAreHit) {
  const Report r = DiffTrees("diff", "old", "new", {kPairs + "/diff/base"});
  const auto dropped = Of(r, "symbols-removed", "lib/libdrop.so.1");
  ASSERT_EQ(dropped.size(), 1u);
  // basebystander links libdrop.so.1 and binds keep() only.
  EXPECT_EQ(dropped[0]->fields["hit"], Json::parse(R"([{"file": "bin/consumer", "symbols": ["drop_me"]},
                                                       {"file": "/usr/bin/baseconsumer", "symbols": ["drop_me"]}])"));
  const auto renamed = Of(r, "soname-changed", "lib/libren.so.2");
  ASSERT_EQ(renamed.size(), 1u);
  EXPECT_EQ(renamed[0]->fields["hit"], Json::array({"bin/renuser", "/usr/lib/libbaseren.so.1"}));
  const auto gone = Of(r, "library-removed", "lib/libgone.so.1");
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_EQ(gone[0]->severity, Severity::kError);
  EXPECT_EQ(gone[0]->fields["hit"], Json::array({"/usr/bin/baseconsumer"}));
}

// Of base layers given top first, a path shows the top layer's file: a program the upper
// layer replaces with a script links nothing, and the lower layer's other files still do.
TEST(Diff, AnUpperBaseLayersFileHidesTheLowerLayersCopy) {
  TempDir top;
  ASSERT_EQ(RunCommand("mkdir -p " + top / "usr/bin" + " && printf '#!/bin/sh\\n' > " +
                       top / "usr/bin/baseconsumer"),
            0);
  const Report r = DiffTrees("diff", "old", "new", {top.path(), kPairs + "/diff/base"});
  const auto dropped = Of(r, "symbols-removed", "lib/libdrop.so.1");
  ASSERT_EQ(dropped.size(), 1u);
  EXPECT_EQ(dropped[0]->fields["hit"], Json::parse(R"([{"file": "bin/consumer", "symbols": ["drop_me"]}])"));
  const auto renamed = Of(r, "soname-changed", "lib/libren.so.2");
  ASSERT_EQ(renamed.size(), 1u);
  EXPECT_EQ(renamed[0]->fields["hit"], Json::array({"bin/renuser", "/usr/lib/libbaseren.so.1"}));
  const auto gone = Of(r, "library-removed", "lib/libgone.so.1");
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_THAT(gone[0]->fields["hit"], IsEmpty());
}

// The sides are trees of a usr/ (bin/, lib/); the base holds their installed copies below
// /usr: those are what the update replaces, not consumers. Its own program and another
// install's copy of consumer (/opt/other) are hit.
TEST(Diff, TheBaseCopiesOfTheSidesFilesBelowTheirPrefixAreNoConsumers) {
  const Report r = DiffTrees("diff", "old", "new", {kPairs + "/diff/installed"});
  const auto dropped = Of(r, "symbols-removed", "lib/libdrop.so.1");
  ASSERT_EQ(dropped.size(), 1u);
  std::vector<std::string> files;
  for (const Json& hit : dropped[0]->fields["hit"]) files.push_back(hit["file"].get<std::string>());
  EXPECT_THAT(files, ElementsAre("bin/consumer", "/opt/other/bin/consumer", "/usr/bin/baseconsumer"));
  const auto renamed = Of(r, "soname-changed", "lib/libren.so.2");
  ASSERT_EQ(renamed.size(), 1u);
  EXPECT_EQ(renamed[0]->fields["hit"], Json::array({"bin/renuser"}));
  // Given at their root (usr/ of a tree, /usr of the base): the same.
  TempDir t;
  for (const std::string side : {"old", "new"}) {
    ASSERT_EQ(RunCommand("mkdir -p " + t / side + " && cp -a " + kPairs + "/diff/" + side + " " + t / side +
                         "/usr"),
              0);
  }
  AuditRequest request;
  request.ld_so_conf = "/nonexistent";
  request.roots = {kPairs + "/diff/installed"};
  Report at_root;
  std::string error;
  ASSERT_TRUE(Diff(request, {t / "old"}, {t / "new"}, &at_root, &error)) << error;
  const auto dropped_at_root = Of(at_root, "symbols-removed", "usr/lib/libdrop.so.1");
  ASSERT_EQ(dropped_at_root.size(), 1u);
  files.clear();
  for (const Json& hit : dropped_at_root[0]->fields["hit"]) files.push_back(hit["file"].get<std::string>());
  EXPECT_THAT(files, ElementsAre("usr/bin/consumer", "/opt/other/bin/consumer", "/usr/bin/baseconsumer"));
}

TEST(Diff, LibraryRemovedWithoutSuccessorIsAWarningWhenNothingLinksIt) {
  const Report r = DiffTrees("diff");
  const auto gone = Of(r, "library-removed", "lib/libgone.so.1");
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_EQ(gone[0]->severity, Severity::kWarning);
  EXPECT_EQ(gone[0]->fields["soname"], "libgone.so.1");
  EXPECT_THAT(gone[0]->fields["hit"], IsEmpty());
  // A renamed library has a successor: soname-changed, not library-removed.
  EXPECT_TRUE(Of(r, "library-removed", "lib/libren.so.1").empty());
}

// kernuser links libwrap, which links libkern: it loses gfx90a with libkern.
TEST(Diff, ProgramsReachingALibraryThroughTheirClosureAreHitForItsLostProcessors) {
  const Report r = DiffTrees("diff");
  const auto found = Of(r, "processors-lost", "lib/libkern.so.1");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_THAT(found[0]->fields["hit"].get<std::vector<std::string>>(),
              ::testing::UnorderedElementsAre("lib/libwrap.so.1", "bin/kernuser"));
}

TEST(Diff, CMakeTargetAndComponentRemovedNamingTheConfigsThatDependOnIt) {
  const Report r = DiffTrees("diff");
  const auto found = Of(r, "cmake-interface-removed", "lib/cmake/Pkg/PkgConfig.cmake");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->severity, Severity::kError);
  EXPECT_EQ(found[0]->fields["removed_targets"], Json::array({"Pkg::extra"}));
  EXPECT_EQ(found[0]->fields["removed_components"], Json::array({"extra"}));
  // Pkg_SUPPORTED_COMPONENTS stays; find_package's own Pkg_FIND_* inputs are no result.
  EXPECT_EQ(found[0]->fields["removed_variables"], Json::array({"Pkg_LIBRARIES"}));
  EXPECT_EQ(found[0]->fields["hit"], Json::array({"lib/cmake/User/UserConfig.cmake"}));
}

// generic/: native gfx906 and gfx90a code replaced by gfx9-generic's, which covers gfx906
// (LLVM's AMDGPUUsage) and not gfx90a.
TEST(Diff, AProcessorServedOnlyThroughAGenericTargetIsGenericOnly) {
  const Report r = DiffTrees("generic");
  const auto found = Of(r, "processors-lost", "lib/libkern.so.1");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->fields["lost"], Json::array({"gfx90a"}));
  EXPECT_EQ(found[0]->fields["generic_only"], Json::array({"gfx906"}));
  EXPECT_EQ(found[0]->fields["new_processors"], Json::array({"gfx9-generic"}));
  for (const Finding& f : r.findings) EXPECT_EQ(f.check, "processors-lost") << f.message;
}

// raise/: Up asks for Dep 2.0 where it asked for 1.0; nothing removed: a warning. Backwards
// the version is lowered: no finding.
// Issue 50: the other way round, gfx9-generic's code replaced by native gfx906 and gfx90a:
// what is lost is named by the processors the generic target served (LLVM's AMDGPU table),
// gfx906 kept natively.
TEST(Diff, AGenericTargetDroppedLosesTheProcessorsItServed) {
  const Report r = DiffTrees("generic", "new", "old");
  const auto found = Of(r, "processors-lost", "lib/libkern.so.1");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->fields["lost"], Json::array({"gfx900", "gfx902", "gfx904", "gfx909", "gfx90c"}));
  EXPECT_EQ(found[0]->fields["generic_only"], Json::array());
}

TEST(Diff, ADependencyVersionRaisedAloneIsAWarning) {
  const Report r = DiffTrees("raise");
  const auto found = Of(r, "cmake-interface-removed", "lib/cmake/Up/UpConfig.cmake");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->severity, Severity::kWarning);
  EXPECT_EQ(found[0]->fields["raised_dependencies"],
            Json::parse(R"([{"dependency": "Dep", "old_version": "1.0", "new_version": "2.0"}])"));
  EXPECT_THAT(found[0]->fields["removed_targets"], IsEmpty());
  EXPECT_EQ(r.findings.size(), 1u);
  for (const Finding& f : DiffTrees("raise", "new", "old").findings)
    ADD_FAILURE() << f.check << ": " << f.message;
}

// OLD's Pkg loaded Dep (find_dependency), NEW's does not: a consumer of Pkg no longer gets
// Dep::a and Dep::b. One finding for the dependency, on Pkg; Dep itself is unchanged.
TEST(Diff, ADependencyNoLongerLoadedIsReportedWithTheTargetsItBrought) {
  const Report r = DiffTrees("diff");
  const auto found = Of(r, "cmake-dependency-dropped", "lib/cmake/Pkg/PkgConfig.cmake");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->severity, Severity::kWarning);
  EXPECT_EQ(found[0]->fields["package"], "Pkg");
  EXPECT_EQ(found[0]->fields["dependency"], "Dep");
  EXPECT_EQ(found[0]->fields["count"], 2);
  EXPECT_EQ(found[0]->fields["targets"], Json::array({"Dep::a", "Dep::b"}));
  EXPECT_EQ(found[0]->fields["left_out"], 0);
  EXPECT_EQ(found[0]->fields["hit"], Json::array({"lib/cmake/User/UserConfig.cmake"}));
  EXPECT_TRUE(Of(r, "cmake-dependency-dropped", "lib/cmake/Dep/DepConfig.cmake").empty());
  EXPECT_TRUE(Of(r, "cmake-interface-removed", "lib/cmake/Dep/DepConfig.cmake").empty());
  // Backwards, NEW's Pkg loads Dep again: nothing dropped.
  const Report back = DiffTrees("diff", "new", "old");
  for (const Finding& f : back.findings) EXPECT_NE(f.check, "cmake-dependency-dropped") << f.message;
}

// The loader finds libver through $ORIGIN/../lib as new/bin/../lib/libver.so.1; the message
// names it as installed, lib/libver.so.1, as the audit's report does.
TEST(Diff, MessagesOfATreeSideNameFilesByTheirInstalledPath) {
  const Report r = DiffTrees("diff");
  bool named = false;
  for (const Finding* f : Of(r, "new-finding", "bin/consumer")) {
    EXPECT_THAT(f->message, ::testing::Not(::testing::HasSubstr("..")));
    EXPECT_THAT(f->message, ::testing::Not(::testing::HasSubstr(kPairs)));
    named |= f->message.find("libver.so.1 (lib/libver.so.1)") != std::string::npos;
  }
  EXPECT_TRUE(named);
}

TEST(Diff, NewFindingsOfNewAreKeyedAsTheBaselineKeysThem) {
  const Report r = DiffTrees("diff");
  const auto found = Of(r, "new-finding", "bin/consumer");
  ASSERT_FALSE(found.empty());
  bool drop_me = false;
  for (const Finding* f : found) {
    EXPECT_EQ(f->fields["rule"].get<std::string>(), f->fields["baseline_key"].get<std::string>().substr(
                                                        0, f->fields["rule"].get<std::string>().size()));
    drop_me |= f->fields["baseline_key"].get<std::string>().find("symbol=drop_me") != std::string::npos;
  }
  EXPECT_TRUE(drop_me);
}

// Every finding carries its rule's declared fields, in order and of their types, and every
// comparison rule is reached by the seeded pair.
TEST(Diff, EveryFindingHasItsDeclaredFieldsInOrder) {
  const Report r = DiffTrees("diff");
  std::set<std::string> seen;
  for (const Finding& f : r.findings) {
    seen.insert(f.check);
    const Rule* rule = nullptr;
    for (const Rule& known : r.rules)
      if (known.id == f.check) rule = &known;
    ASSERT_NE(rule, nullptr) << f.check;
    std::vector<std::string> names, declared;
    for (const auto& [name, value] : f.fields.items()) names.push_back(name);
    for (const FieldSpec& spec : FieldSpecs(rule->fields)) {
      if (!f.fields.contains(spec.name)) continue;
      declared.push_back(spec.name);
      std::string why;
      EXPECT_TRUE(Conforms(f.fields[spec.name], spec.type, &why)) << f.check << "." << spec.name << why;
    }
    EXPECT_EQ(names, declared) << f.check;
  }
  EXPECT_THAT(seen, ::testing::IsSupersetOf({"symbols-removed", "soname-changed", "library-removed",
                                             "processors-lost", "cmake-interface-removed",
                                             "cmake-dependency-dropped", "new-finding"}));
}

// Issue 50: a version node that held no symbol binds no reference; its removal is a note.
TEST(Diff, AnEmptyVersionNodeRemovedIsANote) {
  const Report r = DiffTrees("nodes");
  const auto found = Of(r, "symbols-removed", "lib/libempty.so.1");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->severity, Severity::kNote);
  EXPECT_EQ(found[0]->fields["count"], 0);
  EXPECT_EQ(found[0]->fields["removed"], Json::array());
  EXPECT_EQ(found[0]->fields["versions_removed"], Json::array({"E_2"}));
}

// Issue 50: kept is what ld.so binds. vuser references u@U_1; NEW's libunverv defines u
// unversioned and has a version table (its own imports are versioned): check_match binds it,
// dl-version.c only warns of the missing node (a note, no symbol removed).
TEST(Diff, AVersionedReferenceToALibraryWithoutVersionDefinitionsIsKept) {
  const Report r = DiffTrees("nodes");
  const auto found = Of(r, "symbols-removed", "lib/libunverv.so.1");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->severity, Severity::kNote) << found[0]->message;
  EXPECT_EQ(found[0]->fields["removed"], Json::array());
  EXPECT_EQ(found[0]->fields["versions_removed"], Json::array({"U_1"}));
  EXPECT_EQ(found[0]->fields["hit"], Json::array());
}

// ... while NEW's libunver has no version table at all: check_match asserts on uuser's u@U_1
// (the version of the very library it looks in), and ld.so stops.
TEST(Diff, AVersionedReferenceToALibraryWithoutAVersionTableIsRemoved) {
  const Report r = DiffTrees("nodes");
  const auto found = Of(r, "symbols-removed", "lib/libunver.so.1");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->severity, Severity::kError);
  EXPECT_EQ(found[0]->fields["removed"], Json::array({"u@@U_1"}));
  EXPECT_EQ(found[0]->fields["hit"], Json::parse(R"([{"file": "bin/uuser", "symbols": ["u@U_1"]}])"));
}

// Issue 50: a library is matched by its SONAME, not its file name: libr.so.1.5.0 and
// libr.so.1.15.0 share one defect, neither new nor fixed.
TEST(Diff, ARenamedLibrarysDefectIsNeitherNewNorFixed) {
  const Report r = DiffTrees("renamed");
  EXPECT_TRUE(Of(r, "new-finding", "lib/libr.so.1.15.0").empty());
  EXPECT_TRUE(Of(r, "fixed-finding", "lib/libr.so.1.5.0").empty());
}

// Issue 50: a RUNPATH listing a missing directory twice gives NEW two findings of one key:
// two new findings, each with a key of its own.
TEST(Diff, AFindingGivenTwiceIsTwoNewFindingsWithTwoKeys) {
  const Report r = DiffTrees("renamed");
  const auto found = Of(r, "new-finding", "lib/libdup.so.1");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0]->fields["baseline_key"], found[1]->fields["baseline_key"]);
  EXPECT_NE(found[0]->key, found[1]->key);
  std::set<std::string> keys;
  for (const Finding& f : r.findings) EXPECT_TRUE(keys.insert(f.key).second) << f.key;
}

// Backwards, NEW's defects are OLD's: fixed, notes only, each keyed as before.
TEST(Diff, FindingsOldHadAndNewHasNotAreFixed) {
  const Report r = DiffTrees("diff", "new", "old");
  const auto fixed = Of(r, "fixed-finding", "bin/consumer");
  ASSERT_EQ(fixed.size(), 2u);
  EXPECT_EQ(fixed[0]->severity, Severity::kNote);
  EXPECT_THAT(fixed[0]->fields["rule"].get<std::string>(),
              ::testing::AnyOf("undefined-symbol", "missing-version"));
  EXPECT_TRUE(Of(r, "new-finding", "bin/consumer").empty());
}

// Issue 47: a file one side could not read hides what that side would have found in it.
// NEW's libu.so.1 is cut short: OLD's finding of it (its DT_NEEDED found nowhere) is not
// fixed, and the report says NEW could not read the file instead. The other way round, the
// finding NEW has of it is not new.
TEST(Diff, AFileOneSideCouldNotReadIsNoFixedOrNewFinding) {
  for (const bool reversed : {false, true}) {
    const Report r = reversed ? DiffTrees("unread", "new", "old") : DiffTrees("unread");
    // Nor is the library NEW could not read removed: nobody knows.
    for (const Finding& f : r.findings) EXPECT_EQ(f.check, "side-unreadable") << f.message;
    const auto unread = Of(r, "side-unreadable", "lib/libu.so.1");
    ASSERT_EQ(unread.size(), 1u) << reversed;
    const Finding& f = *unread[0];
    EXPECT_EQ(f.fields["side"], reversed ? "old" : "new");
    EXPECT_EQ(f.fields["rule"], "malformed-file");
    EXPECT_EQ(f.fields["not_compared"], 1);
    EXPECT_EQ(f.severity, reversed ? Severity::kNote : Severity::kError);  // NEW's unparsable library
    EXPECT_EQ(
        f.message.rfind(reversed ? "OLD could not read this file: " : "NEW could not read this file: ", 0),
        0u)
        << f.message;
  }
}

TEST(Diff, OnlyAdditionsGiveNoWarningOrError) {
  const Report r = DiffTrees("harmless");
  EXPECT_FALSE(r.HasFindingsAtOrAbove(Severity::kWarning));
  for (const Finding& f : r.findings) ADD_FAILURE() << f.check << " " << f.file << ": " << f.message;
  EXPECT_EQ(RunCommand(kBin + " diff --no-progress " + kPairs + "/harmless/old " + kPairs + "/harmless/new"),
            0);
}

TEST(Diff, ExitStatusFollowsFailOn) {
  const std::string diff =
      kBin + " diff --no-progress --ld-so-conf /nonexistent " + kPairs + "/diff/old " + kPairs + "/diff/new";
  EXPECT_EQ(RunCommand(diff + " >/dev/null"), 1);
  EXPECT_EQ(RunCommand(diff + " --fail-on none >/dev/null"), 0);
  EXPECT_EQ(RunCommand(diff + " --disable 'symbols-removed,cmake-*,new-finding' >/dev/null"), 0);
  EXPECT_EQ(RunCommand(kBin + " diff " + kPairs + "/diff/old >/dev/null 2>&1"), 2);
}

// A side may be a set of packages installed together (diff --from OLD... --to NEW...):
// fixtures/make_diff_pairs.sh's sets/, two .debs a side, audited over no base.
Report DiffSets(const std::string& from, const std::string& to) {
  const std::string sets = kPairs + "/sets/";
  AuditRequest request;
  request.ld_so_conf = "/nonexistent";
  request.no_base = true;
  Report report;
  std::string error;
  EXPECT_TRUE(
      Diff(request, {sets + from + "/libpa1_1.0-1_amd64.deb", sets + from + "/pa-tools_1.0-1_amd64.deb"},
           {sets + to + "/libpa1_2.0-1_amd64.deb", sets + to + "/pa-tools_2.0-1_amd64.deb"}, &report, &error))
      << error;
  return report;
}

// libpb.so.1 moved from libpa1 to pa-tools: both sides hold it, whichever package does.
TEST(Diff, ALibraryMovedBetweenPackagesOfASetIsNotRemoved) {
  const Report r = DiffSets("old", "moved");
  for (const Finding& f : r.findings) ADD_FAILURE() << f.check << " " << f.file << ": " << f.message;
  EXPECT_EQ(r.FilesAudited(), 3u);
}

TEST(Diff, ASymbolDroppedByAPackageOfASetHitsTheProgramOfAnotherPackage) {
  const Report r = DiffSets("old", "dropped");
  const auto found = Of(r, "symbols-removed", "usr/lib/x86_64-linux-gnu/libpa.so.1");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->fields["removed"], Json::array({"pa_drop"}));
  EXPECT_EQ(found[0]->fields["hit"], Json::parse(R"([{"file": "usr/bin/patool", "symbols": ["pa_drop"]}])"));
  EXPECT_TRUE(Of(r, "library-removed", "usr/lib/x86_64-linux-gnu/libpb.so.1").empty());
}

const PackageVerdict* VerdictOf(const Report& r, const std::string& package) {
  for (const PackageVerdict& v : r.verdicts)
    if (v.package == package) return &v;
  return nullptr;
}

// Issue 50: the verdict per package of NEW, first: libpa1 drops pa_drop under libpa.so.1
// (a SONAME bump, and the package named after it), pa-tools changes nothing.
TEST(Diff, AVerdictPerPackageSaysWhichNeedsASonameBump) {
  const Report r = DiffSets("old", "dropped");
  const PackageVerdict* pa = VerdictOf(r, "libpa1");
  ASSERT_NE(pa, nullptr);
  EXPECT_EQ(pa->old_version, "1.0-1");
  EXPECT_EQ(pa->new_version, "2.0-1");
  ASSERT_EQ(pa->needs.size(), 1u);
  EXPECT_THAT(pa->needs[0], ::testing::StartsWith("needs a SONAME bump: libpa.so.1 -> libpa.so.2, package "
                                                  "libpa1 -> libpa2 (1 symbol(s) removed; 1 file(s) still "
                                                  "use it: usr/bin/patool (pa-tools))"));
  const PackageVerdict* tools = VerdictOf(r, "pa-tools");
  ASSERT_NE(tools, nullptr);
  EXPECT_THAT(tools->needs, IsEmpty());
}

TEST(Diff, NamesOfTheSonameFamily) {
  EXPECT_EQ(NextSoname("librocrand.so.1"), "librocrand.so.2");
  EXPECT_EQ(NextSoname("libz3.so.4.12"), "libz3.so.5");
  EXPECT_EQ(NextSoname("libelf-0.188.so"), "");
  EXPECT_EQ(NextPackageName("librocrand1", "librocrand.so.1", "librocrand.so.2"), "librocrand2");
  EXPECT_EQ(NextPackageName("libamdhip64-5", "libamdhip64.so.5", "libamdhip64.so.6"), "libamdhip64-6");
  EXPECT_EQ(NextPackageName("libx11", "libx.so.1", "libx.so.2"), "");  // a digit of the name
  EXPECT_EQ(NextPackageName("rocrand", "librocrand.so.1", "librocrand.so.2"), "");
}

// Issue 50: removed symbols demangled by LLVM and grouped by their namespace or class.
TEST(Diff, RemovedSymbolsAreDemangledByScope) {
  const std::vector<ScopeGroup> g = GroupByScope(
      {"_ZN7rocrand6detail4seedEi@@ROCRAND_1", "c_function", "_ZN7rocrand4makeEv", "_ZTVN7rocrand3genE"});
  ASSERT_EQ(g.size(), 4u);
  EXPECT_EQ(g[0].scope, "");
  EXPECT_THAT(g[0].names, ::testing::ElementsAre("c_function"));
  EXPECT_EQ(g[1].scope, "rocrand");
  EXPECT_THAT(g[1].names, ::testing::ElementsAre("rocrand::make()"));
  EXPECT_EQ(g[2].scope, "rocrand::detail");
  EXPECT_THAT(g[2].names, ::testing::ElementsAre("rocrand::detail::seed(int)@@ROCRAND_1"));
  EXPECT_EQ(g[3].scope, "rocrand::gen");
  EXPECT_THAT(g[3].names, ::testing::ElementsAre("vtable for rocrand::gen"));
}

// Issue 50: sides audited over other bases disagree on findings the update did not cause;
// the report says so first. OLD's report was written over --root diff/base, NEW is audited
// over the host.
TEST(Diff, SidesAuditedOverOtherBasesAreWarnedAboutFirst) {
  TempDir t;
  std::string report;
  ASSERT_EQ(
      RunCommand(
          kBin + " --no-progress --ld-so-conf /nonexistent --fail-on none --format json --symbols --root " +
              kPairs + "/diff/base " + kPairs + "/diff/old",
          &report),
      0);
  WriteAll(t / "old.json", report);
  std::string text;
  RunCommand(kBin + " diff --no-progress --ld-so-conf /nonexistent --fail-on none " + t / "old.json" + " " +
                 kPairs + "/diff/new",
             &text);
  EXPECT_THAT(text.substr(0, text.find('\n')),
              ::testing::StartsWith("warning: OLD and NEW were audited differently (base: OLD "));
  std::string json;
  RunCommand(kBin + " diff --no-progress --ld-so-conf /nonexistent --fail-on none --format json " +
                 t / "old.json" + " " + kPairs + "/diff/new",
             &json);
  const Json differ = Json::parse(json)["inputs"]["sides_differ"];
  ASSERT_EQ(differ.size(), 1u);
  EXPECT_THAT(differ[0].get<std::string>(), ::testing::EndsWith(", NEW /"));
  // Sides audited alike: no warning.
  std::string alike;
  RunCommand(kBin + " diff --no-progress --ld-so-conf /nonexistent --fail-on none --format json " + kPairs +
                 "/diff/old " + kPairs + "/diff/new",
             &alike);
  EXPECT_THAT(Json::parse(alike)["inputs"]["sides_differ"], IsEmpty());
}

// trans/: t-tools links libt.so.1; NEW's libt.so.2 comes in libt2 (libt1 stays installed
// beside it: a transition) or in libt1 itself (which installing removes libt.so.1 from).
Report DiffTransition(const std::string& to, const std::string& package) {
  const std::string trans = kPairs + "/trans/";
  AuditRequest request;
  request.ld_so_conf = "/nonexistent";
  request.no_base = true;
  Report report;
  std::string error;
  EXPECT_TRUE(Diff(request, {trans + "old/libt1_1.0-1_amd64.deb", trans + "old/t-tools_1.0-1_amd64.deb"},
                   {trans + to + "/" + package, trans + to + "/t-tools_1.0-1_amd64.deb"}, &report, &error))
      << error;
  return report;
}

const Finding* SonameChangeOf(const Report& r) {
  for (const Finding& f : r.findings)
    if (f.check == "soname-changed") return &f;
  return nullptr;
}

// Issue 50: libamdhip64-5 -> libamdhip64-6 is a transition, not a removal.
TEST(Diff, ASonameInARenamedPackageIsATransitionTheOldPackageStaysFor) {
  const Report r = DiffTransition("renamed", "libt2_2.0-1_amd64.deb");
  const Finding* f = SonameChangeOf(r);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->fields["old_package"], "libt1");
  EXPECT_EQ(f->fields["new_package"], "libt2");
  EXPECT_EQ(f->fields["old_package_stays"], true);
  const PackageVerdict* v = VerdictOf(r, "libt2");
  ASSERT_NE(v, nullptr);
  ASSERT_EQ(v->needs.size(), 1u);
  EXPECT_EQ(v->needs[0],
            "needs a transition: libt.so.1 -> libt.so.2 (libt1 stays installable); 1 file(s) "
            "still use it: usr/bin/ttool (t-tools)");
}

TEST(Diff, ASonameChangedInAPackageOfTheSameNameIsNoLongerProvided) {
  const Report r = DiffTransition("kept", "libt1_2.0-1_amd64.deb");
  const Finding* f = SonameChangeOf(r);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->fields["old_package_stays"], false);
  const PackageVerdict* v = VerdictOf(r, "libt1");
  ASSERT_NE(v, nullptr);
  ASSERT_EQ(v->needs.size(), 1u);
  EXPECT_THAT(v->needs[0],
              ::testing::StartsWith("needs a package rename: libt.so.1 -> libt.so.2, package libt1 "
                                    "-> libt2 (installing libt1 removes libt.so.1)"));
}

// Issue 50: each verdict names the source package its binary is built from (control Source:,
// its own name when the control file names none) and the version Source: names.
TEST(Diff, AVerdictNamesTheSourcePackageOfItsBinary) {
  const Report renamed = DiffTransition("renamed", "libt2_2.0-1_amd64.deb");
  const PackageVerdict* v = VerdictOf(renamed, "libt2");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->source, "tlib");
  EXPECT_EQ(v->source_version, "");
  const PackageVerdict* tools = VerdictOf(renamed, "t-tools");
  ASSERT_NE(tools, nullptr);
  EXPECT_EQ(tools->source, "t-tools");  // no Source: field, its own source
  const Report binnmu = DiffTransition("replaces", "libt2_2.0-1+b1_amd64.deb");
  v = VerdictOf(binnmu, "libt2");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->source, "tlib");
  EXPECT_EQ(v->source_version, "2.0-1");
  EXPECT_EQ(v->new_version, "2.0-1+b1");
}

// Issue 50: whether OLD's libt1 stays installed beside NEW's libt2 as dpkg decides it, from the
// relations of the .debs dpkg-deb built: a Conflicts or Breaks its version satisfies removes it
// (installing NEW removes libt.so.1), one it does not satisfy and Replaces alone leave it.
TEST(Diff, ConflictsAndBreaksOfNewRemoveTheOldLibraryPackage) {
  struct Case {
    std::string set, removed_by;
  };
  for (const Case& c :
       {Case{"conflicts", "libt2 Conflicts: libt1 (<< 2.0)"}, Case{"breaks", "libt2 Breaks: libt1"},
        Case{"conflicts-older", ""}, Case{"replaces", ""}}) {
    SCOPED_TRACE(c.set);
    const Report r = DiffTransition(c.set, "libt2_2.0-1+b1_amd64.deb");
    const Finding* f = SonameChangeOf(r);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->fields["old_package_stays"], c.removed_by.empty());
    EXPECT_EQ(f->fields.value("old_package_removed_by", ""), c.removed_by);
    const PackageVerdict* v = VerdictOf(r, "libt2");
    ASSERT_NE(v, nullptr);
    ASSERT_EQ(v->needs.size(), 1u);
    if (c.removed_by.empty()) {
      EXPECT_THAT(v->needs[0], ::testing::StartsWith("needs a transition: libt.so.1 -> libt.so.2"));
      continue;
    }
    EXPECT_THAT(f->message,
                ::testing::HasSubstr("no file provides libt.so.1 any more: libt1, which provides it, "
                                     "cannot stay installed (" +
                                     c.removed_by + ")"));
    EXPECT_EQ(v->needs[0],
              "needs co-installable library packages: libt.so.1 -> libt.so.2 (" + c.removed_by +
                  ": installing it removes libt.so.1); 1 file(s) still use it: usr/bin/ttool (t-tools)");
  }
}

TEST(Diff, ASetGivenInAnyOrderGivesTheSameReport) {
  const std::string sets = kPairs + "/sets/";
  const std::string old_a = sets + "old/libpa1_1.0-1_amd64.deb",
                    old_b = sets + "old/pa-tools_1.0-1_amd64.deb";
  const std::string new_a = sets + "dropped/libpa1_2.0-1_amd64.deb",
                    new_b = sets + "dropped/pa-tools_2.0-1_amd64.deb";
  const std::string diff = kBin + " diff --no-progress --no-base --ld-so-conf /nonexistent --fail-on none ";
  for (const std::string format : {"json", "text"}) {
    std::string one, other;
    ASSERT_EQ(RunCommand(diff + "--format " + format + " --from " + old_a + " " + old_b + " --to " + new_a +
                             " " + new_b,
                         &one),
              0);
    ASSERT_EQ(RunCommand(diff + "--format " + format + " --to " + new_b + " " + new_a + " --from " + old_b +
                             " " + old_a,
                         &other),
              0);
    EXPECT_EQ(one, other) << format;
    EXPECT_THAT(one, ::testing::HasSubstr("symbols-removed"));
  }
  // Each side at least one PATH, every PATH on a side, --from and --to only with diff.
  EXPECT_EQ(RunCommand(diff + "--from " + old_a + " --to >/dev/null 2>&1"), 2);
  EXPECT_EQ(RunCommand(diff + old_a + " --from " + old_b + " --to " + new_a + " >/dev/null 2>&1"), 2);
  EXPECT_EQ(RunCommand(kBin + " --no-progress --from " + old_a + " >/dev/null 2>&1"), 2);
}

// Every format says which PATHs are OLD and which NEW: sorted per side (a set has no order),
// whatever order they were given in.
TEST(Diff, TheReportSaysWhichInputsAreOldAndWhichNew) {
  const std::string sets = kPairs + "/sets/";
  const std::string old_a = sets + "old/libpa1_1.0-1_amd64.deb",
                    old_b = sets + "old/pa-tools_1.0-1_amd64.deb";
  const std::string new_a = sets + "dropped/libpa1_2.0-1_amd64.deb",
                    new_b = sets + "dropped/pa-tools_2.0-1_amd64.deb";
  const std::string diff = kBin +
                           " diff --no-progress --no-base --ld-so-conf /nonexistent --fail-on none --to " +
                           new_b + " " + new_a + " --from " + old_b + " " + old_a + " --format ";
  std::string json, text, sarif, html;
  ASSERT_EQ(RunCommand(diff + "json", &json), 0);
  const Json inputs = Json::parse(json)["inputs"];
  EXPECT_EQ(inputs["old"], Json::array({old_a, old_b}));
  EXPECT_EQ(inputs["new"], Json::array({new_a, new_b}));
  EXPECT_EQ(inputs["paths"], Json::array({old_a, old_b, new_a, new_b}));
  ASSERT_EQ(RunCommand(diff + "text", &text), 0);
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "compared OLD " + old_a + ", " + old_b + " with NEW " + new_a + ", " + new_b);
  ASSERT_EQ(RunCommand(diff + "sarif", &sarif), 0);
  EXPECT_EQ(Json::parse(sarif)["runs"][0]["properties"],
            Json({{"old", {old_a, old_b}}, {"new", {new_a, new_b}}}));
  ASSERT_EQ(RunCommand(diff + "html", &html), 0);
  EXPECT_THAT(html,
              ::testing::HasSubstr("Compared: OLD <code>" + old_a + "</code>, <code>" + old_b +
                                   "</code>; NEW <code>" + new_a + "</code>, <code>" + new_b + "</code>"));
  // An audit's report names no sides.
  std::string audit;
  ASSERT_EQ(RunCommand(kBin + " --no-progress --no-base --fail-on none --format json " + old_a, &audit), 0);
  EXPECT_FALSE(Json::parse(audit)["inputs"].contains("old"));
  EXPECT_FALSE(Json::parse(audit)["inputs"].contains("new"));
}

// A side is an audit's report; a diff's report (with inputs.old and inputs.new, or written
// before they existed: its findings are the comparison's, or its summary counts NEW's files
// audited where an audit counts no more than its walk met) describes no tree.
TEST(Diff, ADiffReportIsNoSide) {
  TempDir t;
  const std::string diff =
      kBin + " diff --no-progress --ld-so-conf /nonexistent --fail-on none --format json ";
  std::string report;
  ASSERT_EQ(RunCommand(diff + kPairs + "/diff/old " + kPairs + "/diff/new", &report), 0);
  WriteAll(t / "diff.json", report);
  Json before = Json::parse(report);
  before["inputs"].erase("old");
  before["inputs"].erase("new");
  WriteAll(t / "before.json", before.dump(2));
  // A diff that found nothing, written before the side fields: no comparison finding tells
  // it, its summary does (NEW's files audited, none walked).
  std::string empty;
  ASSERT_EQ(RunCommand(diff + kPairs + "/diff/new " + kPairs + "/diff/new", &empty), 0);
  Json empty_before = Json::parse(empty);
  ASSERT_THAT(empty_before["findings"], IsEmpty());
  ASSERT_GT(empty_before["summary"]["files_audited"].get<int>(), 0);
  empty_before["inputs"].erase("old");
  empty_before["inputs"].erase("new");
  WriteAll(t / "empty-before.json", empty_before.dump(2));
  for (const std::string side : {"diff.json", "before.json", "empty-before.json"}) {
    std::string err;
    EXPECT_EQ(RunCommand(diff + t / side + " " + kPairs + "/diff/new 2>&1", &err), 2) << side;
    EXPECT_THAT(err, ::testing::HasSubstr("the report of a diff, not of an audit")) << side;
  }
  // The audit of an empty tree is a side: nothing walked, nothing audited.
  std::filesystem::create_directories(t / "empty-tree");
  ASSERT_EQ(
      RunCommand(kBin + " --no-progress --ld-so-conf /nonexistent --fail-on none --format json --symbols " +
                 t / "empty-tree > " + t / "empty-audit.json"),
      0);
  std::string out;
  EXPECT_EQ(RunCommand(diff + t / "empty-audit.json " + kPairs + "/diff/new", &out), 0);
  EXPECT_EQ(Json::parse(out)["inputs"]["old"], Json::array({t / "empty-audit.json"}));
}

// The comparison's fields, without the keys (which name the input) and messages.
Json Findings(const std::string& json_text) {
  Json out = Json::array();
  const Json report = Json::parse(json_text);
  for (Json f : report["findings"]) {
    f.erase("key");
    f.erase("message");  // display text: a report names paths as its command showed them
    out.push_back(f);
  }
  return out;
}

TEST(Diff, TwoJsonReportsCompareAsTheTreesDo) {
  TempDir t;
  const std::string audit = kBin + " --no-progress --ld-so-conf /nonexistent --fail-on none --format json ";
  ASSERT_EQ(RunCommand("cd " + kPairs + "/diff && " + audit + "--symbols old > " + t / "old.json"), 0);
  ASSERT_EQ(RunCommand("cd " + kPairs + "/diff && " + audit + "--symbols new > " + t / "new.json"), 0);
  const std::string diff =
      kBin + " diff --no-progress --ld-so-conf /nonexistent --fail-on none --format json ";
  std::string from_trees, from_reports;
  ASSERT_EQ(RunCommand("cd " + kPairs + "/diff && " + diff + "old new", &from_trees), 0);
  ASSERT_EQ(RunCommand(diff + t / "old.json " + t / "new.json", &from_reports), 0);
  EXPECT_EQ(Findings(from_reports), Findings(from_trees));
  EXPECT_GT(Findings(from_trees).size(), 5u);
  // A report written without --symbols cannot say what a library exports.
  ASSERT_EQ(RunCommand("cd " + kPairs + "/diff && " + audit + "old > " + t / "plain.json"), 0);
  std::string err;
  EXPECT_EQ(RunCommand(diff + t / "plain.json " + t / "new.json 2>&1", &err), 2);
  EXPECT_THAT(err, ::testing::HasSubstr("--symbols"));
}

}  // namespace
}  // namespace rocm_audit::testing
