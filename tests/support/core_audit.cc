#include "tests/support/core_audit.h"

#include <gtest/gtest.h>

#include <mutex>

#include "audit/fs/walk.h"
#include "engine/audit.h"

namespace rocm_audit::testing {

InspectedFile InspectOne(const std::string& path, ObjectStore& store) {
  WalkResult walk = WalkInputs({path}, RootedFs());
  EXPECT_EQ(walk.files.size(), 1u) << path;
  return InspectFile(walk.files.at(0), store, BundleReadOptions{});
}

namespace {

// Keeps each loadable file's loader facts as the engine makes them.
class LoadFactsKeeper : public AuditSinks {
 public:
  explicit LoadFactsKeeper(std::map<size_t, std::pair<std::string, LoadFacts>>* loads) : loads_(*loads) {}
  void LoadFactsReady(size_t index, const InspectedFile& file, const LoadFacts& load,
                      const LoaderConfig&) override {
    std::lock_guard lock(mutex_);
    loads_.emplace(index, std::pair(file.walked.path, load));
  }

 private:
  std::mutex mutex_;
  std::map<size_t, std::pair<std::string, LoadFacts>>& loads_;
};

}  // namespace

CoreAudit::CoreAudit(const std::vector<std::string>& paths, const std::vector<std::string>& roots,
                     std::vector<std::string> library_path, std::string conf,
                     std::optional<std::vector<std::string>> default_dirs)
    : fs_(roots) {
  AuditRequest request;
  request.paths = paths;
  request.roots = roots;
  request.library_path = std::move(library_path);
  request.ld_so_conf = std::move(conf);
  request.default_dirs = std::move(default_dirs);
  request.jobs = 2;
  LoadFactsKeeper keeper(&loads_);
  Report report;
  std::string error;
  EXPECT_TRUE(Audit(request, keeper, &report, &error)) << error;
}

const LoadFacts* CoreAudit::LoadOf(const std::string& file) const {
  for (const auto& [index, kept] : loads_)
    if (kept.first == file) return &kept.second;
  ADD_FAILURE() << file << " was not audited as a loadable file";
  return nullptr;
}

std::vector<std::string> CoreAudit::Closure(const std::string& file) const {
  std::vector<std::string> out;
  if (const LoadFacts* l = LoadOf(file))
    for (size_t i = 1; i < l->closure.objects.size(); ++i)
      out.push_back(fs_.DisplayPath(std::string(l->closure.objects[i].path)));
  return out;
}

std::vector<std::string> CoreAudit::Unresolved(const std::string& file) const {
  std::vector<std::string> out;
  if (const LoadFacts* l = LoadOf(file))
    for (const UnresolvedLibrary& u : l->closure.unresolved) out.push_back(u.name);
  return out;
}

const UnresolvedLibrary* CoreAudit::UnresolvedNamed(const std::string& file, const std::string& name) const {
  if (const LoadFacts* l = LoadOf(file))
    for (const UnresolvedLibrary& u : l->closure.unresolved)
      if (u.name == name) return &u;
  return nullptr;
}

std::vector<UndefinedSymbol> CoreAudit::Undefined(const std::string& file) const {
  std::vector<UndefinedSymbol> out;
  for (const auto& [index, kept] : loads_)
    if (const auto& [path, load] = kept; file.empty() || path == file)
      out.insert(out.end(), load.binding.undefined.begin(), load.binding.undefined.end());
  return out;
}

std::vector<MissingVersion> CoreAudit::MissingVersions(const std::string& file) const {
  std::vector<MissingVersion> out;
  for (const auto& [index, kept] : loads_)
    if (const auto& [path, load] = kept; file.empty() || path == file)
      out.insert(out.end(), load.binding.missing_versions.begin(), load.binding.missing_versions.end());
  return out;
}

}  // namespace rocm_audit::testing
