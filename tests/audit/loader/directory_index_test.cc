// Issue 47: N names searched over M directories cost N x M lookups in listings read once
// per run, not N x M probes; what the search reports stays ld.so's (elf/dl-load.c,
// open_path) step by step, and the searched list of each name is shared, not copied.
#include <gtest/gtest.h>
#include <llvm/BinaryFormat/ELF.h>

#include <ctime>
#include <filesystem>
#include <fstream>

#include "audit/loader/search_path.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

// `m` as an x86-64 object with `runpath` (DT_RUNPATH) and no interpreter.
void MakeRequester(ElfModel& m, const std::string& path, std::vector<std::string> runpath) {
  m.path = path;
  m.elf_class = 2;
  m.machine = llvm::ELF::EM_X86_64;
  m.runpath = std::move(runpath);
  m.has_runpath = true;
}

class NoRpath : public RpathWalk {
 public:
  const RpathLink* Next() override { return nullptr; }
};

Resolution Search(LibrarySearch& search, std::string_view name, const ElfModel& m) {
  NoRpath up;
  return search.Find(name, {&m, DirName(m.path)}, m, up);
}

std::vector<std::string> Outcomes(const Resolution& r) {
  std::vector<std::string> out;
  for (const auto& s : r.searched) out.push_back(s.outcome);
  return out;
}

TEST(DirectoryIndex, AMissingNameIsAnsweredByTheListingWithNothingKeptForIt) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(),
                "mkdir -p a b lib && echo 'not ELF' > b/libtext.so.1 && ln -s nowhere a/libdangling.so.1\n"
                "mkfifo a/libfifo.so.1 && ln -s libloop.so.1 a/libloop.so.1"));
  LoaderConfig config{RootedFs(), {}, {}, "", std::vector<std::string>{}};
  SearchMemo memo;
  LibrarySearch search(config, &memo);
  ElfModel m;
  MakeRequester(m, t / "lib/libuser.so", {t / "a", t / "b", t / "missing"});
  // A directory is listed once it has been asked about enough names to pay for a listing.
  for (uint32_t i = 0; i < DirectoryListing::kAskedBeforeListing; ++i)
    EXPECT_FALSE(Search(search, "libwarm" + std::to_string(i) + ".so.1", m).found);
  Resolution missing = Search(search, "libnowhere.so.1", m);
  EXPECT_FALSE(missing.found);
  EXPECT_EQ(Outcomes(missing), (std::vector<std::string>{"not found", "not found", "not found"}));
  // Neither a probe nor an answer per name: a name no listing holds is not kept.
  EXPECT_EQ(memo.candidates.Find(t / "a" + '\0' + "libnowhere.so.1"), nullptr);
  EXPECT_EQ(memo.candidates.Find(t / "b" + '\0' + "libnowhere.so.1"), nullptr);
  // Names a listing holds are looked at as before, entry by entry.
  EXPECT_EQ(Outcomes(Search(search, "libdangling.so.1", m)),
            (std::vector<std::string>{"not found", "not found", "not found"}));
  EXPECT_NE(memo.candidates.Find(t / "a" + '\0' + "libdangling.so.1"), nullptr);
  EXPECT_EQ(Outcomes(Search(search, "libfifo.so.1", m))[0], "skipped: not a regular file (a FIFO)");
  EXPECT_EQ(Outcomes(Search(search, "libloop.so.1", m))[0], "symlink loop");
  Resolution text = Search(search, "libtext.so.1", m);
  EXPECT_EQ(Outcomes(text), (std::vector<std::string>{"not found", "not loadable: file too short"}));
  EXPECT_EQ(text.path, t / "b/libtext.so.1");
}

// Issue 52: a one-file audit asks a directory about a few names. Listing it would cost more
// than looking at each (Debian's /usr/lib/x86_64-linux-gnu holds 5,000 entries: a fifth of
// the audit's time went to reading them for two names); a tree's hundreds of names pay for
// one listing.
TEST(DirectoryIndex, ADirectoryIsListedOnlyOnceAskedAboutManyNames) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), "mkdir -p a lib && for i in $(seq 100); do echo x > a/libfill$i.so; done"));
  LoaderConfig config{RootedFs(), {}, {}, "", std::vector<std::string>{}};
  SearchMemo memo;
  LibrarySearch search(config, &memo);
  ElfModel m;
  MakeRequester(m, t / "lib/libuser.so", {t / "a"});
  for (int i = 0; i < 2; ++i) EXPECT_FALSE(Search(search, "libfew" + std::to_string(i) + ".so.1", m).found);
  const std::shared_ptr<DirectoryListing>* listing = memo.listings.Find("H" + t / "a");
  ASSERT_NE(listing, nullptr);
  EXPECT_FALSE((*listing)->listed());
  // The names asked before the listing are answered as ld.so answers them: looked at, one each.
  EXPECT_NE(memo.candidates.Find(t / "a" + '\0' + "libfew0.so.1"), nullptr);
  for (int i = 0; i < 20; ++i) EXPECT_FALSE(Search(search, "libmany" + std::to_string(i) + ".so.1", m).found);
  EXPECT_TRUE((*listing)->listed());
  EXPECT_EQ(memo.candidates.Find(t / "a" + '\0' + "libmany19.so.1"), nullptr);
  EXPECT_EQ(Outcomes(Search(search, "libfill7.so", m)),
            (std::vector<std::string>{"not loadable: file too short"}));
}

// --root layers: a directory's listing is every layer's, and what a layer hides is still
// looked at through that layer's rules (RootedFs), never called present by the listing.
TEST(DirectoryIndex, TheListingOfALayeredDirectoryIsEveryLayers) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        "mkdir -p top/opt/lib base/opt/lib && echo x > base/opt/lib/libbase.so.1\n"
                        "echo x > base/opt/lib/libhidden.so.1"));
  RootedFs fs(std::vector<std::string>{t / "top", t / "base"});
  fs.Hide(1, {"/opt/lib/libhidden.so.1"});
  LoaderConfig config{fs, {}, {}, "", std::vector<std::string>{}};
  LibrarySearch search(config);
  ElfModel m;
  MakeRequester(m, t / "top/opt/libuser.so", {"/opt/lib"});
  EXPECT_EQ(Outcomes(Search(search, "libbase.so.1", m)),
            (std::vector<std::string>{"not loadable: file too short"}));
  EXPECT_EQ(Outcomes(Search(search, "libhidden.so.1", m)), (std::vector<std::string>{"not found"}));
  EXPECT_EQ(Outcomes(Search(search, "libnone.so.1", m)), (std::vector<std::string>{"not found"}));
}

// 1,500 names over 1,500 empty directories: each directory listed once, each name looked
// up in the listings, and one list of directories shared by every name's steps (22.7 s and
// 1 GB when each name was probed in each directory and its steps copied).
TEST(DirectoryIndex, NamesMissingFromManyDirectoriesShareOneListAndCostLookups) {
  TempDir t;
  std::vector<std::string> runpath;
  for (int i = 0; i < 1500; ++i) {
    runpath.push_back(t / ("d" + std::to_string(i)));
    std::filesystem::create_directory(runpath.back());
  }
  LoaderConfig config{RootedFs(), {}, {}, "", std::vector<std::string>{}};
  LibrarySearch search(config);
  ElfModel m;
  MakeRequester(m, t / "libuser.so", runpath);
  const std::clock_t start = std::clock();  // CPU time: a busy machine does not count
  std::vector<Resolution> all;
  for (int i = 0; i < 1500; ++i) all.push_back(Search(search, "libmissing" + std::to_string(i) + ".so", m));
  const double seconds = double(std::clock() - start) / CLOCKS_PER_SEC;
  EXPECT_LT(seconds, 2.0 * kSanitizerSlowdown);
  for (const Resolution& r : all) {
    ASSERT_EQ(r.searched.size(), 1500u);
    size_t i = 0;
    for (const auto& s : r.searched) {
      EXPECT_EQ(s.directory, runpath[i++]);
      EXPECT_EQ(s.source, "RUNPATH of libuser.so");
      EXPECT_EQ(s.outcome, "not found");
    }
  }
  // The steps of two names view the same directories.
  EXPECT_EQ(&all[0].searched.back().directory, &all[1499].searched.back().directory);
}

}  // namespace
}  // namespace rocm_audit::testing
