#include "audit/unpack/package_database.h"

#include <sys/stat.h>

#include "audit/fs/open_file.h"
#include "audit/fs/path.h"
#include "audit/fs/rooted_fs.h"

namespace rocm_audit {
namespace {

// A database file larger than this is no package manager's: the biggest dpkg .list of
// Debian 12 (a TeX Live package) is about 10 MB.
constexpr size_t kMaxDatabaseFile = 256 << 20;

// The file's text, or "" when it is not a regular file of at most kMaxDatabaseFile bytes.
// Never blocks: a FIFO or device where a database file should be is refused unopened, and a
// symbolic link is not followed (a package manager writes its database files itself).
std::string ReadDatabaseFile(const std::string& path) {
  return ReadRegularFile(path, kMaxDatabaseFile, PastCap::kRefused, Links::kRefuse).text.value_or("");
}

template <class Fn>
void ForEachLine(std::string_view text, Fn fn) {
  while (!text.empty()) {
    size_t end = text.find('\n');
    fn(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
}

// One path a database lists, if it names no directory of the system (other packages
// install below those, so installing never removes them).
void AddOwned(const std::string& root, std::string_view listed, std::unordered_set<std::string>* out) {
  if (listed.empty() || listed[0] != '/') return;
  std::string path = NormalizePath(std::string(listed));
  struct stat st;
  if (lstat((root + path).c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return;
  out->insert(std::move(path));
}

// dpkg: var/lib/dpkg/info/NAME.list, or NAME:ARCH.list for a Multi-Arch: same package; one
// absolute path a line.
void AddDpkg(const std::string& root, const PackageName& p, std::unordered_set<std::string>* out) {
  const std::string info = root + "/var/lib/dpkg/info/";
  std::vector<std::string> lists;
  if (!p.architecture.empty() && p.architecture.find('/') == std::string::npos)
    lists.push_back(info + p.name + ":" + p.architecture + ".list");
  else
    for (const std::string& l : RootedFs().Glob(info + p.name + ":*.list")) lists.push_back(l);
  lists.push_back(info + p.name + ".list");
  for (const std::string& l : lists)
    ForEachLine(ReadDatabaseFile(l), [&](std::string_view line) { AddOwned(root, line, out); });
}

// The lines of a pacman database file's section ("%NAME%", "%FILES%"), up to its blank line.
std::vector<std::string_view> PacmanSection(std::string_view text, std::string_view header) {
  std::vector<std::string_view> lines;
  bool in = false;
  ForEachLine(text, [&](std::string_view line) {
    if (in && line.empty()) in = false;
    if (in) lines.push_back(line);
    if (line == header) in = true;
  });
  return lines;
}

// pacman: var/lib/pacman/local/NAME-VERSION-RELEASE/, whose desc names the package under
// %NAME% and whose files lists its paths under %FILES%, relative to the root (directories
// end in '/').
void AddPacman(const std::string& root, const PackageName& p, std::unordered_set<std::string>* out) {
  for (const std::string& dir : RootedFs().Glob(root + "/var/lib/pacman/local/" + p.name + "-*")) {
    std::string desc = ReadDatabaseFile(dir + "/desc");
    std::vector<std::string_view> name = PacmanSection(desc, "%NAME%");
    if (name.size() != 1 || name[0] != p.name) continue;  // another package's prefix
    std::string files = ReadDatabaseFile(dir + "/files");
    for (std::string_view line : PacmanSection(files, "%FILES%"))
      if (!line.empty() && line.back() != '/') AddOwned(root, "/" + std::string(line), out);
  }
}

// The path of a Portage CONTENTS line: "obj PATH MD5 MTIME", "sym PATH -> TARGET MTIME",
// "fif PATH", "dev PATH" ("dir PATH" lines are directories). A path may hold spaces, so it
// ends where the fields after it begin.
std::string_view PortagePath(std::string_view line) {
  auto cut_last = [](std::string_view s, int fields) {
    for (int i = 0; i < fields; ++i) {
      size_t space = s.rfind(' ');
      if (space == std::string_view::npos) return std::string_view();
      s = s.substr(0, space);
    }
    return s;
  };
  if (line.size() < 5 || line[3] != ' ') return {};
  std::string_view kind = line.substr(0, 3), rest = line.substr(4);
  if (kind == "obj") return cut_last(rest, 2);
  if (kind == "sym") return rest.substr(0, rest.find(" -> "));
  if (kind == "fif" || kind == "dev") return rest;
  return {};
}

// Portage: var/db/pkg/CATEGORY/NAME-VERSION/CONTENTS. PACKAGE is NAME or CATEGORY/NAME; a
// directory is NAME's when what follows "NAME-" is a version (it starts with a digit).
void AddPortage(const std::string& root, const PackageName& p, std::unordered_set<std::string>* out) {
  size_t slash = p.name.find('/');
  const std::string category = slash == std::string::npos ? "*" : p.name.substr(0, slash);
  const std::string name = slash == std::string::npos ? p.name : p.name.substr(slash + 1);
  if (name.empty() || name.find('/') != std::string::npos || category.starts_with('.')) return;
  for (const std::string& dir : RootedFs().Glob(root + "/var/db/pkg/" + category + "/" + name + "-*")) {
    std::string_view version = std::string_view(dir).substr(dir.rfind('/') + 1 + name.size() + 1);
    if (version.empty() || version[0] < '0' || version[0] > '9') continue;  // another package's prefix
    ForEachLine(ReadDatabaseFile(dir + "/CONTENTS"),
                [&](std::string_view line) { AddOwned(root, PortagePath(line), out); });
  }
}

}  // namespace

std::unordered_set<std::string> InstalledFilesOf(const std::string& root,
                                                 const std::vector<PackageName>& packages) {
  std::unordered_set<std::string> out;
  std::string base = root == "/" ? std::string() : root;
  while (!base.empty() && base.back() == '/') base.pop_back();
  for (const PackageName& p : packages) {
    // No package manager allows glob characters in a name; a name with one is none.
    if (p.name.empty() || p.name[0] == '.' || p.name.find_first_of("*?[\\") != std::string::npos) continue;
    // Names from a package's control file or the command line, never a path: only
    // Portage's CATEGORY/NAME has a '/'.
    if (p.name.find('/') == std::string::npos) {
      AddDpkg(base, p, &out);
      AddPacman(base, p, &out);
    }
    AddPortage(base, p, &out);
  }
  return out;
}

}  // namespace rocm_audit
