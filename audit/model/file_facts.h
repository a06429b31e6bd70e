// What the audit learned about one file, typed: the facts reports render (files[] of the
// JSON report, the text report's device summary and arch matrix). Each part is present
// only for files it applies to.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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
};

/// The objects ld.so would map for a loadable file, and the names it would not find.
struct ClosureFacts {
  std::vector<std::string> objects;     ///< load order, the file itself excluded (display paths)
  std::vector<std::string> unresolved;  ///< DT_NEEDED names
};

struct FileFacts {
  std::string path;  ///< as found by the walk
  std::string kind;  ///< elf-shared-library, ar-archive, offload-bundle, ... (see FileKindName)
  std::optional<ElfFacts> elf;
  std::optional<uint64_t> archive_members;
  std::optional<DeviceFacts> device;  ///< files with at least one bundle
  std::optional<ArchDataFacts> arch_data;
  std::optional<DeviceStackFacts> device_stack;
  std::optional<ClosureFacts> closure;     ///< loadable files only
  std::optional<CMakePackageFacts> cmake;  ///< CMake package configs
};

}  // namespace rocm_audit
