#include "audit/unpack/installed_files.h"

#include <sys/stat.h>

#include <fstream>

#include "audit/fs/path.h"
#include "audit/fs/rooted_fs.h"

namespace rocm_audit {
namespace {

// A .list file is dpkg's own, one absolute path a line; a line that is not one is skipped.
// Directories stay: other packages install below them.
void AddListed(const std::string& root, const std::string& list, std::unordered_set<std::string>* out) {
  std::ifstream in(list);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] != '/') continue;
    std::string path = NormalizePath(line);
    struct stat st;
    if (lstat((root + path).c_str(), &st) == 0 && S_ISDIR(st.st_mode)) continue;
    out->insert(std::move(path));
  }
}

}  // namespace

std::unordered_set<std::string> InstalledFilesOf(const std::string& root,
                                                 const std::vector<PackageName>& packages) {
  std::unordered_set<std::string> out;
  std::string base = root == "/" ? std::string() : root;
  while (!base.empty() && base.back() == '/') base.pop_back();
  const std::string info = base + "/var/lib/dpkg/info/";
  for (const PackageName& p : packages) {
    // Names from a package's control file, never a path: anything else is no dpkg name.
    if (p.name.empty() || p.name.find('/') != std::string::npos || p.name[0] == '.') continue;
    std::vector<std::string> lists;
    if (!p.architecture.empty() && p.architecture.find('/') == std::string::npos)
      lists.push_back(info + p.name + ":" + p.architecture + ".list");
    else
      for (const std::string& l : RootedFs().Glob(info + p.name + ":*.list")) lists.push_back(l);
    lists.push_back(info + p.name + ".list");
    for (const std::string& l : lists) AddListed(base, l, &out);
  }
  return out;
}

}  // namespace rocm_audit
