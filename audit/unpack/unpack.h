// Packages given as PATH arguments, unpacked with libarchive into one private directory so
// that they are audited as installed together: .deb (the ar envelope, data.tar.*, and the
// control file), .rpm, wheels, conda packages (.conda and .tar.bz2), plain tarballs and zips.
// Unpacking trusts nothing: member names with ".." or absolute names, links that leave the
// package, device nodes, FIFOs and sockets are refused; set-id bits are dropped; the total
// size, the member count and the compression ratio are capped. Each refusal and cap is a
// problem (a finding later), never a crash, and nothing is written outside the directory:
// no write follows a symbolic link.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "audit/unpack/package_format.h"

namespace rocm_audit {

struct UnpackLimits {
  uint64_t max_bytes = uint64_t(8) << 30;  ///< --max-unpacked: one package's unpacked bytes
  uint64_t max_members = 200000;           ///< --max-members: one package's members
  uint64_t max_ratio = 200;                ///< --max-ratio: unpacked / compressed bytes, past 1 MiB
};

/// Something unpacking refused or stopped at.
struct UnpackProblem {
  std::string package;  ///< the package file, as given
  std::string member;   ///< the member's name in the package ("" for the package as a whole)
  bool limit = false;   ///< a cap was hit (the rest of the package was not unpacked)
  std::string reason;
  bool upload = false;  ///< of an upload (.changes): a listed file missing or not matching, no binaries
};

struct UnpackedPackage {
  std::string file;  ///< as given on the command line
  PackageFormat format = PackageFormat::kTar;
  std::string name;          ///< Package:, Name:, index.json's name; the file name otherwise
  std::string version;       ///< "" when the package does not say
  std::string architecture;  ///< a .deb's Architecture ("amd64", "all"); "" otherwise
  std::vector<std::string> depends;
  /// Regular files and links written, relative to the directory ("usr/lib/libx.so.1").
  std::vector<std::string> members;
  std::vector<std::string> provides;  ///< a .deb's Provides, one relation each ("libfoo-abi-1 (= 2)")
  /// A .deb's Source: its name ("" when it does not say: the source is named as the
  /// package, deb-control(5)) and the "(version)" after it ("" when absent: the binary's).
  std::string source, source_version;
  /// A .deb's Conflicts, Breaks and Replaces, one relation each ("libfoo1 (<< 2.0)").
  std::vector<std::string> conflicts, breaks, replaces;
};

/// One package's running totals against the caps: each package has its own, so that what
/// one package unpacks never counts against another and a set's verdicts are order-free.
struct UnpackBudget {
  UnpackLimits limits;
  uint64_t bytes = 0;
  uint64_t members = 0;
};

/// Unpacks `file` (of `format`) into `into`, an existing private directory. The format is
/// refined from what the package holds (a zip with *.dist-info/ is a wheel, a tarball with
/// info/index.json a conda package).
UnpackedPackage UnpackPackage(const std::string& file, PackageFormat format, const std::string& into,
                              UnpackBudget* budget, std::vector<UnpackProblem>* problems);

}  // namespace rocm_audit
