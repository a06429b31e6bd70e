#include "audit/gpu/offload_binary.h"

#include <llvm/Object/OffloadBinary.h>
#include <llvm/Support/Endian.h>

#include <algorithm>
#include <cstring>

#include "audit/gpu/bundle_reader.h"
#include "audit/support/llvm_expected.h"

namespace rocm_audit {
namespace {

using llvm::support::endian::read16le;
using llvm::support::endian::read32le;
using llvm::support::endian::read64le;

constexpr uint64_t kHeaderSize = 32;  // magic, version, size, entry offset, entry size
constexpr uint64_t kEntrySize = 40;   // kinds, flags, string table, image
constexpr uint64_t kStringEntrySize = 16;

// What LLVM 19's OffloadBinary::create leaves to the producer: the string table, every
// string's terminator and the image must lie inside the record. "" when they do.
std::string CheckRecord(std::string_view r) {
  if (r.size() < kHeaderSize + kEntrySize) return "shorter than a header and an entry";
  if (read32le(r.data() + 4) != llvm::object::OffloadBinary::Version)
    return "version " + std::to_string(read32le(r.data() + 4)) + " (LLVM 19 reads version 1)";
  uint64_t size = read64le(r.data() + 8), entry = read64le(r.data() + 16);
  if (size < kHeaderSize + kEntrySize || size > r.size()) return "its size field runs past the section";
  if (entry > size - kEntrySize) return "its entry lies outside it";
  // LLVM reads the entry and the string table in place as 8-byte aligned structures (its
  // writer aligns them; a hostile file need not).
  if (entry % 8 != 0) return "its entry is not 8-byte aligned";
  const char* e = r.data() + entry;
  uint64_t strings = read64le(e + 8), count = read64le(e + 16), image = read64le(e + 24),
           image_size = read64le(e + 32);
  if (strings > size || count > (size - strings) / kStringEntrySize)
    return "its string table lies outside it";
  if (strings % 8 != 0) return "its string table is not 8-byte aligned";
  for (uint64_t i = 0; i < count; ++i)
    for (uint64_t field : {uint64_t(0), uint64_t(8)}) {
      uint64_t at = read64le(r.data() + strings + i * kStringEntrySize + field);
      if (at >= size || !std::memchr(r.data() + at, '\0', size - at)) return "a string runs outside it";
    }
  if (image > size || image_size > size - image) return "its image lies outside it";
  return "";
}

std::string KindName(llvm::object::OffloadKind kind) {
  switch (kind) {
    case llvm::object::OFK_HIP: return "hipv4";  // V4+ code objects: a feature left out is "any"
    case llvm::object::OFK_OpenMP: return "openmp";
    case llvm::object::OFK_Cuda: return "cuda";
    default: return "unknown";
  }
}

}  // namespace

Bundle ReadOffloadSection(std::string_view section, const BundleContainer& where) {
  Bundle b;
  b.section = where.section;
  b.member = where.member;
  b.file_offset = where.file_offset;
  b.format = BundleFormat::kOffloadBinary;
  b.compressed_size = b.uncompressed_size = section.size();
  for (uint64_t pos = 0; pos < section.size();) {
    if (section[pos] == '\0') {  // alignment fill between records
      ++pos;
      continue;
    }
    std::string_view rest = section.substr(pos);
    std::string why = rest.starts_with("\x10\xff\x10\xad") ? CheckRecord(rest) : "no OffloadBinary magic";
    if (!why.empty()) {
      b.problems.push_back(
          {BundleProblem::kMalformed, "offload binary at +" + std::to_string(pos) + ": " + why});
      break;
    }
    uint64_t size = read64le(rest.data() + 8);
    // LLVM reads records in place and wants them 8-byte aligned; a copy is.
    std::vector<uint64_t> aligned((size + 7) / 8);
    std::memcpy(aligned.data(), rest.data(), size);
    llvm::MemoryBufferRef ref(llvm::StringRef(reinterpret_cast<const char*>(aligned.data()), size),
                              "offload");
    auto binary = llvm::object::OffloadBinary::create(ref);
    if (!Take(binary)) {
      b.problems.push_back(
          {BundleProblem::kMalformed, "offload binary at +" + std::to_string(pos) + ": not readable"});
      break;
    }
    const llvm::object::OffloadBinary& ob = **binary;
    std::string triple = ob.getTriple().str();
    size_t dashes = std::count(triple.begin(), triple.end(), '-');
    BundleEntry e;
    e.id = KindName(ob.getOffloadKind()) + "-" + triple + (dashes == 2 ? "-" : "") + "-" + ob.getArch().str();
    llvm::StringRef image = ob.getImage();
    e.offset = pos + static_cast<uint64_t>(image.data() - reinterpret_cast<const char*>(aligned.data()));
    e.size = image.size();
    InspectEntry(&e, b.entries.size(), std::string_view(image.data(), image.size()), &b.problems);
    b.entries.push_back(std::move(e));
    pos += size;
  }
  return b;
}

}  // namespace rocm_audit
