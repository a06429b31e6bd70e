#include "audit/unpack/merge_tree.h"

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

#include <algorithm>

namespace rocm_audit {
namespace {

struct Mover {
  const std::string& from;
  const std::string& into;
  const std::string& package;
  std::vector<UnpackProblem>* problems;

  void Refuse(const std::string& name, const char* reason) {
    problems->push_back({package, name, false, reason});
  }

  // `rel` is "" or "a/b": a directory of both trees.
  void Move(const std::string& rel) {
    std::vector<std::string> names;
    if (DIR* d = opendir((from + "/" + rel).c_str())) {
      while (dirent* e = readdir(d))
        if (std::string n = e->d_name; n != "." && n != "..") names.push_back(std::move(n));
      closedir(d);
    }
    std::sort(names.begin(), names.end());
    for (const std::string& n : names) {
      const std::string name = rel.empty() ? n : rel + "/" + n;
      const std::string src = from + "/" + name, dst = into + "/" + name;
      struct stat s, t;
      if (lstat(src.c_str(), &s) != 0) continue;
      const bool src_dir = S_ISDIR(s.st_mode);
      if (lstat(dst.c_str(), &t) != 0) {
        if (rename(src.c_str(), dst.c_str()) != 0) Refuse(name, "cannot move it into the set's tree");
      } else if (S_ISDIR(t.st_mode) && src_dir) {
        Move(name);
      } else if (S_ISDIR(t.st_mode)) {
        Refuse(name, "a directory of that name is already unpacked");
      } else if (src_dir) {
        Refuse(name, S_ISLNK(t.st_mode) ? "below a symbolic link of the package: not written through it"
                                        : "below a member that is not a directory");
      } else if (rename(src.c_str(), dst.c_str()) != 0) {
        Refuse(name, "cannot move it into the set's tree");
      }
    }
  }
};

}  // namespace

void MoveTreeInto(const std::string& from, const std::string& into, const std::string& package,
                  std::vector<UnpackProblem>* problems) {
  Mover{from, into, package, problems}.Move("");
}

}  // namespace rocm_audit
