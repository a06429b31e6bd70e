#include "audit/cmake/linker_search.h"

#include "audit/cmake/package_config.h"

namespace rocm_audit {

std::string LinkedLibraryName(const std::string& item) {
  std::string name = item.starts_with("-l") ? item.substr(2) : item;
  if (name.empty() || name[0] == '-' || name.find_first_of("/$`<>:\\ ") != std::string::npos) return "";
  // lib<name>.so, lib<name>.a, <name>.so.1: CMake takes a library file name apart or links
  // it by its path; only a bare name is searched as -l<name> here.
  if (!item.starts_with("-l") && (name.find(".so") != std::string::npos || name.ends_with(".a"))) return "";
  return name;
}

std::vector<std::string> LinkerDefaultDirectories(const InstalledFiles& files) {
  const std::string arch(kLibraryArchitecture);
  std::vector<std::string> dirs;
  for (const std::string& gcc : files.Glob("/usr/lib/gcc/" + arch + "/*")) dirs.push_back(gcc);
  for (const std::string& d : std::vector<std::string>{
           "/lib/" + arch, "/lib64", "/usr/lib/" + arch, "/usr/lib64", "/usr/lib", "/usr/local/lib/" + arch,
           "/usr/local/lib64", "/usr/local/lib", "/lib", "/usr/" + arch + "/lib64", "/usr/" + arch + "/lib"})
    dirs.push_back(d);
  return dirs;
}

std::string FindLinkedLibrary(const std::string& name, const std::vector<std::string>& dirs,
                              const InstalledFiles& files) {
  for (const std::string& dir : dirs)
    for (const char* suffix : {".so", ".a"})
      if (std::string file = dir + "/lib" + name + suffix; files.Exists(file) == Tri::kTrue) return file;
  return "";
}

}  // namespace rocm_audit
