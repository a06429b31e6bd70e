#include "audit/cmake/cmake_modules.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace rocm_audit {
namespace {

// The tool's own CMake root, or another version's (/usr/share/cmake-<version>).
bool IsCMakeRoot(std::string_view root) {
  return root == kCMakeRoot || root.substr(root.rfind('/') + 1).starts_with("cmake-");
}

// Generated at configure time: the sorted names of ${CMAKE_ROOT}/Modules/*.cmake.
constexpr std::string_view kModules[] = {
#include "cmake_module_names.inc"
};

// Generated at configure time: cmake --help-command-list and the functions and macros of
// ${CMAKE_ROOT}/Modules, lower-case, sorted.
constexpr std::string_view kCommands[] = {
#include "cmake_command_names.inc"
};

// Generated at configure time: {command, module} for each module command (IsModuleCommand)
// and each module that defines it, sorted; {module, module it includes}, sorted. A module in
// Internal/ is named with that directory.
struct Pair {
  std::string_view first, second;
  friend constexpr bool operator<(const Pair& a, const Pair& b) {
    return a.first < b.first || (a.first == b.first && a.second < b.second);
  }
};
constexpr Pair kModuleCommands[] = {
#include "cmake_module_commands.inc"
};
constexpr Pair kModuleIncludes[] = {
#include "cmake_module_includes.inc"
};
static_assert(std::is_sorted(std::begin(kModuleCommands), std::end(kModuleCommands)));
static_assert(std::is_sorted(std::begin(kModuleIncludes), std::end(kModuleIncludes)));

// The pairs whose first is `first`.
std::pair<const Pair*, const Pair*> PairsOf(const Pair* begin, const Pair* end, std::string_view first) {
  return std::equal_range(begin, end, Pair{first, {}},
                          [](const Pair& a, const Pair& b) { return a.first < b.first; });
}

}  // namespace

bool IsModuleCommand(std::string_view name) {
  auto [from, to] = PairsOf(std::begin(kModuleCommands), std::end(kModuleCommands), name);
  return from != to;
}

std::string_view ModuleOfCommand(std::string_view command) {
  auto [from, to] = PairsOf(std::begin(kModuleCommands), std::end(kModuleCommands), command);
  for (const Pair* p = from; p != to; ++p)
    if (!p->second.starts_with("Internal/")) return p->second;
  return from != to ? from->second : std::string_view{};
}

bool ModuleDefines(std::string_view module, std::string_view command) {
  // A walk of the include graph from `module`; CMake's modules include a few others each.
  std::vector<std::string_view> todo{module}, seen;
  while (!todo.empty()) {
    const std::string_view m = todo.back();
    todo.pop_back();
    if (std::find(seen.begin(), seen.end(), m) != seen.end()) continue;
    seen.push_back(m);
    if (std::binary_search(std::begin(kModuleCommands), std::end(kModuleCommands), Pair{command, m}))
      return true;
    auto [from, to] = PairsOf(std::begin(kModuleIncludes), std::end(kModuleIncludes), m);
    for (const Pair* p = from; p != to; ++p) todo.push_back(p->second);
  }
  return false;
}

bool AnyModuleDefines(const std::vector<std::string>& modules, std::string_view command) {
  return std::any_of(modules.begin(), modules.end(),
                     [&](const std::string& m) { return ModuleDefines(m, command); });
}

bool IsCMakeCommand(std::string_view name) {
  return std::binary_search(std::begin(kCommands), std::end(kCommands), name);
}

bool IsCMakeModule(std::string_view name) {
  return std::binary_search(std::begin(kModules), std::end(kModules), name);
}

std::string_view CMakeModuleOfFile(std::string_view path) {
  constexpr std::string_view kSuffix = ".cmake";
  const size_t slash = path.rfind('/');
  if (slash == std::string_view::npos || !path.ends_with(kSuffix)) return {};
  const std::string_view dir = path.substr(0, slash);
  const std::string_view name = path.substr(slash + 1, path.size() - slash - 1 - kSuffix.size());
  if (!dir.ends_with("/Modules")) return {};
  if (!IsCMakeRoot(dir.substr(0, dir.size() - 8)) || !IsCMakeModule(name)) return {};
  return name;
}

bool InCMakeModuleDirectory(std::string_view path) {
  const size_t at = path.find("/Modules/");
  if (at == std::string_view::npos) return false;
  return IsCMakeRoot(path.substr(0, at));
}

const std::vector<std::string_view>* FindModuleTargets(std::string_view package) {
  static const std::map<std::string_view, std::vector<std::string_view>> kTargets = {
      {"BLAS", {"BLAS::BLAS"}},
      {"BZip2", {"BZip2::BZip2"}},
      {"CURL", {"CURL::libcurl"}},
      {"Cups", {"Cups::Cups"}},
      {"DevIL", {"DevIL::IL", "DevIL::ILU", "DevIL::ILUT"}},
      {"EXPAT", {"EXPAT::EXPAT"}},
      {"Fontconfig", {"Fontconfig::Fontconfig"}},
      {"Freetype", {"Freetype::Freetype"}},
      {"GDAL", {"GDAL::GDAL"}},
      {"GIF", {"GIF::GIF"}},
      {"GLEW", {"GLEW::GLEW", "GLEW::glew", "GLEW::glew_s"}},
      {"GLUT", {"GLUT::GLUT"}},
      {"GSL", {"GSL::gsl", "GSL::gslcblas"}},
      {"GTest",
       {"GTest::gtest", "GTest::gtest_main", "GTest::GTest", "GTest::Main", "GTest::gmock",
        "GTest::gmock_main"}},
      {"GnuTLS", {"GnuTLS::GnuTLS"}},
      {"Iconv", {"Iconv::Iconv"}},
      {"Intl", {"Intl::Intl"}},
      {"JPEG", {"JPEG::JPEG"}},
      {"LAPACK", {"LAPACK::LAPACK"}},
      {"LibArchive", {"LibArchive::LibArchive"}},
      {"LibLZMA", {"LibLZMA::LibLZMA"}},
      {"LibXml2", {"LibXml2::LibXml2", "LibXml2::xmllint"}},
      {"LibXslt", {"LibXslt::LibXslt", "LibXslt::LibExslt", "LibXslt::xsltproc"}},
      {"MPI", {"MPI::MPI_C", "MPI::MPI_CXX", "MPI::MPI_Fortran"}},
      {"ODBC", {"ODBC::ODBC"}},
      {"OpenAL", {"OpenAL::OpenAL"}},
      {"OpenCL", {"OpenCL::OpenCL"}},
      {"OpenGL",
       {"OpenGL::GL", "OpenGL::GLU", "OpenGL::OpenGL", "OpenGL::GLX", "OpenGL::EGL", "OpenGL::GLES2",
        "OpenGL::GLES3"}},
      {"OpenMP", {"OpenMP::OpenMP_C", "OpenMP::OpenMP_CXX", "OpenMP::OpenMP_Fortran"}},
      {"OpenSSL", {"OpenSSL::SSL", "OpenSSL::Crypto", "OpenSSL::applink"}},
      {"PNG", {"PNG::PNG"}},
      // Its pkg_check_modules(IMPORTED_TARGET) defines PkgConfig::<prefix> where it is called.
      {"PkgConfig", {}},
      {"PostgreSQL", {"PostgreSQL::PostgreSQL"}},
      {"Protobuf",
       {"protobuf::libprotobuf", "protobuf::libprotobuf-lite", "protobuf::libprotoc", "protobuf::protoc"}},
      {"SQLite3", {"SQLite::SQLite3"}},
      {"TIFF", {"TIFF::TIFF", "TIFF::CXX"}},
      {"Threads", {"Threads::Threads"}},
      {"XercesC", {"XercesC::XercesC"}},
      {"ZLIB", {"ZLIB::ZLIB"}},
  };
  auto it = kTargets.find(package);
  return it == kTargets.end() ? nullptr : &it->second;
}

std::string_view FindModuleTargetLanguage(std::string_view package, std::string_view target) {
  for (std::string_view prefix : {"MPI::MPI_", "OpenMP::OpenMP_"})
    if (prefix.starts_with(package) && prefix[package.size()] == ':' && target.starts_with(prefix))
      return target.substr(prefix.size());
  return {};
}

bool HasFindModule(std::string_view package) {
  std::string name = "Find";
  name += package;
  return IsCMakeModule(name);
}

}  // namespace rocm_audit
