// mixed-soname: two major versions of one library (libamdhip64.so.5 and .so.6). In one
// load closure both get mapped and their symbols interpose: an error. Across the scanned
// tree it means one component was built against a stale major: a warning.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/StringRef.h>

#include "audit/fs/soname.h"
#include "audit/support/text.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

llvm::StringRef Ref(std::string_view s) { return {s.data(), s.size()}; }

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
                   "closure: two major versions of libamdhip64 in one process; libamdhip64.so.5 (needed by "
                   "librccl.so.1), libamdhip64.so.6 (needed by libMIOpen.so.1)\n"
                   "    fix: rebuild the stale component against the current major version of the library",
        .cause_fields = "library scope",
        .cause = "two majors of {library} in one {scope}, {majors}: {files}",
        .fields = "library:string sonames:[string]|{*:[path]} scope:string soname_list:[string] "
                  "files_by_soname?:{*:[path]} majors?:string",
    },
};

// The library a SONAME is a major of: "libamdhip64.so.6" -> "libamdhip64"; "" when the
// name has no version after ".so" (audit/fs/soname.h).
std::string_view SonameBaseOf(std::string_view soname) {
  const std::optional<SonameParts> parts = ParseSoname(soname);
  return parts && !parts->version.empty() ? parts->family : std::string_view();
}

std::string SonameBase(std::string_view soname) { return std::string(SonameBaseOf(soname)); }

// soname -> the files that need it, for one library.
using NeedersBySoname = std::map<std::string, std::vector<std::string>>;

// "libamdhip64.so.5 (needed by librccl.so.1), libamdhip64.so.6 (needed by libtorch.so)":
// which major each file pulls in, the part a fix starts from.
std::string MajorsText(const NeedersBySoname& needers) {
  std::string out;
  for (const auto& [soname, files] : needers) {
    out += (out.empty() ? "" : ", ") + soname + " (needed by ";
    for (size_t i = 0; i < files.size() && i < 3; ++i)
      out += (i ? ", " : "") + std::string(BaseName(files[i]));
    if (files.size() > 3) out += " and " + std::to_string(files.size() - 3) + " more";
    out += ")";
  }
  return out;
}

void SetSonameFields(Finding& f, const std::string& base, const NeedersBySoname& needers, bool tree) {
  nlohmann::ordered_json by_soname = nlohmann::ordered_json::object();
  nlohmann::ordered_json soname_list = nlohmann::ordered_json::array();
  for (const auto& [soname, files] : needers) {
    by_soname[soname] = files;
    soname_list.push_back(soname);
  }
  f.fields["library"] = base;
  // `sonames` keeps its two shapes for schema_version 1; the other fields have one shape each.
  f.fields["sonames"] = tree ? by_soname : soname_list;
  f.fields["scope"] = tree ? "tree" : "closure";
  f.fields["soname_list"] = soname_list;
  f.fields["files_by_soname"] = by_soname;
  f.fields["majors"] = MajorsText(needers);
}

// Two majors are in one process only when ld.so maps both: each DT_NEEDED name of the
// closure that it found, by the object that needs it. A name it did not find maps nothing
// (that is unresolved-library's finding), and two names it resolved to one file (a
// libfoo.so.5 link to libfoo.so.6) map one copy.
void RunClosure(const LoadableInput& in, FindingSink& sink) {
  const LoadClosure& closure = in.load.closure;
  // Most closures need one soname of each base: only a base needed under two is looked at
  // further, so that a closure is read once without a copy of any name.
  llvm::DenseMap<llvm::StringRef, llvm::StringRef> first_soname;  // base -> the first soname of it
  llvm::DenseSet<llvm::StringRef> two_sonames;
  for (const LoadedObject& o : closure.objects)
    for (std::string_view n : o.model->needed)
      if (std::string_view base = SonameBaseOf(n); !base.empty())
        if (auto [it, fresh] = first_soname.try_emplace(Ref(base), Ref(n)); !fresh && it->second != Ref(n))
          two_sonames.insert(Ref(base));
  if (two_sonames.empty()) return;
  std::map<std::string, NeedersBySoname> needers;
  std::map<std::string, std::set<int>> objects;
  for (const LoadedObject& o : closure.objects)
    for (std::string_view n : o.model->needed) {
      if (!two_sonames.contains(Ref(SonameBaseOf(n)))) continue;
      std::string base = SonameBase(n), name(n);
      int found = closure.FindByName(name);
      if (found < 0) continue;
      std::vector<std::string>& files = needers[base][name];
      if (std::find(files.begin(), files.end(), o.path) == files.end()) files.emplace_back(o.path);
      objects[base].insert(found);
    }
  for (const auto& [base, by_soname] : needers) {
    if (by_soname.size() < 2 || objects[base].size() < 2) continue;
    Finding f = MakeFinding(kRules[0], in.file.walked.path);
    std::string list;
    for (const auto& [soname, files] : by_soname) list += (list.empty() ? "" : " and ") + soname;
    f.SetMessage(list + " are both in the load closure: two major versions of " + base + " in one process; " +
                 MajorsText(by_soname));
    SetSonameFields(f, base, by_soname, /*tree=*/false);
    sink.Add(std::move(f));
  }
}

// The tree's files apart by what can share a process: one class, one machine, one system.
// Alpha's libc.so.6.1 or NetBSD's libc.so.12 beside glibc's libc.so.6 is no stale major.
std::string ProcessKind(const ElfModel& m) {
  return std::to_string(m.elf_class) + "/" + std::to_string(m.machine) + "/" + m.system;
}

void RunTree(const TreeInput& in, FindingSink& sink) {
  // (process kind, base) -> soname -> loadable files whose closure found it, and the files
  // found: two sonames of one file (a link) are no two majors.
  std::map<std::pair<std::string, std::string>, NeedersBySoname> users;
  std::map<std::pair<std::string, std::string>, std::set<std::string>> found_files;
  for (size_t i = 0; i < in.files.size(); ++i) {
    const Boxed<InspectedFile>& o = in.files[i];
    if (!o || !o->loadable() || i >= in.loads.size() || !in.loads[i]) continue;
    const LoadClosure& closure = in.loads[i]->closure;
    for (std::string_view n : o->model()->needed) {
      std::string base = SonameBase(n), name(n);
      int found = base.empty() ? -1 : closure.FindByName(name);
      if (found < 0) continue;
      std::pair<std::string, std::string> key{ProcessKind(*o->model()), base};
      users[key][name].push_back(o->walked.path);
      found_files[key].emplace(closure.objects[found].real_path);
    }
  }
  for (const auto& [key, sonames] : users) {
    const std::string& base = key.second;
    if (sonames.size() < 2 || found_files[key].size() < 2) continue;
    // Blame the least used soname: that is usually the stale component.
    auto minority = sonames.begin();
    for (auto it = sonames.begin(); it != sonames.end(); ++it)
      if (it->second.size() < minority->second.size()) minority = it;
    Finding f = MakeFinding(kRules[0], minority->second.front());
    f.severity = Severity::kWarning;
    f.SetMessage("the scanned tree links " + std::to_string(sonames.size()) + " major versions of " + base +
                 ": " + MajorsText(sonames));
    f.SetHint("rebuild the files that need " + minority->first + " against the current major version");
    SetSonameFields(f, base, sonames, /*tree=*/true);
    sink.Add(std::move(f));
  }
}

}  // namespace

extern const Check kClosureSonamesCheck{"mixed_soname (closure)", kRules, LoadableCheck{RunClosure},
                                        kNeedsElfAndLoader};
extern const Check kTreeSonamesCheck{"mixed_soname (tree)", kRules, TreeCheck{RunTree}, kNeedsElfAndLoader};

}  // namespace rocm_audit
