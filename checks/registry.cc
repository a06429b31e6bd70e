#include "checks/registry.h"

#include <array>

namespace rocm_audit {
namespace {

constexpr std::array kChecks = {
    CheckInfo{"undefined-symbol", Severity::kError,
              "a non-weak undefined dynamic symbol that no object in the load scope defines",
              "link the library that defines the symbol (add it to the link line or to the "
              "static library's dependency list), or stop referencing it"},
    CheckInfo{"missing-version", Severity::kError,
              "a needed symbol version (DT_VERNEED) that the resolved library does not define",
              "build against the oldest library version you target (e.g. an older libstdc++), "
              "or ship/require the newer library"},
    CheckInfo{"unresolved-library", Severity::kError,
              "a DT_NEEDED library that the loader would not find",
              "add the providing package as a dependency, or fix RUNPATH (e.g. $ORIGIN/../lib) "
              "so the loader finds the library"},
    CheckInfo{"rpath-build-dir", Severity::kWarning,
              "an RPATH/RUNPATH entry pointing into a build tree (/build/, *-build, build-*, _build, "
              "cmake-build-*) or a temporary directory",
              "drop the entry (CMAKE_SKIP_INSTALL_RPATH, chrpath -d, patchelf --remove-rpath) "
              "or replace it with $ORIGIN-relative paths"},
    CheckInfo{"rpath-missing-dir", Severity::kNote,
              "an RPATH/RUNPATH entry naming a directory that does not exist",
              "remove the stale entry"},
    CheckInfo{"rpath-absolute-outside", Severity::kWarning,
              "an absolute RPATH/RUNPATH entry outside the audited prefix",
              "use $ORIGIN-relative entries so the tree can be relocated"},
    CheckInfo{"rpath-relative", Severity::kWarning,
              "a relative RPATH/RUNPATH entry, resolved against the process's working directory",
              "use $ORIGIN/... instead of a relative path"},
    CheckInfo{"mixed-soname", Severity::kError,
              "two major versions (sonames) of one library in one load closure, or across the tree",
              "rebuild the stale component against the current major version of the library"},
    CheckInfo{"dangling-symlink", Severity::kWarning, "a symbolic link whose target does not exist",
              "ship the target (for a -dev package's libfoo.so link: the versioned library) or remove the link"},
    CheckInfo{"symlink-loop", Severity::kWarning, "a symbolic link that loops back on itself",
              "fix the link target"},
    CheckInfo{"malformed-file", Severity::kError,
              "a file that looks like an object/archive but cannot be parsed",
              "rebuild or re-extract the file; it is truncated or corrupt"},
    CheckInfo{"unreadable-file", Severity::kWarning, "a file or directory the audit cannot read",
              "fix the permissions, or run the audit as a user that can read the tree"},
    CheckInfo{"malformed-bundle", Severity::kError,
              "an offload bundle (plain or CCOB) or code object the HIP runtime cannot read: "
              "truncated, sizes past the end, corrupt compression, hash mismatch, bad wrapper",
              "rebuild the device code (clang --offload-arch ... [--offload-compress]); a "
              "stripped or patched file may have cut the .hip_fatbin section"},
    CheckInfo{"bundle-id-mismatch", Severity::kError,
              "a bundle entry whose code object is for another processor or feature mode than its ID says",
              "rebuild the bundle with clang-offload-bundler from the matching code objects"},
    CheckInfo{"missing-arch", Severity::kError,
              "a required GPU target (--require-arch) that no device code in the file can serve",
              "add the target to GPU_TARGETS / AMDGPU_TARGETS (or --offload-arch) and rebuild"},
    CheckInfo{"ccob-isa-compat", Severity::kWarning,
              "a required GPU target served only through the distro's extended ISA compatibility, "
              "by a compressed bundle the runtime looks up by exact ID",
              "build the target natively (add it to GPU_TARGETS), or build without --offload-compress"},
    CheckInfo{"stack-arch-gap", Severity::kWarning,
              "a GPU target served by some device-code libraries of a load closure but not by all",
              "rebuild the lagging libraries for the target, or drop it from the others' GPU_TARGETS"},
    CheckInfo{"missing-arch-data", Severity::kError,
              "rocBLAS/hipBLASLt device code for a processor without its Tensile data, or data "
              "without code (rocblas_status 14 / \"excluded from build\" at run time)",
              "build Tensile for the same architecture list as the library (Tensile_ARCHITECTURE / "
              "GPU_TARGETS) and install its library/ directory"},
};

}  // namespace

std::span<const CheckInfo> AllChecks() { return kChecks; }

const CheckInfo* FindCheck(std::string_view id) {
  for (const CheckInfo& c : kChecks)
    if (c.id == id) return &c;
  return nullptr;
}

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kNote: return "note";
    case Severity::kWarning: return "warning";
    case Severity::kError: return "error";
  }
  return "error";
}

bool ParseSeverity(std::string_view text, Severity* out) {
  if (text == "error") *out = Severity::kError;
  else if (text == "warning") *out = Severity::kWarning;
  else if (text == "note") *out = Severity::kNote;
  else return false;
  return true;
}

}  // namespace rocm_audit
