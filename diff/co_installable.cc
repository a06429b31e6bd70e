#include "diff/co_installable.h"

#include "diff/debian_relations.h"

namespace rocm_audit {
namespace {

// The first relation of `field` (named `label`) of `from` that `to` satisfies, as
// "FROM Label: relation"; "".
std::string Relation(const SidePackage& from, const char* label, const std::vector<std::string>& field,
                     const SidePackage& to) {
  for (const std::string& r : field)
    if (RelationSatisfiedBy(r, to.name, to.version, to.provides)) return from.name + " " + label + ": " + r;
  return "";
}

// Conflicts and Breaks hold both ways: dpkg refuses (or removes, or deconfigures) the
// installed package whichever of the two declares the relation.
std::string ConflictOrBreak(const SidePackage& old_pkg, const SidePackage& now) {
  for (const auto& [from, to] : {std::pair{&now, &old_pkg}, std::pair{&old_pkg, &now}}) {
    if (std::string r = Relation(*from, "Conflicts", from->conflicts, *to); !r.empty()) return r;
    if (std::string r = Relation(*from, "Breaks", from->breaks, *to); !r.empty()) return r;
  }
  return "";
}

}  // namespace

OldPackageFate FateOfOldPackage(const Side& old_side, const Side& new_side, const std::string& old_path) {
  const SidePackage* was = old_side.PackageOf(old_path);
  if (!was || new_side.packages.empty() || new_side.HasPackage(was->name)) return {};
  for (const SidePackage& now : new_side.packages)
    if (std::string r = ConflictOrBreak(*was, now); !r.empty()) return {false, r};
  // Replaces alone takes over only the files the replacing package ships itself; the old
  // package keeps the rest and stays installed (Policy 7.6.1).
  if (const SidePackage* owner = new_side.PackageOf(old_path))
    if (std::string r = Relation(*owner, "Replaces", owner->replaces, *was); !r.empty())
      return {false, r + " and ships " + old_path};
  return {true, ""};
}

}  // namespace rocm_audit
