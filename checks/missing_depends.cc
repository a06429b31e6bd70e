// missing-depends: a package of an installed .deb set whose files need a file of another
// package of the set (a CMake config naming its library, a libfoo.so link into it, a
// DT_NEEDED the loader resolves into it) without depending on that package, directly or
// through its Depends, as dpkg resolves them within the set and the base
// (checks/debian_depends.h). Audited together the file is there; installed alone (apt
// installs a -dev package with its Depends only) it is not.
#include <sys/stat.h>

#include <map>

#include "audit/cmake/evaluation.h"
#include "checks/cmake_package_site.h"
#include "checks/debian_depends.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    // Warning: a consumer that installs the package by its Depends (apt install libfoo-dev) gets a config
    // naming a missing library, a dangling libfoo.so link or a program that does not start; an error when
    // every Depends was followed and none reaches the package. lintian: none for CMake configs and
    // DT_NEEDED of libraries (dpkg-shlibdeps adds those it sees); auditwheel: none.
    {
        .id = "missing-depends",
        .severity = Severity::kWarning,
        .title =
            "a package of a .deb set needs a file of another package of the set without depending on it "
            "(a CMake config naming its library, a libfoo.so link into it, a DT_NEEDED resolved into it)",
        .fix = "add the package that ships the file to the Depends of the package that needs it",
        .key_fields = "package needs_package",
        .explanation =
            "Packages given together (.deb PATHs, a .changes) are audited as installed together, so a file "
            "one of them needs from another is found. But apt installs a package with its Depends and "
            "Pre-Depends only: a -dev package whose CMake config names libfoo.so.1.0.0 of libfoo1, whose "
            "libfoo.so link points into libfoo1, or a library whose DT_NEEDED the loader resolves into "
            "libfoo1, needs libfoo1 installed, and only its Depends make sure it is. The relation is "
            "followed as dpkg resolves it: directly, or through the Depends of the packages depended on, "
            "within the set and the packages installed in the base (its dpkg status); an alternative (a | "
            "b) counts when any of its names does, a Provides counts for the name it provides, a version "
            "constraint is taken as satisfied. It is an error when every relation was followed and none "
            "reaches the package; a warning when one names a package neither in the set nor installed, "
            "whose own Depends could pull it in. Add the package to the Depends of the one that needs it "
            "(Depends: libfoo1 (= ${binary:Version}) for a -dev package).",
        .example = "libfoo-dev:/usr/lib/x86_64-linux-gnu/cmake/foo/fooTargets.cmake\n"
                   "  error[missing-depends]: libfoo-dev needs /usr/lib/x86_64-linux-gnu/libfoo.so.1.0.0 of "
                   "libfoo1 (fooTargets.cmake:61: IMPORTED_LOCATION_RELEASE of foo::foo) but does not depend "
                   "on libfoo1, directly or through its Depends (libc6): missing relation libfoo-dev "
                   "Depends: libfoo1\n"
                   "    fix: add libfoo1 to the Depends of libfoo-dev (Depends: libfoo1 (= "
                   "${binary:Version}))",
        .cause_fields = "package needs_package",
        .cause = "{package} needs {needs_package} without depending on it ({files})",
        .fields = "package:string needs_package:string needed:path via:string open?:[string]",
    },
};

// One file of package `from` that needs one of package `to`.
struct Need {
  size_t from, to;
  std::string file;    ///< the file that needs it (a config, a link, a loadable file)
  std::string needed;  ///< what it needs, as the installed system names it
  std::string via;     ///< how: "CMake ...", "symbolic link", "DT_NEEDED ..."
};

class SetNeeds {
 public:
  explicit SetNeeds(const TreeInput& in) : in_(in), packages_(in.options.packages) {}

  // Every need of a package of the set on another, the first of each pair kept.
  std::map<std::pair<size_t, size_t>, Need> Collect() {
    FromCMakeConfigs();
    FromLoadableFiles();
    FromLinks();
    return std::move(needs_);
  }

 private:
  // The package that ships `host` (a file or link of the set's tree), or npos.
  size_t OwnerOf(const std::string& host) const {
    for (size_t i = 0; i < packages_.size(); ++i)
      if (packages_[i].files.count(host)) return i;
    return std::string::npos;
  }

  // The package that ships what `host` names once every link is followed, else `host`'s own.
  size_t TargetOwner(const std::string& host) const {
    if (auto resolved = in_.loader.fs.ResolveFully(host))
      if (size_t o = OwnerOf(resolved->host); o != std::string::npos) return o;
    return OwnerOf(host);
  }

  void Add(size_t from, size_t to, const std::string& file, const std::string& needed, std::string via) {
    if (from == std::string::npos || to == std::string::npos || from == to) return;
    needs_.try_emplace({from, to}, Need{from, to, file, needed, std::move(via)});
  }

  void FromCMakeConfigs() {
    for (const AuditedPackage& ap : in_.cmake_packages) {
      const std::string& file = in_.files[ap.file]->walked.path;
      const size_t from = OwnerOf(file);
      if (from == std::string::npos) continue;
      for (const CMakeReference& r : ap.package.evaluation.references)
        if (r.exists)
          Add(from, TargetOwner(in_.loader.fs.HostPath(r.path)), file, r.path,
              SiteText(r.site) + ": " + r.via + (r.target.empty() ? "" : " of " + r.target));
    }
  }

  void FromLoadableFiles() {
    for (size_t i = 0; i < in_.files.size() && i < in_.loads.size(); ++i) {
      if (!in_.files[i] || !in_.loads[i]) continue;
      const std::string& file = in_.files[i]->walked.path;
      const size_t from = OwnerOf(file);
      if (from == std::string::npos) continue;
      for (const LoadedObject& o : in_.loads[i]->closure.objects) {
        if (o.loader != 0) continue;
        size_t to = OwnerOf(std::string(o.path));
        if (to == std::string::npos) to = OwnerOf(std::string(o.real_path));
        const std::string name = o.names.empty() ? std::string(o.path) : std::string(o.names.front());
        Add(from, to, file, in_.loader.fs.DisplayPath(std::string(o.path)), "DT_NEEDED " + name);
      }
    }
  }

  // A link a package ships into a file of another (a -dev package's libfoo.so).
  void FromLinks() {
    for (size_t from = 0; from < packages_.size(); ++from)
      for (const std::string& member : packages_[from].files) {
        struct stat st;
        if (lstat(member.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) continue;
        const size_t to = TargetOwner(member);
        if (to == std::string::npos || to == from) continue;
        Add(from, to, member, in_.loader.fs.DisplayPath(in_.loader.fs.Resolve(member).value_or(member)),
            "symbolic link");
      }
  }

  const TreeInput& in_;
  const std::vector<PackageOfSet>& packages_;
  std::map<std::pair<size_t, size_t>, Need> needs_;
};

std::string Joined(const std::vector<std::string>& names, size_t most) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < most; ++i) out += (i ? ", " : "") + names[i];
  return out + (names.size() > most ? ", ..." : "");
}

Finding MissingDepends(const Need& n, const PackageOfSet& from, const PackageOfSet& to,
                       const DependsReach& r) {
  Finding f = MakeFinding(kRules[0], n.file);
  f.severity = r.open.empty() ? Severity::kError : Severity::kWarning;
  f.message = from.name + " needs " + n.needed + " of " + to.name + " (" + n.via +
              ") but does not depend on " + to.name + ", directly or through its Depends" +
              (from.depends.empty() ? " (it has none)" : " (" + Joined(from.depends, 8) + ")") +
              ": missing relation " + from.name + " Depends: " + to.name;
  if (!r.open.empty())
    f.message += "; " + Joined(r.open, 8) + (r.open.size() == 1 ? " is" : " are") +
                 " neither in the set nor installed, and may depend on it";
  f.SetHint("add " + to.name + " to the Depends of " + from.name + " (Depends: " + to.name +
            (from.name.ends_with("-dev") ? " (= ${binary:Version})" : "") + ")");
  f.fields["package"] = from.name;
  f.fields["needs_package"] = to.name;
  f.fields["needed"] = n.needed;
  f.fields["via"] = n.via;
  if (!r.open.empty()) f.fields["open"] = r.open;
  return f;
}

void Run(const TreeInput& in, FindingSink& sink) {
  const std::vector<PackageOfSet>& packages = in.options.packages;
  if (packages.size() < 2) return;
  DependsWorld world(packages, in.loader.fs);
  std::map<size_t, DependsReach> reach;
  for (const auto& [pair, need] : SetNeeds(in).Collect()) {
    auto it = reach.find(need.from);
    if (it == reach.end()) it = reach.emplace(need.from, world.Reach(packages[need.from])).first;
    if (it->second.packages.count(packages[need.to].name)) continue;
    sink.Add(MissingDepends(need, packages[need.from], packages[need.to], it->second));
  }
}

}  // namespace

// The CMake configs are read when a cmake-* check runs (their evaluation is then made): with
// them all disabled, only links and DT_NEEDED entries are held to the Depends.
extern const Check kMissingDependsCheck{"missing_depends", kRules, TreeCheck{Run}, kNeedsElfAndLoader};

}  // namespace rocm_audit
