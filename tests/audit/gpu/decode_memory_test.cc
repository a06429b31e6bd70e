// The decode memory shared by a run's workers: windows stay within one budget whatever the
// number of threads, a window larger than the budget is decoded alone, and released
// windows are reused rather than faulted in again.
#include "audit/gpu/decode_memory.h"

#include <gtest/gtest.h>

#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

constexpr size_t kMiB = size_t(1) << 20;

TEST(DecodeMemory, WindowsOfAllWorkersStayWithinTheBudget) {
  DecodeMemory memory(8 * kMiB);
  std::vector<std::thread> workers;
  for (int t = 0; t < 4; ++t)
    workers.emplace_back([&memory, t] {
      std::mt19937 random(t);
      for (int i = 0; i < 40; ++i) {
        size_t size = (1 + random() % 6) * kMiB;
        char* p = static_cast<char*>(memory.Allocate(size));
        ASSERT_NE(p, nullptr);
        std::memset(p, t, size);  // every byte of it is ours
        memory.Free(p);
      }
    });
  for (std::thread& w : workers) w.join();
  EXPECT_GT(memory.peak_large(), 0u);
  EXPECT_LE(memory.peak_large(), 8 * kMiB);
}

TEST(DecodeMemory, AWindowLargerThanTheBudgetIsGivenAloneThenSharedWithinItsSize) {
  DecodeMemory memory(4 * kMiB);
  void* big = memory.Allocate(10 * kMiB);
  ASSERT_NE(big, nullptr);
  std::atomic<bool> got{false};
  std::thread other([&] {
    void* p = memory.Allocate(2 * kMiB);  // must wait: the big one is in use
    got = true;
    memory.Free(p);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(got.load()) << "a second window was given while one over the budget was in use";
  memory.Free(big);
  other.join();
  EXPECT_TRUE(got.load());
  EXPECT_EQ(memory.peak_large(), 10 * kMiB);
  // That peak is paid: the block is kept for the next window, and windows may share its
  // 10 MiB from now on, but no more.
  void* a = memory.Allocate(6 * kMiB);
  EXPECT_EQ(a, big);
  std::atomic<bool> second{false};
  std::thread over([&] {
    void* c = memory.Allocate(2 * kMiB);  // 12 MiB in all: must wait
    second = true;
    memory.Free(c);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(second.load());
  memory.Free(a);
  over.join();
  EXPECT_EQ(memory.peak_large(), 10 * kMiB);
}

TEST(DecodeMemory, WaitsOnlyWhileAnotherWindowIsInUse) {
  DecodeMemory memory(4 * kMiB);
  void* first = memory.Allocate(3 * kMiB);  // rounded to 4 MiB: the whole budget
  std::atomic<bool> got{false};
  std::thread other([&] {
    void* p = memory.Allocate(2 * kMiB);
    got = true;
    memory.Free(p);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(got.load());
  memory.Free(first);
  other.join();
  EXPECT_LE(memory.peak_large(), 4 * kMiB);
}

// A thread that would rather do other work is told so instead of waiting, with the size it
// wanted; WouldGive says when that size fits again. Outside the scope it waits as before.
TEST(DecodeMemory, AThreadThatDefersIsToldInsteadOfWaiting) {
  DecodeMemory memory(4 * kMiB);
  void* first = memory.Allocate(3 * kMiB);
  std::thread other([&] {
    {
      DecodeMemory::DeferInsteadOfWaiting defer;
      EXPECT_EQ(memory.Allocate(2 * kMiB), nullptr);
      EXPECT_TRUE(defer.deferred());
      EXPECT_EQ(defer.wanted(), 2 * kMiB);
      DecodeMemory::DeferInsteadOfWaiting inner;  // nested scopes: the inner one is told
      EXPECT_EQ(memory.Allocate(3 * kMiB), nullptr);
      EXPECT_TRUE(inner.deferred());
      void* small = memory.Allocate(DecodeMemory::kLargeBlock / 2);  // no window: never deferred
      EXPECT_NE(small, nullptr);
      memory.Free(small);
    }
    EXPECT_FALSE(memory.WouldGive(2 * kMiB));
  });
  other.join();
  memory.Free(first);
  EXPECT_TRUE(memory.WouldGive(2 * kMiB));
  EXPECT_TRUE(memory.WouldGive(64 * kMiB)) << "nothing in use: a window over the budget is given alone";
  DecodeMemory::DeferInsteadOfWaiting defer;
  void* p = memory.Allocate(4 * kMiB);  // fits: given, not deferred
  EXPECT_NE(p, nullptr);
  EXPECT_FALSE(defer.deferred());
  memory.Free(p);
}

// WouldGive is what a deferring Allocate then does, whatever is in use, kept or over the
// budget: the reader takes a put-off file back only when its window would be given.
TEST(DecodeMemory, WouldGiveSaysWhatAllocateDoes) {
  std::mt19937 random(7);
  for (int run = 0; run < 20; ++run) {
    DecodeMemory memory(size_t(8 + random() % 8) * kMiB);
    std::vector<void*> held;
    int given = 0, deferred = 0;
    for (int step = 0; step < 60; ++step) {
      if (!held.empty() && random() % 3 == 0) {
        size_t i = random() % held.size();
        memory.Free(held[i]);
        held.erase(held.begin() + static_cast<std::ptrdiff_t>(i));
        continue;
      }
      const size_t size = (1 + random() % 20) * kMiB - random() % 4096;
      const bool would = memory.WouldGive(size);
      DecodeMemory::DeferInsteadOfWaiting defer;
      void* p = memory.Allocate(size);
      ASSERT_EQ(would, p != nullptr) << "run " << run << " step " << step << " size " << size;
      ASSERT_EQ(defer.deferred(), p == nullptr);
      if (p) {
        held.push_back(p);
        ++given;
      } else {
        ++deferred;
      }
    }
    for (void* p : held) memory.Free(p);
    EXPECT_GT(given, 0);
    EXPECT_GT(deferred, 0) << "run " << run << " never reached the budget";
  }
}

TEST(DecodeMemory, AReleasedWindowIsReusedAndGrownInPlace) {
  DecodeMemory memory(64 * kMiB);
  char* p = static_cast<char*>(memory.Allocate(3 * kMiB));
  std::memset(p, 7, 3 * kMiB);
  memory.Free(p);
  EXPECT_EQ(memory.Allocate(2 * kMiB), p);  // kept, large enough: the same pages
  memory.Free(p);
  // Larger than any kept block: the kept one grows, keeping what it holds.
  char* q = static_cast<char*>(memory.Allocate(9 * kMiB));
  EXPECT_EQ(q[3 * kMiB - 1], 7);
  memory.Free(q);
  EXPECT_EQ(memory.peak_large(), 10 * kMiB);  // 4 MiB grown to 10, never both
}

TEST(DecodeMemory, SmallBlocksAreNotWindowsAndNeverWait) {
  DecodeMemory memory(0);
  void* window = memory.Allocate(DecodeMemory::kLargeBlock);
  void* state = memory.Allocate(64 * 1024);  // a decoder's own state: given at once
  ASSERT_NE(state, nullptr);
  memory.Free(state);
  memory.Free(window);
  EXPECT_EQ(memory.peak_large(), 2 * kMiB);
}

// The file behind `p` in /proc/self/maps, "" for anonymous memory.
std::string MappedFile(const void* p) {
  std::ifstream maps("/proc/self/maps");
  const auto at = reinterpret_cast<uintptr_t>(p);
  for (std::string line; std::getline(maps, line);) {
    uintptr_t lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx", &lo, &hi) != 2 || at < lo || at >= hi) continue;
    size_t slash = line.find('/');
    return slash == std::string::npos ? "" : line.substr(slash);
  }
  return "";
}

TEST(DecodeMemory, WindowsPastTheAnonymousShareAreSpilledToAnUnnamedFile) {
  static_assert(DecodeMemory::kAnonWindows == 64 * kMiB);
  TempDir spill(DiskDir());
  const std::filesystem::path dir = spill.path();
  struct stat before{};
  ASSERT_EQ(stat(dir.c_str(), &before), 0);
  {
    DecodeMemory memory(256 * kMiB, {dir.string()});
    char* a = static_cast<char*>(memory.Allocate(48 * kMiB));  // within the 64 MiB share
    char* b = static_cast<char*>(memory.Allocate(32 * kMiB));  // 80 MiB: past it
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_FALSE(memory.Spilled(a));
    EXPECT_TRUE(memory.Spilled(b));
    EXPECT_EQ(MappedFile(a), "");
    EXPECT_EQ(MappedFile(b).rfind(dir.string() + "/", 0), 0u) << MappedFile(b);
    std::memset(b, 0x5a, 32 * kMiB);  // every byte of it is ours, and reads back
    EXPECT_EQ(b[0], 0x5a);
    EXPECT_EQ(b[32 * kMiB - 1], 0x5a);
    EXPECT_TRUE(std::filesystem::is_empty(dir)) << "a spill file has a name";
    memory.Free(b);
    // A larger spilled window grows the kept spilled block, keeping what it holds.
    char* c = static_cast<char*>(memory.Allocate(40 * kMiB));
    ASSERT_NE(c, nullptr);
    EXPECT_TRUE(memory.Spilled(c));
    EXPECT_EQ(c[32 * kMiB - 1], 0x5a);
    memory.Free(c);
    memory.Free(a);
    EXPECT_EQ(memory.peak_anon(), 48 * kMiB);
    EXPECT_EQ(memory.peak_large(), 88 * kMiB);
  }
  struct stat after{};
  ASSERT_EQ(stat(dir.c_str(), &after), 0);
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  EXPECT_EQ(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
  EXPECT_EQ(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec) << "the spill directory was written";
}

// A spilled window is reserved under the lock and mapped without it, so several workers may
// be mapping at once: what they reserve must still keep the anonymous share and the budget,
// and no two may be given the same bytes.
TEST(DecodeMemory, WorkersMappingAtOnceKeepTheShareAndTheBudget) {
  TempDir spill(DiskDir());
  DecodeMemory memory(128 * kMiB, {spill.path()});
  std::atomic<int> spilled{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < 4; ++t)
    workers.emplace_back([&memory, &spilled, t] {
      std::mt19937 random(t);
      for (int i = 0; i < 1000; ++i) {
        size_t size = (4 + random() % 28) * kMiB;
        char* p = static_cast<char*>(memory.Allocate(size));
        ASSERT_NE(p, nullptr);
        spilled += memory.Spilled(p);
        for (size_t at = 0; at < size; at += kMiB / 4) p[at] = static_cast<char>('a' + t);
        std::this_thread::yield();
        for (size_t at = 0; at < size; at += kMiB / 4)
          ASSERT_EQ(p[at], 'a' + t) << "another worker wrote here";
        memory.Free(p);
      }
    });
  for (std::thread& w : workers) w.join();
  EXPECT_GT(spilled.load(), 0);
  EXPECT_LE(memory.peak_anon(), DecodeMemory::kAnonWindows);
  EXPECT_LE(memory.peak_large(), 128 * kMiB);
}

// /dev/shm where it is a tmpfs (as on most systems), else nothing.
std::vector<std::string> TmpfsDirs() {
  struct statfs fs{};
  if (statfs("/dev/shm", &fs) == 0 && fs.f_type == TMPFS_MAGIC) return {"/dev/shm"};
  return {};
}

TEST(DecodeMemory, WithoutASpillDirectoryEveryWindowIsAnonymous) {
  std::vector<std::vector<std::string>> cases = {{}, {"/nonexistent/rocm-audit-spill"}};
  if (!TmpfsDirs().empty()) cases.push_back(TmpfsDirs());  // its pages would be memory too
  for (const std::vector<std::string>& dirs : cases) {
    const std::string name = dirs.empty() ? "(none)" : dirs[0];
    DecodeMemory memory(256 * kMiB, dirs);
    char* a = static_cast<char*>(memory.Allocate(100 * kMiB));
    ASSERT_NE(a, nullptr) << name;
    EXPECT_FALSE(memory.Spilled(a)) << name;
    std::memset(a, 1, 100 * kMiB);
    memory.Free(a);
    EXPECT_EQ(memory.peak_anon(), 100 * kMiB) << name;
  }
}

TEST(DecodeMemory, TheFirstSpillDirectoryThatGivesAFileIsUsed) {
  TempDir spill(DiskDir());
  const std::string dir = spill.path();
  std::vector<std::string> dirs = {"/nonexistent/rocm-audit-spill"};
  for (const std::string& tmpfs : TmpfsDirs()) dirs.push_back(tmpfs);
  dirs.push_back(dir);
  DecodeMemory memory(256 * kMiB, dirs);
  char* a = static_cast<char*>(memory.Allocate(100 * kMiB));
  ASSERT_NE(a, nullptr);
  EXPECT_TRUE(memory.Spilled(a));
  EXPECT_EQ(MappedFile(a).rfind(dir + "/", 0), 0u) << MappedFile(a);
  memory.Free(a);
}

}  // namespace
}  // namespace rocm_audit::testing
