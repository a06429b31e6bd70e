// What the bundle reader learns about device code: clang offload bundles (plain or
// compressed "CCOB"), their entries, and the code object inside each device entry.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "audit/gpu/amdgpu_target.h"
#include "audit/gpu/code_object.h"

namespace rocm_audit {

class DecodeMemory;

/// A defect found while reading device code. The bundle-integrity check turns it into a
/// finding (malformed-bundle or bundle-id-mismatch).
struct BundleProblem {
  enum Kind {
    kMalformed,       ///< the runtime cannot read it: sizes, compression, tables, wrappers
    kIdMismatch,      ///< an entry ID names another target than its code object's e_flags
    kUnknownTarget,   ///< e_flags name no known processor, or the ABI version is unknown
    kOverstatedSize,  ///< a CCOB header claims more than its stream holds: read at the real size
  } kind;
  std::string message;
  /// The ID of the entry it is about, as stored; none for the bundle as a whole. Findings
  /// about two entries of one bundle differ in it, and so do their keys.
  std::optional<std::string> entry = std::nullopt;  // most problems are the whole bundle's
};

struct BundleEntry {
  std::string id;  ///< as stored (trailing NULs removed)
  std::optional<BundleEntryId> parsed;
  std::optional<TargetId> target;  ///< device entries whose ID names a target
  uint64_t offset = 0;             ///< within the (uncompressed) bundle
  uint64_t size = 0;
  std::optional<CodeObjectInfo> code_object;
  /// "code-object" (AMDGPU ELF), "bitcode" (-fgpu-rdc objects, before the device link),
  /// "other" (e.g. SPIR-V), "" (host or empty entries)
  std::string content;
};

enum class BundleFormat { kPlain, kCcob, kObjectSections, kCodeObject, kOffloadBinary };
/// plain | ccob | sections | code-object | offload-binary
std::string_view BundleFormatName(BundleFormat f);

struct Bundle {
  std::string section;       ///< ELF section holding it ("" for a standalone file)
  std::string member;        ///< archive member holding it ("" outside archives)
  uint64_t offset = 0;       ///< within the section, member or file
  uint64_t file_offset = 0;  ///< from the start of the file (of the archive, for members)
  BundleFormat format = BundleFormat::kPlain;
  int ccob_version = 0;
  std::string compression;         ///< "zstd" | "zlib" (CCOB only)
  uint64_t compressed_size = 0;    ///< CCOB: header + payload; plain: the bundle's extent
  uint64_t uncompressed_size = 0;  ///< the bundle as the runtime sees it
  std::optional<uint64_t> hash;    ///< CCOB: truncated MD5 from the header
  std::optional<bool> hash_ok;     ///< set when --verify-hash checked it
  std::vector<BundleEntry> entries;
  std::vector<BundleProblem> problems;
};

/// Limits and switches for reading bundles.
struct BundleReadOptions {
  uint64_t max_decompressed = uint64_t(2) << 30;  ///< per bundle; more is malformed-bundle
  bool verify_hash = false;
  /// false: read no device code at all (no running check needs it; facts on demand).
  bool read_device_code = true;
  /// Where zstd windows come from, shared by a run's workers (--decode-memory); nullptr:
  /// each decode allocates its own.
  DecodeMemory* memory = nullptr;
  /// Called with the bytes of each bundle of a sequence (a fat binary's .hip_fatbin) once it
  /// has been read, before the next is: the caller may give back their pages then, so that a
  /// file of 2 GB of bundles holds one bundle's pages at a time, not every page it touched.
  std::function<void(std::string_view)> bundle_read;
};

}  // namespace rocm_audit
