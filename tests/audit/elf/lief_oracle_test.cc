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
#include <gtest/gtest.h>
#include <LIEF/ELF.hpp>
#include <LIEF/logging.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "audit/elf/elf_reader.h"
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

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> parts;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, ':')) parts.push_back(cur);
  if (!s.empty() && s.back() == ':') parts.push_back("");
  return parts;
}

struct Tally {
  int files = 0;
  int skipped_not_dynamic = 0;
  long symbols = 0;
  std::map<std::string, int> differences;  // by kind
  std::vector<std::string> examples;

  void Differ(const std::string& kind, const std::string& path, const std::string& detail) {
    if (differences[kind]++ < 3) examples.push_back(kind + ": " + path + ": " + detail);
  }
};

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& e : v) s += (s.empty() ? "" : ",") + e;
  return "[" + s + "]";
}

void Compare(const std::string& path, Tally* tally) {
  std::string error;
  auto buffer = MapFile(path, &error);
  ASSERT_TRUE(buffer) << path << ": " << error;
  ElfModel model;
  bool ours = ReadElf(buffer, path, &model, &error);
  std::unique_ptr<LIEF::ELF::Binary> lief;
  try {
    lief = LIEF::ELF::Parser::parse(path);
  } catch (const std::exception& e) { lief.reset(); }
  if (!ours || !lief) {
    if (ours != bool(lief)) tally->Differ("accepted", path, ours ? "LIEF refused" : error);
    return;
  }
  ++tally->files;

  // Dynamic section.
  std::vector<std::string> needed, rpath, runpath;
  std::string soname;
  bool has_runpath = false;
  for (const LIEF::ELF::DynamicEntry& e : lief->dynamic_entries()) {
    switch (e.tag()) {
      case LIEF::ELF::DYNAMIC_TAGS::DT_NEEDED:
        needed.push_back(static_cast<const LIEF::ELF::DynamicEntryLibrary&>(e).name());
        break;
      case LIEF::ELF::DYNAMIC_TAGS::DT_SONAME:
        soname = static_cast<const LIEF::ELF::DynamicSharedObject&>(e).name();
        break;
      case LIEF::ELF::DYNAMIC_TAGS::DT_RPATH:
        for (auto& p : Split(static_cast<const LIEF::ELF::DynamicEntryRpath&>(e).name())) rpath.push_back(p);
        break;
      case LIEF::ELF::DYNAMIC_TAGS::DT_RUNPATH:
        has_runpath = true;
        for (auto& p : Split(static_cast<const LIEF::ELF::DynamicEntryRunPath&>(e).name()))
          runpath.push_back(p);
        break;
      default: break;
    }
  }
  if (needed != model.needed)
    tally->Differ("DT_NEEDED", path, Join(model.needed) + " vs LIEF " + Join(needed));
  if (soname != model.soname) tally->Differ("DT_SONAME", path, model.soname + " vs LIEF " + soname);
  if (has_runpath != model.has_runpath || runpath != model.runpath)
    tally->Differ("DT_RUNPATH", path, Join(model.runpath) + " vs LIEF " + Join(runpath));
  // ld.so ignores DT_RPATH when DT_RUNPATH exists and the model clears it (elf_model.h).
  if (!has_runpath && rpath != model.rpath)
    tally->Differ("DT_RPATH", path, Join(model.rpath) + " vs LIEF " + Join(rpath));

  // Dynamic symbols, in .dynsym order.
  std::vector<const LIEF::ELF::Symbol*> syms;
  for (const LIEF::ELF::Symbol& s : lief->dynamic_symbols()) syms.push_back(&s);
  if (syms.size() != model.symbol_count()) {
    tally->Differ("symbol count", path,
                  std::to_string(model.symbol_count()) + " vs LIEF " + std::to_string(syms.size()));
  } else {
    for (uint32_t i = 0; i < syms.size(); ++i) {
      const LIEF::ELF::Symbol& l = *syms[i];
      DynamicSymbol o = model.SymbolAt(i);
      ++tally->symbols;
      std::string where = "#" + std::to_string(i) + " " + l.name();
      if (std::string(model.NameOf(o)) != l.name())
        tally->Differ("symbol name", path, where + " vs " + std::string(model.NameOf(o)));
      if (o.binding != static_cast<uint8_t>(l.binding())) tally->Differ("symbol binding", path, where);
      if (o.visibility != static_cast<uint8_t>(l.visibility()))
        tally->Differ("symbol visibility", path, where);
      if (o.section_index != l.shndx()) tally->Differ("symbol section index", path, where);
      if (o.has_version != l.has_version()) {
        tally->Differ("symbol has version", path, where);
        continue;
      }
      if (!o.has_version) continue;
      uint16_t raw = l.symbol_version().value();
      if (o.version_index != (raw & 0x7fff)) tally->Differ("symbol version index", path, where);
      if (o.version_hidden != bool(raw & 0x8000)) tally->Differ("symbol version hidden", path, where);
      std::string lname = l.symbol_version().has_auxiliary_version()
                              ? l.symbol_version().symbol_version_auxiliary().name()
                              : "";
      auto it = model.version_names.find(o.version_index);
      std::string oname = o.version_index > 1 && it != model.version_names.end() ? it->second : "";
      if (oname != lname)
        tally->Differ("symbol version name", path, where + ": " + oname + " vs LIEF " + lname);
    }
  }

  // Version definitions (the VER_FLG_BASE entry names the object itself, not a version).
  std::vector<std::string> defs;
  for (const LIEF::ELF::SymbolVersionDefinition& d : lief->symbols_version_definition()) {
    if (d.flags() & 1) continue;
    auto aux = d.symbols_aux();
    if (aux.size() > 0) defs.push_back(aux[0].name());
  }
  if (defs != model.defined_versions)
    tally->Differ("VERDEF", path, Join(model.defined_versions) + " vs LIEF " + Join(defs));

  // Version needs.
  std::vector<std::string> needs, model_needs;
  for (const LIEF::ELF::SymbolVersionRequirement& r : lief->symbols_version_requirement())
    for (const LIEF::ELF::SymbolVersionAuxRequirement& a : r.auxiliary_symbols())
      needs.push_back(r.name() + ":" + a.name());
  for (const NeededVersion& n : model.needed_versions) model_needs.push_back(n.library + ":" + n.version);
  if (needs != model_needs) tally->Differ("VERNEED", path, Join(model_needs) + " vs LIEF " + Join(needs));
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

void Report(const std::string& label, const Tally& t, double seconds) {
  int total = 0;
  for (const auto& [kind, n] : t.differences) total += n;
  std::printf("[ lief-oracle ] %s: %d ELF files compared, %ld dynamic symbols, %d differences, %.1f s\n",
              label.c_str(), t.files, t.symbols, total, seconds);
  for (const auto& [kind, n] : t.differences) std::printf("[ lief-oracle ]   %s: %d\n", kind.c_str(), n);
  for (const auto& e : t.examples) std::printf("[ lief-oracle ]   e.g. %s\n", e.c_str());
}

Tally CompareTrees(const std::vector<std::string>& roots, const std::string& label) {
  LIEF::Logger::disable();
  auto start = std::chrono::steady_clock::now();
  Tally tally;
  for (const auto& root : roots)
    for (const auto& path : ElfFilesUnder(root)) { Compare(path, &tally); }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  Report(label, tally, seconds);
  return tally;
}

TEST(LiefOracle, FixtureTreesAgree) {
  Tally t = CompareTrees({ROCM_AUDIT_DEMO_TREE, ROCM_AUDIT_GPU_TREE, ROCM_AUDIT_CMAKE_TREE}, "fixtures");
  EXPECT_GT(t.files, 0);
  EXPECT_GT(t.symbols, 0);
  EXPECT_TRUE(t.differences.empty());
}

}  // namespace
}  // namespace rocm_audit
