#include "audit/unpack/unpack.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include "audit/fs/path.h"
#include "audit/unpack/deb_control.h"
#include "audit/unpack/package_metadata.h"
#include "audit/unpack/private_dir.h"
#include "audit/unpack/rpm_header.h"
#include "audit/unpack/xz_stream.h"
#include "audit/unpack/zip_overlap.h"

namespace rocm_audit {
namespace {

using ArchivePtr = std::unique_ptr<archive, int (*)(archive*)>;

// Below this many compressed bytes the ratio is not judged: a small archive of zeros is fine.
constexpr uint64_t kRatioFloor = uint64_t(1) << 20;
// Metadata files read into memory (a control file, METADATA, index.json) are small: their
// first MiB is kept, the rest read and charged like any member's bytes.
constexpr size_t kMaxMetadata = size_t(1) << 20;

ArchivePtr NewReader() {
  ArchivePtr a(archive_read_new(), archive_read_free);
  archive_read_support_filter_all(a.get());
  archive_read_support_format_all(a.get());
  return a;
}

// A member name as a clean relative path, or "" with `why` when it must be refused.
std::string CleanName(std::string name, std::string* why) {
  while (name.starts_with("./")) name.erase(0, 2);
  if (name.empty() || name == ".") return "";
  if (name[0] == '/') {
    *why = "an absolute member name";
    return "";
  }
  for (std::string_view part : PathComponents(name))
    if (part == "..") {
      *why = "a member name with '..'";
      return "";
    }
  return NormalizePath("/" + name).substr(1);
}

// Whether a relative symlink target, read from the link's directory, stays inside the
// package (absolute targets name the installed system: they are the package's own paths).
bool LinkStaysInside(const std::string& member, const std::string& target) {
  if (target.empty() || target[0] == '/') return true;
  int depth = int(PathComponents(DirName("/" + member)).size());
  for (std::string_view part : PathComponents(target)) {
    if (part == ".") continue;
    depth += part == ".." ? -1 : 1;
    if (depth < 0) return false;
  }
  return true;
}

// One package being unpacked: where, within which budget, and what it found.
class Unpacker {
 public:
  Unpacker(const std::string& file, const std::string& into, UnpackBudget* budget,
           std::vector<UnpackProblem>* problems)
      : file_(file), into_(into), budget_(budget), problems_(problems) {}

  /// The kind of metadata a member is, by clean name ("" for none): its text is kept in
  /// memory instead of being written. One text is kept per kind, the last member's (a later
  /// member of a name replaces an earlier one, as on disk).
  std::function<std::string(const std::string&)> capture;
  std::map<std::string, std::string> captured;
  std::vector<std::string> members;
  bool stopped() const { return stopped_; }

  /// Unpacks every member of `a`; `outer` is the archive whose bytes come from the file
  /// (for the compression ratio).
  void Extract(archive* a, archive* outer) {
    archive_entry* entry;
    while (NextMember(a, &entry)) Member(a, outer, entry);
  }

  /// The next member of `a`, counted against --max-members; false at the end or a stop.
  bool NextMember(archive* a, archive_entry** entry) {
    if (stopped_) return false;
    const int r = archive_read_next_header(a, entry);
    if (r == ARCHIVE_EOF) return false;
    if (r < ARCHIVE_WARN) {
      Stop("", std::string("cannot read the next member: ") + ErrorOf(a));
      return false;
    }
    return Count();
  }

  /// Counts one more member against --max-members; false (the package stopped) past it.
  bool Count() {
    if (++budget_->members <= budget_->limits.max_members) return true;
    Refuse("", "more than " + std::to_string(budget_->limits.max_members) + " members (--max-members)", true);
    return false;
  }

  /// The current member's first kMaxMetadata bytes; every byte of it is read and charged.
  std::string Text(archive* a, archive* outer, const std::string& name) {
    std::string text;
    const void* block;
    size_t size;
    la_int64_t offset;
    while (archive_read_data_block(a, &block, &size, &offset) == ARCHIVE_OK && Charge(outer, name, size))
      if (text.size() < kMaxMetadata)
        text.append(static_cast<const char*>(block), std::min(size, kMaxMetadata - text.size()));
    return text;
  }

  /// Reads the rest of the current member and throws it away. Skipping is decompressing: a
  /// member not unpacked (refused, metadata, a link with data) costs what an unpacked one does,
  /// so its bytes count against --max-unpacked and --max-ratio and a bomb stops there, whatever
  /// its name.
  void Skip(archive* a, archive* outer, const std::string& name) {
    const void* block;
    size_t size;
    la_int64_t offset;
    while (!stopped_ && archive_read_data_block(a, &block, &size, &offset) == ARCHIVE_OK &&
           Charge(outer, name, size)) {}
  }

  /// A member not unpacked; with `limit`, a cap that stops the package.
  void Refuse(const std::string& member, const std::string& reason, bool limit = false) {
    problems_->push_back({file_, member, limit, reason});
    if (limit) stopped_ = true;
  }
  /// The package cannot be read further (corrupt, truncated, the disk full): the rest stays out.
  void Stop(const std::string& member, const std::string& reason) {
    problems_->push_back({file_, member, false, reason});
    stopped_ = true;
  }

  static std::string ErrorOf(archive* a) {
    const char* e = archive_error_string(a);
    return e ? e : "truncated or corrupt";
  }

 private:
  void Member(archive* a, archive* outer, archive_entry* entry) {
    const char* raw = archive_entry_pathname(entry);
    std::string why, name = CleanName(raw ? raw : "", &why);
    if (name.empty()) {
      if (!why.empty()) Refuse(raw ? raw : "", why);
    } else {
      Place(a, outer, entry, name);
    }
    Skip(a, outer, name.empty() && raw ? raw : name);
  }

  // Writes the member `name` (a clean name), or refuses it.
  void Place(archive* a, archive* outer, archive_entry* entry, const std::string& name) {
    const mode_t type = archive_entry_filetype(entry);
    if (const char* hard = archive_entry_hardlink(entry)) {
      HardLink(name, hard);
    } else if (type == AE_IFDIR) {
      if (Parents(name, true)) MakeDirectory(name);
    } else if (type == AE_IFLNK) {
      SymLink(name, archive_entry_symlink(entry) ? archive_entry_symlink(entry) : "");
    } else if (type == AE_IFREG) {
      if (std::string kind = capture ? capture(name) : ""; !kind.empty())
        Capture(kind, Text(a, outer, name));
      else
        File(a, outer, name, archive_entry_perm(entry));
    } else {
      Refuse(name, type == AE_IFIFO    ? "a FIFO: not created"
                   : type == AE_IFSOCK ? "a socket: not created"
                                       : "a device node: not created");
    }
  }

  // Keeps the text of a metadata member, unless a cap cut it short and an earlier member of
  // its kind was read whole.
  void Capture(const std::string& kind, std::string text) {
    if (!stopped_ || !captured.contains(kind)) captured[kind] = std::move(text);
  }

  // Counts `size` more bytes of member `name` against the caps; false (the package
  // stopped) when they are past one.
  bool Charge(archive* outer, const std::string& name, size_t size) {
    budget_->bytes += size;
    if (budget_->bytes > budget_->limits.max_bytes) {
      Refuse(
          name,
          "unpacking would exceed " + std::to_string(budget_->limits.max_bytes) + " bytes (--max-unpacked)",
          true);
      return false;
    }
    const uint64_t compressed = std::max<uint64_t>(archive_filter_bytes(outer, -1), kRatioFloor);
    if (budget_->bytes > compressed * budget_->limits.max_ratio) {
      Refuse(name,
             "unpacks to more than " + std::to_string(budget_->limits.max_ratio) +
                 " times its compressed size (--max-ratio): a decompression bomb",
             true);
      return false;
    }
    return true;
  }

  std::string Host(const std::string& name) const { return into_ + "/" + name; }

  // Creates the parents of `name` (and `name` itself when `self`) as real directories;
  // refuses a member below anything else, a symlink above all: writing through it would
  // leave the directory.
  bool Parents(const std::string& name, bool self) {
    std::string path = into_;
    std::vector<std::string_view> parts = PathComponents(name);
    for (size_t i = 0; i + (self ? 0 : 1) < parts.size(); ++i) {
      path += "/" + std::string(parts[i]);
      struct stat st;
      if (lstat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) continue;
        Refuse(name, S_ISLNK(st.st_mode) ? "below a symbolic link of the package: not written through it"
                                         : "below a member that is not a directory");
        return false;
      }
      if (mkdir(path.c_str(), 0755) != 0) {
        Refuse(name, "cannot create " + std::string(parts[i]));
        return false;
      }
    }
    return true;
  }

  void MakeDirectory(const std::string& name) { chmod(Host(name).c_str(), 0755); }

  // A later member of the same name replaces an earlier file or link (never a directory).
  bool Free(const std::string& name) {
    struct stat st;
    if (lstat(Host(name).c_str(), &st) != 0) return true;
    if (S_ISDIR(st.st_mode)) {
      Refuse(name, "a directory of that name is already unpacked");
      return false;
    }
    return unlink(Host(name).c_str()) == 0;
  }

  /// Copies the data of the current member into `fd` within the caps; libarchive's last status.
  int CopyData(archive* a, archive* outer, const std::string& name, int fd) {
    const void* block;
    size_t size;
    la_int64_t offset;
    int r;
    while ((r = archive_read_data_block(a, &block, &size, &offset)) == ARCHIVE_OK) {
      if (!Charge(outer, name, size) || !Writable(name, offset, size)) break;
      if (pwrite(fd, block, size, offset) != ssize_t(size)) {
        const int error = errno;
        const std::string why = "cannot write " + std::to_string(size) + " bytes at offset " +
                                std::to_string(offset) + ": " + strerror(error);
        // A full disk stops the package; a file the file system cannot hold is this member's.
        if (error == EFBIG || error == EINVAL)
          Refuse(name, why);
        else
          Stop(name, why + (error == ENOSPC || error == EDQUOT ? " (disk full?)" : ""));
        break;
      }
    }
    return r;
  }

  // Whether a block of `size` bytes at `offset` may be written. A sparse member (GNU tar,
  // pax GNU.sparse) places its data at offsets of its own choosing: its size on disk is the
  // data's, but the file it makes is as long as its last block's end, which every reader of
  // the tree then reads through. That length is held to --max-unpacked, and the offset that
  // passes it is named.
  bool Writable(const std::string& name, la_int64_t offset, size_t size) {
    const uint64_t end = uint64_t(std::max<la_int64_t>(offset, 0)) + size;
    if (offset >= 0 && end <= budget_->limits.max_bytes && end >= size) return true;
    Refuse(name, "a sparse member with data at offset " + std::to_string(offset) +
                     ": it would make a file longer than " + std::to_string(budget_->limits.max_bytes) +
                     " bytes (--max-unpacked)");
    return false;
  }

  void File(archive* a, archive* outer, const std::string& name, mode_t perm) {
    if (!Parents(name, false) || !Free(name)) return;
    int fd = open(Host(name).c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
      Refuse(name, "cannot create it");
      return;
    }
    const size_t problems_before = problems_->size();
    const int r = CopyData(a, outer, name, fd);
    if (r < ARCHIVE_WARN && !stopped_) Refuse(name, "truncated or corrupt: " + ErrorOf(a));
    // Set-id and sticky bits are dropped; the owner can always read it.
    fchmod(fd, (perm & 0777) | 0600);
    close(fd);
    // A member cut short (truncated, or stopped at a cap) is not installed: its first bytes
    // alone would be audited as a file of their own ("neither ELF nor ...") beside the
    // finding that names the real reason.
    if (problems_->size() != problems_before) {
      unlink(Host(name).c_str());
      return;
    }
    members.push_back(name);
  }

  void SymLink(const std::string& name, const std::string& target) {
    if (!LinkStaysInside(name, target)) {
      Refuse(name, "a symbolic link out of the package (-> " + target + ")");
      return;
    }
    if (!Parents(name, false) || !Free(name)) return;
    if (symlink(target.c_str(), Host(name).c_str()) != 0) {
      Refuse(name, "cannot create the link");
      return;
    }
    members.push_back(name);
  }

  void HardLink(const std::string& name, const std::string& raw_target) {
    std::string why, target = CleanName(raw_target, &why);
    struct stat st;
    if (target.empty() || lstat(Host(target).c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
      Refuse(name, "a hard link to " + raw_target + ", which is not a file unpacked from the package");
      return;
    }
    if (!Parents(name, false) || !Free(name)) return;
    if (link(Host(target).c_str(), Host(name).c_str()) != 0) {
      Refuse(name, "cannot create the hard link");
      return;
    }
    members.push_back(name);
  }

  std::string file_, into_;
  UnpackBudget* budget_;
  std::vector<UnpackProblem>* problems_;
  bool stopped_ = false;
};

// The inner archive of a member (a .deb's data.tar.xz, a .conda's pkg-*.tar.zst), read as
// a stream from the outer one: never held in memory or written out whole. An xz member is
// decoded here, on several threads (XzStream); libarchive then reads a plain tar.
struct NestedStream {
  archive* outer;
  std::unique_ptr<XzStream> xz;
  unsigned char block[1 << 16];

  NestedStream(archive* outer, const std::string& member) : outer(outer) {
    if (member.ends_with(".xz"))
      xz = std::make_unique<XzStream>(
          [outer](unsigned char* buf, size_t size) { return long(archive_read_data(outer, buf, size)); },
          std::max(1u, std::thread::hardware_concurrency()));
  }

  static la_ssize_t Read(archive* a, void* self, const void** buf) {
    auto* s = static_cast<NestedStream*>(self);
    *buf = s->block;
    if (!s->xz) return archive_read_data(s->outer, s->block, sizeof s->block);
    long n = s->xz->Read(s->block, sizeof s->block);
    if (n < 0) archive_set_error(a, EIO, "%s", s->xz->error().c_str());
    return n;
  }
};

// Runs `inner` over the nested archive of the current member of `outer`.
bool OpenNested(archive* outer, const std::function<void(archive*)>& inner, Unpacker* u,
                const std::string& member) {
  NestedStream stream(outer, member);
  ArchivePtr a = NewReader();
  if (archive_read_open(a.get(), &stream, nullptr, NestedStream::Read, nullptr) != ARCHIVE_OK) {
    const char* why = archive_error_string(a.get());
    u->Refuse(member, std::string("the inner archive cannot be read: truncated or corrupt") +
                          (why ? " (" + std::string(why) + ")" : ""));
    return false;
  }
  inner(a.get());
  return true;
}

// The texts of the members named `wanted` inside the nested archive of the current member of
// `outer` (a .deb's control.tar.*, a .conda's info-*.tar.zst), each the last member of its
// name. Its members count against the package's caps as the data's do; the others are read
// through and charged too: skipping a member of a compressed tar decompresses it. A header
// that cannot be read ends the metadata, not the package.
std::map<std::string, std::string> NestedMemberTexts(archive* outer, const std::set<std::string>& wanted,
                                                     Unpacker* u, const std::string& member) {
  std::map<std::string, std::string> texts;
  OpenNested(
      outer,
      [&](archive* inner) {
        archive_entry* e;
        while (!u->stopped() && archive_read_next_header(inner, &e) == ARCHIVE_OK && u->Count()) {
          const std::string raw = archive_entry_pathname(e) ? archive_entry_pathname(e) : "";
          std::string why, name = CleanName(raw, &why);
          if (wanted.count(name) && archive_entry_filetype(e) == AE_IFREG)
            texts[name] = u->Text(inner, outer, member + ": " + raw);
          else
            u->Skip(inner, outer, member + ": " + raw);
        }
      },
      u, member);
  return texts;
}

std::string NestedMemberText(archive* outer, const std::string& wanted, Unpacker* u,
                             const std::string& member) {
  return NestedMemberTexts(outer, {wanted}, u, member)[wanted];
}

ArchivePtr OpenFile(const std::string& file, std::string* error) {
  ArchivePtr a = NewReader();
  if (archive_read_open_filename(a.get(), file.c_str(), 65536) != ARCHIVE_OK) {
    *error = Unpacker::ErrorOf(a.get());
    return ArchivePtr(nullptr, archive_read_free);
  }
  return a;
}

// The next member of a package's outer archive (the .deb's ar, the .conda's zip), false at
// its end. A header that cannot be read (a member claiming more bytes than the file has, a
// size field that is not a number) stops the package with libarchive's reason: the members
// after it are unknown, and "no data.tar member" would name a consequence, not the defect.
bool NextOuterMember(archive* a, Unpacker* u, archive_entry** entry) {
  if (u->stopped()) return false;
  const int r = archive_read_next_header(a, entry);
  if (r == ARCHIVE_EOF) return false;
  if (r < ARCHIVE_WARN) {
    u->Stop("", "the package archive cannot be read past its last member: " + Unpacker::ErrorOf(a));
    return false;
  }
  return true;
}

// .deb: control.tar.* gives the control file, data.tar.* the tree (deb(5)).
void UnpackDeb(archive* a, Unpacker* u, UnpackedPackage* out) {
  archive_entry* entry;
  bool data = false;
  while (NextOuterMember(a, u, &entry)) {
    std::string name = archive_entry_pathname(entry) ? archive_entry_pathname(entry) : "";
    if (name.starts_with("control.tar")) {
      ApplyDebControl(NestedMemberText(a, "control", u, name), out);
    } else if (name.starts_with("data.tar")) {
      data = true;
      OpenNested(a, [&](archive* inner) { u->Extract(inner, a); }, u, name);
    }
  }
  if (!data && !u->stopped()) u->Refuse("", "no data.tar member: not a complete Debian package");
}

// .conda (v2): a zip of metadata.json, info-*.tar.zst (index.json) and pkg-*.tar.zst.
void UnpackCondaV2(archive* a, Unpacker* u, UnpackedPackage* out) {
  archive_entry* entry;
  while (NextOuterMember(a, u, &entry)) {
    std::string name = archive_entry_pathname(entry) ? archive_entry_pathname(entry) : "";
    if (name.starts_with("pkg-") && name.find(".tar") != std::string::npos) {
      OpenNested(a, [&](archive* inner) { u->Extract(inner, a); }, u, name);
    } else if (name.starts_with("info-") && name.find(".tar") != std::string::npos) {
      ApplyCondaIndex(NestedMemberText(a, "info/index.json", u, name), out);
    }
  }
}

// Tarballs, zips, wheels, rpm payloads, conda v1: the tree itself, metadata captured.
void UnpackTree(archive* a, Unpacker* u, const std::string& into, UnpackedPackage* out) {
  u->capture = [](const std::string& name) -> std::string {
    if (name == "info/index.json") return name;
    if (name.ends_with(".dist-info/METADATA") && name.find('/') == name.rfind('/')) return "METADATA";
    return "";
  };
  u->Extract(a, a);
  if (auto it = u->captured.find("METADATA"); it != u->captured.end()) {
    if (out->format == PackageFormat::kZip) out->format = PackageFormat::kWheel;
    ApplyWheelMetadata(it->second, out);
  }
  if (auto it = u->captured.find("info/index.json"); it != u->captured.end()) {
    // conda v1: info/ describes the package and is not installed into the environment.
    out->format = PackageFormat::kConda;
    ApplyCondaIndex(it->second, out);
    RemoveTree(into + "/info");
    std::erase_if(u->members, [](const std::string& m) { return m.starts_with("info/"); });
  }
}

// What makes the package unreadable before libarchive reads it, or "": RPM headers that lie
// (libarchive's rpm reader skips them by their claimed sizes and finds no member past the
// end, an empty package), zip entries that overlap (libarchive's seekable reader keeps one).
std::string Unreadable(const std::string& file, PackageFormat format, const UnpackLimits& limits,
                       UnpackedPackage* out) {
  if (format == PackageFormat::kRpm) {
    std::string lie = ReadRpmHeader(file, out);
    return lie.empty() ? "" : "not a readable RPM: " + lie;
  }
  if (format == PackageFormat::kZip || format == PackageFormat::kWheel || format == PackageFormat::kConda)
    return ZipOverlaps(file, limits.max_members);
  return "";
}

}  // namespace

UnpackedPackage UnpackPackage(const std::string& file, PackageFormat format, const std::string& into,
                              UnpackBudget* budget, std::vector<UnpackProblem>* problems) {
  UnpackedPackage out;
  out.file = file;
  out.format = format;
  out.name = std::string(BaseName(file));
  Unpacker u(file, into, budget, problems);
  if (std::string why = Unreadable(file, format, budget->limits, &out); !why.empty()) {
    u.Refuse("", why);
    return out;
  }
  std::string error;
  ArchivePtr a = OpenFile(file, &error);
  if (!a) {
    u.Refuse("", "cannot open the package: " + error);
    return out;
  }
  if (format == PackageFormat::kDeb)
    UnpackDeb(a.get(), &u, &out);
  else if (format == PackageFormat::kConda && file.ends_with(".conda"))
    UnpackCondaV2(a.get(), &u, &out);
  else
    UnpackTree(a.get(), &u, into, &out);
  out.members = std::move(u.members);
  return out;
}

bool ReadDebControlRecords(const std::string& file, const UnpackLimits& limits, DebControlRecords* out,
                           std::string* error) {
  if (DetectPackageFile(file) != PackageFormat::kDeb) {
    *error = file + ": not a Debian package";
    return false;
  }
  ArchivePtr a = OpenFile(file, error);
  if (!a) return false;
  UnpackBudget budget{limits};
  std::vector<UnpackProblem> problems;
  Unpacker u(file, "", &budget, &problems);
  archive_entry* entry;
  while (NextOuterMember(a.get(), &u, &entry)) {
    const std::string name = archive_entry_pathname(entry) ? archive_entry_pathname(entry) : "";
    if (name.starts_with("data.tar")) break;
    if (!name.starts_with("control.tar")) continue;
    std::map<std::string, std::string> texts =
        NestedMemberTexts(a.get(), {"control", "symbols", "shlibs"}, &u, name);
    if (u.stopped()) break;
    UnpackedPackage p;
    ApplyDebControl(texts["control"], &p);
    *out = {p.name, p.version, p.architecture, std::move(texts["symbols"]), std::move(texts["shlibs"])};
    return true;
  }
  *error = file + ": " + (problems.empty() ? "no control.tar member before data.tar" : problems[0].reason);
  return false;
}

}  // namespace rocm_audit
