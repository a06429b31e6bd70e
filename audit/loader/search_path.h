// How glibc's ld.so finds one DT_NEEDED name (elf/dl-load.c, _dl_map_object):
//   1. a name containing '/' is opened as is;
//   2. DT_RPATH of the requesting object, then of its loaders up to the main object --
//      only when the requesting object has no DT_RUNPATH;
//   3. LD_LIBRARY_PATH (here: --library-path);
//   4. DT_RUNPATH of the requesting object only (never inherited);
//   5. ld.so.cache (here: the ld.so.conf directories ldconfig would index), skipping
//      entries inside the default directories under DF_1_NODEFLIB;
//   6. the default directories, unless the requesting object has DF_1_NODEFLIB.
// A candidate of the wrong ELF class or machine is skipped and the search goes on; a
// candidate that exists but is not ELF stops the search with an error, as in ld.so. A FIFO,
// socket or device is never opened (ld.so would wait on a FIFO for ever): it is skipped as
// not a regular file and the search goes on.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "audit/elf/elf_model.h"
#include "audit/elf/elf_reader.h"
#include "audit/fs/rooted_fs.h"
#include "audit/loader/search_memo.h"
#include "audit/loader/search_trail.h"

namespace rocm_audit {

struct LoaderConfig {
  RootedFs fs;
  std::vector<std::string> library_path;  ///< host directories, searched as LD_LIBRARY_PATH
  std::vector<std::string> conf_dirs;     ///< from <root>/etc/ld.so.conf, inside the root
  std::string platform;                   ///< $PLATFORM; empty = derived from the machine
  /// The target ld.so's built-in directories (--default-dirs; empty list = none). When not
  /// given they follow the main object's interpreter (DefaultDirectoriesFor).
  std::optional<std::vector<std::string>> default_dirs;
};

/// The class/machine pair an object needs its dependencies to have.
struct ObjectIdentity {
  uint8_t elf_class = 0;
  uint16_t machine = 0;
};

/// glibc's built-in search directories for this class/machine on Debian (multiarch first;
/// `ld.so --help` prints them), as absolute paths inside the root.
std::vector<std::string> DefaultDirectories(const ObjectIdentity& id);

/// The directories the loader of `main` has built in: --default-dirs when given; else, for
/// an interpreter outside the FHS library directories (a Nix or Guix glibc in its store
/// path, whose ld.so searches only its own lib/), that directory; else Debian's.
std::vector<std::string> DefaultDirectoriesFor(const ElfModel& main, const ObjectIdentity& id,
                                               const LoaderConfig& config);
/// $LIB as Debian's glibc expands it, e.g. "lib/x86_64-linux-gnu".
std::string LibDirToken(const ObjectIdentity& id);

/// One object on the chain from the requesting object up to the main object.
struct RpathLink {
  const ElfModel* model;
  std::string origin;  ///< host directory the object was found in ($ORIGIN)
};

/// The device and inode of a host path (symlinks followed); unknown when it cannot be stat()ed.
FileId FileIdOf(const std::string& host_path);

struct Resolution {
  bool found = false;
  std::string path;       ///< host path as found (directory + name): $ORIGIN for the library
  std::string real_path;  ///< symlinks resolved (the file actually mapped)
  FileId id;              ///< the mapped file's device and inode
  std::string error;      ///< set when the loader would fail on a found candidate
  SearchTrail searched;   ///< the directories tried, in order
};

/// Expands $ORIGIN, $LIB and $PLATFORM (also in ${...} form) in one RPATH/RUNPATH entry and
/// maps it to a host directory. nullopt when ld.so would discard the entry.
std::optional<std::string> ExpandSearchEntry(const std::string& entry, const std::string& origin,
                                             const ObjectIdentity& id, const LoaderConfig& config);

/// `chain[0]` is the object whose DT_NEEDED names `name`, `chain.back()` the main object.
Resolution FindLibrary(const std::string& name, const std::vector<RpathLink>& chain,
                       const LoaderConfig& config);

/// The objects from the requesting object up to the main object (ld.so's l_loader links)
/// that have a DT_RPATH, in that order, one at a time: a search that ends in the first
/// directory never visits the others.
class RpathWalk {
 public:
  virtual ~RpathWalk() = default;
  /// The next object with a non-empty DT_RPATH; nullptr past the main object.
  virtual const RpathLink* Next() = 0;
};

/// FindLibrary for every search of one closure, each as FindLibrary would make it, without
/// doing the same work twice: each search list is expanded once (SearchList, shared by the
/// trails of the names searched in it), a search directory is resolved and listed once,
/// and a name is looked at once in each directory that may hold it (the files do not
/// change while the audit runs). With a run's SearchMemo, once for the whole run. A name
/// missing from M directories costs M lookups in their listings, as ld.so.cache's lookups,
/// where ld.so itself pays M failed open() calls.
class LibrarySearch {
 public:
  /// `memo`: the run's, shared by every closure of `config`; null keeps one of its own.
  explicit LibrarySearch(const LoaderConfig& config, SearchMemo* memo = nullptr)
      : config_(config), memo_(memo ? memo : &own_memo_) {}

  /// `requester` is the object whose DT_NEEDED names `name`, `main` the main object.
  /// `name` is read where it lies (a view into the requester's model): a name no open()
  /// can take is decided from its length, without a candidate path per directory.
  Resolution Find(std::string_view name, const RpathLink& requester, const ElfModel& main, RpathWalk& up);

 private:
  // A search list, with its directories resolved as they are first tried.
  struct ListInUse {
    std::shared_ptr<const SearchList> list;
    std::vector<const ProbedDirectory*> probed;  ///< by index; null until tried
  };
  ListInUse& ListOf(std::string key, const std::function<SearchList()>& expand);
  ListInUse& EntriesOf(const char* what, const RpathLink& link, const ObjectIdentity& want);
  ListInUse& SystemList(bool conf, const ElfModel& main, const ObjectIdentity& want, bool nodeflib);

  const ProbedCandidate& Look(const std::string& dir, std::string_view name, const std::string& candidate);
  ProbedCandidate Probe(const std::string& dir, std::string_view name, const std::string& candidate);
  const ProbedDirectory& ResolveDirectory(const std::string& dir);
  /// Whether Probe's answer for any name of one component in `dir` depends only on what
  /// the directory holds under that name (not on the name's text: a candidate in /proc).
  bool DecidedByEntries(const std::string& dir) const;
  /// What `name` is in directory `index` of `list` when that is known without looking at
  /// the name's entry (the directory does not resolve, or its listing has no such name).
  const ProbedCandidate* DecidedByDirectory(ListInUse& list, size_t index, std::string_view name);
  /// The length of the path ld.so's open() is given for `dir` + '/' + `name`.
  size_t OpenedLength(const std::string& dir, std::string_view name) const;
  /// Tries directory `index` of `list`. Returns true when the search is over (found, or a
  /// loader error).
  bool Try(ListInUse& list, size_t index, std::string_view name, const ObjectIdentity& want, Resolution* out);
  /// Tries `dir`/`name` for a DT_NEEDED with a slash, as a list of one directory.
  void TryPath(const std::string& path, const ObjectIdentity& want, Resolution* out);

  const LoaderConfig& config_;
  SearchMemo own_memo_;
  SearchMemo* memo_;
  /// The lists of this search's objects, by what they expand (ListOf's keys).
  std::unordered_map<std::string, ListInUse> lists_;
};

}  // namespace rocm_audit
