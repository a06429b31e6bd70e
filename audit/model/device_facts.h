// What a file's device code is, as reports show it: each offload bundle, each entry, and
// the AMDGPU code object inside each device entry. Projected from the GPU reader's own
// structures (audit/gpu) so that renderers need nothing but the model.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rocm_audit {

struct CodeObjectFacts {
  uint32_t mach = 0;                     ///< e_flags & EF_AMDGPU_MACH
  std::optional<std::string> processor;  ///< nullopt when the mach value is unknown
  std::string xnack;                     ///< "any" | "on" | "off" | "unsupported"
  std::string sramecc;                   ///< the same
  std::optional<int> abi_version;        ///< code object version 2..6 (HSA), when known
  std::optional<uint64_t> kernels;       ///< from NT_AMDGPU_METADATA, when read
  std::string type;                      ///< "dyn" | "rel" | "other"
  std::optional<int> generic_version;    ///< generic targets only
};

struct BundleEntryFacts {
  std::string id;                        ///< as stored
  std::optional<std::string> kind;       ///< hip, hipv4, host, ... (nullopt: unparsable ID)
  std::optional<std::string> target_id;  ///< gfx90a:xnack+ (device entries naming a target)
  std::optional<std::string> processor;
  std::optional<std::string> features;  ///< ":sramecc+:xnack-" ("" when both are any)
  uint64_t offset = 0;                  ///< within the uncompressed bundle
  uint64_t size = 0;
  std::string content;  ///< "code-object" | "bitcode" | "other" | ""
  std::optional<CodeObjectFacts> code_object;
};

struct BundleFacts {
  std::string section;       ///< "" for a standalone file
  std::string member;        ///< archive member, "" outside archives
  uint64_t offset = 0;       ///< within the section, member or file
  uint64_t file_offset = 0;  ///< from the start of the file
  std::string format;        ///< "plain" | "ccob" | "sections" | "code-object"
  std::optional<int> ccob_version;
  std::optional<std::string> compression;  ///< "zstd" | "zlib"
  uint64_t compressed_size = 0;
  uint64_t uncompressed_size = 0;
  std::optional<uint64_t> hash;  ///< CCOB header's truncated MD5
  std::optional<bool> hash_ok;   ///< set when --verify-hash checked it
  bool valid = true;             ///< no problem found in it
  std::vector<BundleEntryFacts> entries;
};

/// How a file's device code serves a processor, best first: code for it in every xnack and
/// sramecc mode, through its generic target (gfx10-3-generic for gfx1031), for some modes
/// only (gfx90a:xnack+ alone), or only through the distro's ISA compatibility (--isa-compat).
enum class Served { kAllModes, kGeneric, kSomeModes, kIsaCompat };

struct ServedProcessor {
  std::string processor;
  Served how = Served::kAllModes;
};

struct DeviceFacts {
  std::vector<BundleFacts> bundles;
  std::vector<std::string> targets;  ///< distinct target IDs the entries serve, sorted
  size_t fatbin_wrappers = 0;        ///< .hipFatBinSegment records read
  /// Every processor the device code serves at all, in processor order: the arch matrix
  /// (text and HTML). Not part of the JSON report.
  std::vector<ServedProcessor> served;
};

/// In a load closure, the libraries with device code and the targets all of them serve.
struct DeviceStackFacts {
  std::vector<std::string> libraries;  ///< display paths, load order
  std::vector<std::string> common_targets;
};

/// rocBLAS/hipBLASLt's Tensile data directory beside the library.
struct ArchDataFacts {
  std::string library;                  ///< "rocBLAS" | "hipBLASLt"
  std::string dir;                      ///< "" when none was found
  std::vector<std::string> processors;  ///< processors its files name, sorted
};

}  // namespace rocm_audit
