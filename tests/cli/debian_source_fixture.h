// A small Debian source of three binary packages, as a packager writes one, for the tests
// that build it with the real dpkg-buildpackage and debhelper: libroctap1 (a library),
// roctap-tools (a program linking it, a man page and a dangling man-page link) and
// libroctap-dev (a header, a CMake package config naming the library, the libroctap.so link,
// a README installed as a document). Every package gets the changelog and copyright files
// debhelper installs. Defects can be planted in two of them. With `common_package`, a fourth,
// roctap-common (Architecture: all), ships CMake macros the -dev config include()s (the -dev
// Depends on it) and a CMake config of its own naming roctap-tools' program (it Depends on
// roctap-tools): each needs a file of a package an arch-only build (-B, -A) does not make.
#pragma once

#include <string>

namespace rocm_audit::testing {

struct RoctapSource {
  std::string version = "1.0-1";
  std::string build_depends;               ///< appended to Build-Depends (", dh-sequence-rocm-audit")
  std::string dh_options;                  ///< appended to the dh line ("--with rocm-audit")
  bool undefined_symbol = false;           ///< libroctap1 calls roc_missing, which nothing defines
  bool config_names_missing_file = false;  ///< the -dev config names libroctap.a, never installed
  bool common_package = false;             ///< roctap-common, Architecture: all (above)
  bool common_lacks_macros = false;        ///< roctap-common does not ship the macros the -dev includes
};

/// Writes the source into `dir` (made).
void WriteRoctapSource(const std::string& dir, const RoctapSource& source);

/// The command that builds the source in `dir` with dpkg-buildpackage `flags` (unsigned,
/// build dependencies not checked, no tests; -dbgsym packages made, as for an upload), with this tree's
/// debhelper add-on and this build's rocm-audit first on the paths; its output on stdout.
/// `env` (NAME=VALUE words) is set for the build.
std::string BuildPackageCommand(const std::string& dir, const std::string& flags = "-b",
                                const std::string& env = "");

/// A root holding only the host's libc and its loader (merged /usr, as Debian 12's), and an
/// empty dpkg database: packages are installed into it with dpkg --root, and it is $DPKG_ROOT
/// to the hooks, so the system running the test is never changed.
void MakeRoot(const std::string& root);

/// The directory of this build's rocm-audit binary.
std::string RocmAuditBinDir();

}  // namespace rocm_audit::testing
