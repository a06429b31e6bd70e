// Where else in the scanned tree a symbol is defined: shared objects' dynamic symbols and
// static archives' members. Built once per run, after the checks, and only for the
// names some finding asks about -- so its cost follows the defects, not the tree size.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "audit/elf/elf_model.h"

namespace rocm_audit {

struct SymbolProvider {
  std::string file;    ///< the shared object or archive
  std::string member;  ///< the archive member ("X86TargetInfo.cpp.o"); empty for ELF
};

class SymbolIndex {
 public:
  explicit SymbolIndex(std::unordered_set<std::string> wanted) : wanted_(std::move(wanted)) {}

  bool empty() const { return wanted_.empty(); }
  void AddElf(const std::string& path, const ElfModel& model);
  /// Returns false with `error` set when the archive cannot be read.
  [[nodiscard]] bool AddArchive(const std::string& path, std::string_view bytes, std::string* error);

  /// `path` defines `name` (a wanted symbol no other provider defines; the base's libraries).
  void AddProvider(const std::string& name, const std::string& path) {
    providers_[name].push_back({path, ""});
  }

  const std::vector<SymbolProvider>& Providers(std::string_view name) const;

 private:
  std::unordered_set<std::string> wanted_;
  std::unordered_map<std::string, std::vector<SymbolProvider>> providers_;
};

}  // namespace rocm_audit
