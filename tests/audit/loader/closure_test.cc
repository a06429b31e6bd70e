// The closure's own bookkeeping: candidates that are not regular files, the RPATH walk past
// objects without one, and the indexes that stand for ld.so's list walks. Each on a tree
// the real toolchain builds, audited under --root.
#include "audit/loader/closure.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>

#include "tests/support/core_audit.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

const char* kB = "'int b(void) { return 1; }'";
const char* kA = "'int b(void); int a(void) { return b(); }'";

std::vector<std::string> Outcomes(const UnresolvedLibrary* u) {
  std::vector<std::string> out;
  if (u)
    for (const SearchStep& s : u->resolution.searched) out.push_back(s.outcome);
  return out;
}

// ld.so opens every candidate O_RDONLY: on a FIFO it would wait for a writer for ever, and a
// socket fails to open. Neither is opened here: each is skipped as not a regular file, and
// the search goes on to the next RUNPATH directory.
TEST(Closure, FifoAndSocketCandidatesAreSkippedAndTheSearchGoesOn) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(), std::string() + "mklib r3/libB.so libB.so " + kB +
                    " -nostdlib\n"
                    "mklib a/libA.so libA.so " +
                    kA +
                    " -nostdlib -Lr3 -l:libB.so -Wl,--enable-new-dtags,-rpath,/r1:/r2:/r3\n"
                    "mkdir -p r1 r2 && mkfifo r1/libB.so\n"
                    "python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind(\"r2/libB.so\")'"));
  auto start = std::chrono::steady_clock::now();
  CoreAudit r({t / "a/libA.so"}, {t.path()});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(r.Closure(t / "a/libA.so"), std::vector<std::string>{"/r3/libB.so"});

  // Without r3, the finding says why each was passed over.
  ASSERT_TRUE(BuildTree(t.path(), "rm -r r3"));
  CoreAudit gone({t / "a/libA.so"}, {t.path()});
  std::vector<std::string> outcomes = Outcomes(gone.UnresolvedNamed(t / "a/libA.so", "libB.so"));
  ASSERT_GE(outcomes.size(), 3u);
  EXPECT_EQ(outcomes[0], "skipped: not a regular file (a FIFO)");
  EXPECT_EQ(outcomes[1], "skipped: not a regular file (a socket)");
  EXPECT_EQ(outcomes[2], "not found");
}

// A directory is opened by ld.so too, and reading it fails ("cannot read file data"): the
// search stops there with an error, as before, not skipped.
TEST(Closure, DirectoryCandidateStillStopsTheSearch) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), std::string() + "mklib r2/libB.so libB.so " + kB +
                                      " -nostdlib\n"
                                      "mklib a/libA.so libA.so " +
                                      kA +
                                      " -nostdlib -Lr2 -l:libB.so -Wl,--enable-new-dtags,-rpath,/r1:/r2\n"
                                      "mkdir -p r1/libB.so"));
  CoreAudit r({t / "a/libA.so"}, {t.path()});
  EXPECT_TRUE(r.Closure(t / "a/libA.so").empty());
  EXPECT_EQ(Outcomes(r.UnresolvedNamed(t / "a/libA.so", "libB.so")),
            std::vector<std::string>{"not loadable: cannot read"});
}

// DT_RPATH is inherited from every loader up to the main object, however many objects
// without one lie between: libM's RPATH finds libC for libB, libM -> libA -> libB -> libC.
TEST(Closure, InheritedRpathReachesPastObjectsWithoutOne) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      "mklib r/libC.so libC.so 'int c(void) { return 1; }' -nostdlib\n"
      "mklib r/libB.so libB.so 'int b(void) { return 1; }' -nostdlib -Wl,--no-as-needed -Lr -l:libC.so\n"
      "mklib r/libA.so libA.so 'int a(void) { return 1; }' -nostdlib -Wl,--no-as-needed -Lr -l:libB.so\n"
      "mklib m/libM.so libM.so 'int m(void) { return 1; }' -nostdlib -Wl,--no-as-needed -Lr -l:libA.so "
      "-Wl,--disable-new-dtags,-rpath,/r"));
  CoreAudit r({t / "m/libM.so"}, {t.path()});
  EXPECT_EQ(r.Closure(t / "m/libM.so"), (std::vector<std::string>{"/r/libA.so", "/r/libB.so", "/r/libC.so"}));
}

// ... but an object with DT_RUNPATH searches no RPATH at all, its own or its loaders'.
TEST(Closure, RunpathInTheMiddleEndsTheInheritanceForThatObject) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      "mklib r/libC.so libC.so 'int c(void) { return 1; }' -nostdlib\n"
      "mklib r/libB.so libB.so 'int b(void) { return 1; }' -nostdlib -Wl,--no-as-needed -Lr -l:libC.so "
      "-Wl,--enable-new-dtags,-rpath,/nowhere\n"
      "mklib r/libA.so libA.so 'int a(void) { return 1; }' -nostdlib -Wl,--no-as-needed -Lr -l:libB.so\n"
      "mklib m/libM.so libM.so 'int m(void) { return 1; }' -nostdlib -Wl,--no-as-needed -Lr -l:libA.so "
      "-Wl,--disable-new-dtags,-rpath,/r"));
  CoreAudit r({t / "m/libM.so"}, {t.path()});
  EXPECT_EQ(r.Closure(t / "m/libM.so"), (std::vector<std::string>{"/r/libA.so", "/r/libB.so"}));
  EXPECT_EQ(r.Unresolved(t / "m/libM.so"), std::vector<std::string>{"libC.so"});
}

// Two files with one soname, loaded under other names: the soname belongs to the first
// (ld.so's list walk finds it first), and a DT_NEEDED of it maps nothing more (there is no
// file of that name to map).
TEST(Closure, ANameBelongsToTheFirstObjectThatHasIt) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mklib r/libX.so libS.so.1 'int x(void) { return 1; }' -nostdlib\n"
                        "mklib r/libY.so libS.so.1 'int y(void) { return 1; }' -nostdlib\n"
                        "mklib stub/libX.so libX.so 'int x(void) { return 1; }' -nostdlib\n"
                        "mklib stub/libY.so libY.so 'int y(void) { return 1; }' -nostdlib\n"
                        "mklib stub/libS.so.1 libS.so.1 'int s(void) { return 1; }' -nostdlib\n"
                        "mklib m/libM.so libM.so 'int m(void) { return 1; }' -nostdlib -Wl,--no-as-needed "
                        "-Lstub -l:libX.so -l:libY.so -l:libS.so.1 -Wl,-rpath,/r"));
  CoreAudit r({t / "m/libM.so"}, {t.path()});
  EXPECT_EQ(r.Closure(t / "m/libM.so"), (std::vector<std::string>{"/r/libX.so", "/r/libY.so"}));
  const LoadFacts* l = r.LoadOf(t / "m/libM.so");
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->closure.FindByName("libS.so.1"), 1);
  EXPECT_EQ(l->closure.FindByName("libY.so"), 2);
  EXPECT_EQ(l->closure.FindByName("libZ.so"), -1);
}

// libM -> libB -> libC, each found by RUNPATH /r in the root.
void BuildChainOfThree(const TempDir& t) {
  ASSERT_TRUE(BuildTree(
      t.path(),
      "mklib r/libC.so libC.so 'int c(void) { return 1; }' -nostdlib\n"
      "mklib r/libB.so libB.so 'int b(void) { return 1; }' -nostdlib -Wl,--no-as-needed -Lr -l:libC.so "
      "-Wl,--enable-new-dtags,-rpath,/r\n"
      "mklib m/libM.so libM.so 'int m(void) { return 1; }' -nostdlib -Wl,--no-as-needed -Lr -l:libB.so "
      "-Wl,--enable-new-dtags,-rpath,/r"));
}

LoadClosure ClosureWith(const std::string& path, ObjectStore& store, const LoaderConfig& config,
                        LoaderMemo* memo) {
  std::shared_ptr<const StoredObject> main = store.Get(path, path);
  EXPECT_TRUE(main->model) << main->error;
  if (!main->model) return LoadClosure();
  return BuildClosure(main, path, path, config, store, memo);
}

std::vector<std::string> Paths(const LoadClosure& c) {
  std::vector<std::string> out;
  for (const LoadedObject& o : c.objects) out.emplace_back(o.path);
  return out;
}

// The run's memo answers for every closure: what one main object's search learned of a
// directory, another's search reads without looking again. libC removed after libM's
// closure found it is still found for libB with the run's memo, and missing with a new one.
TEST(Closure, TheRunsSearchMemoAnswersEveryClosureOfTheRun) {
  TempDir t;
  BuildChainOfThree(t);
  ObjectStore store;
  const LoaderConfig config{RootedFs(t.path()), {}, {}, ""};
  LoaderMemo memo;
  EXPECT_EQ(Paths(ClosureWith(t / "m/libM.so", store, config, &memo)),
            (std::vector<std::string>{t / "m/libM.so", t / "r/libB.so", t / "r/libC.so"}));
  ASSERT_TRUE(BuildTree(t.path(), "rm r/libC.so"));
  LoadClosure shared = ClosureWith(t / "r/libB.so", store, config, &memo);
  EXPECT_EQ(Paths(shared), (std::vector<std::string>{t / "r/libB.so", t / "r/libC.so"}));
  EXPECT_TRUE(shared.unresolved.empty());
  LoadClosure fresh = ClosureWith(t / "r/libB.so", store, config, nullptr);
  EXPECT_EQ(Paths(fresh), std::vector<std::string>{t / "r/libB.so"});
  ASSERT_EQ(fresh.unresolved.size(), 1u);
  EXPECT_EQ(fresh.unresolved[0].name, "libC.so");
}

// A closure's objects are views into the run's answers, which it holds: it stays whole
// after the memo that made it is gone (ASan reads freed memory otherwise), and so does what
// DirectNeedsOf keeps of it. The second closure reads libB's answer for libC.so from libB's
// own answer, not from the memo's map: the same objects.
TEST(Closure, AClosureOutlivesTheRunsMemo) {
  TempDir t;
  BuildChainOfThree(t);
  ObjectStore store;
  const LoaderConfig config{RootedFs(t.path()), {}, {}, ""};
  auto memo = std::make_unique<LoaderMemo>();
  LoadClosure first = ClosureWith(t / "m/libM.so", store, config, memo.get());
  LoadClosure again = ClosureWith(t / "m/libM.so", store, config, memo.get());
  ASSERT_EQ(again.found.size(), 2u);
  EXPECT_EQ(again.found, first.found);  // the run's answers, not copies
  EXPECT_TRUE(again.own_answers.empty());
  LoadClosure kept = DirectNeedsOf(std::move(first));
  memo.reset();
  EXPECT_EQ(Paths(again), (std::vector<std::string>{t / "m/libM.so", t / "r/libB.so", t / "r/libC.so"}));
  EXPECT_EQ(again.objects[2].model->soname, "libC.so");
  EXPECT_EQ(again.objects[2].found_by, again.found[1]->resolution.searched.back().source);
  EXPECT_EQ(Paths(kept), (std::vector<std::string>{t / "m/libM.so", t / "r/libB.so"}));
  EXPECT_EQ(kept.objects[1].model->soname, "libB.so");
}

// What the whole-tree checks keep of a closure: the main object and what its own DT_NEEDED
// names matched, at the same names, with their models kept alive; nothing further down.
TEST(Closure, DirectNeedsKeepWhatTheMainObjectsOwnNamesMatched) {
  TempDir t;
  BuildChainOfThree(t);
  ObjectStore store;
  const LoaderConfig config{RootedFs(t.path()), {}, {}, ""};
  LoadClosure whole = ClosureWith(t / "m/libM.so", store, config, nullptr);
  ASSERT_EQ(whole.objects.size(), 3u);
  LoadClosure kept = DirectNeedsOf(std::move(whole));
  EXPECT_EQ(Paths(kept), (std::vector<std::string>{t / "m/libM.so", t / "r/libB.so"}));
  EXPECT_EQ(kept.FindByName("libB.so"), 1);
  EXPECT_EQ(kept.FindByName("libC.so"), -1);
  ASSERT_EQ(kept.found.size(), 1u);
  EXPECT_EQ(kept.found[0]->stored->model.get(), kept.objects[1].model);
  ASSERT_EQ(kept.own_answers.size(), 1u);  // no memo: the closure holds its searches
  EXPECT_EQ(kept.own_answers[0].get(), kept.found[0]);
  EXPECT_EQ(kept.objects[1].model->soname, "libB.so");
}

}  // namespace
}  // namespace rocm_audit::testing
