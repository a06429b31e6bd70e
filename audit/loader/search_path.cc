#include "audit/loader/search_path.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cctype>
#include <cerrno>
#include <cstring>

#include <llvm/BinaryFormat/ELF.h>

#include "audit/elf/elf_reader.h"

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

// Reads just the ELF identity of a candidate, as ld.so's open_verify does. Sets `opened`
// false when the file could not be opened: ld.so then tries the next directory.
bool ReadCandidateIdentity(const std::string& path, ElfIdentity* id, bool* opened, std::string* error) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  *opened = fd >= 0;
  if (fd < 0) {
    *error = std::string("cannot open: ") + strerror(errno);
    return false;
  }
  char head[64];
  ssize_t n = pread(fd, head, sizeof head, 0);
  close(fd);
  if (n < 0) {
    *error = "cannot read";
    return false;
  }
  return ReadElfIdentity(std::string_view(head, static_cast<size_t>(n)), id, error);
}

}  // namespace

FileId FileIdOf(const std::string& host_path) {
  struct stat st;
  if (stat(host_path.c_str(), &st) != 0) return {};
  return {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)};
}

namespace {

// Tries `dir/name`. Returns true when the search is over (found, or a loader error).
bool TryDirectory(const std::string& dir, const std::string& source, const std::string& name,
                  const ObjectIdentity& want, const LoaderConfig& config, Resolution* out) {
  std::string candidate = dir.empty() ? name : (dir.back() == '/' ? dir : dir + "/") + name;
  std::string why;
  auto real = config.fs.Resolve(candidate, &why);
  if (!real) {
    out->searched.push_back({dir, source, why == "symlink loop" ? "symlink loop" : "not found"});
    return false;
  }
  ElfIdentity id;
  std::string error;
  bool opened = false;
  if (!ReadCandidateIdentity(*real, &id, &opened, &error)) {
    if (!opened) {
      out->searched.push_back({dir, source, error});
      return false;
    }
    out->searched.push_back({dir, source, "not loadable: " + error});
    out->error = candidate + ": " + error + " (the loader stops here instead of searching on)";
    out->path = candidate;
    out->real_path = *real;
    return true;
  }
  if (id.elf_class != want.elf_class || id.machine != want.machine) {
    out->searched.push_back({dir, source, "skipped: wrong ELF class or machine"});
    return false;
  }
  if (id.type != llvm::ELF::ET_DYN && id.type != llvm::ELF::ET_EXEC) {
    out->searched.push_back({dir, source, "not loadable: not a shared object"});
    out->error = candidate + ": only ET_DYN and ET_EXEC can be loaded";
    out->path = candidate;
    out->real_path = *real;
    return true;
  }
  out->searched.push_back({dir, source, "found"});
  out->found = true;
  out->path = candidate;
  out->real_path = *real;
  out->id = FileIdOf(*real);
  return true;
}

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

Resolution FindLibrary(const std::string& name, const std::vector<RpathLink>& chain,
                       const LoaderConfig& config) {
  Resolution res;
  const RpathLink& requester = chain.front();
  ObjectIdentity want{requester.model->elf_class, requester.model->machine};

  if (name.find('/') != std::string::npos) {
    std::string path = name[0] == '/' ? config.fs.HostPath(name) : name;
    TryDirectory(DirName(path), "path in DT_NEEDED", std::string(BaseName(path)), want, config, &res);
    return res;
  }

  auto try_list = [&](const std::vector<std::string>& entries, const RpathLink& owner,
                      const std::string& source) {
    for (const auto& e : entries) {
      auto dir = ExpandSearchEntry(e, owner.origin, want, config);
      if (!dir) continue;
      if (TryDirectory(*dir, source, name, want, config, &res)) return true;
    }
    return false;
  };

  if (!requester.model->has_runpath) {
    for (const RpathLink& link : chain)
      if (!link.model->rpath.empty() && try_list(link.model->rpath, link, SourceName("RPATH", link)))
        return res;
  }
  for (const auto& dir : config.library_path)
    if (TryDirectory(dir, "--library-path", name, want, config, &res)) return res;
  if (requester.model->has_runpath &&
      try_list(requester.model->runpath, requester, SourceName("RUNPATH", requester)))
    return res;

  std::vector<std::string> defaults = DefaultDirectoriesFor(*chain.back().model, want, config);
  for (const auto& dir : config.conf_dirs) {
    if (requester.model->nodeflib && UnderDefaultDir(dir, defaults)) continue;
    if (TryDirectory(config.fs.HostPath(dir), "ld.so.conf", name, want, config, &res)) return res;
  }
  if (!requester.model->nodeflib)
    for (const auto& dir : defaults)
      if (TryDirectory(config.fs.HostPath(dir), "default", name, want, config, &res)) return res;
  return res;
}

}  // namespace rocm_audit
