// Issue 50 item 4: `rocm-audit index PACKAGE...` writes a consumer index, a JSON line per
// ELF file ld.so could load, so that indexes made separately merge by concatenation, and
// `diff --consumers INDEX...` names the indexed files an update hits beside the base
// (fixtures/make_diff_pairs.sh, sets/: libpa1 drops pa_drop; pa-user, outside both sides,
// binds it).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Json = nlohmann::json;

const std::string kSets = std::string(ROCM_AUDIT_DIFF_PAIRS) + "/sets/";
const std::string kOldLib = kSets + "old/libpa1_1.0-1_amd64.deb",
                  kOldTools = kSets + "old/pa-tools_1.0-1_amd64.deb";
const std::string kNewLib = kSets + "dropped/libpa1_2.0-1_amd64.deb",
                  kNewTools = kSets + "dropped/pa-tools_2.0-1_amd64.deb";
const std::string kUser = kSets + "consumer/pa-user_3.0-1_amd64.deb";

int RunTool(const std::string& args, std::string* out, std::string* err = nullptr) {
  TempDir t;
  const int status = RunCommand("'" ROCM_AUDIT_BINARY "' " + args + " 2>'" + t / "err" + "'", out);
  if (err) *err = ReadAll(t / "err");
  return status;
}

std::vector<Json> Records(const std::string& index) {
  std::vector<Json> out;
  for (const std::string& line : Lines(index))
    if (!line.empty()) out.push_back(Json::parse(line));
  return out;
}

TEST(ConsumerIndex, OneLinePerLoadableElfFileWithItsPackageNeedsAndImports) {
  std::string out, err;
  ASSERT_EQ(RunTool("index " + kUser, &out, &err), 0) << err;
  const std::vector<Json> records = Records(out);
  ASSERT_EQ(records.size(), 2u) << out;
  // By path: the program, then the library.
  EXPECT_EQ(records[0]["path"], "/usr/bin/pauser");
  EXPECT_EQ(records[0]["package"], "pa-user");
  EXPECT_EQ(records[0]["version"], "3.0-1");
  EXPECT_EQ(records[0]["architecture"], "amd64");
  EXPECT_THAT(records[0]["needed"], ::testing::Contains("libpa.so.1"));
  EXPECT_THAT(records[0]["imports"], ::testing::Contains("pa_drop"));
  EXPECT_EQ(records[1]["path"], "/usr/lib/x86_64-linux-gnu/libpauser.so.1");
  EXPECT_EQ(records[1]["soname"], "libpauser.so.1");
  EXPECT_THAT(records[1]["imports"], ::testing::Contains("pa_keep"));
}

// Indexes of parts, made apart (and on any number of jobs), concatenated: the index of the
// whole.
TEST(ConsumerIndex, IndexesMadeApartMergeByConcatenation) {
  std::string whole, a, b, serial, err;
  ASSERT_EQ(RunTool("index -j 2 " + kOldLib + " " + kOldTools + " " + kUser, &whole, &err), 0) << err;
  ASSERT_EQ(RunTool("index -j 1 " + kOldLib + " " + kOldTools + " " + kUser, &serial), 0);
  ASSERT_EQ(RunTool("index " + kOldLib, &a), 0);
  ASSERT_EQ(RunTool("index " + kOldTools + " " + kUser, &b), 0);
  EXPECT_EQ(a + b, whole);
  EXPECT_EQ(serial, whole);
  EXPECT_EQ(Records(whole).size(), 5u);  // libpa.so.1, libpb.so.1, patool, pauser, libpauser.so.1
}

// Who is hit: pa-user's program from the index, by its package; pa-tools' indexed copy is the
// side's own file (the update replaces it), named by the side as bin's consumer already.
TEST(ConsumerIndex, DiffNamesTheIndexedFilesAnUpdateHits) {
  TempDir t;
  std::string index, err;
  ASSERT_EQ(RunTool("index " + kUser + " " + kOldTools + " -o " + t / "archive.index", &index, &err), 0)
      << err;
  std::string out;
  ASSERT_EQ(RunTool("diff --no-progress --no-base --format json --consumers " + t / "archive.index" +
                        " --from " + kOldLib + " " + kOldTools + " --to " + kNewLib + " " + kNewTools,
                    &out, &err),
            1)
      << err;
  const Json report = Json::parse(out);
  std::vector<std::string> hit;
  for (const Json& f : report["findings"])
    if (f["check"] == "symbols-removed")
      for (const Json& h : f["hit"]) hit.push_back(h["file"]);
  EXPECT_THAT(hit, ElementsAre("usr/bin/patool", "pa-user:/usr/bin/pauser"));
  // Without the index, the program of the archive is nobody's concern.
  ASSERT_EQ(RunTool("diff --no-progress --no-base --format json --from " + kOldLib + " " + kOldTools +
                        " --to " + kNewLib + " " + kNewTools,
                    &out),
            1);
  EXPECT_THAT(out, ::testing::Not(HasSubstr("pauser")));
}

TEST(ConsumerIndex, ALineThatIsNoRecordIsAToolErrorNamingIt) {
  TempDir t;
  WriteAll(t / "bad.index", "\n{\"package\": \"x\"}\n");
  std::string out, err;
  EXPECT_EQ(RunTool("diff --no-progress --no-base --consumers " + t / "bad.index" + " --from " + kOldLib +
                        " --to " + kNewLib,
                    &out, &err),
            2);
  EXPECT_THAT(err, HasSubstr(t / "bad.index" + ":2: not a line of a consumer index"));
  // Nested past any record, or a record of another format version: refused, never parsed deep.
  WriteAll(t / "deep.index", std::string(1 << 20, '[') + "\n");
  EXPECT_EQ(RunTool("diff --no-progress --no-base --consumers " + t / "deep.index" + " --from " + kOldLib +
                        " --to " + kNewLib,
                    &out, &err),
            2);
  EXPECT_THAT(err, HasSubstr(t / "deep.index" + ":1: not a line of a consumer index"));
  WriteAll(t / "v2.index", "{\"rocm_audit_consumer_index\": \"1\", \"package\": \"p\", \"path\": \"/x\"}\n");
  EXPECT_EQ(RunTool("diff --no-progress --no-base --consumers " + t / "v2.index" + " --from " + kOldLib +
                        " --to " + kNewLib,
                    &out, &err),
            2);
  EXPECT_EQ(RunTool("index " + t / "bad.index", &out, &err), 2);
  EXPECT_THAT(err, HasSubstr("not a package"));
  EXPECT_EQ(RunTool("--consumers " + t / "bad.index" + " " + kOldLib, &out, &err), 2);
  EXPECT_THAT(err, HasSubstr("--consumers is an option of diff"));
}

// The corpus's .debs, indexed in separate runs and merged, agree with readelf (NEEDED) and
// nm -D (undefined symbols, versions included) on every file of the index.
TEST(ConsumerIndex, CorpusDebsAgreeWithReadelfAndNm) {
  const std::string debs = CorpusRoot() + "/debs/bookworm";
  if (!std::filesystem::is_directory(debs)) ROCM_AUDIT_SKIP_NO_CORPUS << "no corpus at " << CorpusRoot();
  std::vector<std::string> packages;
  for (const char* name : {"libbsd0_", "libedit2_", "libelf1_", "rocminfo_"})
    for (const auto& e : std::filesystem::directory_iterator(debs))
      if (e.path().filename().string().starts_with(name)) packages.push_back(e.path().string());
  ASSERT_EQ(packages.size(), 4u);
  std::string whole, part, merged;
  ASSERT_EQ(
      RunTool("index " + packages[0] + " " + packages[1] + " " + packages[2] + " " + packages[3], &whole), 0);
  for (const std::string& p : packages) {
    ASSERT_EQ(RunTool("index " + p, &part), 0) << p;
    merged += part;
  }
  EXPECT_EQ(merged, whole);
  TempDir t;
  for (const std::string& p : packages) ASSERT_EQ(RunCommand("dpkg-deb -x " + p + " " + t.path()), 0);
  const std::vector<Json> records = Records(whole);
  EXPECT_GE(records.size(), 4u);
  for (const Json& r : records) {
    const std::string file = t.path() + r["path"].get<std::string>();
    std::string out;
    ASSERT_EQ(RunCommand("readelf -dW " + file + " | sed -n 's/.*(NEEDED).*\\[\\(.*\\)\\]/\\1/p'", &out), 0);
    std::vector<std::string> needed = Lines(out);
    std::erase(needed, "");
    EXPECT_EQ(r["needed"].get<std::vector<std::string>>(), needed) << file;
    ASSERT_EQ(RunCommand("nm -D --undefined-only " + file + " | awk '{print $NF}' | sort -u", &out), 0);
    std::vector<std::string> imports = Lines(out);
    std::erase(imports, "");
    std::vector<std::string> ours = r["imports"].get<std::vector<std::string>>();
    std::sort(ours.begin(), ours.end());
    EXPECT_EQ(ours, imports) << file;
  }
}

}  // namespace
}  // namespace rocm_audit::testing
