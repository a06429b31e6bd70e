#include "audit/model/file_paths.h"

#include <vector>

namespace rocm_audit {
namespace {

using Visit = std::function<void(std::string& path)>;

void Path(std::string& path, const Visit& visit) {
  if (!path.empty()) visit(path);
}

void Paths(std::vector<std::string>& paths, const Visit& visit) {
  for (std::string& p : paths) Path(p, visit);
}

void CMakePaths(CMakePackageFacts& c, const Visit& visit) {
  Paths(c.includes, visit);
  for (CMakeTargetFacts& t : c.targets) {
    Paths(t.locations, visit);
    Paths(t.include_dirs, visit);
  }
  for (CMakeDependencyFacts& d : c.dependencies) {
    Path(d.found, visit);
    Path(d.via, visit);
  }
  for (CMakeMissingFacts& m : c.missing) {
    Path(m.path, visit);
    Path(m.file, visit);  // m.via is the property or command that names it
  }
}

}  // namespace

void ForEachPath(FileFacts& f, const Visit& visit) {
  Path(f.path, visit);
  if (f.closure) {
    Paths(f.closure->objects, visit);
    for (ClosureNode& n : f.closure->nodes) Path(n.path, visit);
  }
  if (f.device_stack) Paths(f.device_stack->libraries, visit);
  if (f.plugin) Path(f.plugin->host_path, visit);
  if (f.arch_data) Path(f.arch_data->dir, visit);
  if (f.cmake) CMakePaths(*f.cmake, visit);
}

}  // namespace rocm_audit
