#include "checks/rpath_entries.h"

#include <fnmatch.h>

#include <string_view>

#include "audit/rooted_fs.h"

namespace rocm_audit {
namespace {

// Directories that exist only on the build machine: a loader searching them at run time
// is at best wasted work and at worst a hijack (anyone can create /tmp/...).
std::string BuildDirReason(const std::string& entry, const CheckOptions& options) {
  for (const auto& glob : options.forbid_rpath)
    if (fnmatch(glob.c_str(), entry.c_str(), 0) == 0) return "matches --forbid-rpath " + glob;
  // Build trees: /build/ (Nix, Debian, Arch chroots) and the usual CMake/IDE names.
  for (std::string_view part : PathComponents(entry))
    if (part == "build" || part == "_build" || part.starts_with("build-") || part.starts_with("build_") ||
        part.ends_with("-build") || part.ends_with("_build") || part.starts_with("cmake-build"))
      return "a build directory (" + std::string(part) + ")";
  for (std::string_view tmp : {"/tmp", "/var/tmp", "/nix/var", "/dev/shm"})
    if (IsUnderDirectory(entry, tmp)) return "a temporary directory";
  if (!options.tmpdir.empty() && IsUnderDirectory(entry, options.tmpdir)) return "inside $TMPDIR";
  return "";
}

}  // namespace

void CheckRpathEntries(const FileContext& ctx, FindingSink& sink) {
  const ElfModel& m = ctx.model;
  const char* tag = m.has_runpath ? "RUNPATH" : "RPATH";
  const auto& entries = m.has_runpath ? m.runpath : m.rpath;
  ObjectIdentity id{m.elf_class, m.machine};
  std::string prefix = ctx.loader.fs.DisplayPath(ctx.file.prefix);

  for (const std::string& entry : entries) {
    if (entry.empty()) continue;
    auto add = [&](std::string_view check, std::string message) {
      Finding f = MakeFinding(ctx, check);
      f.message = std::string(tag) + " entry " + entry + " " + message;
      f.fields["entry"] = entry;
      f.fields["tag"] = tag;
      sink.Add(std::move(f));
    };
    bool origin_relative = entry.starts_with("$ORIGIN") || entry.starts_with("${ORIGIN}");
    // The most specific of build-dir / relative / absolute-outside, then whether it exists.
    if (std::string why = BuildDirReason(entry, ctx.options); !why.empty()) {
      add("rpath-build-dir", "points into " + why);
    } else if (!origin_relative && entry[0] != '/') {
      add("rpath-relative", "is relative: the loader resolves it against the working directory");
      continue;  // where it points depends on the working directory: existence means nothing
    } else if (!origin_relative && !IsUnderDirectory(NormalizePath(entry), prefix)) {
      add("rpath-absolute-outside", "is absolute and outside the audited prefix " + prefix);
    }
    auto dir = ExpandSearchEntry(entry, DirName(ctx.file.path), id, ctx.loader);
    if (dir && !ctx.loader.fs.IsDirectory(*dir))
      add("rpath-missing-dir", "names a directory that does not exist (" +
                                   ctx.loader.fs.DisplayPath(NormalizePath(*dir)) + ")");
  }
}

}  // namespace rocm_audit
