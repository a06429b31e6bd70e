#include "audit/loader/search_path.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>

#include <llvm/BinaryFormat/ELF.h>

#include "audit/elf/elf_reader.h"
#include "audit/fs/open_file.h"

namespace rocm_audit {
namespace {

std::string MultiarchTriple(const ObjectIdentity& id) {
  switch (id.machine) {
    case llvm::ELF::EM_X86_64: return id.elf_class == 2 ? "x86_64-linux-gnu" : "x86_64-linux-gnux32";
    case llvm::ELF::EM_386: return "i386-linux-gnu";
    case llvm::ELF::EM_AARCH64: return "aarch64-linux-gnu";
    case llvm::ELF::EM_ARM: return "arm-linux-gnueabihf";
    case llvm::ELF::EM_PPC64: return "powerpc64le-linux-gnu";
    case llvm::ELF::EM_RISCV: return "riscv64-linux-gnu";
    case llvm::ELF::EM_S390: return "s390x-linux-gnu";
  }
  return "";
}

std::string PlatformToken(const ObjectIdentity& id, const LoaderConfig& config) {
  if (!config.platform.empty()) return config.platform;
  switch (id.machine) {
    case llvm::ELF::EM_X86_64: return "x86_64";
    case llvm::ELF::EM_386: return "i686";
    case llvm::ELF::EM_AARCH64: return "aarch64";
  }
  return "";
}

}  // namespace

FileId FileIdOf(const std::string& host_path) {
  struct stat st;
  if (stat(host_path.c_str(), &st) != 0) return {};
  return {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)};
}

namespace {

// glibc compares the cached path against each system directory as a prefix.
bool UnderDefaultDir(const std::string& dir, const std::vector<std::string>& defaults) {
  for (const auto& d : defaults)
    if (IsUnderDirectory(dir, d)) return true;
  return false;
}

std::string SourceName(const char* what, const RpathLink& link) {
  return std::string(what) + " of " + std::string(BaseName(link.model->path));
}

}  // namespace

std::vector<std::string> DefaultDirectories(const ObjectIdentity& id) {
  std::vector<std::string> dirs;
  std::string triple = MultiarchTriple(id);
  if (!triple.empty()) {
    dirs.push_back("/lib/" + triple);
    dirs.push_back("/usr/lib/" + triple);
  }
  dirs.push_back("/lib");
  dirs.push_back("/usr/lib");
  return dirs;
}

std::vector<std::string> DefaultDirectoriesFor(const ElfModel& main, const ObjectIdentity& id,
                                               const LoaderConfig& config) {
  if (config.default_dirs) return *config.default_dirs;
  if (!main.interpreter.empty() && main.interpreter[0] == '/') {
    std::string dir = DirName(NormalizePath(main.interpreter));
    bool fhs = false;
    for (std::string_view d : {"/lib", "/lib32", "/lib64", "/libx32", "/usr/lib", "/usr/lib32", "/usr/lib64"})
      fhs = fhs || IsUnderDirectory(dir, d);
    if (!fhs) return {dir};
  }
  return DefaultDirectories(id);
}

std::string LibDirToken(const ObjectIdentity& id) {
  std::string triple = MultiarchTriple(id);
  return triple.empty() ? "lib" : "lib/" + triple;
}

std::optional<std::string> ExpandSearchEntry(const std::string& entry, const std::string& origin,
                                             const ObjectIdentity& id, const LoaderConfig& config) {
  std::string out;
  bool from_origin = false;
  for (size_t i = 0; i < entry.size();) {
    if (entry[i] != '$') {
      out += entry[i++];
      continue;
    }
    // is_dst(): "$NAME" ends at a non-identifier character, "${NAME}" at the brace.
    auto match = [&](std::string_view token) -> size_t {
      std::string_view rest(entry.data() + i + 1, entry.size() - i - 1);
      if (rest.substr(0, 1) == "{" && rest.substr(1, token.size()) == token &&
          rest.substr(1 + token.size(), 1) == "}")
        return token.size() + 3;
      if (rest.substr(0, token.size()) == token) {
        char next = rest.size() > token.size() ? rest[token.size()] : '\0';
        if (!(std::isalnum(static_cast<unsigned char>(next)) || next == '_')) return token.size() + 1;
      }
      return 0;
    };
    if (size_t n = match("ORIGIN")) {
      out += origin;
      from_origin = from_origin || i == 0;
      i += n;
    } else if (size_t n = match("LIB")) {
      out += LibDirToken(id);
      i += n;
    } else if (size_t n = match("PLATFORM")) {
      std::string platform = PlatformToken(id, config);
      if (platform.empty()) return std::nullopt;  // a known DST without a value: discarded
      out += platform;
      i += n;
    } else {
      out += entry[i++];  // not a DST ld.so knows: kept literally
    }
  }
  if (from_origin || out.empty() || out[0] != '/') return out;
  return config.fs.HostPath(out);
}

namespace {

// The links of a whole chain, as FindLibrary is given it.
class ChainWalk : public RpathWalk {
 public:
  explicit ChainWalk(const std::vector<RpathLink>& chain) : chain_(chain) {}
  const RpathLink* Next() override {
    while (next_ < chain_.size())
      if (const RpathLink& link = chain_[next_++]; !link.model->rpath.empty()) return &link;
    return nullptr;
  }

 private:
  const std::vector<RpathLink>& chain_;
  size_t next_ = 0;
};

// A name that resolves in its directory alone: one component, as a DT_NEEDED without '/'
// is (the loader appends it to each directory).
bool PlainName(std::string_view name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string_view::npos;
}

// Why open() fails on `name` in any directory, from its length alone: ENAMETOOLONG for a
// component longer than NAME_MAX or a path of PATH_MAX bytes or more (the NUL included, a
// path fits in PATH_MAX). glibc's open_path then tries the next directory, and
// _dl_map_object ends with "cannot open shared object file: File name too long".
const char* TooLongToOpen(std::string_view name) {
  if (name.size() >= PATH_MAX)
    return "cannot open: the name is longer than PATH_MAX (4,096 bytes; ENAMETOOLONG)";
  if (PlainName(name) && name.size() > NAME_MAX)
    return "cannot open: the name is longer than NAME_MAX (255 bytes; ENAMETOOLONG)";
  return nullptr;
}

constexpr std::string_view kCandidateTooLong =
    "cannot open: the path is longer than PATH_MAX (4,096 bytes; ENAMETOOLONG)";

}  // namespace

size_t LibrarySearch::OpenedLength(const std::string& dir, std::string_view name) const {
  // ld.so's $ORIGIN is absolute (a relative path is taken from the working directory).
  static const std::string cwd = std::filesystem::current_path().string();
  const bool slash = !dir.empty() && dir.back() != '/';
  const size_t length = dir.size() + (slash ? 1 : 0) + name.size();
  const bool relative = dir.empty() ? name.empty() || name[0] != '/' : dir[0] != '/';
  const size_t host_length = relative ? cwd.size() + 1 + length : length;
  if (host_length < PATH_MAX) return host_length;  // a layer's prefix only shortens it
  std::string candidate = relative ? cwd + "/" : std::string();
  candidate += dir;
  if (slash) candidate += '/';
  candidate += name;
  return config_.fs.InstalledLength(candidate);
}

Resolution FindLibrary(const std::string& name, const std::vector<RpathLink>& chain,
                       const LoaderConfig& config) {
  LibrarySearch search(config);
  ChainWalk up(chain);
  return search.Find(name, chain.front(), *chain.back().model, up);
}

LibrarySearch::ListInUse& LibrarySearch::ListOf(std::string key, const std::function<SearchList()>& expand) {
  auto [it, fresh] = lists_.try_emplace(std::move(key));
  if (fresh) {
    it->second.list = std::make_shared<const SearchList>(expand());
    it->second.probed.assign(it->second.list->directories.size(), nullptr);
  }
  return it->second;
}

LibrarySearch::ListInUse& LibrarySearch::EntriesOf(const char* what, const RpathLink& link,
                                                   const ObjectIdentity& want) {
  // An object's entries expand with its $ORIGIN and the requester's $LIB and $PLATFORM.
  std::string key = std::string(what) + '\0' + std::to_string(want.elf_class) + ':' +
                    std::to_string(want.machine) + ':' +
                    std::to_string(reinterpret_cast<uintptr_t>(link.model)) + '\0' + link.origin;
  return ListOf(std::move(key), [&] {
    SearchList list{SourceName(what, link), {}};
    const bool rpath = std::string_view(what) == "RPATH";
    for (const auto& e : rpath ? link.model->rpath : link.model->runpath)
      if (auto dir = ExpandSearchEntry(e, link.origin, want, config_))
        list.directories.push_back(std::move(*dir));
    return list;
  });
}

LibrarySearch::ListInUse& LibrarySearch::SystemList(bool conf, const ElfModel& main,
                                                    const ObjectIdentity& want, bool nodeflib) {
  std::string key = std::string(conf ? "ld.so.conf" : "default") + '\0' + std::to_string(want.elf_class) +
                    ':' + std::to_string(want.machine) + ':' + (nodeflib ? "nodeflib" : "") + '\0' +
                    main.interpreter;
  return ListOf(std::move(key), [&] {
    std::vector<std::string> defaults = DefaultDirectoriesFor(main, want, config_);
    SearchList list{conf ? "ld.so.conf" : "default", {}};
    if (!conf) {
      for (const auto& dir : defaults) list.directories.push_back(config_.fs.HostPath(dir));
      return list;
    }
    for (const auto& dir : config_.conf_dirs)
      if (!nodeflib || !UnderDefaultDir(dir, defaults)) list.directories.push_back(config_.fs.HostPath(dir));
    return list;
  });
}

const ProbedCandidate& LibrarySearch::Look(const std::string& dir, std::string_view name,
                                           const std::string& candidate) {
  std::string key = dir + '\0';
  key += name;
  if (const ProbedCandidate* known = memo_->candidates.Find(key)) return *known;
  return memo_->candidates.Keep(std::move(key), Probe(dir, name, candidate));
}

namespace {

// What ld.so finds in /proc or /sys is decided by the process that loads the file and
// its machine, which no audit knows; opened here, the auditor's own process would answer
// (/proc/self/exe is rocm-audit, /proc/self/cwd its working directory). Such a candidate is
// never opened, and the search goes on past it as ld.so's goes on past a file it cannot open.
// `fs` is the kernel file system the candidate lies in (RootedFs::Resolved::KernelView), ""
// for none.
bool InKernelView(std::string_view fs, ProbedCandidate* c) {
  if (fs.empty()) return false;
  c->state = ProbedCandidate::State::kKernelView;
  c->detail = std::string(fs) +
              ", which shows the process and machine that open it (the auditor's own here), not files of the "
              "installed system";
  return true;
}

// A candidate that does not resolve: ld.so's open() fails with ENOENT, ELOOP or
// ENAMETOOLONG there, and it searches on.
ProbedCandidate Unresolved(const std::string& why) {
  using State = ProbedCandidate::State;
  ProbedCandidate c;
  c.state = State::kMissing;
  if (why == kSymlinkCycle || why == kTooManySymlinks) {
    c.state = State::kSymlinkLoop;
    c.detail = why == kSymlinkCycle ? "symlink loop" : "more than 40 symbolic links (ELOOP)";
  } else if (why == kPathTooLong) {
    c.state = State::kCannotOpen;
    c.detail = "cannot open: " + why;
  }
  return c;
}

// The host directories that hold `dir`'s entries, one per layer it is resolved in, and the
// longest of them with `dir`'s path (RootedFs resolves a name in it as each layer's prefix
// + the path + '/' + the name, top layer first).
std::vector<std::string> HostDirectoriesOf(const RootedFs& fs, const RootedFs::Resolved& dir,
                                           size_t* longest) {
  const std::string path = dir.path.empty() ? "/" : dir.path;
  std::vector<std::string> out;
  *longest = dir.path.size();
  if (!dir.in_layers) return {path};
  for (const std::string& layer : fs.layers()) {
    const std::string prefix = layer == "/" ? "" : layer;  // "/" is the host's own tree
    out.push_back(prefix + path);
    *longest = std::max(*longest, prefix.size() + dir.path.size());
  }
  return out;
}

}  // namespace

bool LibrarySearch::DecidedByEntries(const std::string& dir) const {
  // Probe first asks whether the candidate, dir + '/' + name, lies in /proc or /sys as the
  // installed system names it (relative candidates are not asked). For a name of one
  // component that is the directory's answer, unless the directory is "/" (the name may
  // be "proc") or the name may complete a layer's path (a layer named dir/name shows the
  // candidate as "/"): those directories are left to Probe, name by name.
  if (dir.empty() || dir[0] != '/') return true;
  const std::string normal = NormalizePath(dir);
  const std::string shown = NormalizePath(config_.fs.DisplayPath(normal));
  if (shown == "/" || !KernelFileSystemOf(shown).empty()) return false;
  for (const std::string& layer : config_.fs.layers())
    if (layer != "/" && DirName(layer) == normal) return false;
  return true;
}

const ProbedDirectory& LibrarySearch::ResolveDirectory(const std::string& dir) {
  if (const ProbedDirectory* known = memo_->directories.Find(dir)) return *known;
  ProbedDirectory d;
  d.resolved = config_.fs.ResolveFully(dir, &d.why);
  if (DecidedByEntries(dir)) {
    if (!d.resolved) {
      d.every_name = Unresolved(d.why);
    } else if (d.resolved->KernelView().empty()) {
      // Listed once for the run, by where it resolves, however many entries name it. A
      // directory in /proc or /sys is never listed: its candidates are never opened either.
      std::vector<std::string> hosts = HostDirectoriesOf(config_.fs, *d.resolved, &d.longest_host_path);
      std::string key = (d.resolved->in_layers ? "L" : "H") + d.resolved->path;
      const auto* listed = memo_->listings.Find(key);
      if (!listed)
        listed = &memo_->listings.Keep(std::move(key), std::make_shared<DirectoryListing>(std::move(hosts)));
      d.listing = *listed;
    }
  }
  return memo_->directories.Keep(dir, std::move(d));
}

const ProbedCandidate* LibrarySearch::DecidedByDirectory(ListInUse& list, size_t index,
                                                         std::string_view name) {
  const std::string& dir = list.list->directories[index];
  if (dir.empty() || !PlainName(name)) return nullptr;  // Probe resolves the whole candidate
  const ProbedDirectory*& d = list.probed[index];
  if (!d) d = &ResolveDirectory(dir);
  if (d->every_name) return &*d->every_name;
  // Not in the listing: the lstat() of each layer's dir/name would fail with ENOENT, unless
  // the path is too long for it (ENAMETOOLONG).
  static const ProbedCandidate kAbsent = Unresolved(std::string(kNoSuchPath));
  if (!d->listing || d->longest_host_path + 1 + name.size() >= PATH_MAX) return nullptr;
  const DirectoryNames* names = d->listing->Ask();
  return names && !names->MayHold(name) ? &kAbsent : nullptr;
}

ProbedCandidate LibrarySearch::Probe(const std::string& dir, std::string_view name,
                                     const std::string& candidate) {
  ProbedCandidate c;
  if (!candidate.empty() && candidate[0] == '/' &&
      InKernelView(KernelFileSystemOf(NormalizePath(config_.fs.DisplayPath(candidate))), &c))
    return c;
  // The directory is resolved once, then the name in it: the same lstat() calls as one
  // resolution of the whole path, without repeating the directory's for every name.
  std::string why;
  std::optional<RootedFs::Resolved> real;
  if (!dir.empty() && PlainName(name)) {
    const ProbedDirectory& d = ResolveDirectory(dir);
    if (d.resolved)
      real = config_.fs.ResolveChild(*d.resolved, std::string(name), &why);
    else
      why = d.why;
  } else {
    real = config_.fs.ResolveFully(candidate, &why);
  }
  using State = ProbedCandidate::State;
  if (!real) return Unresolved(why);
  if (InKernelView(real->KernelView(), &c)) return c;
  c.real = std::move(real->host);
  // Read just the ELF identity, as ld.so's open_verify does, never blocking. A directory is
  // opened (ld.so opens it too, and fails to read it).
  OpenedFile f = OpenNonBlocking(c.real, /*directory_ok=*/true);
  if (!f.special.empty()) {
    c.state = State::kSpecial;
    c.detail = f.special;
    return c;
  }
  if (f.fd < 0) {
    // ld.so then tries the next directory.
    c.state = State::kCannotOpen;
    c.detail = "cannot open: " + f.error;
    return c;
  }
  char head[64];
  ssize_t n = pread(f.fd, head, sizeof head, 0);
  close(f.fd);
  c.state = State::kNotLoadable;
  if (n < 0) {
    c.detail = "cannot read";
    return c;
  }
  if (!ReadElfIdentity(std::string_view(head, static_cast<size_t>(n)), &c.id, &c.detail)) return c;
  c.state = State::kElf;
  c.file = {static_cast<uint64_t>(f.st.st_dev), static_cast<uint64_t>(f.st.st_ino)};
  return c;
}

namespace {

std::string CandidateOf(const std::string& dir, std::string_view name) {
  std::string candidate = dir.empty() || dir.back() == '/' ? dir : dir + "/";
  candidate += name;
  return candidate;
}

}  // namespace

bool LibrarySearch::Try(ListInUse& list, size_t index, std::string_view name, const ObjectIdentity& want,
                        Resolution* out) {
  const std::string& dir = list.list->directories[index];
  auto step = [&](std::string_view outcome) { out->searched.Add(list.list, index, outcome); };
  // A name as long as its file allows (a DT_NEEDED of 100 MB) is never copied into a
  // directory's candidate: it opens nowhere.
  if (const char* too_long = TooLongToOpen(name)) {
    step(too_long);
    return false;
  }
  // glibc's open_path passes the directory and the name joined as written, ".." and all; the
  // kernel refuses a path of PATH_MAX bytes or more (ENAMETOOLONG) however short the
  // directory it names is, and ld.so searches on. A chain of RUNPATH $ORIGIN/../dN grows it.
  if (OpenedLength(dir, name) >= PATH_MAX) {
    step(kCandidateTooLong);
    return false;
  }
  // Most names are not in most directories: the directory's listing says so without a
  // candidate path, a system call or an answer kept per name.
  std::string candidate;
  const ProbedCandidate* known = DecidedByDirectory(list, index, name);
  if (!known) {
    candidate = CandidateOf(dir, name);
    known = &Look(dir, name, candidate);
  }
  const ProbedCandidate& c = *known;
  using State = ProbedCandidate::State;
  switch (c.state) {
    case State::kMissing: step("not found"); return false;
    case State::kSymlinkLoop: step(c.detail); return false;
    case State::kSpecial: step("skipped: not a regular file (" + c.detail + ")"); return false;
    case State::kCannotOpen: step(c.detail); return false;
    case State::kKernelView: step("skipped: in " + c.detail); return false;
    case State::kNotLoadable:
      step("not loadable: " + c.detail);
      out->error = candidate + ": " + c.detail + " (the loader stops here instead of searching on)";
      out->path = candidate;
      out->real_path = c.real;
      return true;
    case State::kElf: break;
  }
  if (c.id.elf_class != want.elf_class || c.id.machine != want.machine) {
    step("skipped: wrong ELF class or machine");
    return false;
  }
  if (c.id.type != llvm::ELF::ET_DYN && c.id.type != llvm::ELF::ET_EXEC) {
    step("not loadable: not a shared object");
    out->error = candidate + ": only ET_DYN and ET_EXEC can be loaded";
    out->path = candidate;
    out->real_path = c.real;
    return true;
  }
  step("found");
  out->found = true;
  out->path = candidate;
  out->real_path = c.real;
  out->id = c.file;
  return true;
}

void LibrarySearch::TryPath(const std::string& path, const ObjectIdentity& want, Resolution* out) {
  ListInUse one{std::make_shared<const SearchList>(SearchList{"path in DT_NEEDED", {DirName(path)}}),
                {nullptr}};
  Try(one, 0, BaseName(path), want, out);
}

Resolution LibrarySearch::Find(std::string_view name, const RpathLink& requester, const ElfModel& main,
                               RpathWalk& up) {
  Resolution res;
  const ObjectIdentity want{requester.model->elf_class, requester.model->machine};
  if (name.find('/') != std::string_view::npos) {
    // Opened as is, once: a path too long to open is not copied to find that out.
    if (const char* too_long = TooLongToOpen(name)) {
      res.searched.Add(std::make_shared<const SearchList>(SearchList{"path in DT_NEEDED", {""}}), 0,
                       too_long);
      return res;
    }
    TryPath(name[0] == '/' ? config_.fs.HostPath(name) : std::string(name), want, &res);
    return res;
  }
  auto try_list = [&](ListInUse& list) {
    for (size_t i = 0; i < list.list->directories.size(); ++i)
      if (Try(list, i, name, want, &res)) return true;
    return false;
  };
  if (!requester.model->has_runpath) {
    while (const RpathLink* link = up.Next())
      if (try_list(EntriesOf("RPATH", *link, want))) return res;
  }
  if (try_list(ListOf("--library-path", [&] { return SearchList{"--library-path", config_.library_path}; })))
    return res;
  if (requester.model->has_runpath && try_list(EntriesOf("RUNPATH", requester, want))) return res;
  const bool nodeflib = requester.model->nodeflib;
  if (try_list(SystemList(/*conf=*/true, main, want, nodeflib))) return res;
  if (!nodeflib) try_list(SystemList(/*conf=*/false, main, want, false));
  return res;
}

}  // namespace rocm_audit
