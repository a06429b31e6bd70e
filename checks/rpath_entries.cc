// rpath-build-dir, rpath-relative, rpath-absolute-outside, rpath-missing-dir: the search
// entries the loader will actually use (DT_RUNPATH, else DT_RPATH) of the audited object.
#include <fnmatch.h>

#include <string_view>

#include "audit/fs/path.h"
#include "audit/fs/placement.h"
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    // Error: the loader searches the directory on every start, so whoever can create it on the user's machine
    // (for /tmp, any local user) supplies the libraries the program loads. lintian:
    // custom-library-search-path, an error; rpm's check-rpaths: an invalid rpath (0x0002), which fails the
    // build; Nix: auditTmpdir fails the build on an entry into its build directory; auditwheel: repair drops
    // entries that leave the wheel.
    {
        .id = "rpath-build-dir",
        .severity = Severity::kError,
        .title = "an RPATH/RUNPATH entry pointing into a build tree (/build/, *-build, build-*, _build, "
                 "cmake-build-*, builddir, obj-<triplet>, debian/tmp, .libs, BUILD) or a temporary directory",
        .fix = "drop the entry (CMAKE_SKIP_INSTALL_RPATH, chrpath -d, patchelf --remove-rpath) or replace "
               "it with $ORIGIN-relative paths",
        .key_fields = "tag entry",
        .explanation = "An RPATH or RUNPATH entry that the loader uses for the file points into a directory "
                       "that exists only while the package is built: a build tree (a path component named "
                       "build, _build, build-*, build_*, *-build, *_build, cmake-build-*, builddir, .libs, "
                       "BUILD (rpmbuild), obj-<GNU triplet> or debian/tmp (debhelper)), a temporary "
                       "directory (/tmp, /var/tmp, /dev/shm, /nix/var, $TMPDIR), or a path matching "
                       "--forbid-rpath. On the user's machine the loader searches it before the right "
                       "directories on every start, so whoever can create that directory (for /tmp, any "
                       "local user; for /home/me/src/app/build, whoever holds the account me there) can "
                       "plant a library the program then loads. That is an error, as lintian "
                       "(custom-library-search-path) and rpm's check-rpaths rate it, and it ties the binary "
                       "to the build machine (Nix refuses references to its build directory). It usually is "
                       "a build RPATH that survived installation (CMake's build tree RPATH, a hard-coded "
                       "-Wl,-rpath, libtool); drop the entry at install time (CMAKE_SKIP_INSTALL_RPATH, "
                       "chrpath -d, patchelf --remove-rpath) or replace it with $ORIGIN-relative entries.",
        .example = "/opt/rocm-6.2.0/lib/librocblas.so.4.2.60200\n"
                   "  error[rpath-build-dir]: RUNPATH entry "
                   "/home/runner/work/rocBLAS/rocBLAS/build/release/library/src points into a build "
                   "directory (build)\n"
                   "    fix: drop the entry (CMAKE_SKIP_INSTALL_RPATH, chrpath -d, patchelf --remove-rpath) "
                   "or replace it with $ORIGIN-relative paths",
        .cause_fields = "entry",
        .cause = "RPATH/RUNPATH into a build directory, {entry}, in {files}",
        .fields = "entry:string tag:string",
    },
    // Note: the loader skips the directory, so only lookups are wasted; a library expected there is reported
    // as unresolved-library. lintian rates every absolute entry outside a package's private directories an
    // error (custom-library-search-path), as a policy against RPATH, whether it exists or not; auditwheel:
    // none.
    {
        .id = "rpath-missing-dir",
        .severity = Severity::kNote,
        .title = "an RPATH/RUNPATH entry naming a directory that does not exist",
        .fix = "remove the stale entry",
        .key_fields = "tag entry",
        .explanation = "An RPATH or RUNPATH entry of the file, once $ORIGIN, $LIB and $PLATFORM are "
                       "expanded, names a directory that does not exist (on the auditing machine or, with "
                       "--root, inside the roots). The loader skips it, so nothing fails because of it "
                       "alone, but every library lookup of the process tries it first. It often is a "
                       "leftover of another layout (a directory the package used to install, a build "
                       "machine's path) or a directory that another package of a split was meant to "
                       "provide, in which case a library expected there will not be found either. Relative "
                       "entries are not checked, since where they point depends on the working directory. "
                       "Remove the stale entry, or install what belongs there.",
        .example = "/opt/rocm-6.2.0/lib/libamd_comgr.so.2.8.60200\n"
                   "  note[rpath-missing-dir]: RUNPATH entry $ORIGIN/../llvm/lib names a directory that "
                   "does not exist (/opt/rocm-6.2.0/llvm/lib)\n"
                   "    fix: remove the stale entry",
        .cause_fields = "entry",
        .cause = "RPATH/RUNPATH entry {entry} names no directory, in {files}",
        .fields = "entry:string tag:string",
    },
    // Warning: where the directory holds another installation the program loads that one, and where it is
    // missing a library meant to be there is not found, which unresolved-library reports as an error where
    // the audit sees it; but a directory another package installs is right, and one run sees it only with
    // --root. lintian: custom-library-search-path and rpm's check-rpaths (0x0002), errors for any entry
    // outside the package's own or the standard directories, as a policy against RPATH; auditwheel: repair
    // drops the entry.
    {
        .id = "rpath-absolute-outside",
        .severity = Severity::kWarning,
        .title = "an absolute RPATH/RUNPATH entry outside the audited prefix",
        .fix = "use $ORIGIN-relative entries so the tree can be relocated",
        .key_fields = "tag entry",
        .explanation = "An absolute RPATH or RUNPATH entry names a directory outside the audited paths, and "
                       "it is neither in a store path (/nix/store, /gnu/store, Spack's opt/spack, where "
                       "dependencies have their own place) nor, with --root, in a directory the installed "
                       "system has. The binary then depends on a location nothing it ships or depends on "
                       "provides: on a machine where that directory is missing the library is not found "
                       "(\"cannot open shared object file\"), and where it holds another installation, for "
                       "example an older /opt/rocm-6.1.2, the program silently loads that version's "
                       "libraries. With --relocatable (tarballs, wheels, conda environments) every absolute "
                       "entry is reported, since the tree must work wherever it is unpacked. Replace the "
                       "entry with an $ORIGIN-relative one (in CMake, through INSTALL_RPATH), or audit with "
                       "--root when the directory does belong to the installed system.",
        .example = "/opt/rocm-6.2.0/lib/libMIOpen.so.1.0.60200\n"
                   "  warning[rpath-absolute-outside]: RUNPATH entry /opt/rocm-6.1.2/lib is absolute and "
                   "outside the audited prefix /opt/rocm-6.2.0 (not a store path either; audit the "
                   "installed system with --root)\n"
                   "    fix: use $ORIGIN-relative entries so the tree can be relocated",
        .cause_fields = "entry",
        .cause = "absolute RPATH/RUNPATH entry {entry} outside the tree, in {files}",
        .fields = "entry:string tag:string",
    },
    // Error: ld.so resolves the entry against the process's working directory (an empty entry is "./",
    // glibc's fillin_rpath), so whoever controls the directory the program starts in supplies its libraries.
    // lintian: relative-library-search-path, an error; rpm's check-rpaths: insecure (0x0004) and empty
    // (0x0010) rpaths, which fail the build; auditwheel: repair drops the entry.
    {
        .id = "rpath-relative",
        .severity = Severity::kError,
        .title = "a relative RPATH/RUNPATH entry, resolved against the process's working directory",
        .fix = "use $ORIGIN/... instead of a relative path",
        .key_fields = "tag entry",
        .explanation = "An RPATH or RUNPATH entry is a relative path (lib, ../lib) or is empty (a leading, "
                       "trailing or doubled ':'). ld.so resolves a relative entry against the working "
                       "directory of the process, not against the file's location, and searches the working "
                       "directory itself for an empty one. The program then finds its libraries only when "
                       "started from one particular directory and otherwise fails with \"cannot open shared "
                       "object file\"; worse, whatever directory it is started in can supply a library of "
                       "that name, which lets anyone who controls that directory inject code. It comes from "
                       "a relative path given to -Wl,-rpath, or an empty item in CMake's INSTALL_RPATH or "
                       "BUILD_RPATH. Use $ORIGIN/... for a path relative to the file, and remove empty "
                       "items. An absolute entry into /proc or /sys is reported here too: /proc/self/cwd is "
                       "the working directory itself, and what any path there names is decided by the "
                       "process that loads the file, not by the installed system.",
        .example = "/opt/rocm-6.2.0/bin/rocminfo\n"
                   "  error[rpath-relative]: RUNPATH entry ../lib is relative: the loader resolves it "
                   "against the working directory\n"
                   "    fix: use $ORIGIN/... instead of a relative path",
        .cause_fields = "entry",
        .cause = "relative RPATH/RUNPATH entry {entry} in {files}",
        .fields = "entry:string tag:string",
    },
};
const Rule& kBuildDir = kRules[0];
const Rule& kMissingDir = kRules[1];
const Rule& kAbsoluteOutside = kRules[2];
const Rule& kRelative = kRules[3];

// A path component that names a build tree: /build/ (Nix, Debian, Arch chroots), the usual
// CMake/IDE names, debhelper's out-of-tree build directory obj-<GNU triplet> and its staging
// directory debian/tmp, meson's builddir, libtool's uninstalled .libs and rpmbuild's BUILD.
// Matched case-sensitively: an installed directory named Build or Obj is not a build tree.
bool IsBuildTreeComponent(std::string_view part, std::string_view previous) {
  if (part == "build" || part == "_build" || part.starts_with("build-") || part.starts_with("build_") ||
      part.ends_with("-build") || part.ends_with("_build") || part.starts_with("cmake-build"))
    return true;
  if (part == "builddir" || part == ".libs" || part == "BUILD") return true;
  // obj-x86_64-linux-gnu: "obj-" then a triplet, which has a '-' of its own.
  if (part.starts_with("obj-") && part.find('-', 4) != std::string_view::npos) return true;
  return previous == "debian" && part == "tmp";
}

// Directories that exist only on the build machine: a loader searching them at run time
// is at best wasted work and at worst a hijack (anyone can create /tmp/...).
std::string BuildDirReason(const std::string& entry, const CheckOptions& options) {
  for (const auto& glob : options.forbid_rpath)
    if (fnmatch(glob.c_str(), entry.c_str(), 0) == 0) return "a directory matching --forbid-rpath " + glob;
  std::string_view previous;
  for (std::string_view part : PathComponents(entry)) {
    if (IsBuildTreeComponent(part, previous))
      return "a build directory (" + std::string(part == "tmp" ? "debian/tmp" : part) + ")";
    previous = part;
  }
  for (std::string_view tmp : {"/tmp", "/var/tmp", "/nix/var", "/dev/shm"})
    if (IsUnderDirectory(entry, tmp)) return "a temporary directory";
  if (!options.tmpdir.empty() && IsUnderDirectory(entry, options.tmpdir)) return "inside $TMPDIR";
  return "";
}

void Run(const LoadableInput& in, FindingSink& sink) {
  const ElfModel& m = *in.file.model();
  const char* tag = m.has_runpath ? "RUNPATH" : "RPATH";
  const auto& entries = m.has_runpath ? m.runpath : m.rpath;
  ObjectIdentity id{m.elf_class, m.machine};
  const PathText prefix = InstalledPathText(in.loader.fs, in.file.walked.prefix);

  for (const std::string& entry : entries) {
    // The entry is quoted as the file has it, never shown as a path of this machine.
    auto add = [&](const Rule& rule, const PathText& message) {
      Finding f = MakeFinding(rule, in.file.walked.path);
      f.SetMessage(std::string(tag) + " entry " + entry + " " + message);
      f.fields["entry"] = entry;
      f.fields["tag"] = tag;
      sink.Add(std::move(f));
    };
    if (entry.empty()) {
      // glibc's fillin_rpath: strsep yields "" for a leading, trailing or doubled ':', and an
      // empty directory is the working directory of the process.
      Finding f = MakeFinding(kRelative, in.file.walked.path);
      f.message = std::string(tag) +
                  " has an empty entry (a leading, trailing or doubled ':'): the loader "
                  "searches the process's working directory there, so whatever directory it runs in can "
                  "supply its libraries";
      f.SetHint(
          "remove the empty entry (CMake: an empty item in INSTALL_RPATH/BUILD_RPATH; patchelf --set-rpath)");
      f.fields["entry"] = entry;
      f.fields["tag"] = tag;
      sink.Add(std::move(f));
      continue;
    }
    bool origin_relative = entry.starts_with("$ORIGIN") || entry.starts_with("${ORIGIN}");
    // The most specific of build-dir / relative / absolute-outside, then whether it exists.
    const std::string_view kernel_view = entry[0] == '/' ? KernelFileSystemOf(NormalizePath(entry)) : "";
    if (std::string why = BuildDirReason(entry, in.options); !why.empty()) {
      add(kBuildDir, "points into " + why);
    } else if (!kernel_view.empty()) {
      add(kRelative, "points into " + std::string(kernel_view) +
                         ": the loader resolves it in the process that loads the file (/proc/self/cwd is its "
                         "working directory), not in the installed system");
      continue;  // what it names depends on that process: existence here means nothing
    } else if (!origin_relative && entry[0] != '/') {
      add(kRelative, "is relative: the loader resolves it against the working directory");
      continue;  // where it points depends on the working directory: existence means nothing
    } else if (!origin_relative) {
      // Judged as the installed system sees it: a directory of the audited paths, of the
      // installed system (--root) or of another store path (a dependency) is where it should
      // be, unless the tree must be relocatable.
      Placement where = PlaceAbsolutePath(NormalizePath(entry), in.run.audited_prefixes, in.loader.fs);
      if (in.options.relocatable)
        add(kAbsoluteOutside,
            "is absolute: a relocatable tree (--relocatable) can only use $ORIGIN-relative entries");
      else if (where == Placement::kOutside)
        add(kAbsoluteOutside, "is absolute and outside the audited prefix " + prefix +
                                  " (not a store path either; audit the installed system with --root)");
    }
    auto dir = ExpandSearchEntry(entry, DirName(in.file.walked.path), id, in.loader);
    if (dir && !in.loader.fs.IsDirectory(*dir)) {
      // A path the kernel refuses for its length may well exist: the loader cannot open
      // anything in it all the same.
      std::string why;
      const bool too_long = !in.loader.fs.Resolve(*dir, &why) && why == kPathTooLong;
      add(kMissingDir, too_long
                           ? PathText("names a directory whose path no file can be opened through: " + why)
                           : "names a directory that does not exist (" +
                                 InstalledPathText(in.loader.fs, NormalizePath(*dir)) + ")");
    }
  }
}

}  // namespace

extern const Check kRpathEntriesCheck{"rpath_entries", kRules, LoadableCheck{Run}, kNeedsElfAndLoader};

}  // namespace rocm_audit
