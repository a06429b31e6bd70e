// mixed-soname: two major versions of one library (libamdhip64.so.5 and .so.6). In one
// load closure both get mapped and their symbols interpose: an error. Across the scanned
// tree it means one component was built against a stale major: a warning.
#include <map>
#include <set>

#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    // Error in one load closure: both majors are mapped and their symbols interpose, so code built against
    // one binds to the other's functions. Across the tree a warning: no audited process loads both (that is
    // the closure's error), but the stale files break once the old major is removed. lintian, auditwheel:
    // none.
    {
        .id = "mixed-soname",
        .severity = Severity::kError,
        .title = "two major versions (sonames) of one library in one load closure, or across the tree",
        .fix = "rebuild the stale component against the current major version of the library",
        .key_fields = "library scope",
        .explanation = "Two major versions of one library, told apart by the number after .so. in their "
                       "sonames (libamdhip64.so.5 and libamdhip64.so.6), are needed together. In the load "
                       "closure of one file this is an error: ld.so maps both copies into the process, "
                       "their symbols of the same name interpose, so code built against one major binds to "
                       "the other's functions and data, and each copy keeps its own state; the results are "
                       "crashes and errors that are hard to trace. Across the audited tree it is a warning: "
                       "some files were built against a stale major that the rest of the tree has moved "
                       "past, so they break once the old major is removed and pull both majors into any "
                       "process that also loads the rest. The tree-wide finding is reported on a file that "
                       "needs the least used soname, usually the stale component. Rebuild that component "
                       "against the current major version of the library.",
        .example = "/opt/rocm-6.2.0/lib/libMIOpen.so.1.0.60200\n"
                   "  error[mixed-soname]: libamdhip64.so.5 and libamdhip64.so.6 are both in the load "
                   "closure: two major versions of libamdhip64 in one process\n"
                   "    fix: rebuild the stale component against the current major version of the library",
        .cause_fields = "library scope",
        .cause = "two majors of {library} in one {scope}: {files}",
        .fields = "library:string sonames:[string]|{*:[path]} scope:string soname_list:[string] "
                  "files_by_soname?:{*:[path]}",
    },
};

// "libamdhip64.so.6" -> "libamdhip64"; "" when the name has no ".so.MAJOR" part.
std::string SonameBase(std::string_view soname) {
  size_t so = soname.find(".so.");
  if (so == std::string_view::npos || so + 4 >= soname.size()) return "";
  return std::string(soname.substr(0, so));
}

void RunClosure(const LoadableInput& in, FindingSink& sink) {
  std::map<std::string, std::set<std::string>> by_base;
  for (const LoadedObject& o : in.load.closure.objects)
    for (const std::string& n : o.names)
      if (std::string base = SonameBase(n); !base.empty()) by_base[base].insert(n);
  for (const UnresolvedLibrary& u : in.load.closure.unresolved)
    if (std::string base = SonameBase(u.name); !base.empty()) by_base[base].insert(u.name);
  for (const auto& [base, names] : by_base) {
    if (names.size() < 2) continue;
    Finding f = MakeFinding(kRules[0], in.file.walked.path);
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : " and ") + n;
    f.message = list + " are both in the load closure: two major versions of " + base + " in one process";
    f.fields["library"] = base;
    f.fields["sonames"] = names;
    f.fields["scope"] = "closure";
    f.fields["soname_list"] = names;
    sink.Add(std::move(f));
  }
}

void RunTree(const TreeInput& in, FindingSink& sink) {
  // base -> soname -> loadable files that need it
  std::map<std::string, std::map<std::string, std::vector<std::string>>> users;
  for (const Boxed<InspectedFile>& o : in.files) {
    if (!o || !o->loadable()) continue;
    for (const std::string& n : o->model()->needed)
      if (std::string base = SonameBase(n); !base.empty()) users[base][n].push_back(o->walked.path);
  }
  for (const auto& [base, sonames] : users) {
    if (sonames.size() < 2) continue;
    // Blame the least used soname: that is usually the stale component.
    auto minority = sonames.begin();
    for (auto it = sonames.begin(); it != sonames.end(); ++it)
      if (it->second.size() < minority->second.size()) minority = it;
    Finding f = MakeFinding(kRules[0], minority->second.front());
    f.severity = Severity::kWarning;
    std::string list;
    nlohmann::ordered_json by_soname = nlohmann::ordered_json::object();
    for (const auto& [soname, files] : sonames) {
      list += (list.empty() ? "" : ", ") + soname + " (" + std::to_string(files.size()) +
              (files.size() == 1 ? " file)" : " files)");
      by_soname[soname] = files;
    }
    f.message = "the scanned tree links " + std::to_string(sonames.size()) + " major versions of " + base +
                ": " + list;
    f.hint = "rebuild the files that need " + minority->first + " against the current major version";
    f.fields["library"] = base;
    f.fields["sonames"] = by_soname;
    f.fields["scope"] = "tree";
    // `sonames` keeps its two shapes for schema_version 1; these two have one shape each.
    nlohmann::ordered_json soname_list = nlohmann::ordered_json::array();
    for (const auto& [soname, files] : sonames) soname_list.push_back(soname);
    f.fields["soname_list"] = soname_list;
    f.fields["files_by_soname"] = by_soname;
    sink.Add(std::move(f));
  }
}

}  // namespace

extern const Check kClosureSonamesCheck{"mixed_soname (closure)", kRules, LoadableCheck{RunClosure},
                                        kNeedsElfAndLoader};
extern const Check kTreeSonamesCheck{"mixed_soname (tree)", kRules, TreeCheck{RunTree}, kNeedsElfAndLoader};

}  // namespace rocm_audit
