// cmake-absolute-path: a package config that names files outside its own prefix by an
// absolute path (an include directory under /opt/rocm, a library in /usr while the package
// lives in a store path). Judged like RPATH entries: a path into the audited paths, into
// the installed system given by --root, or into another store path is fine, unless
// --relocatable asks for a package that names nothing outside its prefix.
#include "audit/fs/placement.h"
#include "checks/cmake_package_site.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    // Warning: where the path does not exist the consumer's CMake fails, and where it holds another
    // installation the consumer builds against that one; but a path into a directory another package installs
    // is right, and one run sees it only with --root. lintian, auditwheel: none.
    {
        .id = "cmake-absolute-path",
        .severity = Severity::kWarning,
        .title = "a CMake package config names a file outside its own prefix by an absolute path: the "
                 "package is not relocatable",
        .fix = "compute the path from ${CMAKE_CURRENT_LIST_DIR} (configure_package_config_file's "
               "PACKAGE_PREFIX_DIR, or $<INSTALL_INTERFACE:...> relative paths in exports)",
        .key_fields = "package via referenced",
        .explanation = "The config names a file or directory outside its own installation prefix by an "
                       "absolute path: an include directory under /opt/rocm in a package installed "
                       "elsewhere, a library path recorded from the build machine, a dependency's location "
                       "written out instead of its imported target, or, in a package audited in its staging "
                       "directory, its own files by the prefix it was built for. A path that does not exist "
                       "is also a cmake-missing-file finding. As for RPATH entries, paths into the audited "
                       "paths, into another store path (Nix, Guix, Spack) or, with --root, into the "
                       "installed system are accepted, and --relocatable reports every path outside the "
                       "prefix. Such a package is not relocatable: installed where that path does not "
                       "exist, consumers fail with CMake's \"non-existent path\" errors, and where it holds "
                       "another version, they silently compile and link against that installation's headers "
                       "and libraries. Compute paths from ${CMAKE_CURRENT_LIST_DIR} "
                       "(configure_package_config_file's PACKAGE_PREFIX_DIR), export prefix-relative paths "
                       "with $<INSTALL_INTERFACE:...>, and refer to dependencies through their imported "
                       "targets.",
        .example = "/home/ci/conda/envs/rocm/lib/cmake/miopen/miopen-config.cmake\n"
                   "  warning[cmake-absolute-path]: miopen-targets.cmake:61: INTERFACE_INCLUDE_DIRECTORIES "
                   "of MIOpen names /opt/rocm-6.2.0/include, outside the package's prefix "
                   "/home/ci/conda/envs/rocm\n"
                   "    fix: compute the path from ${CMAKE_CURRENT_LIST_DIR} "
                   "(configure_package_config_file's PACKAGE_PREFIX_DIR, or $<INSTALL_INTERFACE:...> "
                   "relative paths in exports)",
        .cause_fields = "package via",
        .cause = "{package}: {n} {via} paths outside the package prefix, under {referenced/}",
        .fields = "package:string line:integer in:path referenced:path via:string prefix:path "
                  "undecided?:string",
    },
};

// A package audited in its staging directory (DESTDIR) names its own files by the prefix it
// was built for: "/opt/x-1.0/include" from a config under ".../stage/opt/x-1.0". The
// build-time prefix is the longest tail of the package's prefix that starts `path`; "" when
// none does.
std::string BuildTimePrefix(const std::string& path, const std::string& prefix) {
  for (size_t at = prefix.find('/'); at != std::string::npos; at = prefix.find('/', at + 1)) {
    std::string tail = prefix.substr(at);
    if (tail.size() > 1 && (path == tail || path.starts_with(tail + "/"))) return tail;
  }
  return {};
}

void Run(const TreeInput& in, FindingSink& sink) {
  for (const AuditedPackage& ap : in.cmake_packages) {
    const CMakePackage& p = ap.package;
    for (const CMakeReference& r : p.evaluation.references) {
      // A missing path is also reported as missing (cmake-missing-file); that it is named
      // absolutely, outside the prefix, is a second defect (a staged tree has both).
      if ((r.optional && !r.exists) || r.path.empty() || r.path[0] != '/' ||
          IsUnderDirectory(r.path, p.prefix))
        continue;
      Placement where = PlaceAbsolutePath(r.path, in.run.audited_prefixes, in.loader.fs);
      if (!in.options.relocatable && where != Placement::kOutside) continue;
      Finding f = MakeFinding(kRules[0], in.files[ap.file]->walked.path);
      f.SetMessage(SiteText(r.site) + ": " + r.via + (r.target.empty() ? "" : " of " + r.target) + " names " +
                   HostPath(r.path) + ", outside the package's prefix " + HostPath(p.prefix));
      if (in.options.relocatable) f.message += " (--relocatable)";
      if (!r.exists) {
        f.message += ", and does not exist here";
        if (std::string built_for = BuildTimePrefix(r.path, p.prefix); !built_for.empty())
          // The prefix it was built for is the config's word, not a path of this machine.
          f.AddToMessage(": the package was built for " + built_for + " and is audited staged at " +
                         HostPath(p.prefix) + ", where the file is " +
                         HostPath(p.prefix + r.path.substr(built_for.size())));
      }
      AddSiteFields(f, p.name, r.site);
      f.fields["referenced"] = r.path;
      f.fields["via"] = r.via;
      f.fields["prefix"] = p.prefix;
      MarkUndecided(f, r.undecided);
      sink.Add(std::move(f));
    }
  }
}

}  // namespace

extern const Check kCMakeAbsolutePathsCheck{"cmake_absolute_paths", kRules, TreeCheck{Run}, kNeedsCMake};

}  // namespace rocm_audit
