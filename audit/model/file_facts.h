// What the audit learned about one file, typed: the facts reports render (files[] of the
// JSON report, the text report's device summary and arch matrix). Each part is present
// only for files it applies to.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "audit/model/boxed.h"
#include "audit/model/cmake_facts.h"
#include "audit/model/device_facts.h"

namespace rocm_audit {

/// What ld.so reads from an ELF file's header and dynamic section.
struct ElfFacts {
  bool elf64 = true;
  std::string machine;  ///< "x86-64", "aarch64", "amdgpu", ...
  std::string soname;   ///< "" when none
  bool has_dynamic = false;
  std::vector<std::string> needed;
  bool has_runpath = false;
  std::vector<std::string> runpath;
  std::vector<std::string> rpath;  ///< empty when DT_RUNPATH exists (ld.so ignores it then)
  /// Only when the request asks for them (AuditRequest::symbol_facts, for `diff`): the
  /// dynamic symbols as `nm -D` names them (`name`, `name@@VERSION` for the default version,
  /// `name@VERSION` for a hidden one), sorted. `exports`: defined, global/weak/unique, not
  /// hidden or internal (what another object can bind to); `imports`: undefined, not local.
  bool has_symbols = false;
  std::vector<std::string> exports;
  std::vector<std::string> imports;
};

/// One DT_NEEDED edge of the load graph.
struct NeededEdge {
  std::string name;             ///< the DT_NEEDED string
  int object = -1;              ///< index into ClosureFacts::nodes; -1: not found
  std::string missing_version;  ///< a version of it the file needs and it lacks ("" if none)
};

/// One object of the load graph: how the loader found it, and what it needs.
struct ClosureNode {
  std::string path;  ///< display path
  std::string
      found_by;  ///< "RUNPATH of libX.so", "RPATH of ...", "--library-path", "ld.so.conf", "default", ...
  std::vector<NeededEdge> needed;
};

/// The most objects ClosureFacts::objects lists for one file; objects_left_out counts the
/// rest. The largest closure of the Debian ROCm corpus has 27 objects (migraphx-driver), a
/// whole ROCm install's a few hundred; a crafted tree of N libraries each loading the next
/// has N closures of up to N objects, N^2/2 paths in all.
inline constexpr size_t kMaxClosureObjectsListed = 512;

/// The objects ld.so would map for a loadable file, and the names it would not find.
struct ClosureFacts {
  std::vector<std::string> objects;  ///< load order, the file itself excluded (display paths); the first 512
  std::vector<std::string> unresolved;  ///< DT_NEEDED names
  /// The load graph, for the tree view (--tree): nodes[0] is the file itself, then the
  /// objects in load order. Not part of the JSON report; made only when the sink draws it
  /// (AuditSinks::DrawsLoadGraph: the command line's --tree).
  std::vector<ClosureNode> nodes;
  uint64_t objects_left_out = 0;  ///< objects of the closure past kMaxClosureObjectsListed
};

/// A plugin: a module its host program dlopens (audit/inspect/plugin_rule.h), and the host
/// its undefined symbols were bound against.
struct PluginFileFacts {
  std::string rule;  ///< "python-extension", "perl-xs", "plugin-directory", "plugin-host", "plugin-library"
  std::string host;  ///< the host the rule names ("python3.11"); "" when it names none
  std::string host_path;       ///< the host found in the audited world; "" when none is there
  uint64_t bound_by_host = 0;  ///< symbols only the host's scope defines
};

/// An archive's members that are not ELF (WebAssembly, COFF, Mach-O, LLVM bitcode, offload
/// bundles, text): never parsed, so none defines a symbol here; counted, the first few named.
struct NonElfMemberFacts {
  struct Named {
    std::string member;
    std::string format;  ///< "wasm", "coff", "mach-o", "llvm-bitcode", "offload-bundle", "other", ...
  };
  uint64_t count = 0;
  std::vector<Named> named;
};

/// The parts a file does not have are null (Boxed): a file with none of them costs its
/// path, its kind and a pointer for each part.
struct FileFacts {
  std::string path;  ///< as found by the walk; it and every path below: ForEachPath (file_paths.h)
  std::string kind;  ///< elf-shared-library, ar-archive, offload-bundle, ... (see FileKindName)
  Boxed<ElfFacts> elf;
  std::optional<uint64_t> archive_members;
  Boxed<NonElfMemberFacts> non_elf_members;
  Boxed<DeviceFacts> device;  ///< files with at least one bundle
  Boxed<ArchDataFacts> arch_data;
  Boxed<DeviceStackFacts> device_stack;
  Boxed<ClosureFacts> closure;     ///< loadable files only
  Boxed<PluginFileFacts> plugin;   ///< loadable plugins only
  Boxed<CMakePackageFacts> cmake;  ///< CMake package configs
  /// The text its lists (needed, runpath, rpath, exports, imports, closure, unresolved) may
  /// hold in a report, together (ReportByteBudget); 0: no bound. A crafted file's lists can
  /// quote one name as often as it has entries pointing at it.
  uint64_t report_bytes = 0;
};

}  // namespace rocm_audit
