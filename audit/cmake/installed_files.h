// The files a package's list files see, by the paths of the installed system: through
// the --root layers, except for audited paths that lie outside every layer (a staged tree
// audited with --root /), which are read where they are. Read-only; nothing is created.
// Paths are taken as the kernel takes them: ".." is the parent of what the path before it
// names after its symlinks are followed, and "staging/../lib" does not exist when staging/
// does not (CMake's EXISTS and its checks of imported files ask the kernel).
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "audit/cmake/condition.h"
#include "audit/cmake/program_cache.h"
#include "audit/fs/directory_names.h"
#include "audit/fs/rooted_fs.h"

namespace rocm_audit {

class InstalledFiles {
 public:
  /// `outside` are host paths (audited prefixes) that no layer holds; `has_base`: the world
  /// is a whole system (the host, or --root layers), not packages installed into an empty one
  /// (--no-base), so what it lacks a consumer on that machine lacks too.
  InstalledFiles(const RootedFs& fs, std::vector<std::string> outside, bool has_base = true);

  bool has_base() const { return has_base_; }

  Tri Exists(const std::string& path) const;
  Tri IsDirectory(const std::string& path) const;
  Tri IsSymlink(const std::string& path) const;
  /// Symlinks resolved, as an installed path; nullopt when it does not exist.
  std::optional<std::string> RealPath(const std::string& path) const;
  /// Installed paths matching an absolute wildcard pattern ('*', '?', '[...]'); `cut` when
  /// the pattern read more than kMaxGlobEntries directory entries (the result is partial).
  std::vector<std::string> Glob(const std::string& pattern, bool* cut = nullptr,
                                GlobOrder order = GlobOrder::kByPath) const;
  /// Glob()'s answer without a copy: the one a RememberingGlobs() copy keeps (find_package()'s
  /// search filters lib/<arch>/'s thousands of entries for each name it searches there).
  std::shared_ptr<const std::vector<std::string>> GlobKept(const std::string& pattern, GlobOrder order,
                                                           bool* cut = nullptr) const;
  /// The paths of GlobKept(dir + "/*", GlobOrder::kAsListed) whose names start with `name` in
  /// any case (ASCII), in that order: find_package()'s <name>* entries. A RememberingGlobs()
  /// copy keeps each directory's names sorted, so that a name is looked up, not compared with
  /// each of lib/<arch>/'s thousands of entries.
  std::vector<std::string> EntriesStartingWith(const std::string& dir, std::string_view name) const;
  /// The file's text, at most `cap` bytes; nullopt when it cannot be read or is larger,
  /// and then `why` (when given) says which, as the walk would name it: "is not a regular
  /// file (a FIFO)", "is larger than N bytes", "does not exist", "cannot be opened: ...".
  std::optional<std::string> Read(const std::string& path, size_t cap, std::string* why = nullptr) const;

  /// The installed path of a host path (the layer prefix removed).
  std::string InstalledPath(const std::string& host_path) const;

  /// A directory's entries, read once (DirectoryNames) in every layer that resolves it, so
  /// that a search of many names in it asks no system call for a name it does not hold.
  struct Listing {
    bool exists = false;                  ///< the path resolves: else nothing below it exists
    std::optional<DirectoryNames> names;  ///< nullopt: not listed, each name to be looked at
    size_t longest_host_path = 0;         ///< of the directory in the layers
    /// False only when Exists(dir + "/" + name) is false for the plain `name`.
    bool MayHold(std::string_view name) const;
  };
  Listing List(const std::string& dir) const;

  /// A copy that keeps each Glob()'s answer for the copies made from it: for a search that
  /// globs the same directories for many names (ConfigSearch: lib/<arch>/ once, not once per
  /// name asked of /usr), while nothing writes to the world.
  InstalledFiles RememberingGlobs() const;

  /// A copy that keeps each Exists()'s and IsDirectory()'s answer for the copies made from
  /// it, while nothing writes to the world: every evaluation of a package asks again for the
  /// files it names (its version file, its Targets files, each imported location), each a
  /// walk of the path's components through the layers.
  InstalledFiles RememberingExistence() const;
  /// A RememberingExistence() copy: the world holds still for it (an audit's), so what was
  /// read of it once stands for the run.
  bool HoldsStill() const { return exists_ != nullptr; }

  /// The list files parsed in this world, shared by its copies and every evaluation in it.
  ProgramCache& programs() const { return *programs_; }

 private:
  std::optional<std::string> ReadRegular(const std::string& path, size_t cap, std::string* why) const;
  std::vector<std::string> GlobOnce(const std::string& pattern, bool* cut, GlobOrder order) const;
  std::string HostOf(const std::string& path) const;
  /// `path` with every ".." taken physically (an installed path without ".."); nullopt when
  /// a ".." follows something that is not an existing directory. `through_proc`, when given,
  /// is set when a directory a ".." left was reached through a link in the host's /proc.
  std::optional<std::string> Physical(const std::string& path, bool* through_proc = nullptr) const;
  bool Outside(const std::string& path) const;

  const RootedFs& fs_;
  /// The outside paths, without trailing slashes: a path is outside when it or one of its
  /// directories is one, a lookup per component rather than a comparison per audited
  /// directory (with --root / every audited directory is one, and every file operation asks).
  std::set<std::string, std::less<>> outside_;
  bool everything_outside_ = false;  ///< "/" is an outside path
  bool has_base_;
  struct GlobAnswers;  ///< RememberingGlobs(): (pattern, order) -> matches and whether cut
  std::shared_ptr<GlobAnswers> globs_;
  struct ExistsAnswers;  ///< RememberingExistence(): path -> Exists()
  std::shared_ptr<ExistsAnswers> exists_;
  std::shared_ptr<ProgramCache> programs_ = std::make_shared<ProgramCache>();
};

}  // namespace rocm_audit
