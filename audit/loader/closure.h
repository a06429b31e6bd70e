// The set of objects ld.so maps for one main object, in its breadth-first load order
// (elf/dl-deps.c), each DT_NEEDED resolved in the context of the object that names it.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>

#include "audit/elf/elf_model.h"
#include "audit/elf/object_store.h"
#include "audit/loader/search_path.h"

namespace rocm_audit {

/// One object of a closure. Its strings are views into what the closure keeps alive (its
/// keep_alive, its main object's paths, the models): a closure of N objects copies no path
/// or name, so that the N closures of a chain of N libraries cost N^2 small records, not
/// N^2 strings.
struct LoadedObject {
  const ElfModel* model = nullptr;
  std::string_view path;       ///< host path as found; its directory is $ORIGIN
  std::string_view real_path;  ///< the file mapped
  FileId id;                   ///< its device and inode: how ld.so knows it is loaded
  int loader = -1;             ///< index of the object that first needed it; -1 for the main object
  llvm::SmallVector<std::string_view, 2> names;  ///< DT_NEEDED names it satisfied, plus its soname
  std::string_view found_by;  ///< the search step that found it ("RUNPATH of libX.so", "default", ...)
};

struct UnresolvedLibrary {
  std::string name;            ///< the DT_NEEDED string
  std::vector<int> needed_by;  ///< indices into LoadClosure::objects
  Resolution resolution;       ///< the search, for the explanation
  std::string parse_error;     ///< found, but not a usable ELF file
};

/// What one object's DT_NEEDED name resolved to: the search, and the found file's parse.
struct ResolvedNeeded {
  Resolution resolution;
  std::shared_ptr<const StoredObject> stored;  ///< set when found
  /// For an answer the run keeps (LoaderMemo) that found an object: the run's answers for
  /// that object's own DT_NEEDED names, by index, each set by the first closure that makes
  /// it. A closure reads its members' answers here rather than from the run's map: no key
  /// is built, no lock taken, no line written that another worker reads.
  std::unique_ptr<std::atomic<const ResolvedNeeded*>[]> next;
};

/// What the closures of one run share; the files do not change while the audit runs. The
/// filesystem's answers (search_memo.h); and what a DT_NEEDED name of an object resolves
/// to, whenever its search reads nothing of the objects that loaded it: no DT_RPATH is
/// inherited, so the requester's path (its $ORIGIN and its file), the name and the main
/// object's interpreter (its built-in directories) decide it. A chain of N libraries, each
/// an audited file, then searches each name once, not once per closure that holds it.
struct LoaderMemo {
  SearchMemo search;
  /// By requester path, name and main object's interpreter. Shared with the closures that
  /// view them, which may outlive the memo.
  std::shared_ptr<SharedAnswers<std::shared_ptr<const ResolvedNeeded>>> needed =
      std::make_shared<SharedAnswers<std::shared_ptr<const ResolvedNeeded>>>();
};

struct LoadClosure {
  std::vector<LoadedObject> objects;  ///< [0] is the main object; breadth-first order
  std::vector<UnresolvedLibrary> unresolved;
  /// How objects[i] was found: found[i - 1], held by the run's answers or by own_answers.
  std::vector<const ResolvedNeeded*> found;
  /// What the objects' views point into, for as long as the closure is used: the run's
  /// answers (one reference for the whole closure, not one per object), the searches only
  /// this closure could make (a DT_RPATH inherited), and objects[0]'s parse and paths.
  std::shared_ptr<const void> run_answers;
  std::vector<std::shared_ptr<const ResolvedNeeded>> own_answers;
  std::shared_ptr<const StoredObject> main_object;
  std::shared_ptr<const std::pair<std::string, std::string>> main_paths;

  /// Index of the loaded object ld.so would match to `name` (DT_NEEDED name or soname).
  /// Constant time for a closure BuildClosure made; any other is scanned.
  int FindByName(std::string_view name) const;

  /// Each name and path of `objects`, with the first object that has it (BuildClosure's).
  /// Keys are views, as the objects' strings are: open addressing, no allocation per name.
  llvm::DenseMap<llvm::StringRef, int> by_name;
};

/// `main` must hold a model. `memo`: the run's, for `config`, shared by every closure of
/// the run; null searches with one of the closure's own.
LoadClosure BuildClosure(std::shared_ptr<const StoredObject> main, const std::string& main_path,
                         const std::string& main_real_path, const LoaderConfig& config, ObjectStore& store,
                         LoaderMemo* memo = nullptr);

/// What is left of a closure once the main object's own checks have read it: the main
/// object and what its own DT_NEEDED names matched, each name matched as in the whole
/// closure (FindByName). The whole-tree checks read no more of it (mixed-soname's tree
/// form), so that a tree of N libraries each loading the next need not hold N closures of
/// up to N objects at once. Unresolved names are dropped.
LoadClosure DirectNeedsOf(LoadClosure&& closure);

}  // namespace rocm_audit
