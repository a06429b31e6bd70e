#include "tests/support/gpu_fixtures.h"

#include <llvm/Object/ELF.h>
#include <llvm/Support/MD5.h>
#include <zlib.h>
#include <zstd.h>

#include "audit/gpu/ccob.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {

std::string GpuTreePath(const std::string& rel) { return std::string(ROCM_AUDIT_GPU_TREE) + "/" + rel; }

// The section's bytes, through LLVM's ELF reader.
std::string Section(const std::string& file, const std::string& name) {
  std::string bytes = ReadAll(file);
  auto elf = llvm::object::ELFFile<llvm::object::ELF64LE>::create(bytes);
  if (!elf) return "";
  for (const auto& s : cantFail(elf->sections()))
    if (cantFail(elf->getSectionName(s)) == name) {
      auto c = cantFail(elf->getSectionContents(s));
      return std::string(reinterpret_cast<const char*>(c.data()), c.size());
    }
  return "";
}

std::set<std::string> Targets(const DeviceInventory& inv) {
  std::set<std::string> out;
  for (const ArchOffer& o : inv.Offers()) out.insert(o.target.str());
  return out;
}

size_t ProblemCount(const DeviceInventory& inv) {
  size_t n = inv.problems.size();
  for (const Bundle& b : inv.bundles) n += b.problems.size();
  return n;
}

std::string AllProblems(const DeviceInventory& inv) {
  std::string out;
  for (const auto& p : inv.problems) out += p.message + "\n";
  for (const Bundle& b : inv.bundles)
    for (const auto& p : b.problems) out += p.message + "\n";
  return out;
}

DeviceInventory Inventory(FileKind kind, std::string_view bytes, BundleReadOptions o) {
  return FindDeviceCode(kind, bytes, o);
}

std::string CcobHeaderBytes(int version, int method, uint64_t payload, uint64_t raw, uint64_t hash) {
  std::string h = "CCOB";
  auto put = [&](uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) h.push_back(char(v >> (8 * i)));
  };
  put(version, 2);
  put(method, 2);
  if (version == 1) {
    put(raw, 4);
  } else if (version == 2) {
    put(24 + payload, 4);
    put(raw, 4);
  } else {
    put(32 + payload, 8);
    put(raw, 8);
  }
  put(hash, 8);
  return h;
}

uint64_t Md5Low(std::string_view bytes) {
  llvm::MD5 md5;
  md5.update(llvm::StringRef(bytes.data(), bytes.size()));
  llvm::MD5::MD5Result r;
  md5.final(r);
  return r.low();
}

std::string Zlib(std::string_view raw, int level) {
  uLongf n = compressBound(raw.size());
  std::string out(n, '\0');
  compress2(reinterpret_cast<Bytef*>(out.data()), &n, reinterpret_cast<const Bytef*>(raw.data()), raw.size(),
            level);
  out.resize(n);
  return out;
}

std::string Zstd(std::string_view raw) {
  std::string out(ZSTD_compressBound(raw.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), raw.data(), raw.size(), 3));
  return out;
}

std::string MakeCcob(int version, int method, std::string_view raw) {
  std::string payload = method == 1 ? Zstd(raw) : Zlib(raw, 6);
  return CcobHeaderBytes(version, method, payload.size(), raw.size(), Md5Low(raw)) + payload;
}

std::string PaddedBundle(const std::string& plain, size_t pad) {
  DeviceInventory inv = Inventory(FileKind::kOffloadBundle, plain);
  EXPECT_EQ(inv.bundles.size(), 1u);
  const std::vector<BundleEntry>& entries = inv.bundles[0].entries;
  auto u64 = [](uint64_t v) { return std::string(reinterpret_cast<const char*>(&v), 8); };
  std::string table = "__CLANG_OFFLOAD_BUNDLE__" + u64(entries.size());
  size_t table_size = table.size();
  for (const BundleEntry& e : entries) table_size += 24 + e.id.size();
  std::string data;
  uint64_t at = (table_size + 4095) / 4096 * 4096;
  for (const BundleEntry& e : entries) {
    std::string content = plain.substr(e.offset, e.size);
    if (e.size) content += std::string(pad, '\0');
    table += u64(at + data.size()) + u64(content.size()) + u64(e.id.size()) + e.id;
    data += content;
  }
  return table + std::string(at - table.size(), '\0') + data;
}

std::string RealCcob() { return Section(GpuTreePath("obj/ccob.o"), ".hip_fatbin"); }
std::string Decompressed(const std::string& ccob) {
  CcobHeader h;
  std::string error;
  EXPECT_TRUE(ParseCcobHeader(ccob, &h, &error)) << error;
  std::string out(h.uncompressed_size, '\0');
  size_t n =
      ZSTD_decompress(out.data(), out.size(), ccob.data() + h.header_size, h.total_size - h.header_size);
  EXPECT_FALSE(ZSTD_isError(n));
  return out;
}

}  // namespace rocm_audit::testing
