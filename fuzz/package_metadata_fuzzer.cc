// Package metadata, each reader on the bytes after the input's first byte, which picks it:
// 0 a .deb's control file, 1 a wheel's METADATA, 2 a conda index.json, 3 an RPM file's lead
// and headers, 4 a zip's central directory (overlapping entries), 5 a dist-info's RECORD and
// WHEEL beside an extension module (the wheel index of plugin hosts).
#include <cstdint>
#include <fstream>
#include <string>

#include "audit/inspect/plugin_wheel.h"
#include "audit/unpack/package_metadata.h"
#include "audit/unpack/rpm_header.h"
#include "audit/unpack/zip_overlap.h"
#include "fuzz_dir.h"

namespace {

void Write(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), std::streamsize(bytes.size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rocm_audit;
  if (size == 0) return 0;
  const std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  UnpackedPackage out;
  switch (data[0] % 6) {
    case 0: ApplyDebControl(bytes, &out); break;
    case 1: ApplyWheelMetadata(bytes, &out); break;
    case 2: ApplyCondaIndex(bytes, &out); break;
    case 3: {
      const std::string rpm = FuzzDir() + "/package.rpm";
      Write(rpm, bytes);
      out.name = ReadRpmHeader(rpm, &out);
      break;
    }
    case 4: out.name = ZipOverlapsIn(bytes, 64); break;
    case 5: {
      // RECORD and WHEEL both hold the input; the module is looked up two levels below.
      const std::string dir = FuzzDir() + "/site/w-1.dist-info";
      std::filesystem::create_directories(dir);
      Write(dir + "/RECORD", bytes);
      Write(dir + "/WHEEL", bytes);
      std::optional<WheelAbi> abi = WheelIndex().AbiOf(FuzzDir() + "/site/pkg/ext.abi3.so");
      out.name = abi ? abi->tag : "";
      break;
    }
  }
  return out.name.size() == SIZE_MAX;
}
