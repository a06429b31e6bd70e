#include "audit/gpu/bundle_table.h"

#include <llvm/Support/Endian.h>

#include <algorithm>

namespace rocm_audit {
namespace {

// No bundle has more entries than this (one per offload arch plus a host): a count above
// it is a corrupt header, and refusing it early bounds the table we hold.
constexpr uint64_t kMaxEntries = 4096;
constexpr uint64_t kMaxIdLength = 4096;

uint64_t U64(std::string_view b, size_t at) { return llvm::support::endian::read64le(b.data() + at); }

}  // namespace

std::string_view BundleFormatName(BundleFormat f) {
  switch (f) {
    case BundleFormat::kPlain: return "plain";
    case BundleFormat::kCcob: return "ccob";
    case BundleFormat::kObjectSections: return "sections";
    case BundleFormat::kCodeObject: return "code-object";
    case BundleFormat::kOffloadBinary: return "offload-binary";
  }
  return "plain";
}

TableStatus ParseBundleTable(std::string_view prefix, uint64_t bundle_size, std::vector<BundleEntry>* entries,
                             uint64_t* table_end, std::string* error) {
  entries->clear();
  const uint64_t header = kBundleMagic.size() + 8;
  if (bundle_size < header) {
    *error = "bundle of " + std::to_string(bundle_size) + " bytes is shorter than its header";
    return TableStatus::kError;
  }
  if (prefix.size() < header) return TableStatus::kNeedMore;
  if (prefix.substr(0, kBundleMagic.size()) != kBundleMagic) {
    *error = "no __CLANG_OFFLOAD_BUNDLE__ magic";
    return TableStatus::kError;
  }
  uint64_t count = U64(prefix, kBundleMagic.size());
  if (count > kMaxEntries) {
    *error = "entry count " + std::to_string(count) + " is over rocm-audit's cap of " +
             std::to_string(kMaxEntries) + " entries per bundle (one per offload target and a host)";
    return TableStatus::kError;
  }
  if (count == 0 || count > (bundle_size - header) / 24) {
    *error = "entry count " + std::to_string(count) + " does not fit the bundle";
    return TableStatus::kError;
  }
  uint64_t at = header;
  for (uint64_t i = 0; i < count; ++i) {
    if (at + 24 > bundle_size) {
      *error = "entry table runs past the end of the bundle";
      return TableStatus::kError;
    }
    if (at + 24 > prefix.size()) return TableStatus::kNeedMore;
    BundleEntry e;
    e.offset = U64(prefix, at);
    e.size = U64(prefix, at + 8);
    uint64_t id_length = U64(prefix, at + 16);
    at += 24;
    if (id_length > kMaxIdLength) {
      *error = "entry " + std::to_string(i) + " has an ID length of " + std::to_string(id_length) +
               ", over rocm-audit's cap of " + std::to_string(kMaxIdLength) + " bytes";
      return TableStatus::kError;
    }
    if (id_length == 0 || id_length > bundle_size - at) {
      *error = "entry " + std::to_string(i) + " has an ID length of " + std::to_string(id_length);
      return TableStatus::kError;
    }
    if (at + id_length > prefix.size()) return TableStatus::kNeedMore;
    e.id = std::string(prefix.substr(at, id_length));
    while (!e.id.empty() && e.id.back() == '\0') e.id.pop_back();
    at += id_length;
    if (e.offset > bundle_size || e.size > bundle_size - e.offset) {
      *error = "entry '" + e.id + "' (offset " + std::to_string(e.offset) + ", size " +
               std::to_string(e.size) + ") runs past the end of the bundle (" + std::to_string(bundle_size) +
               " bytes)";
      return TableStatus::kError;
    }
    entries->push_back(std::move(e));
  }
  *table_end = at;
  for (const auto& e : *entries)
    if (e.size > 0 && e.offset < at) {
      *error = "entry '" + e.id + "' overlaps the entry table";
      return TableStatus::kError;
    }
  return TableStatus::kOk;
}

uint64_t BundleExtent(const std::vector<BundleEntry>& entries, uint64_t table_end) {
  uint64_t end = table_end;
  for (const auto& e : entries) end = std::max(end, e.offset + e.size);
  return end;
}

}  // namespace rocm_audit
