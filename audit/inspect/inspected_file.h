// Everything the core reads from one walked file, before any check runs: its ELF model or
// archive, the device code it carries, the Tensile data beside it, and what could not be
// parsed (typed problems; the malformed-file check turns them into findings).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "audit/elf/object_store.h"
#include "audit/fs/walk.h"
#include "audit/gpu/arch_data.h"
#include "audit/gpu/arch_policy.h"
#include "audit/gpu/bundle.h"
#include "audit/gpu/device_code.h"
#include "audit/model/boxed.h"
#include "audit/model/file_facts.h"

namespace llvm {
class MemoryBuffer;
}

namespace rocm_audit {

/// Why a file, or part of it, could not be read.
struct ParseProblem {
  enum Kind {
    kUnparsable,        ///< the file is unusable (truncated ELF, broken archive, unmappable)
    kPartlyUnreadable,  ///< a table is broken, the rest was read (e.g. a version table)
    kNotAnObject,       ///< named like a shared library, but neither ELF nor a linker script
    kUnknownArchive,    ///< an ar archive with no object member: neither a static library nor a package
    kPackageInTree,     ///< a package (a .deb) found inside an audited tree: its contents are not audited
  } kind;
  std::string reason;
};

struct InspectedFile {
  WalkedFile walked;
  std::string kind;                             ///< FileKindName, refined for ELF (elf-shared-library, ...)
  std::shared_ptr<const StoredObject> elf;      ///< ELF files
  std::shared_ptr<llvm::MemoryBuffer> archive;  ///< valid archives (the symbol index reads them)
  uint64_t archive_members = 0;
  Boxed<NonElfMemberFacts> non_elf_members;  ///< archives with members that are not ELF
  DeviceInventory device;                    ///< GPU code found in it
  std::vector<ArchOffer> offers;             ///< what its device entries serve
  /// rocBLAS/hipBLASLt: the Tensile data directory, when one was found or the library has
  /// device code for specific processors to pair it with.
  Boxed<ArchDataDir> arch_data;        ///< boxed: 152 bytes inline, for the few files that have one
  std::vector<ParseProblem> problems;  ///< in the order they were met

  /// The parsed ELF model, or null.
  const ElfModel* model() const { return elf && elf->model ? elf->model.get() : nullptr; }
  /// Whether ld.so would be asked to load it: a dynamic object for a CPU (not GPU code).
  bool loadable() const;
};

InspectedFile InspectFile(WalkedFile file, ObjectStore& store, const BundleReadOptions& options);

/// Whether the loader's emulation or a whole-tree check may read the file after its own
/// checks: host ELF files (loadable ones; the others name where an unresolved library is)
/// and archives (they define symbols others leave undefined). GPU code objects, bundles and
/// data files are done with once their own checks and facts are: ld.so never loads GPU code,
/// so it neither resolves a library nor defines a host symbol.
bool ReadAfterItsChecks(const InspectedFile& file);

}  // namespace rocm_audit
