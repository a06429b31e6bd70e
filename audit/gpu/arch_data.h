// The per-arch data that rocBLAS and hipBLASLt load at run time (docs/design.md §F7): the
// Tensile library directory next to the shared library, and which GPU processors its
// file names (TensileLibrary_lazy_gfx90a.dat, *_gfx1030.co, Kernels.so-000-gfx90a-xnack-.hsaco)
// and per-arch subdirectories cover.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace rocm_audit {

struct ArchDataDir {
  std::string library;                ///< "rocBLAS" | "hipBLASLt"
  std::string dir;                    ///< host path of the data directory ("" = none found)
  std::vector<std::string> searched;  ///< directories looked at, in order
  std::set<std::string> processors;   ///< processors named by the files in it
  size_t files = 0;
};

/// For a file named like librocblas.so* or libhipblaslt.so*, where its Tensile data is
/// (or would be) and what it covers; nullopt for other files.
std::optional<ArchDataDir> FindArchData(const std::string& library_path);

/// The processors a file name mentions (gfx[0-9a-f]+ runs, features dropped).
std::vector<std::string> ProcessorsInName(std::string_view name);

}  // namespace rocm_audit
