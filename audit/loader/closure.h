// The set of objects ld.so maps for one main object, in its breadth-first load order
// (elf/dl-deps.c), each DT_NEEDED resolved in the context of the object that names it.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "audit/elf/elf_model.h"
#include "audit/elf/object_store.h"
#include "audit/loader/search_path.h"

namespace rocm_audit {

struct LoadedObject {
  const ElfModel* model = nullptr;
  std::string path;                ///< host path as found; its directory is $ORIGIN
  std::string real_path;           ///< the file mapped
  FileId id;                       ///< its device and inode: how ld.so knows it is loaded
  int loader = -1;                 ///< index of the object that first needed it; -1 for the main object
  std::vector<std::string> names;  ///< DT_NEEDED names it satisfied, plus its soname
  std::string found_by;            ///< the search step that found it ("RUNPATH of libX.so", "default", ...)
};

struct UnresolvedLibrary {
  std::string name;            ///< the DT_NEEDED string
  std::vector<int> needed_by;  ///< indices into LoadClosure::objects
  Resolution resolution;       ///< the search, for the explanation
  std::string parse_error;     ///< found, but not a usable ELF file
};

struct LoadClosure {
  std::vector<LoadedObject> objects;  ///< [0] is the main object; breadth-first order
  std::vector<UnresolvedLibrary> unresolved;
  /// Keeps the models alive for as long as the closure is used: keep_alive[i - 1] holds
  /// objects[i]'s (the main object's is the caller's).
  std::vector<std::shared_ptr<const StoredObject>> keep_alive;

  /// Index of the loaded object ld.so would match to `name` (DT_NEEDED name or soname).
  /// Constant time for a closure BuildClosure made; any other is scanned.
  int FindByName(std::string_view name) const;

  /// Hashes a name however it is held, so that a DT_NEEDED is looked up where it lies.
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  /// Each name and path of `objects`, with the first object that has it (BuildClosure's).
  std::unordered_map<std::string, int, NameHash, std::equal_to<>> by_name;
};

/// `memo`: the run's search memo for `config` (search_memo.h), shared by every closure of
/// the run; null searches with one of the closure's own.
LoadClosure BuildClosure(const ElfModel& main, const std::string& main_path,
                         const std::string& main_real_path, const LoaderConfig& config, ObjectStore& store,
                         SearchMemo* memo = nullptr);

/// What is left of a closure once the main object's own checks have read it: the main
/// object and what its own DT_NEEDED names matched, each name matched as in the whole
/// closure (FindByName). The whole-tree checks read no more of it (mixed-soname's tree
/// form), so that a tree of N libraries each loading the next need not hold N closures of
/// up to N objects at once. Unresolved names are dropped.
LoadClosure DirectNeedsOf(LoadClosure&& closure);

}  // namespace rocm_audit
