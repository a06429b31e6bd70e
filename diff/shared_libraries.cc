#include "diff/shared_libraries.h"

#include <algorithm>
#include <optional>

#include "audit/fs/soname.h"

namespace rocm_audit {

std::string_view SonameStem(std::string_view soname) {
  const std::optional<SonameParts> parts = ParseSoname(soname);
  return parts ? parts->stem : soname;
}

std::string_view SonameMajor(std::string_view soname) {
  const std::optional<SonameParts> parts = ParseSoname(soname);
  return parts ? parts->Major() : std::string_view();
}

std::string NextSoname(std::string_view soname) {
  const std::optional<SonameParts> parts = ParseSoname(soname);
  if (!parts) return "";
  const std::string_view major = parts->Major();
  if (major.empty() || major.size() > 9 || major.find_first_not_of("0123456789") != std::string_view::npos)
    return "";
  return std::string(parts->stem) + "." + std::to_string(std::stoul(std::string(major)) + 1);
}

bool Links(const ElfFacts& elf, std::string_view soname) {
  return std::find(elf.needed.begin(), elf.needed.end(), soname) != elf.needed.end();
}

SharedLibraries::SharedLibraries(const Side& side) {
  for (const FileFacts& f : side.files)
    if (f.elf && !f.elf->soname.empty() && f.elf->machine != "amdgpu") {
      all_.push_back(&f);
      by_soname_.emplace(f.elf->soname, &f);
    }
}

std::vector<const FileFacts*> SharedLibraries::BySoname(std::string_view soname) const {
  std::vector<const FileFacts*> out;
  auto [begin, end] = by_soname_.equal_range(soname);
  for (auto it = begin; it != end; ++it) out.push_back(it->second);
  return out;
}

const FileFacts* SharedLibraries::First(std::string_view soname) const {
  auto it = by_soname_.find(soname);
  return it == by_soname_.end() ? nullptr : it->second;
}

const FileFacts* SharedLibraries::SameStem(std::string_view soname) const {
  const std::string_view stem = SonameStem(soname);
  for (const FileFacts* f : all_)
    if (SonameStem(f->elf->soname) == stem) return f;
  return nullptr;
}

}  // namespace rocm_audit
