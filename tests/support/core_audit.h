// The loader's view of a tree, as the engine makes it in a whole audit: the loader facts of
// each loadable file, taken from the engine's sink as they are made. Loader tests assert on
// these facts directly, without going through findings.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "audit/elf/object_store.h"
#include "audit/inspect/inspected_file.h"
#include "audit/inspect/load_facts.h"
#include "audit/loader/search_path.h"

namespace rocm_audit::testing {

/// The one file at `path`, walked and read as the pipeline reads it (a test fails unless the
/// walk finds exactly one).
InspectedFile InspectOne(const std::string& path, ObjectStore& store);

class CoreAudit {
 public:
  /// Audits `paths` inside the `roots` overlay (none = the host), with no ld.so.conf unless
  /// `conf` names one inside the roots.
  CoreAudit(const std::vector<std::string>& paths, const std::vector<std::string>& roots,
            std::vector<std::string> library_path = {}, std::string conf = "/etc/ld.so.conf",
            std::optional<std::vector<std::string>> default_dirs = std::nullopt);

  /// The closure ld.so would map for `file` (display paths, load order, itself excluded).
  std::vector<std::string> Closure(const std::string& file) const;
  /// The DT_NEEDED names it would not find.
  std::vector<std::string> Unresolved(const std::string& file) const;
  /// The search for one unresolved name; null when that name resolved.
  const UnresolvedLibrary* UnresolvedNamed(const std::string& file, const std::string& name) const;
  /// Undefined symbols of every loadable file (or of `file`), as `ldd -r` would list them.
  std::vector<UndefinedSymbol> Undefined(const std::string& file = "") const;
  std::vector<MissingVersion> MissingVersions(const std::string& file = "") const;

  const LoadFacts* LoadOf(const std::string& file) const;

 private:
  RootedFs fs_;                                                // for display paths
  std::map<size_t, std::pair<std::string, LoadFacts>> loads_;  // by walk index: path, facts
};

}  // namespace rocm_audit::testing
