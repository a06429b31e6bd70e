#include "audit/gpu/bundle_reader.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Object/ELF.h>
#include <llvm/Support/MD5.h>

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "audit/gpu/bundle_table.h"
#include "audit/gpu/ccob.h"
#include "audit/support/hex.h"
#include "audit/support/llvm_expected.h"

namespace rocm_audit {
namespace {

// A streamed entry keeps at most its first bytes: header, program headers and notes.
// More than this means a hostile note segment, and the kernels stay uncounted.
constexpr uint64_t kMaxEntryPrefix = 16 << 20;
constexpr uint64_t kFirstPrefix = 4096;
// The prefixes a streamed bundle keeps, all its entries together: entries at one offset
// share one prefix, so only a table of distinct overlapping entries comes near it.
constexpr uint64_t kMaxPrefixBytes = uint64_t(256) << 20;
// A table this large is not a real bundle's (entry IDs are a few dozen bytes).
constexpr uint64_t kMaxStreamedTable = 1 << 20;

void Problem(std::vector<BundleProblem>* out, BundleProblem::Kind kind, std::string message) {
  out->push_back({kind, std::move(message)});
}

// A code object the runtime cannot place: a processor (e_flags mach) or a code object ABI
// version (EI_ABIVERSION, HSA) that no loader rocm-audit models knows. "" when it is fine.
std::string UnknownTarget(const CodeObjectInfo& co) {
  if (co.processor.empty())
    return "e_flags mach " + Hex(co.mach) +
           " names no AMDGPU processor known to rocm-audit (LLVM 19's table and "
           "the newer processors it adds): no runtime of that era can load it";
  if (co.os_abi == llvm::ELF::ELFOSABI_AMDGPU_HSA && co.code_object_version == 0)
    return "its code object ABI version (EI_ABIVERSION) is unknown: the runtime refuses it";
  return "";
}

// Compares what the entry ID promises with what the code object is.
void CompareWithCode(const BundleEntry& e, std::vector<BundleProblem>* problems) {
  const TargetId& want = *e.target;
  const CodeObjectInfo& co = *e.code_object;
  if (co.processor.empty()) return;  // a mach newer than our table: nothing to compare
  auto feature_differs = [](FeatureSetting id, FeatureSetting code) {
    auto norm = [](FeatureSetting s) { return s == FeatureSetting::kUnsupported ? FeatureSetting::kAny : s; };
    return norm(id) != norm(code);
  };
  std::string why;
  if (co.processor != want.processor)
    why = "the code object is for " + co.processor;
  else if (feature_differs(want.xnack, co.xnack))
    why = "the code object has xnack " + std::string(FeatureSettingName(co.xnack));
  else if (feature_differs(want.sramecc, co.sramecc))
    why = "the code object has sramecc " + std::string(FeatureSettingName(co.sramecc));
  if (!why.empty())
    problems->push_back({BundleProblem::kIdMismatch, "entry '" + e.id + "' names " + want.str() + " but " +
                                                         why + " (e_flags mach " + Hex(co.mach) + ")"});
}

// The first bytes of an entry say how far its notes reach: the prefix kept runs to there.
uint64_t FullTarget(uint64_t entry_size, std::string_view first) {
  uint64_t needed = CodeObjectPrefixNeeded(first);
  return std::min({std::max<uint64_t>(needed, first.size()), entry_size, kMaxEntryPrefix});
}

// Collects a streamed bundle: the entry table, then a prefix of each device entry.
class StreamedBundle {
 public:
  StreamedBundle(uint64_t declared_size, bool hash) : declared_(declared_size), hashing_(hash) {}

  bool Feed(uint64_t offset, std::string_view chunk, std::string* error) {
    if (hashing_) md5_.update(llvm::StringRef(chunk.data(), chunk.size()));
    if (!table_done_) {
      table_.append(chunk);
      TableStatus s = ParseBundleTable(table_, declared_, &entries_, &table_end_, error);
      if (s == TableStatus::kError) return false;
      if (s == TableStatus::kNeedMore) {
        if (table_.size() > kMaxStreamedTable) return TableTooLarge(error);
        return true;
      }
      if (table_end_ > kMaxStreamedTable) return TableTooLarge(error);
      StartEntries();
      std::string replay = std::move(table_);
      table_.clear();
      Capture(0, replay);
      return true;
    }
    Capture(offset, chunk);
    return true;
  }

  // The same for a bundle decoded in one piece, which outlives this object's use: the
  // prefixes are views into it, not copies.
  bool FeedWhole(std::string_view bytes, std::string* error) {
    if (hashing_) md5_.update(llvm::StringRef(bytes.data(), bytes.size()));
    TableStatus s = ParseBundleTable(bytes, declared_, &entries_, &table_end_, error);
    if (s == TableStatus::kError) return false;
    if (s == TableStatus::kNeedMore) return true;  // as a stream that ended inside its table
    if (table_end_ > kMaxStreamedTable) return TableTooLarge(error);
    table_done_ = true;
    views_.resize(entries_.size());
    for (size_t i = 0; i < entries_.size(); ++i) {
      const BundleEntry& e = entries_[i];
      std::string_view entry = e.offset < bytes.size() ? bytes.substr(e.offset) : std::string_view();
      uint64_t target = std::min(e.size, kFirstPrefix);
      std::string_view head = entry.substr(0, target);
      if (head.size() == target) target = FullTarget(e.size, head);
      views_[i] = entry.substr(0, target);
    }
    return true;
  }

  bool table_done() const { return table_done_; }
  std::vector<BundleEntry>& entries() { return entries_; }
  std::string_view prefix(size_t i) const {
    if (!views_.empty()) return views_[i];
    return std::string_view(prefixes_[owner_[i]]).substr(0, sizes_[i]);
  }
  /// Whether the entry's prefix stopped at the per-bundle cap (kMaxPrefixBytes).
  bool capped(size_t i) const { return views_.empty() && capped_[owner_[i]]; }
  uint64_t hash() {
    llvm::MD5::MD5Result r;
    md5_.final(r);
    return r.low();
  }

 private:
  // Only the first entry at each offset captures; the others read its prefix.
  void Capture(uint64_t offset, std::string_view chunk) {
    const uint64_t chunk_end = offset + chunk.size();
    for (size_t i : owners_) {
      std::string& got = prefixes_[i];
      while (got.size() < targets_[i]) {
        uint64_t want = entries_[i].offset + got.size();
        if (want < offset || want >= chunk_end) break;
        uint64_t n = std::min<uint64_t>(targets_[i] - got.size(), chunk_end - want);
        got.append(chunk.substr(want - offset, n));
        if (got.size() == targets_[i] && !sized_[i]) {
          sized_[i] = true;
          Grow(i, FullTarget(group_size_[i], got));
          // Sized once: grown by appends, the string would hold up to twice the prefix's
          // size, and three times while it moves, on top of the decoding window in use at
          // the same time.
          got.reserve(targets_[i]);
        }
      }
    }
  }

  // The prefix of owner `i` grows to `target` if the bundle's budget has room for it.
  void Grow(size_t i, uint64_t target) {
    if (target <= targets_[i]) return;
    uint64_t extra = target - targets_[i];
    if (extra > budget_) {
      capped_[i] = true;
      return;
    }
    budget_ -= extra;
    targets_[i] = target;
  }

  static bool TableTooLarge(std::string* error) {
    *error = "entry table larger than rocm-audit's cap of " + std::to_string(kMaxStreamedTable) + " bytes";
    return false;
  }

  void StartEntries() {
    table_done_ = true;
    const size_t n = entries_.size();
    prefixes_.resize(n);
    targets_.assign(n, 0);
    sized_.assign(n, false);
    capped_.assign(n, false);
    group_size_.assign(n, 0);
    owner_.resize(n);
    std::unordered_map<uint64_t, size_t> first_at;
    sizes_.resize(n);
    for (size_t i = 0; i < n; ++i) {
      sizes_[i] = entries_[i].size;
      auto [it, fresh] = first_at.try_emplace(entries_[i].offset, i);
      if (fresh) owners_.push_back(i);
      owner_[i] = it->second;
      group_size_[it->second] = std::max(group_size_[it->second], entries_[i].size);
    }
    for (size_t i : owners_) {
      targets_[i] = std::min(group_size_[i], kFirstPrefix);
      budget_ -= std::min(budget_, targets_[i]);
    }
  }

  uint64_t declared_;
  bool hashing_;
  llvm::MD5 md5_;
  std::string table_;
  bool table_done_ = false;
  uint64_t table_end_ = 0;
  std::vector<BundleEntry> entries_;
  // Streamed prefixes, indexed by entry but kept only for owners_ (the first entry at each
  // offset); owner_[i] is the entry whose prefix entry i reads.
  std::vector<size_t> owners_;
  std::vector<size_t> owner_;
  std::vector<uint64_t> sizes_;       // each entry's size: entries_ is handed over before prefixes are read
  std::vector<uint64_t> group_size_;  // the largest size among the entries at an owner's offset
  std::vector<std::string> prefixes_;
  std::vector<uint64_t> targets_;
  std::vector<bool> sized_;
  std::vector<bool> capped_;
  uint64_t budget_ = kMaxPrefixBytes;
  std::vector<std::string_view> views_;  // FeedWhole's prefixes
};

std::optional<uint64_t> ReadPlain(std::string_view bytes, Bundle* b) {
  uint64_t table_end = 0;
  std::string error;
  if (ParseBundleTable(bytes, bytes.size(), &b->entries, &table_end, &error) != TableStatus::kOk) {
    Problem(&b->problems, BundleProblem::kMalformed, "offload bundle: " + error);
    return std::nullopt;
  }
  uint64_t extent = BundleExtent(b->entries, table_end);
  b->compressed_size = b->uncompressed_size = extent;
  CodeObjectMemo memo;
  for (size_t i = 0; i < b->entries.size(); ++i) {
    BundleEntry& e = b->entries[i];
    InspectEntry(&e, i, bytes.substr(e.offset, e.size), &b->problems, &memo);
  }
  return extent;
}

// Each entry of a streamed bundle from its prefix; entries sharing an offset and size share
// one reading of their code object.
void InspectStreamedEntries(const StreamedBundle& stream, uint64_t produced, Bundle* b) {
  CodeObjectMemo memo;
  for (size_t i = 0; i < b->entries.size(); ++i) {
    const BundleEntry& e = b->entries[i];
    if (e.offset > produced || e.size > produced - e.offset) {
      Problem(&b->problems, BundleProblem::kMalformed,
              "entry " + std::to_string(i) + " ('" + e.id + "') runs past the " + std::to_string(produced) +
                  " bytes the stream holds");
      continue;
    }
    if (stream.capped(i)) {
      Problem(&b->problems, BundleProblem::kMalformed,
              "entry " + std::to_string(i) + " ('" + e.id + "') was not read: the first bytes kept of this " +
                  "bundle's entries pass " + "rocm-audit's cap of " + std::to_string(kMaxPrefixBytes) +
                  " bytes per bundle");
      continue;
    }
    InspectEntry(&b->entries[i], i, stream.prefix(i), &b->problems, &memo);
  }
}

// How far FeedWhole reads into a bundle of `content` bytes (as its header declares; the
// decoder stops at the frame's own size), told from its first bytes `decoded` by the same
// rule, entry by entry: more than decoded.size() while they do not tell yet.
uint64_t WholeNeeds(std::string_view decoded, uint64_t content) {
  std::vector<BundleEntry> entries;
  uint64_t table_end = 0;
  std::string error;
  TableStatus s = ParseBundleTable(decoded, content, &entries, &table_end, &error);
  if (s == TableStatus::kNeedMore)
    return decoded.size() > kMaxStreamedTable ? content : std::min<uint64_t>(content, decoded.size() + 1);
  // A table that is wrong is wrong in its first bytes: FeedWhole stops there.
  if (s == TableStatus::kError || table_end > kMaxStreamedTable) return decoded.size();
  uint64_t need = table_end;
  for (const BundleEntry& e : entries) {
    if (e.offset >= content) continue;
    const uint64_t left = content - e.offset;
    const uint64_t first = std::min(e.size, kFirstPrefix);
    uint64_t end = e.offset + std::min(first, left);
    if (end <= decoded.size() && first <= left && first > 0)
      end = e.offset + std::min(FullTarget(e.size, decoded.substr(e.offset, first)), left);
    need = std::max(need, end);
  }
  return need;
}

// Decodes a CCOB's payload for `stream`: only as far as its reading looks when the frame
// allows it (DecodeCcobPrefix) and the hash is not checked, else all of it.
bool DecodeBundle(const CcobHeader& h, std::string_view payload, bool sized, const BundleReadOptions& options,
                  StreamedBundle* stream, DecodeResult* result, WholeBundle* whole, std::string* error) {
  if (!options.verify_hash) {
    auto need = [&](std::string_view decoded) { return WholeNeeds(decoded, h.uncompressed_size); };
    if (DecodeCcobPrefix(h, payload, sized, h.uncompressed_size, options.memory, need, result, whole))
      return stream->FeedWhole(whole->bytes(), error);
  }
  bool ok = DecodeCcobPayload(
      h, payload, sized, h.uncompressed_size, options.memory,
      [&](uint64_t offset, std::string_view chunk) { return stream->Feed(offset, chunk, error); }, result,
      error, whole);
  if (ok && *whole) ok = stream->FeedWhole(whole->bytes(), error);
  return ok;
}

std::optional<uint64_t> ReadCcob(std::string_view bytes, const BundleReadOptions& options, Bundle* b) {
  CcobHeader h;
  std::string error;
  if (!ParseCcobHeader(bytes, &h, &error)) {
    Problem(&b->problems, BundleProblem::kMalformed, "compressed bundle: " + error);
    return std::nullopt;
  }
  b->ccob_version = h.version;
  b->compression = std::string(CompressionName(h.method));
  b->uncompressed_size = h.uncompressed_size;
  b->hash = h.hash;
  bool sized = h.version >= 2;
  std::string_view payload =
      bytes.substr(h.header_size, sized ? h.total_size - h.header_size : std::string_view::npos);
  std::string label = "compressed bundle (CCOB v" + std::to_string(h.version) + ", " + b->compression + "): ";
  if (h.uncompressed_size > options.max_decompressed) {
    // Refused before any work: the cap bounds what one bundle may cost.
    Problem(&b->problems, BundleProblem::kMalformed,
            label + "claims " + std::to_string(h.uncompressed_size) +
                " uncompressed bytes, over --max-decompressed (" + std::to_string(options.max_decompressed) +
                ")");
    b->compressed_size = sized ? h.total_size : bytes.size();
    if (sized) return h.total_size;
    return std::nullopt;
  }
  StreamedBundle stream(h.uncompressed_size, options.verify_hash);
  DecodeResult result;
  WholeBundle whole;  // read in place below, so it lives until the entries are inspected
  bool ok = DecodeBundle(h, payload, sized, options, &stream, &result, &whole, &error);
  std::optional<uint64_t> extent;
  if (sized)
    extent = h.total_size;
  else if (ok)
    extent = h.header_size + result.consumed;
  b->compressed_size = extent.value_or(bytes.size());
  if (ok && result.produced < h.uncompressed_size) {
    // LLVM's compression::decompress sizes its buffer from the header and keeps what the
    // stream produced: the real size wins. A header that understates is refused (the
    // decoder stops at the declared size), as zstd/zlib refuse a too small buffer.
    Problem(&b->problems, BundleProblem::kOverstatedSize,
            label + "the header says " + std::to_string(h.uncompressed_size) +
                " uncompressed bytes, the stream holds " + std::to_string(result.produced) +
                "; read at its real size, as LLVM reads it");
    b->uncompressed_size = result.produced;
  }
  if (!ok) {
    Problem(&b->problems, BundleProblem::kMalformed, label + error);
    b->entries = stream.table_done() ? std::move(stream.entries()) : std::vector<BundleEntry>{};
    return extent;
  }
  if (options.verify_hash) {
    uint64_t got = stream.hash();
    b->hash_ok = got == h.hash;
    if (!*b->hash_ok)
      Problem(&b->problems, BundleProblem::kMalformed,
              "compressed bundle hash mismatch: the header says " + Hex(h.hash) +
                  ", the decompressed bytes hash to " + Hex(got));
  }
  b->entries = std::move(stream.entries());
  InspectStreamedEntries(stream, result.produced, b);
  return extent;
}

// A code object where a bundle was expected (clr accepts a bare HSA ELF as a fat binary).
std::optional<uint64_t> ReadBareCodeObject(std::string_view bytes, Bundle* b) {
  b->format = BundleFormat::kCodeObject;
  // lld writes the section header table last, so its end is the object's end; without
  // section headers the object runs to the end of the container.
  std::optional<uint64_t> extent;
  auto elf =
      llvm::object::ELFFile<llvm::object::ELF64LE>::create(llvm::StringRef(bytes.data(), bytes.size()));
  if (Take(elf)) {
    const auto& h = elf->getHeader();
    uint64_t end = std::max<uint64_t>(h.e_phoff + uint64_t(h.e_phnum) * h.e_phentsize,
                                      h.e_shoff + uint64_t(h.e_shnum) * h.e_shentsize);
    if (h.e_shnum == 0) end = bytes.size();
    if (end <= bytes.size()) extent = end;
  }
  BundleEntry e;
  e.id = "code-object";
  e.size = extent.value_or(bytes.size());
  CodeObjectInfo co;
  std::string error;
  e.content = "code-object";
  if (!InspectCodeObject(bytes.substr(0, e.size), e.size, &co, &error)) {
    Problem(&b->problems, BundleProblem::kMalformed, "code object: " + error);
  } else if (std::string unknown = UnknownTarget(co); !unknown.empty()) {
    e.code_object = co;  // kept for the report; it serves no target
    Problem(&b->problems, BundleProblem::kUnknownTarget, "code object: " + unknown);
  } else {
    e.code_object = co;
    e.target = co.target_id();
    e.id = "hipv4-amdgcn-amd-amdhsa--" + co.target_id().str();
    e.parsed = ParseBundleEntryId(e.id);
  }
  b->compressed_size = b->uncompressed_size = e.size;
  b->entries.push_back(std::move(e));
  return extent;
}

}  // namespace

bool StartsWithBundleMagic(std::string_view bytes) {
  return bytes.starts_with(kBundleMagic) || bytes.starts_with(kCcobMagic);
}

namespace {

void InspectEntryCode(BundleEntry* e, size_t index, std::string_view prefix,
                      std::vector<BundleProblem>* problems, CodeObjectMemo* memo) {
  // The runtime finds its entry by comparing the whole ID with its own target ID string
  // (clr's CodeObject::extractCodeObjectFromFatBinary), which has no control character: an
  // ID with one serves no processor, whatever it names around it.
  if (std::any_of(e->id.begin(), e->id.end(), [](char c) { return (c >= 0 && c < 0x20) || c == 0x7f; })) {
    Problem(problems, BundleProblem::kMalformed,
            "entry ID '" + e->id + "' contains a control character: no runtime matches it to a processor");
    return;
  }
  // The runtime's own target ID string is ASCII: a byte past 0x7F (the 8-bit CSI 0x9B, a
  // UTF-8 sequence) makes an ID that no runtime matches either.
  if (std::any_of(e->id.begin(), e->id.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; })) {
    Problem(problems, BundleProblem::kMalformed,
            "entry ID '" + e->id + "' has a byte that is not ASCII: no runtime matches it to a processor");
    return;
  }
  e->parsed = ParseBundleEntryId(e->id);
  if (!e->parsed) {
    Problem(problems, BundleProblem::kMalformed,
            "entry ID '" + e->id + "' is not <kind>-<triple>[-<target>]");
    return;
  }
  if (!e->parsed->device() || e->size == 0) return;  // host entries: the host object is elsewhere
  std::string error;
  if (!e->parsed->target.empty()) {
    e->target = EntryTargetId(*e->parsed, &error);
    if (!e->target) Problem(problems, BundleProblem::kMalformed, "entry '" + e->id + "': " + error);
  }
  // Only amdgcn entries hold AMDGPU ELF; SPIR-V and others are listed, not inspected.
  if (!e->parsed->triple.starts_with("amdgcn")) {
    e->content = "other";
    return;
  }
  if (prefix.starts_with("BC\xc0\xde") || prefix.starts_with("\xde\xc0\x17\x0b")) {
    e->content = "bitcode";  // -fgpu-rdc: device code before the device link
    return;
  }
  e->content = "code-object";
  CodeObjectInfo co;
  bool read = false;
  if (memo) {
    auto [it, fresh] = memo->by_extent.try_emplace({e->offset, e->size});
    if (fresh) it->second.ok = InspectCodeObject(prefix, e->size, &it->second.info, &it->second.error);
    read = it->second.ok;
    co = it->second.info;
    error = it->second.error;
  } else {
    read = InspectCodeObject(prefix, e->size, &co, &error);
  }
  if (!read) {
    Problem(
        problems, BundleProblem::kMalformed,
        "entry " + std::to_string(index) + " ('" + e->id + "') is not a valid AMDGPU code object: " + error);
    return;
  }
  e->code_object = co;
  if (std::string unknown = UnknownTarget(co); !unknown.empty())
    Problem(problems, BundleProblem::kUnknownTarget, "entry '" + e->id + "': " + unknown);
  // Code object V2/V3 in a `hip` entry: a feature the ID leaves out is off (D99235).
  if (e->target && e->parsed->kind == "hip" && co.code_object_version && co.code_object_version <= 3) {
    const ProcessorInfo* p = ProcessorByName(e->target->processor);
    if (e->target->xnack == FeatureSetting::kAny && p && p->xnack) e->target->xnack = FeatureSetting::kOff;
    if (e->target->sramecc == FeatureSetting::kAny && p && p->sramecc)
      e->target->sramecc = FeatureSetting::kOff;
  }
  if (e->target) CompareWithCode(*e, problems);
}

}  // namespace

// `index` is the entry's place in the table: entries alike (4,096 pointing at one broken
// code object) differ in it, and their findings fold into one naming the first few.
void InspectEntry(BundleEntry* e, size_t index, std::string_view prefix, std::vector<BundleProblem>* problems,
                  CodeObjectMemo* memo) {
  const size_t before = problems->size();
  InspectEntryCode(e, index, prefix, problems, memo);
  for (size_t i = before; i < problems->size(); ++i) (*problems)[i].entry = e->id;
}

std::optional<uint64_t> ReadBundleAt(std::string_view bytes, uint64_t offset, const BundleContainer& where,
                                     const BundleReadOptions& options, std::vector<Bundle>* out) {
  Bundle b;
  b.section = where.section;
  b.member = where.member;
  b.offset = offset;
  b.file_offset = where.file_offset + offset;
  std::string_view here = bytes.substr(offset);
  std::optional<uint64_t> extent;
  if (here.starts_with(kCcobMagic)) {
    b.format = BundleFormat::kCcob;
    extent = ReadCcob(here, options, &b);
  } else if (here.starts_with(kBundleMagic)) {
    b.format = BundleFormat::kPlain;
    extent = ReadPlain(here, &b);
  } else {
    extent = ReadBareCodeObject(here, &b);
  }
  out->push_back(std::move(b));
  return extent;
}

void ReadBundleSequence(std::string_view bytes, const BundleContainer& where,
                        const BundleReadOptions& options, std::vector<Bundle>* out,
                        std::vector<BundleProblem>* problems) {
  uint64_t pos = 0;
  std::string place = where.section.empty() ? std::string("the file") : where.section;
  if (!where.member.empty()) place = where.member + ":" + place;
  while (pos < bytes.size()) {
    // Skip the zero fill up to the next bundle (4096-aligned in HIP fat binaries).
    const char* start = bytes.data() + pos;
    const char* nonzero = std::find_if(start, bytes.data() + bytes.size(), [](char c) { return c != 0; });
    pos += nonzero - start;
    if (pos >= bytes.size()) break;
    std::string_view here = bytes.substr(pos);
    if (!StartsWithBundleMagic(here) && !here.starts_with("\x7f"
                                                          "ELF")) {
      Problem(problems, BundleProblem::kMalformed,
              place + " has " + std::to_string(bytes.size() - pos) + " bytes at offset " + Hex(pos) +
                  " that are neither zero fill nor a bundle; the rest of it was not read");
      return;
    }
    std::optional<uint64_t> extent = ReadBundleAt(bytes, pos, where, options, out);
    if (options.bundle_read) options.bundle_read(bytes.substr(pos, extent.value_or(bytes.size() - pos)));
    if (!extent || *extent == 0) {
      if (pos + 1 < bytes.size() && out->back().problems.empty())
        Problem(&out->back().problems, BundleProblem::kMalformed, "bundle has no usable size");
      if (!extent) return;  // where the next bundle starts is unknown
    }
    pos += std::max<uint64_t>(*extent, 1);
  }
}

}  // namespace rocm_audit
