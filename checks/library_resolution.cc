// unresolved-library: a DT_NEEDED anywhere in the closure that ld.so would not find, with
// the directories searched in order (libtree's explanation) and the symbols it hides.
#include <algorithm>
#include <cctype>

#include "audit/fs/path.h"
#include "checks/debian_depends.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

// "$ORIGIN/../lib/rocm" from the requester's directory to the one holding the library.
std::string OriginRelative(const std::string& from_dir, const std::string& to_dir) {
  std::vector<std::string_view> from = PathComponents(from_dir), to = PathComponents(to_dir);
  size_t common = 0;
  while (common < from.size() && common < to.size() && from[common] == to[common]) ++common;
  std::string out = "$ORIGIN";
  for (size_t i = common; i < from.size(); ++i) out += "/..";
  for (size_t i = common; i < to.size(); ++i) out += "/" + std::string(to[i]);
  return out;
}

// What the packages of the set say about a library none of them makes findable: which of
// them ships it, or which of the requester's dependencies should. "" when they say nothing.
std::string SetHint(const std::string& library, const std::string& requester, const CheckOptions& options) {
  const PackageOfSet* owner = nullptr;
  for (const PackageOfSet& p : options.packages)
    if (p.files.count(requester)) owner = &p;
  for (const PackageOfSet& p : options.packages)
    for (const std::string& f : p.files)
      if (BaseName(f) == library && &p != owner)
        return library + " is in " + p.name +
               ", another package of this set, in a directory ld.so does not search";
  if (!owner || owner->depends.empty()) return "";
  if (std::string d = DependedLibraryPackage(*owner, library); !d.empty())
    return library + " is in " + d + ", a Depends of " + owner->name +
           ": audit them together, or over a base that has it installed";
  std::string names;
  for (size_t i = 0; i < owner->depends.size() && i < 8; ++i) names += (i ? ", " : "") + owner->depends[i];
  return owner->name + " depends on " + names + (owner->depends.size() > 8 ? ", ..." : "") +
         ": if one of them provides " + library +
         ", audit them together or over a base that has it installed; else add the package that does";
}

constexpr Rule kRules[] = {
    // Error: the program does not start, or dlopen fails ("cannot open shared object file"). dpkg-shlibdeps:
    // an error ("cannot find library ... needed by", the build stops); auditwheel: repair refuses ("required
    // library ... could not be located"); lintian: none.
    {
        .id = "unresolved-library",
        .severity = Severity::kError,
        .title = "a DT_NEEDED library that the loader would not find",
        .fix = "add the providing package as a dependency, or fix RUNPATH (e.g. $ORIGIN/../lib) so the "
               "loader finds the library",
        .key_fields = "library",
        .explanation = "A DT_NEEDED entry of the file, or of a library in its load closure, names a library "
                       "that ld.so would not find in the directories it searches, in glibc's order: the "
                       "RPATH or RUNPATH entries that apply, LD_LIBRARY_PATH (--library-path), the "
                       "ld.so.conf directories and the default directories. Users see \"error while loading "
                       "shared libraries: NAME: cannot open shared object file: No such file or directory\" "
                       "when the program starts, or the same text from dlopen, a Python import or a plugin "
                       "the HIP runtime loads. The finding lists every directory searched and its outcome, "
                       "and the symbols of the file that cannot bind until the library is found; when the "
                       "audited paths hold the library in a directory this object's search never visits, it "
                       "says where and which $ORIGIN-relative RUNPATH entry would reach it. A library "
                       "missing deep in the closure is reported on the object that needs it when that "
                       "object is audited too, and a candidate that is found but cannot be loaded (a "
                       "corrupt file, a linker script, a non-ELF file) is reported here as well. Declare "
                       "the package that provides the library as a dependency, or set RUNPATH (for example "
                       "$ORIGIN/../lib) so the loader finds it.",
        .example = "/nix/store/1f2kq7d9vmw0g8ybn3xcl5hrajzs4pi6-clr-6.2.2/lib/libamdhip64.so.6.2.41134\n"
                   "  error[unresolved-library]: librocprofiler-register.so.0 needed by "
                   "libamdhip64.so.6.2.41134 (direct dependency) is not found in 2 searched directories; 1 "
                   "undefined symbol of libamdhip64.so.6.2.41134 cannot bind until it is found\n"
                   "    searched: /nix/store/1f2kq7d9vmw0g8ybn3xcl5hrajzs4pi6-clr-6.2.2/lib (RUNPATH of "
                   "libamdhip64.so.6.2.41134): not found\n"
                   "              /nix/store/8wz3jbr0yk6d1nqx5cfg9lmh2vpsa7i4-rocm-runtime-6.2.2/lib "
                   "(RUNPATH of libamdhip64.so.6.2.41134): not found\n"
                   "    fix: add the providing package as a dependency, or fix RUNPATH (e.g. "
                   "$ORIGIN/../lib) so the loader finds the library",
        .cause_fields = "library",
        .cause = "{library} not found, needed by {files}",
        .fields = "library:string needed_by:[path] searched:[{directory:path source:string outcome:string}] "
                  "unbound_symbols:[string] found_in?:[path]",
    },
};

void Run(const LoadableInput& in, FindingSink& sink) {
  const LoadClosure& closure = in.load.closure;
  const auto& unbound = in.load.binding.behind_unresolved;
  for (const UnresolvedLibrary& u : closure.unresolved) {
    auto hidden = unbound.find(u.name);
    // A library missing deep in the closure is reported where it can be fixed: on the
    // object that needs it, when this run audits that object too. It stays here when it
    // hides this file's own symbols, and in files[].unresolved in any case.
    bool direct = std::find(u.needed_by.begin(), u.needed_by.end(), 0) != u.needed_by.end();
    bool requester_audited = std::all_of(u.needed_by.begin(), u.needed_by.end(), [&](int i) {
      return in.run.audited_real_paths.count(std::string(closure.objects[i].real_path)) > 0;
    });
    if (!direct && requester_audited && hidden == unbound.end()) continue;
    Finding f = MakeFinding(kRules[0], in.file.walked.path);
    // The name as the report keeps it (BoundedView), copied once: a DT_NEEDED as long as
    // its file is never repeated whole into the message and the fields.
    const std::string name = BoundedView(u.name);
    nlohmann::ordered_json needed_by = nlohmann::ordered_json::array();
    for (int i : u.needed_by) needed_by.push_back(closure.objects[i].path);
    if (!u.parse_error.empty()) {
      f.SetMessage(name + " was found at " + HostPath(u.resolution.path) +
                   " but cannot be loaded: " + u.parse_error);
      f.SetHint("replace the corrupt file " + HostPath(u.resolution.path));
    } else if (!u.resolution.error.empty()) {
      // The loader's reason starts with the candidate it stopped at (search_path.cc).
      const std::string& why = u.resolution.error;
      const std::string& at = u.resolution.path;
      f.SetMessage(name + " cannot be loaded: " +
                   (!at.empty() && why.starts_with(at + ": ") ? HostPath(at) + why.substr(at.size()) : why));
      f.SetHint("a non-ELF file (linker script? wrong package?) shadows the real library");
    } else {
      const PathText who = u.needed_by.empty()
                               ? HostPath(in.file.walked.path)
                               : PathText(std::string(BaseName(closure.objects[u.needed_by[0]].path)));
      f.SetMessage(name + " needed by " + who + (direct ? " (direct dependency)" : "") + " is not found in " +
                   std::to_string(u.resolution.searched.size()) + " searched directories");
      // The library may be right there, in a directory this object's search never visits.
      auto there = in.run.audited_by_name.find(u.name);
      if (there != in.run.audited_by_name.end() && !u.needed_by.empty()) {
        const std::string requester_dir = DirName(closure.objects[u.needed_by[0]].path);
        const std::string dir = DirName(there->second.front());
        // The file itself is named, not its directory: a file of a package keeps the
        // package's name on it, where a directory's name would read as the host's own.
        f.AddToMessage("; it is at " + HostPath(there->second.front()) +
                       ", in a directory ld.so does not search for this object");
        f.SetHint("add " + OriginRelative(requester_dir, dir) + " to the RUNPATH of " + who +
                  ", or, if it is found once installed, audit it as installed with --root");
        f.fields["found_in"] = there->second;
      }
      // Nowhere in the audited paths: what the set's metadata says of it, if anything.
      if (there == in.run.audited_by_name.end() && !u.needed_by.empty())
        if (std::string hint =
                SetHint(u.name, std::string(closure.objects[u.needed_by[0]].real_path), in.options);
            !hint.empty())
          f.SetHint(std::move(hint));
    }
    f.fields["library"] = name;
    f.fields["needed_by"] = needed_by;
    nlohmann::ordered_json searched = nlohmann::ordered_json::array();
    for (const auto& s : u.resolution.searched)
      searched.push_back({{"directory", in.loader.fs.DisplayPath(s.directory)},
                          {"source", s.source},
                          {"outcome", s.outcome}});
    f.fields["searched"] = searched;
    // The binding's names are views into the file: each copied as the report keeps it.
    f.fields["unbound_symbols"] = nlohmann::ordered_json::array();
    if (hidden != unbound.end())
      for (std::string_view symbol : hidden->second)
        f.fields["unbound_symbols"].push_back(BoundedView(symbol));
    if (hidden != unbound.end())
      f.message += "; " + std::to_string(hidden->second.size()) +
                   (hidden->second.size() == 1 ? " undefined symbol of " : " undefined symbols of ") +
                   std::string(BaseName(in.file.walked.path)) + " cannot bind until it is found";
    sink.Add(std::move(f));
  }
}

}  // namespace

extern const Check kLibraryResolutionCheck{"library_resolution", kRules, LoadableCheck{Run},
                                           kNeedsElfAndLoader};

}  // namespace rocm_audit
