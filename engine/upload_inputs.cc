#include "engine/upload_inputs.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/MD5.h>
#include <llvm/Support/SHA256.h>

#include "audit/fs/path.h"
#include "audit/support/parallel.h"
#include "audit/support/text.h"

namespace rocm_audit {
namespace {

// Far more than any real upload: linux's .changes, hundreds of files and a long Changes
// field, is well below 1 MiB. More is not read (a finding), so a hostile one costs nothing.
constexpr size_t kMaxChangesBytes = size_t(16) << 20;

// Opened without following a FIFO into a block (O_NONBLOCK), read only when a regular file,
// and never past `max` bytes.
bool OpenRegular(const std::string& path, int* fd, struct stat* st, std::string* error) {
  *fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (*fd < 0) {
    *error = errno == ENOENT ? "no such file" : strerror(errno);
    return false;
  }
  if (fstat(*fd, st) != 0 || !S_ISREG(st->st_mode)) {
    *error = "not a regular file";
    close(*fd);
    return false;
  }
  return true;
}

bool ReadBounded(const std::string& path, size_t max, std::string* text, std::string* error) {
  int fd;
  struct stat st;
  if (!OpenRegular(path, &fd, &st, error)) return false;
  std::unique_ptr<int, void (*)(int*)> closer(&fd, [](int* f) { close(*f); });
  if (uint64_t(st.st_size) > max) {
    *error = "larger than " + std::to_string(max >> 20) + " MiB: not read";
    return false;
  }
  text->resize(max + 1);
  size_t have = 0;
  while (have < text->size()) {
    ssize_t n = read(fd, text->data() + have, text->size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *error = strerror(errno);
      return false;
    }
    if (n == 0) break;
    have += size_t(n);
  }
  if (have > max) {
    *error = "larger than " + std::to_string(max >> 20) + " MiB: not read";
    return false;
  }
  text->resize(have);
  return true;
}

// The lines of the text a .changes signs: OpenPGP's cleartext framework (RFC 4880 §7) puts
// "-----BEGIN PGP SIGNED MESSAGE-----" and armor headers up to an empty line before it, the
// signature after it, and escapes a line that starts with '-' as "- -"; dpkg's parser
// (Dpkg::Control::HashCore) skips the same armor.
bool SignedLines(std::string_view text, std::vector<std::string_view>* lines, std::string* error) {
  std::vector<std::string_view> all;
  for (size_t at = 0; at < text.size();) {
    size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    all.push_back(line);
    at = end + 1;
  }
  size_t first = 0;
  while (first < all.size() && Trim(all[first]).empty()) ++first;
  if (first == all.size() || all[first] != "-----BEGIN PGP SIGNED MESSAGE-----") {
    lines->assign(all.begin() + first, all.end());
    return true;
  }
  size_t i = first + 1;
  while (i < all.size() && !all[i].empty()) ++i;  // armor headers ("Hash: SHA512")
  for (++i; i < all.size(); ++i) {
    if (all[i].starts_with("-----BEGIN PGP SIGNATURE")) return true;
    std::string_view line = all[i];
    if (line.starts_with("- ")) line.remove_prefix(2);
    lines->push_back(line);
  }
  *error = "an OpenPGP signed message without its signature";
  return false;
}

bool IsHex(std::string_view s, size_t size) {
  return s.size() == size && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
         });
}

// A file of an upload is a plain name of a file next to the .changes: dpkg-genchanges writes
// no directory, and one would let a .changes read files anywhere.
bool IsPlainName(std::string_view name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string_view::npos &&
         std::none_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
}

// One line of Files ("md5 size section priority name") or Checksums-Sha256 ("sha256 size
// name"): deb-changes(5).
bool ParseFileLine(std::string_view line, bool sha256, UploadedFile* file) {
  std::vector<std::string_view> words;
  for (size_t at = 0; at < line.size();) {
    size_t start = line.find_first_not_of(" \t", at);
    if (start == std::string_view::npos) break;
    size_t end = std::min(line.find_first_of(" \t", start), line.size());
    words.push_back(line.substr(start, end - start));
    at = end;
  }
  if (words.size() != (sha256 ? 3u : 5u) || !IsHex(words[0], sha256 ? 64 : 32)) return false;
  auto [ptr, ec] = std::from_chars(words[1].data(), words[1].data() + words[1].size(), file->size);
  if (ec != std::errc() || ptr != words[1].data() + words[1].size() || !IsPlainName(words.back()))
    return false;
  (sha256 ? file->sha256 : file->md5) = llvm::StringRef(words[0]).lower();
  file->name = std::string(words.back());
  return true;
}

using FieldMap = std::map<std::string, std::vector<std::string_view>, std::less<>>;

// The fields of the first paragraph (deb822(5)), names lower-cased: each field's lines (the
// first line's value, then each continuation line without its leading space).
bool ReadFields(const std::vector<std::string_view>& lines, FieldMap* fields, std::string* error) {
  std::vector<std::string_view>* current = nullptr;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    if (Trim(line).empty()) {
      if (current) break;  // the paragraph ends
      continue;
    }
    if (line.starts_with("#")) continue;
    if (line[0] == ' ' || line[0] == '\t') {
      if (!current) {
        *error = "line " + std::to_string(i + 1) + " continues no field";
        return false;
      }
      current->push_back(Trim(line));
      continue;
    }
    size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      *error = "line " + std::to_string(i + 1) + " is neither a field nor its continuation";
      return false;
    }
    current = &(*fields)[llvm::StringRef(line.substr(0, colon)).lower()];
    current->assign(1, Trim(line.substr(colon + 1)));
  }
  return true;
}

// The file's size, SHA-256 and, when `md5` is given, MD5, read in pieces (a ROCm .deb is
// gigabytes): MD5 only for a file that Checksums-Sha256 does not list. A file whose size is
// not `expected` is not read (its size says it is not the one listed), and neither is a file
// of /proc or /sys reached through a link: the kernel's views never end or change as read.
bool HashFile(const std::string& path, uint64_t expected, uint64_t* size, std::string* sha256,
              std::string* md5, std::string* error) {
  int fd;
  struct stat st;
  if (!OpenRegular(path, &fd, &st, error)) return false;
  std::unique_ptr<int, void (*)(int*)> closer(&fd, [](int* f) { close(*f); });
  char real[PATH_MAX];
  if (realpath(path.c_str(), real) && !KernelFileSystemOf(real).empty()) {
    *error = "in " + std::string(KernelFileSystemOf(real)) + ", the kernel's view, not a file of the upload";
    return false;
  }
  *size = uint64_t(st.st_size);
  if (*size != expected) return true;
  llvm::SHA256 sha;
  llvm::MD5 md;
  std::vector<uint8_t> buffer(size_t(1) << 20);
  *size = 0;
  for (;;) {
    ssize_t n = read(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *error = strerror(errno);
      return false;
    }
    if (n == 0) break;
    if (uint64_t(n) > expected - std::min(expected, *size)) {
      *size += uint64_t(n);  // grew while read: not the file listed
      return true;
    }
    llvm::ArrayRef<uint8_t> piece(buffer.data(), size_t(n));
    sha.update(piece);
    if (md5) md.update(piece);
    *size += uint64_t(n);
  }
  *sha256 = llvm::toHex(sha.final(), /*LowerCase=*/true);
  if (md5) {
    llvm::MD5::MD5Result digest;
    md.final(digest);
    *md5 = std::string(digest.digest());
  }
  return true;
}

// "" when `path` is the file the .changes lists, else why not.
std::string Mismatch(const std::string& path, const UploadedFile& listed) {
  uint64_t size;
  std::string sha256, md5, error;
  if (!HashFile(path, listed.size, &size, &sha256, listed.sha256.empty() ? &md5 : nullptr, &error))
    return error == "no such file" ? "listed in the .changes, but not next to it"
                                   : "cannot be read: " + error;
  if (size != listed.size)
    return "its size is " + std::to_string(size) + " bytes, the .changes says " +
           std::to_string(listed.size) + ": not the file that was uploaded";
  if (!listed.sha256.empty() && sha256 != listed.sha256)
    return "its SHA-256 is " + sha256 + ", the .changes says " + listed.sha256 +
           ": not the file that was uploaded";
  if (listed.sha256.empty() && !listed.md5.empty() && md5 != listed.md5)
    return "its MD5 is " + md5 + ", the .changes says " + listed.md5 + ": not the file that was uploaded";
  return "";
}

bool IsBinaryPackageName(std::string_view name) { return name.ends_with(".deb") || name.ends_with(".udeb"); }

}  // namespace

bool ParseChangesText(std::string_view text, std::vector<UploadedFile>* files, std::string* error) {
  std::vector<std::string_view> lines;
  if (!SignedLines(text, &lines, error)) return false;
  FieldMap fields;
  if (!ReadFields(lines, &fields, error)) return false;
  if (!fields.count("files")) {
    *error = "no Files field: not a .changes (deb-changes(5))";
    return false;
  }
  std::map<std::string, size_t, std::less<>> index;
  for (const auto& [field, sha256] : {std::pair("files", false), std::pair("checksums-sha256", true)}) {
    auto it = fields.find(field);
    if (it == fields.end()) continue;
    for (std::string_view line : it->second) {
      if (line.empty()) continue;  // the field's first line: the list starts below it
      UploadedFile f;
      if (!ParseFileLine(line, sha256, &f)) {
        *error = std::string(sha256 ? "Checksums-Sha256" : "Files") + ": cannot read \"" + std::string(line) +
                 "\"";
        return false;
      }
      auto [at, added] = index.emplace(f.name, files->size());
      if (added) {
        files->push_back(std::move(f));
        continue;
      }
      UploadedFile& known = (*files)[at->second];
      if (known.size != f.size) {
        *error = f.name + ": Files and Checksums-Sha256 give two sizes";
        return false;
      }
      if (sha256) known.sha256 = f.sha256;
    }
  }
  return true;
}

bool IsUploadDescription(std::string_view path) {
  return path.ends_with(".changes") || path.ends_with(".dsc");
}

std::vector<std::string> VerifiedUploadBinaries(const std::string& path, unsigned jobs,
                                                std::vector<UnpackProblem>* problems) {
  auto problem = [&](std::string member, std::string reason) {
    UnpackProblem& p = problems->emplace_back();
    p.package = path;
    p.member = std::move(member);
    p.reason = std::move(reason);
    p.upload = true;
  };
  if (path.ends_with(".dsc")) {
    problem(
        "",
        "a source package (.dsc) names no binary package, and rocm-audit audits binary packages: give the "
        ".changes of a binary build, or its .deb files");
    return {};
  }
  std::string text, error;
  std::vector<UploadedFile> files;
  if (!ReadBounded(path, kMaxChangesBytes, &text, &error) || !ParseChangesText(text, &files, &error)) {
    problem("", "cannot be read as a .changes: " + error);
    return {};
  }
  std::erase_if(files, [](const UploadedFile& f) { return !IsBinaryPackageName(f.name); });
  if (files.empty()) {
    problem("",
            "names no binary package (.deb, .udeb): a source-only upload has nothing to audit; give the "
            ".changes of a binary build");
    return {};
  }
  // Next to the .changes, named as the .changes was ("up/x.changes" lists "up/x.deb").
  const std::string dir = path.substr(0, path.size() - BaseName(path).size());
  std::vector<std::string> paths(files.size()), why(files.size());
  for (size_t i = 0; i < files.size(); ++i) paths[i] = dir + files[i].name;
  ParallelFor(files.size(), std::max(1u, jobs), [&](size_t i) { why[i] = Mismatch(paths[i], files[i]); });
  std::vector<std::string> verified;
  for (size_t i = 0; i < files.size(); ++i) {
    if (why[i].empty())
      verified.push_back(paths[i]);
    else
      problem(files[i].name, why[i]);
  }
  return verified;
}

std::vector<std::string> ExpandUploads(const std::vector<std::string>& paths, unsigned jobs,
                                       std::vector<UnpackProblem>* problems) {
  std::vector<std::string> expanded;
  for (const std::string& p : paths) {
    struct stat st;
    if (!IsUploadDescription(p) || stat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
      expanded.push_back(p);
      continue;
    }
    for (std::string& binary : VerifiedUploadBinaries(p, jobs, problems)) {
      if (DetectPackageFile(binary) != PackageFormat::kDeb)
        problems->push_back({p, std::string(BaseName(binary)), false,
                             "listed as a binary package, but not a Debian package (no debian-binary member)",
                             /*upload=*/true});
      else if (std::find(expanded.begin(), expanded.end(), binary) == expanded.end())
        expanded.push_back(std::move(binary));
    }
  }
  return expanded;
}

}  // namespace rocm_audit
