// A second ELF reader as a differential oracle: Debian's LIEF 0.9 (liblief-dev) reads every
// ELF of the fixture trees, and what it reads of the dynamic section, the
// dynamic symbols and the symbol versions must equal rocm-audit's ElfModel. LIEF stays out
// of the audit path (it parses whole files eagerly); only this test binary links it.
//
// Compared (both readers model them): DT_NEEDED in order, DT_SONAME, DT_RPATH, DT_RUNPATH,
// per dynamic symbol the name, binding, visibility, st_shndx (so defined/undefined), the
// .gnu.version index, its hidden bit and version name; DT_VERDEF names (base excluded) and
// DT_VERNEED file + version names. Not compared: the model keeps no DT_RPATH when
// DT_RUNPATH exists (ld.so ignores it then, so the model clears it), st_size (the model has
// none) and VER_FLG_WEAK on verneed auxiliaries (LIEF 0.9 does not expose vna_flags).
//
// On the corpus the two readers differ, and a third reader referees: GNU readelf
// (readelf_view.h), run on the files with differences. Every difference must have one of the
// named causes in Causes() (each a defect of LIEF 0.9, with its source lines), and readelf
// must read every item of those files as rocm-audit does. Measured (2 cores): 353 x86-64
// files in ~150 s, ~140 s of it LIEF's, which copies each whole file into memory twice
// (VectorStream.cpp:29-46, then DataHandler::Handler's copy, Parser.cpp:117): 17-26 s each
// for the 1.3-1.9 GB ROCm libraries.
#include <gtest/gtest.h>
#include <LIEF/ELF.hpp>
#include <LIEF/logging.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "audit/elf/elf_reader.h"
#include "tests/audit/elf/elf_view.h"
#include "tests/audit/elf/readelf_view.h"
#include "tests/support/test_support.h"

namespace rocm_audit {
namespace {

namespace fs = std::filesystem;

bool IsElf(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  return in.read(magic, 4) && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F';
}

// Regular files only: a symlink names a file the walk meets anyway.
std::vector<std::string> ElfFilesUnder(const std::string& root) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (it->is_symlink(ec) || !it->is_regular_file(ec)) continue;
    if (IsElf(it->path())) out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// What LIEF reads, as the same view as rocm-audit's model.
ElfView ViewOf(const LIEF::ELF::Binary& lief) {
  ElfView v;
  for (const LIEF::ELF::DynamicEntry& e : lief.dynamic_entries()) {
    switch (e.tag()) {
      case LIEF::ELF::DYNAMIC_TAGS::DT_NEEDED:
        v.needed.push_back(static_cast<const LIEF::ELF::DynamicEntryLibrary&>(e).name());
        break;
      case LIEF::ELF::DYNAMIC_TAGS::DT_SONAME:
        v.soname = static_cast<const LIEF::ELF::DynamicSharedObject&>(e).name();
        break;
      case LIEF::ELF::DYNAMIC_TAGS::DT_RPATH:
        v.rpath = SplitSearchPath(static_cast<const LIEF::ELF::DynamicEntryRpath&>(e).name());
        break;
      case LIEF::ELF::DYNAMIC_TAGS::DT_RUNPATH:
        v.has_runpath = true;
        v.runpath = SplitSearchPath(static_cast<const LIEF::ELF::DynamicEntryRunPath&>(e).name());
        break;
      default: break;
    }
  }
  if (v.has_runpath) v.rpath.clear();
  for (const LIEF::ELF::Symbol& l : lief.dynamic_symbols()) {
    ElfView::Symbol s;
    s.name = l.name();
    s.binding = static_cast<int>(l.binding());
    s.visibility = static_cast<int>(l.visibility());
    s.section_index = l.shndx();
    s.has_version = l.has_version();
    if (s.has_version) {
      uint16_t raw = l.symbol_version().value();
      s.version_index = raw & 0x7fff;
      s.version_hidden = (raw & 0x8000) != 0;
      if (l.symbol_version().has_auxiliary_version())
        s.version = l.symbol_version().symbol_version_auxiliary().name();
    }
    v.symbols.push_back(std::move(s));
  }
  for (const LIEF::ELF::SymbolVersionDefinition& d : lief.symbols_version_definition()) {
    std::vector<std::string> chain;
    for (const LIEF::ELF::SymbolVersionAux& a : d.symbols_aux()) chain.push_back(a.name());
    if (!(d.flags() & 1) && !chain.empty()) v.defined_versions.push_back(chain.front());  // not VER_FLG_BASE
    v.verdef_chains[d.ndx()] = std::move(chain);
  }
  for (const LIEF::ELF::SymbolVersionRequirement& r : lief.symbols_version_requirement())
    for (const LIEF::ELF::SymbolVersionAuxRequirement& a : r.auxiliary_symbols())
      v.needed_versions.push_back(r.name() + ":" + a.name());
  return v;
}

// What the causes below test, gathered while the file is read.
struct FileFacts {
  std::string path;
  ElfView ours;
  size_t lief_segments = 0;
  /// 1 + the highest .dynsym index a dynamic relocation names (0 without relocations).
  uint32_t relocation_bound = 0;
  /// A section LIEF 0.9's parse_sections hands to DataHandler::Handler::reserve (0 < size <
  /// 100 MiB) ending past 1 GiB: "offset+size" as text, or "" when there is none.
  std::string section_past_1gib;
  bool have_readelf = false;
  std::string readelf_error;
  ElfView readelf;
};

// Section headers straight from the file (ELF64 little-endian: every corpus file compared is
// x86-64): the first section LIEF's parse_sections would reserve past Handler::MAX_SIZE.
// (No <elf.h>: its DT_* macros would rewrite LIEF's enumerators.)
std::string SectionPast1GiB(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char eh[64];
  if (!in.read(reinterpret_cast<char*>(eh), sizeof eh) || eh[4] != 2 || eh[5] != 1) return "";
  auto u64 = [](const unsigned char* p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
    return v;
  };
  const uint64_t shoff = u64(eh + 0x28), shnum = eh[0x3c] | eh[0x3d] << 8;
  const uint64_t kMaxSectionSize = 100ull << 20, kHandlerMaxSize = 1ull << 30;  // 100_MB, 1_GB
  for (uint64_t i = 0; i < std::min<uint64_t>(shnum, 10000); ++i) {             // NB_MAX_SECTION
    unsigned char sh[64];
    in.seekg(static_cast<std::streamoff>(shoff + i * sizeof sh));
    if (!in.read(reinterpret_cast<char*>(sh), sizeof sh)) return "";
    uint64_t offset = u64(sh + 0x18), size = u64(sh + 0x20);
    if (size > 0 && size < kMaxSectionSize && offset + size > kHandlerMaxSize)
      return "section " + std::to_string(i) + " ends at " + std::to_string(offset + size);
  }
  return "";
}

struct Tally {
  int files = 0;
  long symbols = 0;
  double lief_seconds = 0;
  std::vector<Difference> differences;
  std::map<std::string, FileFacts> facts;            // by path, for the files with differences
  std::vector<std::pair<double, std::string>> slow;  // LIEF's time per file, >= 5 s
};

void Compare(const std::string& path, Tally* tally) {
  std::string error;
  auto buffer = MapFile(path, &error);
  ASSERT_TRUE(buffer) << path << ": " << error;
  ElfModel model;
  bool ours = ReadElf(buffer, path, &model, &error);
  auto start = std::chrono::steady_clock::now();
  std::unique_ptr<LIEF::ELF::Binary> lief;
  try {
    lief = LIEF::ELF::Parser::parse(path);
  } catch (const std::exception& e) { lief.reset(); }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  tally->lief_seconds += seconds;
  if (seconds >= 5) tally->slow.emplace_back(seconds, path);
  if (!ours || !lief) {
    if (ours != bool(lief))
      tally->differences.push_back(
          Difference{path, "accepted", -1, ours ? "read" : error, lief ? "read" : "refused"});
    return;
  }
  ++tally->files;
  FileFacts facts;
  facts.path = path;
  facts.ours = ViewOf(model);
  facts.lief_segments = lief->segments().size();
  ElfView theirs = ViewOf(*lief);
  lief.reset();
  tally->symbols += static_cast<long>(std::min(facts.ours.symbols.size(), theirs.symbols.size()));
  std::vector<Difference> found = Diff(path, facts.ours, theirs);
  if (found.empty()) return;
  std::vector<bool> relocated =
      model.symbol_table ? model.symbol_table->RelocatedSymbols() : std::vector<bool>();
  for (size_t i = relocated.size(); i-- > 0;)
    if (relocated[i]) {
      facts.relocation_bound = static_cast<uint32_t>(i + 1);
      break;
    }
  facts.section_past_1gib = SectionPast1GiB(path);
  tally->differences.insert(tally->differences.end(), found.begin(), found.end());
  tally->facts[path] = std::move(facts);
}

// LIEF 0.9 takes minutes per AMDGPU code object of the corpus (rocBLAS's Tensile .co files:
// ~1 file per 2 minutes measured, 319 of them), which a ctest timeout cannot hold; the GPU
// code objects are compared in full in the fixture trees (gpu-tree), the corpus run
// compares the x86-64 files (the ones the loader checks read).
bool IsHostElf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char header[64] = {};
  in.read(header, sizeof header);
  ElfIdentity id;
  std::string error;
  return ReadElfIdentity(std::string_view(header, in.gcount()), &id, &error) &&
         id.machine == 62;  // EM_X86_64
}

// The causes of every difference the corpus shows, each what LIEF 0.9.0 does (upstream tag
// 0.9.0, which Debian's 0.9.0-1 packages; its Parser.hpp and DataHandler/Handler.hpp are
// byte-identical to /usr/include/LIEF), with a test that the difference is that one.
struct Cause {
  const char* name;
  const char* lief_code;
  std::function<bool(const Difference&, const FileFacts&)> explains;
};

bool Empty(const std::string& value) {
  return value.empty() || value == "[]" || value == "0" || value == "none";
}

const std::vector<Cause>& Causes() {
  static const std::vector<Cause> causes = {
      // Parser::parse_sections (src/ELF/Parser.tcc:849-854) calls
      // datahandler_->reserve(offset, size) for every section with 0 < size < MAX_SECTION_SIZE
      // (100_MB, include/LIEF/ELF/Parser.hpp:65); Handler::reserve (src/ELF/DataHandler/
      // Handler.cpp:119-122) throws std::bad_alloc when offset + size > Handler::MAX_SIZE
      // (1_GB, Handler.hpp:29). parse_binary catches only read_out_of_bound and corrupted
      // around parse_sections (Parser.tcc:39-51), so the bad_alloc reaches Parser::init's
      // catch (std::exception) (src/ELF/Parser.cpp:143): the parse stops there, before any
      // program header, so LIEF has no segments, no dynamic section, no symbols, no versions.
      // The ROCm libraries whose .hip_fatbin pushes the later sections past 1 GiB hit it.
      {"LIEF 0.9 abandons the parse at a section ending past 1 GiB (DataHandler::Handler::MAX_SIZE)",
       "Parser.tcc:849-854, DataHandler/Handler.cpp:119-122, Parser.cpp:143",
       [](const Difference& d, const FileFacts& f) {
         return f.lief_segments == 0 && !f.section_past_1gib.empty() && Empty(d.theirs);
       }},
      // Parser::get_numberof_dynamic_symbols, COUNT_AUTO (Parser.tcc:491-516): the count is
      // 1 + the highest symbol index of the DT_RELA/DT_REL/DT_JMPREL relocations
      // (nb_dynsym_relocations, max_relocation_index: Parser.tcc:519-656); the .dynsym
      // section's count and the hash table's replace it only when larger by less than
      // DELTA_NB_SYMBOLS (3000, Parser.hpp:56). (The DT_HASH count is 0 whenever it could be
      // read: nb_dynsym_sysv_hash reads nchain only if it cannot, Parser.tcc:707-708.) A
      // library exporting 3000 symbols more than its relocations name loses them. The bound
      // here is read from the relocation sections linked to .dynsym, which hold those entries.
      {"LIEF 0.9 sizes .dynsym by its relocations, ignoring a section more than 3000 larger",
       "Parser.tcc:491-516 (DELTA_NB_SYMBOLS, Parser.hpp:56), Parser.tcc:638-656",
       [](const Difference& d, const FileFacts& f) {
         return d.kind == "symbol count" && d.theirs == std::to_string(f.relocation_bound) &&
                std::stoul(d.ours) >= f.relocation_bound + 3000;
       }},
      // Parser::parse_symbol_version_definition (Parser.tcc:1504-1514) links every
      // .gnu.version entry of index vd_ndx to each Verdaux of that Verdef in turn, so the last
      // one wins: a version defined with a parent (vd_cnt 2, "GLIBC_2.3" after "GLIBC_2.2.5")
      // is named after its parent. The first Verdaux is the version's own name: glibc's
      // _dl_check_map_versions (elf/dl-version.c) and binutils' readelf read only that one.
      {"LIEF 0.9 names a defined version after its Verdef's last auxiliary entry (the parent)",
       "Parser.tcc:1504-1514",
       [](const Difference& d, const FileFacts& f) {
         if (d.kind != "symbol version name" || !f.have_readelf || d.symbol < 0 ||
             static_cast<size_t>(d.symbol) >= f.readelf.symbols.size())
           return false;
         auto chain = f.readelf.verdef_chains.find(f.readelf.symbols[d.symbol].version_index);
         return chain != f.readelf.verdef_chains.end() && chain->second.size() >= 2 &&
                chain->second.front() == d.ours && chain->second.back() == d.theirs;
       }},
  };
  return causes;
}

void Report(const std::string& label, const Tally& t, double seconds) {
  std::printf(
      "[ lief-oracle ] %s: %d ELF files compared, %ld dynamic symbols, %zu differences in %zu files, "
      "%.1f s (LIEF %.1f s)\n",
      label.c_str(), t.files, t.symbols, t.differences.size(), t.facts.size(), seconds, t.lief_seconds);
  for (const auto& [s, path] : t.slow)
    std::printf("[ lief-oracle ]   LIEF took %.1f s on %s\n", s, path.c_str());
  // ROCM_AUDIT_LIEF_DUMP=FILE writes every difference there (path, kind, symbol, ours, LIEF's),
  // tab-separated: where a new cause is investigated from.
  if (const char* dump = std::getenv("ROCM_AUDIT_LIEF_DUMP")) {
    std::ofstream out(dump);
    for (const Difference& d : t.differences)
      out << d.path << "\t" << d.kind << "\t" << d.symbol << "\t" << d.ours << "\t" << d.theirs << "\n";
  }
}

Tally CompareTrees(const std::vector<std::string>& roots, const std::string& label, bool host_only = false) {
  LIEF::Logger::disable();
  auto start = std::chrono::steady_clock::now();
  Tally tally;
  for (const auto& root : roots)
    for (const auto& path : ElfFilesUnder(root)) {
      if (!host_only || IsHostElf(path)) Compare(path, &tally);
    }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  Report(label, tally, seconds);
  return tally;
}

// readelf's disagreements with rocm-audit on `path` (every item, not only LIEF's).
std::vector<Difference> ReadelfDisagrees(const std::string& path, FileFacts* f) {
  if (!f->have_readelf)
    f->have_readelf = RunReadelf(ROCM_AUDIT_READELF, path, &f->readelf, &f->readelf_error);
  if (!f->have_readelf) return {Difference{path, "readelf", -1, "", f->readelf_error}};
  return Diff(path, f->ours, f->readelf);
}

std::string Describe(const Difference& d) {
  return d.path + ": " + d.kind + (d.symbol >= 0 ? " #" + std::to_string(d.symbol) : "") + ": rocm-audit " +
         d.ours + ", other " + d.theirs;
}

TEST(LiefOracle, FixtureTreesAgree) {
  Tally t = CompareTrees({ROCM_AUDIT_DEMO_TREE, ROCM_AUDIT_GPU_TREE, ROCM_AUDIT_CMAKE_TREE}, "fixtures");
  EXPECT_GT(t.files, 0);
  EXPECT_GT(t.symbols, 0);
  for (const Difference& d : t.differences) ADD_FAILURE() << Describe(d);
}

// The referee reads the fixture trees as rocm-audit does, item by item: its parser of
// readelf's output reads what is there (a parser that read nothing would agree with LIEF's
// empty readings below).
TEST(LiefOracle, ReadelfAgreesOnTheFixtureTrees) {
  int files = 0;
  size_t symbols = 0, versions = 0;
  for (const char* root : {ROCM_AUDIT_DEMO_TREE, ROCM_AUDIT_GPU_TREE, ROCM_AUDIT_CMAKE_TREE})
    for (const auto& path : ElfFilesUnder(root)) {
      std::string error;
      auto buffer = MapFile(path, &error);
      ElfModel model;
      if (!buffer || !ReadElf(buffer, path, &model, &error)) continue;
      FileFacts f;
      f.ours = ViewOf(model);
      for (const Difference& d : ReadelfDisagrees(path, &f)) ADD_FAILURE() << Describe(d);
      ++files;
      symbols += f.readelf.symbols.size();
      for (const auto& s : f.readelf.symbols) versions += !s.version.empty();
    }
  std::printf("[ lief-oracle ] readelf on the fixtures: %d files, %zu dynamic symbols (%zu versioned)\n",
              files, symbols, versions);
  EXPECT_GT(files, 0);
  EXPECT_GT(symbols, 0);
  EXPECT_GT(versions, 0);
}

// The corpus's x86-64 files: every difference between LIEF and rocm-audit has one of the
// causes above, and on every file where they differ GNU readelf reads what rocm-audit reads.
TEST(LiefOracle, CorpusDifferencesAreAllExplained) {
  const std::string corpus = testing::CorpusRoot();
  if (!fs::exists(corpus + "/sid-root")) ROCM_AUDIT_SKIP_NO_CORPUS << "no corpus at " << corpus;
  auto start = std::chrono::steady_clock::now();
  Tally t = CompareTrees({corpus + "/sid-root", corpus + "/bookworm-root"}, "corpus (x86-64)", true);
  EXPECT_GT(t.files, testing::CorpusFloor(300, 40));

  // The referee, on the files with differences only.
  size_t disagreements = 0;
  for (auto& [path, facts] : t.facts) {
    std::vector<Difference> disagree = ReadelfDisagrees(path, &facts);
    disagreements += disagree.size();
    for (size_t i = 0; i < disagree.size() && i < 5; ++i)
      ADD_FAILURE() << "readelf: " << Describe(disagree[i]);
  }

  std::vector<int> by_cause(Causes().size());
  std::map<std::string, std::map<std::string, int>> kinds_by_cause;
  int unexplained = 0;
  for (const Difference& d : t.differences) {
    auto facts = t.facts.find(d.path);
    size_t c = 0;
    while (facts != t.facts.end() && c < Causes().size() && !Causes()[c].explains(d, facts->second)) ++c;
    if (facts == t.facts.end() || c == Causes().size()) {
      if (unexplained++ < 20) ADD_FAILURE() << "no known cause: " << Describe(d);
      continue;
    }
    ++by_cause[c];
    ++kinds_by_cause[Causes()[c].name][d.kind];
  }
  for (size_t c = 0; c < Causes().size(); ++c) {
    std::printf("[ lief-oracle ]   %d: %s (%s)\n", by_cause[c], Causes()[c].name, Causes()[c].lief_code);
    for (const auto& [kind, n] : kinds_by_cause[Causes()[c].name])
      std::printf("[ lief-oracle ]       %d %s\n", n, kind.c_str());
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "[ lief-oracle ]   unexplained: %d; readelf disagrees with rocm-audit on %zu items of the %zu "
      "files with differences; %.1f s in all\n",
      unexplained, disagreements, t.facts.size(), seconds);
  EXPECT_EQ(unexplained, 0);
  EXPECT_EQ(disagreements, 0u);
}

}  // namespace
}  // namespace rocm_audit
