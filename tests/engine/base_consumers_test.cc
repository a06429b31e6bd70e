// The base scan (engine/base_consumers.h) on the diff pairs' base layer: who links a
// SONAME, on the run's --jobs workers, and consumers read from an index beside the base.
#include "engine/base_consumers.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

namespace rocm_audit::testing {
namespace {

using ::testing::ElementsAre;

const std::string kBase = std::string(ROCM_AUDIT_DIFF_PAIRS) + "/diff/base";

std::vector<std::string> Paths(const std::vector<FileFacts>& files) {
  std::vector<std::string> out;
  for (const FileFacts& f : files) out.push_back(f.path);
  return out;
}

// The scan's pool has the run's --jobs workers, whatever the machine has (it had one per
// hardware thread, whatever --jobs said); the same files are found on any number.
TEST(BaseConsumers, ScansOnTheRunsJobs) {
  for (unsigned jobs : {1u, 3u}) {
    BaseConsumers base({kBase}, jobs);
    EXPECT_THAT(Paths(base.Linking("libdrop.so.1")),
                ElementsAre("/usr/bin/basebystander", "/usr/bin/baseconsumer"));
    EXPECT_EQ(base.cost().workers, jobs);
  }
}

// An indexed consumer is listed after the base's, by its package; the sides' own copies
// (what Exclude() answers) are neither.
TEST(BaseConsumers, IndexedConsumersFollowTheBasesUnlessReplaced) {
  BaseConsumers base({kBase}, 1);
  auto consumer = [](std::string path, std::vector<std::string> needed) {
    FileFacts f;
    f.path = std::move(path);
    f.kind = "elf";
    ElfFacts elf;
    elf.needed = std::move(needed);
    elf.imports = {"drop_me"};
    f.elf = std::move(elf);
    return f;
  };
  base.AddIndexed("/usr/bin/tool", consumer("tools:/usr/bin/tool", {"libc.so.6", "libdrop.so.1"}));
  base.AddIndexed("/usr/bin/other", consumer("other:/usr/bin/other", {"libc.so.6"}));
  base.AddIndexed("/usr/lib/libdrop.so.1", consumer("drop1:/usr/lib/libdrop.so.1", {"libdrop.so.1"}));
  std::vector<std::string> asked;
  base.Exclude([&](const std::vector<std::string>& installed) {
    asked = installed;
    return std::set<std::string>{"/usr/lib/libdrop.so.1"};
  });
  EXPECT_THAT(Paths(base.Linking("libdrop.so.1")),
              ElementsAre("/usr/bin/basebystander", "/usr/bin/baseconsumer", "tools:/usr/bin/tool"));
  EXPECT_TRUE(std::is_sorted(asked.begin(), asked.end()));
  EXPECT_THAT(asked, ::testing::IsSupersetOf({"/usr/bin/basebystander", "/usr/bin/baseconsumer",
                                              "/usr/bin/tool", "/usr/lib/libdrop.so.1"}));
}

}  // namespace
}  // namespace rocm_audit::testing
