// Packages as PATHs (fixtures/make_packages.sh, made with dpkg-deb, zstd and Python's
// tarfile/zipfile): a .deb alone and a set of two give the verdicts of the same files after
// `dpkg-deb -x`, files are named PACKAGE:/member, each format says what it is, wheels and
// conda packages are held to relocatability, and hostile archives end as findings with
// nothing written outside the private directory, which is removed, also on SIGTERM.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "tests/support/report_findings.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

using Json = nlohmann::json;
const std::string kPackages = ROCM_AUDIT_PACKAGE_TREE;
const std::string kDep = kPackages + "/librocdep1_1.2.3-1_amd64.deb";
const std::string kUser = kPackages + "/librocuser1_1.2.3-1_amd64.deb";

Json Audit(const std::string& args, int expected_status = -1, const std::string& env = "") {
  std::string out;
  int status =
      RunCommand(env + " " + std::string(ROCM_AUDIT_BINARY) + " --no-progress --format json " + args, &out);
  if (expected_status >= 0) EXPECT_EQ(status, expected_status) << args << "\n" << out;
  return Json::parse(out, nullptr, false);
}

// Each finding as (check, key): the key is the path below the audited root, the same for a
// package and for its unpacked tree.
std::multiset<std::string> Verdicts(const Json& report) {
  std::multiset<std::string> out;
  const Json& findings = report["findings"];
  for (const Json& f : findings)
    out.insert(f["check"].get<std::string>() + " " + f["key"].get<std::string>());
  return out;
}

TEST(PackageInput, ADebGivesTheVerdictsOfItsUnpackedTree) {
  TempDir t;
  ASSERT_EQ(RunCommand("dpkg-deb -x " + kUser + " " + t / "user"), 0);
  const Json deb = Audit("--fail-on none " + kUser, 0), tree = Audit("--fail-on none " + t / "user", 0);
  EXPECT_FALSE(Verdicts(deb).empty());
  EXPECT_EQ(Verdicts(deb), Verdicts(tree));
  const Json& findings = deb["findings"];
  for (const Json& f : findings)
    EXPECT_TRUE(f["file"].get<std::string>().starts_with("librocuser1_1.2.3-1_amd64.deb:/usr/lib/"))
        << f["file"];
  EXPECT_THAT(deb.dump(), Not(HasSubstr("rocm-audit-unpack-")))
      << "the private directory leaks into the report";
  const Json& p = deb["inputs"]["packages"][0];
  EXPECT_EQ(p["format"], "deb");
  EXPECT_EQ(p["name"], "librocuser1");
  EXPECT_EQ(p["version"], "1.2.3-1");
  EXPECT_EQ(p["depends"], Json::array({"librocdep1 (= 1.2.3-1)"}));
}

TEST(PackageInput, PackagesGivenTogetherAreInstalledTogether) {
  TempDir t;
  ASSERT_EQ(RunCommand("dpkg-deb -x " + kUser + " " + t / "both && dpkg-deb -x " + kDep + " " + t / "both"),
            0);
  const Json alone = Audit("--fail-on none " + kUser);
  const Json debs = Audit("--fail-on none --root / " + kUser + " " + kDep);
  const Json tree = Audit("--fail-on none --root " + t / "both" + " --root / " + t / "both");
  EXPECT_EQ(Verdicts(debs), Verdicts(tree));
  // Alone, the dependency is not found; together it is, and the symbol it lacks shows.
  EXPECT_TRUE(ChecksIn(alone).count("unresolved-library"));
  EXPECT_FALSE(ChecksIn(debs).count("unresolved-library"));
  EXPECT_THAT(FieldOfEach(debs, "undefined-symbol", "symbol"), Contains("roc_missing"));
  EXPECT_EQ(debs["inputs"]["packages"].size(), 2u);
}

TEST(PackageInput, EveryFormatSaysWhatItIs) {
  struct Case {
    const char* file;
    const char* format;
    const char* name;
    const char* version;
    const char* member;
  } cases[] = {
      {"rocdemo-2.1.0-cp311-cp311-linux_x86_64.whl", "wheel", "rocdemo", "2.1.0",
       "/rocdemo/lib/libroc-user.so.1"},
      {"rocdemo-2.1.0-h0_1.tar.bz2", "conda", "rocdemo", "2.1.0", "/lib/libroc-user.so.1"},
      {"rocdemo-2.1.0-h0_2.conda", "conda", "rocdemo", "2.1.0", "/lib/libroc-user.so.1"},
      {"rocdemo-2.1.0.tar.xz", "tar", "rocdemo-2.1.0.tar.xz", nullptr,
       "/opt/rocdemo-2.1.0/lib/libroc-user.so.1"},
      {"rocdemo-2.1.0.zip", "zip", "rocdemo-2.1.0.zip", nullptr, "/opt/rocdemo/lib/libroc-user.so.1"},
      {"rocdemo-2.1.0-1.x86_64.rpm", "rpm", "rocdemo", "2.1.0-1", "/usr/lib64/libroc-user.so.1"},
  };
  for (const Case& c : cases) {
    const Json r = Audit("--fail-on none " + kPackages + "/" + c.file, 0);
    ASSERT_FALSE(r.is_discarded()) << c.file;
    const Json& p = r["inputs"]["packages"][0];
    EXPECT_EQ(p["format"], c.format) << c.file;
    EXPECT_EQ(p["name"], c.name) << c.file;
    EXPECT_EQ(p["version"], c.version ? Json(c.version) : Json(nullptr)) << c.file;
    std::set<std::string> files;
    const Json& findings = r["findings"];
    for (const Json& f : findings) files.insert(f["file"]);
    EXPECT_TRUE(files.count(std::string(c.file) + ":" + c.member)) << c.file << " " << r["findings"].dump();
    // conda's info/ describes the package; it is not installed.
    EXPECT_THAT(r.dump(), Not(HasSubstr(":/info/"))) << c.file;
  }
}

TEST(PackageInput, WheelsAndCondaPackagesMustBeRelocatable) {
  auto absolute_entries = [](const std::string& file) {
    const Json r = Audit("--fail-on none --root / " + kPackages + "/" + file);
    size_t n = 0;
    const Json& findings = r["findings"];
    for (const Json& f : findings) n += f["check"] == "rpath-absolute-outside";
    return n;
  };
  EXPECT_GT(absolute_entries("rocdemo-2.1.0-cp311-cp311-linux_x86_64.whl"), 0u);
  EXPECT_GT(absolute_entries("rocdemo-2.1.0-h0_2.conda"), 0u);
  EXPECT_EQ(absolute_entries("rocdemo-2.1.0.zip"), 0u);  // the same files, an ordinary tree
}

struct HostileCase {
  const char* file;
  const char* check;
  std::vector<const char*> reasons;
};

TEST(PackageInput, HostileArchivesEndAsFindingsAndWriteNothingOutside) {
  const std::vector<HostileCase> cases = {
      {"traversal.tar", "package-member-refused", {"a member name with '..'", "an absolute member name"}},
      {"links.tar",
       "package-member-refused",
       {"a symbolic link out of the package (-> ../../../etc/passwd)", "a hard link to ../outside",
        "below a symbolic link of the package: not written through it"}},
      {"specials.tar", "package-member-refused", {"a FIFO: not created", "a device node: not created"}},
      {"bomb.tar.xz", "package-limit", {"a decompression bomb"}},
      {"truncated_amd64.deb", "package-member-refused", {"truncated or corrupt"}},
  };
  for (const HostileCase& c : cases) {
    TempDir tmp;
    const auto start = std::chrono::steady_clock::now();
    const Json r = Audit("--fail-on error " + kPackages + "/hostile/" + c.file, 1, "TMPDIR=" + tmp.path());
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20)) << c.file;
    ASSERT_FALSE(r.is_discarded()) << c.file;
    std::string found;
    const Json& findings = r["findings"];
    for (const Json& f : findings)
      if (f["check"] == c.check) found += f["message"].get<std::string>() + "\n";
    for (const char* reason : c.reasons) EXPECT_THAT(found, HasSubstr(reason)) << c.file << ": " << found;
    // Nothing left in $TMPDIR, nothing written where the members pointed.
    EXPECT_TRUE(std::filesystem::is_empty(tmp.path())) << c.file;
  }
  for (const char* escaped : {"/tmp/escaped-by-absolute-name", "/tmp/written-through-a-link"})
    EXPECT_FALSE(std::filesystem::exists(escaped)) << escaped;
}

TEST(PackageInput, ACapOnMembersStopsAHundredThousandMemberTar) {
  TempDir tmp;
  const Json r = Audit("--fail-on error --max-members 5000 " + kPackages + "/hostile/many.tar.gz", 1,
                       "TMPDIR=" + tmp.path());
  EXPECT_THAT(r.dump(), HasSubstr("more than 5000 members (--max-members)"));
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));
  const Json all = Audit("--fail-on error " + kPackages + "/hostile/many.tar.gz", 0, "TMPDIR=" + tmp.path());
  EXPECT_EQ(all["summary"]["files_by_kind"]["other"], 100000);
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));
}

TEST(PackageInput, AnArArchiveThatIsNoLibraryIsAFinding) {
  const Json r = Audit("--fail-on error " + kPackages + "/hostile/notes.a", 1);
  EXPECT_THAT(r.dump(), HasSubstr("neither a static library nor a known package"));
  // A .deb met inside a tree is said to be a package, not read as an empty static library.
  TempDir t;
  ASSERT_EQ(RunCommand("cp " + kDep + " " + t.path()), 0);
  const Json tree = Audit("--fail-on none " + t.path(), 0);
  EXPECT_THAT(tree.dump(), HasSubstr("a Debian package, not a static library"));
}

TEST(PackageInput, ThePrivateDirectoryGoesOnSigterm) {
  TempDir tmp;
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    setenv("TMPDIR", tmp.path().c_str(), 1);
    execl(ROCM_AUDIT_BINARY, "rocm-audit", "--no-progress", "-o", "/dev/null",
          (kPackages + "/hostile/many.tar.gz").c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait until unpacking has begun (the private directory exists), then stop it.
  for (int i = 0; i < 200 && std::filesystem::is_empty(tmp.path()); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_FALSE(std::filesystem::is_empty(tmp.path())) << "unpacking never started";
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGTERM) << status;
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));
}

// A .deb holding `kib` KiB of random bytes (they do not compress: the package's own ratio
// is about 1), made with the real dpkg-deb.
std::string RandomDeb(const TempDir& t, const std::string& name, int kib) {
  const std::string root = t / (name + "-root");
  EXPECT_EQ(RunCommand("mkdir -p " + root + "/DEBIAN " + root + "/usr/share/" + name +
                       " && printf 'Package: " + name +
                       "\\nVersion: 1.0\\nArchitecture: amd64\\nMaintainer: T <t@rocm-audit.invalid>\\n"
                       "Description: random bytes\\n' > " +
                       root + "/DEBIAN/control && head -c " + std::to_string(kib * 1024) +
                       " /dev/urandom > " + root + "/usr/share/" + name + "/data && dpkg-deb -Zgzip -b " +
                       root + " " + t / (name + ".deb") + " >/dev/null"),
            0);
  return t / (name + ".deb");
}

// A .deb made in the test: `files` is shell run in its root (mkdir, printf, cp).
std::string MakeDeb(const TempDir& t, const std::string& name, const std::string& version,
                    const std::string& files) {
  const std::string root = t / (name + "-" + version + "-root");
  EXPECT_EQ(
      RunCommand("mkdir -p " + root + "/DEBIAN && cd " + root + " && " + files +
                 " && printf 'Package: " + name + "\\nVersion: " + version +
                 "\\nArchitecture: amd64\\nMaintainer: T <t@rocm-audit.invalid>\\nDescription: test\\n' > " +
                 root + "/DEBIAN/control && dpkg-deb --root-owner-group -Zxz -b " + root + " " +
                 t / (name + "_" + version + ".deb") + " >/dev/null"),
      0);
  return t / (name + "_" + version + ".deb");
}

// Packages are installed, not inspected: without --root the set is the top layer over /,
// as dpkg installs it, and gives the verdicts of its `dpkg-deb -x` tree audited over /. With
// --no-base the set is installed into an empty system: not even libc is there.
TEST(PackageInput, PackagesAreAuditedAsInstalledOverTheBase) {
  TempDir t;
  ASSERT_EQ(RunCommand("dpkg-deb -x " + kUser + " " + t / "both && dpkg-deb -x " + kDep + " " + t / "both"),
            0);
  const Json debs = Audit("--fail-on none " + kUser + " " + kDep, 0);
  const Json tree = Audit("--fail-on none --root " + t / "both" + " --root / " + t / "both", 0);
  EXPECT_EQ(Verdicts(debs), Verdicts(tree));
  EXPECT_FALSE(ChecksIn(debs).count("unresolved-library"));
  EXPECT_THAT(FieldOfEach(debs, "undefined-symbol", "symbol"), Contains("roc_missing"));
  EXPECT_EQ(debs["inputs"]["world"]["base"], Json::array({"/"}));
  EXPECT_EQ(debs["inputs"]["world"]["replacing"], Json::array({"librocuser1", "librocdep1"}));
  EXPECT_THAT(debs.dump(), Not(HasSubstr("rocm-audit-unpack-")))
      << "the private directory leaks into the report";
  EXPECT_EQ(tree["inputs"]["world"], nullptr);
  const Json bare = Audit("--fail-on none --no-base " + kUser + " " + kDep, 0);
  EXPECT_EQ(bare["inputs"]["world"]["base"], Json::array());
  EXPECT_EQ(bare["inputs"]["roots"], Json::array());
  // Alone, the library is nowhere; the hint says what the package's Depends say.
  const Json alone = Audit("--fail-on none " + kUser, 0);
  EXPECT_THAT(
      alone["findings"].dump(),
      HasSubstr("librocuser1 depends on librocdep1: if one of them provides libroc-dep.so.1, audit them "
                "together or over a base that has it installed"));
  std::string text;
  RunCommand(std::string(ROCM_AUDIT_BINARY) + " --no-progress --fail-on none " + kUser + " " + kDep, &text);
  EXPECT_TRUE(text.starts_with("audited as installed over the base /\n")) << text;
  EXPECT_NE(RunCommand(std::string(ROCM_AUDIT_BINARY) + " --no-base --root / " + kUser + " 2>&1", &text), 0);
  EXPECT_THAT(text, HasSubstr("--no-base and --root exclude each other")) << text;
}

// A -dev package's own absolute paths (/usr/include, its libraries under /usr/lib) are
// inside its prefix /usr once installed; its files are named with the package's name.
TEST(PackageInput, ADevPackagesOwnAbsolutePathsAreInsideItsPrefix) {
  TempDir t;
  const std::string dev =
      MakeDeb(t, "libroc-dev", "1.0",
              "mkdir -p usr/include usr/lib/x86_64-linux-gnu/cmake/roc && echo 'int roc(void);' > "
              "usr/include/roc.h && "
              "printf 'add_library(roc::roc INTERFACE IMPORTED)\\nset_target_properties(roc::roc PROPERTIES "
              "INTERFACE_INCLUDE_DIRECTORIES \"/usr/include\")\\n' > "
              "usr/lib/x86_64-linux-gnu/cmake/roc/rocConfig.cmake");
  const Json report = Audit("--fail-on none " + dev, 0);
  EXPECT_FALSE(ChecksIn(report).count("cmake-absolute-path")) << report["findings"].dump();
  EXPECT_FALSE(ChecksIn(report).count("cmake-missing-file")) << report["findings"].dump();
}

// The base never stands in for what is installed: an older librocdep1 installed in the
// base (its file list in the base's dpkg database) serves librocuser1 alone, but not once a
// new librocdep1 that dropped the library is installed with it.
TEST(PackageInput, TheBaseNeverStandsInForWhatIsInstalled) {
  TempDir t;
  const std::string base = t / "base";
  const std::string lib = "/usr/lib/x86_64-linux-gnu";
  ASSERT_EQ(RunCommand("dpkg-deb -x " + kDep + " " + base + " && mkdir -p " + base +
                       "/var/lib/dpkg/info && printf '/.\\n/usr\\n/usr/lib\\n" + lib + "\\n" + lib +
                       "/libroc-dep.so.1\\n" + lib + "/libroc-dep.so\\n' > " + base +
                       "/var/lib/dpkg/info/librocdep1.list"),
            0);
  const std::string dropped =
      MakeDeb(t, "librocdep1", "2.0",
              "mkdir -p usr/share/doc/librocdep1 && echo x > usr/share/doc/librocdep1/README");
  const Json installed = Audit("--fail-on none --root " + base + " --root / " + kUser, 0);
  EXPECT_FALSE(ChecksIn(installed).count("unresolved-library"));
  for (const std::string& order : {kUser + " " + dropped, dropped + " " + kUser}) {
    const Json upgraded = Audit("--fail-on none --root " + base + " --root / " + order, 0);
    EXPECT_THAT(FieldOfEach(upgraded, "unresolved-library", "library"), Contains("libroc-dep.so.1")) << order;
    EXPECT_EQ(upgraded["inputs"]["world"]["base"], Json::array({base, "/"}));
  }
}

// Every cap is counted per package, from its own bytes, and the packages are unpacked in
// one order whatever the command line's: each order of a set gives the same findings. With
// --max-ratio 2, a package's first MiB counts as its compressed size: 1.5 MiB and then
// 0.7 MiB, counted together, passed 2 MiB and cut the second package off as a bomb.
TEST(PackageInput, ASetGivesTheSameFindingsInEveryOrder) {
  TempDir t;
  std::vector<std::string> set = {RandomDeb(t, "roc-big", 1536), RandomDeb(t, "roc-small", 700), kDep, kUser};
  std::sort(set.begin(), set.end());
  std::string first;
  size_t orders = 0;
  do {
    std::string args = "--fail-on none --max-ratio 2 --root /";
    for (const std::string& p : set) args += " " + p;
    const Json report = Audit(args, 0);
    const std::string findings = report["findings"].dump();
    EXPECT_FALSE(ChecksIn(report).count("package-limit")) << args << "\n" << findings;
    if (orders++ == 0)
      first = findings;
    else
      EXPECT_EQ(findings, first) << args;
  } while (std::next_permutation(set.begin(), set.end()));
  EXPECT_EQ(orders, 24u);
  // A package that really expands past the ratio is still cut off, in any order.
  ASSERT_EQ(RunCommand("mkdir -p " + t / "bomb-root/DEBIAN " +
                       t / "bomb-root/usr/share/bomb && printf "
                           "'Package: bomb\\nVersion: 1.0\\nArchitecture: amd64\\nMaintainer: T "
                           "<t@rocm-audit.invalid>\\nDescription: zeros\\n' > " +
                       t / "bomb-root/DEBIAN/control && head -c 8388608 /dev/zero > " +
                       t / "bomb-root/usr/share/bomb/zeros && dpkg-deb -Zgzip -b " + t / "bomb-root " +
                       t / "bomb.deb >/dev/null"),
            0);
  for (const std::string& args : {t / "bomb.deb " + kUser, kUser + " " + t / "bomb.deb"}) {
    const Json report = Audit("--fail-on none --max-ratio 2 " + args, 0);
    const std::string findings = report["findings"].dump();
    EXPECT_THAT(
        findings,
        HasSubstr("\"package\":\"bomb.deb\",\"reason\":\"unpacks to more than 2 times its compressed size"));
  }
}

}  // namespace
}  // namespace rocm_audit::testing
