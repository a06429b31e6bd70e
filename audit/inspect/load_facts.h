// What the loader emulation learns about one loadable file: the closure ld.so would map,
// what its symbols would bind to, and the device code of that closure.
#pragma once

#include "audit/gpu/arch_policy.h"
#include "audit/gpu/device_code.h"
#include "audit/inspect/device_stack.h"
#include "audit/inspect/inspected_file.h"
#include "audit/inspect/plugin_host.h"
#include "audit/loader/closure.h"
#include "audit/loader/search_path.h"
#include "audit/loader/symbol_binding.h"

namespace rocm_audit {

struct LoadFacts {
  LoadClosure closure;
  SymbolBinding binding;
  DeviceStack device_stack;
  std::optional<PluginFacts> plugin;  ///< set when the file is a plugin (plugin_rule.h)
};

/// `file` must be loadable(). `plugins`: the run's plugin hosts; null binds every file as
/// ld.so binds a program or a linked library. `memo`: the run's search memo (BuildClosure).
LoadFacts InspectLoad(const InspectedFile& file, const LoaderConfig& loader, ObjectStore& store,
                      DeviceOfferCache& offers, const ArchRequirement& requirement,
                      PluginHosts* plugins = nullptr, LoaderMemo* memo = nullptr);

/// The closure ld.so maps for `file` (loadable()), as InspectLoad makes it: the same objects
/// in the same order each time it is made (the files do not change while the audit runs),
/// so that a LoadFacts whose closure was cut to DirectNeedsOf can have it again.
LoadClosure ClosureOf(const InspectedFile& file, const LoaderConfig& loader, ObjectStore& store,
                      LoaderMemo* memo);

}  // namespace rocm_audit
