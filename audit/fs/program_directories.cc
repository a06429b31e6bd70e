#include "audit/fs/program_directories.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <string_view>
#include <unordered_set>

namespace rocm_audit {
namespace {

// Where programs and the libraries they load are installed (FHS, and /opt for vendor
// trees such as /opt/rocm).
constexpr const char* kProgramDirs[] = {"usr/bin",     "usr/sbin",  "usr/lib", "usr/lib64",
                                        "usr/libexec", "usr/local", "opt",     "bin",
                                        "sbin",        "lib",       "lib64"};
constexpr std::string_view kDebugDir = "/usr/lib/debug";

// The directories below `host` (at `installed` on the installed system), depth first, each
// with its regular files. The type comes from readdir's d_type, not a stat per entry: this
// walk meets every file of the program and library directories (82,000 on a Debian with
// 1,200 -dev packages); fstatat is asked only where the filesystem leaves it unknown.
// Symbolic links are not followed.
void AddDirectories(const std::string& host, const std::string& installed,
                    std::vector<ProgramDirectory>* out) {
  DIR* dir = opendir(host.c_str());
  if (!dir) return;
  ProgramDirectory here{installed, host, {}};
  std::vector<std::string> subdirs;
  while (const dirent* e = readdir(dir)) {
    const std::string_view name = e->d_name;
    if (name == "." || name == "..") continue;
    unsigned char type = e->d_type;
    if (type == DT_UNKNOWN) {
      struct stat st;
      if (fstatat(dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
      type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
    }
    if (type == DT_DIR && installed + "/" + std::string(name) != kDebugDir)
      subdirs.emplace_back(name);
    else if (type == DT_REG)
      here.files.emplace_back(name);
  }
  closedir(dir);
  if (!here.files.empty()) out->push_back(std::move(here));
  for (const std::string& sub : subdirs) AddDirectories(host + "/" + sub, installed + "/" + sub, out);
}

}  // namespace

std::vector<ProgramDirectory> ListProgramDirectories(const std::vector<std::string>& layers) {
  std::vector<ProgramDirectory> out;
  std::unordered_set<std::string> above;  // installed paths of the layers above this one
  for (const std::string& layer : layers) {
    const std::string root = layer == "/" ? "" : layer;
    const size_t first = out.size();
    for (const char* dir : kProgramDirs) {
      struct stat st;
      const std::string top = root + "/" + dir;
      if (lstat(top.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
      AddDirectories(top, "/" + std::string(dir), &out);
    }
    if (layers.size() == 1) break;
    for (size_t i = first; i < out.size(); ++i)
      std::erase_if(out[i].files,
                    [&](const std::string& name) { return above.count(out[i].installed + "/" + name) > 0; });
    for (size_t i = first; i < out.size(); ++i)
      for (const std::string& name : out[i].files) above.insert(out[i].installed + "/" + name);
  }
  return out;
}

}  // namespace rocm_audit
