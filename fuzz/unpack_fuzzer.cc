// The package unpacker: the input is a package file of the kind its bytes say (.deb, .rpm,
// wheel, conda, tarball, zip; a tarball when they say nothing), unpacked with libarchive into
// a fresh private directory under the caps a run uses, lowered to keep each input quick.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "audit/unpack/package_format.h"
#include "audit/unpack/unpack.h"
#include "fuzz_dir.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rocm_audit;
  namespace fs = std::filesystem;
  const std::string package = FuzzDir() + "/package";
  const std::string into = FuzzDir() + "/into";
  {
    std::ofstream out(package, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
  }
  std::string_view head(reinterpret_cast<const char*>(data), size < 512 ? size : 512);
  PackageFormat format = DetectPackageFormat("package", head).value_or(PackageFormat::kTar);
  fs::remove_all(into);
  fs::create_directory(into);
  UnpackBudget budget;
  budget.limits.max_bytes = 16 << 20;
  // Each member is a file created and removed in the kernel: with 2,000 allowed, inputs that
  // grew to the cap took 40 ms of system time each and the target ran 4 inputs a second. The
  // cap's path is the same at 64; the real limits are the hostile-input suite's.
  budget.limits.max_members = 64;
  std::vector<UnpackProblem> problems;
  UnpackedPackage unpacked = UnpackPackage(package, format, into, &budget, &problems);
  return unpacked.members.size() == SIZE_MAX;
}
