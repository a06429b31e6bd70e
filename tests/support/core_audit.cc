#include "tests/support/core_audit.h"

#include <gtest/gtest.h>

#include "audit/fs/walk.h"
#include "audit/loader/ld_so_conf.h"

namespace rocm_audit::testing {

InspectedFile InspectOne(const std::string& path, ObjectStore& store) {
  WalkResult walk = WalkInputs({path}, RootedFs());
  EXPECT_EQ(walk.files.size(), 1u) << path;
  return InspectFile(walk.files.at(0), store, BundleReadOptions{});
}

CoreAudit::CoreAudit(const std::vector<std::string>& paths, const std::vector<std::string>& roots,
                     std::vector<std::string> library_path, std::string conf,
                     std::optional<std::vector<std::string>> default_dirs)
    : loader_{RootedFs(roots), std::move(library_path), {}, "", std::move(default_dirs)} {
  loader_.conf_dirs = ReadLdSoConf(loader_.fs, conf);
  WalkResult walk = WalkInputs(paths, loader_.fs);
  DeviceOfferCache offers{BundleReadOptions{}};
  for (const WalkedFile& w : walk.files) files_.push_back(InspectFile(w, store_, BundleReadOptions{}));
  for (const InspectedFile& f : files_)
    if (f.model()) offers.Put(f.walked.real_path, f.offers);
  for (const InspectedFile& f : files_)
    loads_.push_back(f.loadable() ? std::optional(InspectLoad(f, loader_, store_, offers, {}))
                                  : std::nullopt);
}

const LoadFacts* CoreAudit::LoadOf(const std::string& file) const {
  for (size_t i = 0; i < files_.size(); ++i)
    if (files_[i].walked.path == file && loads_[i]) return &*loads_[i];
  ADD_FAILURE() << file << " was not audited as a loadable file";
  return nullptr;
}

std::vector<std::string> CoreAudit::Closure(const std::string& file) const {
  std::vector<std::string> out;
  if (const LoadFacts* l = LoadOf(file))
    for (size_t i = 1; i < l->closure.objects.size(); ++i)
      out.push_back(loader_.fs.DisplayPath(l->closure.objects[i].path));
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
  for (size_t i = 0; i < files_.size(); ++i)
    if (loads_[i] && (file.empty() || files_[i].walked.path == file))
      out.insert(out.end(), loads_[i]->binding.undefined.begin(), loads_[i]->binding.undefined.end());
  return out;
}

std::vector<MissingVersion> CoreAudit::MissingVersions(const std::string& file) const {
  std::vector<MissingVersion> out;
  for (size_t i = 0; i < files_.size(); ++i)
    if (loads_[i] && (file.empty() || files_[i].walked.path == file))
      out.insert(out.end(), loads_[i]->binding.missing_versions.begin(),
                 loads_[i]->binding.missing_versions.end());
  return out;
}

}  // namespace rocm_audit::testing
