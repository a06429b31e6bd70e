// Shared helpers for every test: temporary trees built with the real toolchain through
// fixtures/lib.sh, commands, files, and where the corpus is. Nothing here knows the core.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

// ROCM_AUDIT_ASAN: the tool is built with AddressSanitizer (GCC says so by a macro, clang by
// a feature; a test compiled without it in a sanitized build by ROCM_AUDIT_SANITIZED_BUILD,
// tests/CMakeLists.txt), whose shadow reserves terabytes of address space and which runs
// several times slower, so tests that bound a child's address space or CPU time widen or drop
// those bounds.
#if defined(__SANITIZE_ADDRESS__) || defined(ROCM_AUDIT_SANITIZED_BUILD)
#define ROCM_AUDIT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ROCM_AUDIT_ASAN 1
#endif
#endif

// The only reasons a test may skip, each printed as its code first ("[skip:no-corpus] no
// corpus at /root/rocm-corpus"): CI (.ci/lib.sh, check_skips) accepts a skip by its code, never
// by its wording. A missing tool is no reason: it is a failure.
//   no-corpus        Debian's ROCm packages (CorpusRoot()) are not on this machine;
//   needs-root       the test does what only root may (chroot(2), mknod(2));
//   installed-world  packages the test audits in place are not installed (tests/cmake-world).
#define ROCM_AUDIT_SKIP_NO_CORPUS GTEST_SKIP() << "[skip:no-corpus] "
#define ROCM_AUDIT_SKIP_NEEDS_ROOT GTEST_SKIP() << "[skip:needs-root] "
#define ROCM_AUDIT_SKIP_NO_INSTALLED_WORLD GTEST_SKIP() << "[skip:installed-world] "

namespace rocm_audit::testing {

/// How many times slower a sanitized build runs what a time bound measures: bounds on CPU
/// seconds are multiplied by it.
#ifdef ROCM_AUDIT_ASAN
inline constexpr double kSanitizerSlowdown = 8;
#else
inline constexpr double kSanitizerSlowdown = 1;
#endif

/// A fresh directory, removed with everything in it when the object dies; under `parent`
/// when given (a test that needs a disk, not the tmpfs /tmp may be), else the temp directory.
class TempDir {
 public:
  explicit TempDir(const std::string& parent = "");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& rel) const { return path_ + "/" + rel; }

 private:
  std::string path_;
};

/// A directory on disk whatever /tmp is (the build tree, the tests' working directory): for
/// what refuses a tmpfs, as spill files do. Give it to TempDir as the parent.
std::string DiskDir();

/// Runs `script` with bash in `dir`, after sourcing fixtures/lib.sh (mklib, mkexe, ...).
/// Fails the current test (and returns false) when the script fails.
bool BuildTree(const std::string& dir, const std::string& script);

/// Runs a shell command; returns its exit status and its standard output.
int RunCommand(const std::string& command, std::string* output = nullptr);

/// The shell command that configures the CMake project in `src` into `build` and builds it,
/// with this build's cmake and generator, the repository's RocmAudit module on the module
/// path, this build's rocm-audit and the install prefix `prefix`. `defines` goes on the
/// configure line; `redirect` (e.g. ">/dev/null", "2>&1") after each of the two steps.
std::string CMakeModuleProjectCommand(const std::string& src, const std::string& build,
                                      const std::string& prefix, const std::string& defines = "",
                                      const std::string& redirect = "");

/// The lines of `text`, each without its '\n'; a last line without one is a line too. For a
/// test that pins a whole line of output: EXPECT_THAT(Lines(out), Contains("the line")).
std::vector<std::string> Lines(std::string_view text);

/// The whole file (empty when it cannot be read).
std::string ReadAll(const std::string& path);
void WriteAll(const std::string& path, std::string_view bytes);

/// The real-package corpus: $CORPUS, default $HOME/rocm-corpus (may not exist).
std::string CorpusRoot();

/// True when CorpusRoot() is the slice CI fetches (tests/corpus/fetch_slice.py), about 50 of
/// the corpus's 170 packages: a test pinned to the whole corpus's facts skips there as
/// "no-corpus", a test that needs packages the slice lacks skips too, and the agreement
/// tests compare what is there, with lower floors.
bool CorpusIsSlice();

/// The least number of files an agreement test must compare: `whole` on the whole corpus,
/// `slice` on the slice (a floor keeps a test from passing on an empty tree).
size_t CorpusFloor(size_t whole, size_t slice);

/// Skips the test ("no-corpus") when the corpus is the slice: what it asserts holds for the
/// whole corpus only.
#define ROCM_AUDIT_SKIP_ON_CORPUS_SLICE                                                                   \
  if (::rocm_audit::testing::CorpusIsSlice())                                                             \
  ROCM_AUDIT_SKIP_NO_CORPUS << "the test needs the whole corpus; " << ::rocm_audit::testing::CorpusRoot() \
                            << " is the slice of tests/corpus/slice.tsv"

/// Skips the test ("no-corpus") when the slice lacks `path`; on the whole corpus the test
/// goes on (and fails where the file is needed).
#define ROCM_AUDIT_SKIP_IF_SLICE_LACKS(path)                                                              \
  if (::rocm_audit::testing::CorpusIsSlice() && !std::filesystem::exists(path))                           \
  ROCM_AUDIT_SKIP_NO_CORPUS << "the corpus slice at " << ::rocm_audit::testing::CorpusRoot() << " lacks " \
                            << (path)

}  // namespace rocm_audit::testing
