// get_filename_component, cmake_path, file(GLOB|REAL_PATH|...), include(): the commands
// that compute or look up paths. Lookups go through InstalledFiles; file() operations
// that would write are recorded and never run.
#include <filesystem>

#include "audit/cmake/cmake_modules.h"
#include "audit/cmake/evaluator.h"
#include "audit/cmake/lists.h"
#include "audit/fs/path.h"

namespace rocm_audit {
namespace {

// CMake's GetFilenamePath: everything before the last '/', "/" for a top-level name.
std::string FilenamePath(const std::string& p) {
  size_t slash = p.rfind('/');
  if (slash == 0) return "/";
  return slash == std::string::npos ? "" : p.substr(0, slash);
}

std::string FilenameName(const std::string& p) {
  size_t slash = p.rfind('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

// "/a/b/../c/" -> "/a/c": CMake collapses absolute paths lexically.
std::string Collapse(const std::string& p) {
  std::string n = NormalizePath(p);
  return n.empty() ? "/" : n;
}

}  // namespace

bool CMakeEvaluator::Paths(const std::string& n, const std::vector<Arg>& a) {
  if (n == "get_filename_component") {
    if (a.size() < 3) return true;
    const std::string& var = a[0].value.text;
    const CMakeValue& in = a[1].value;
    const std::string& mode = a[2].value.text;
    if (!in.known) return Set(var, in), true;
    std::string p = in.text, out;
    if (mode == "DIRECTORY" || mode == "PATH") {
      out = FilenamePath(p);
    } else if (mode == "NAME") {
      out = FilenameName(p);
    } else if (mode == "EXT" || mode == "NAME_WE" || mode == "LAST_EXT" || mode == "NAME_WLE") {
      std::string name = FilenameName(p);
      size_t dot = mode == "EXT" || mode == "NAME_WE" ? name.find('.') : name.rfind('.');
      bool ext = mode == "EXT" || mode == "LAST_EXT";
      out = dot == std::string::npos ? (ext ? "" : name) : (ext ? name.substr(dot) : name.substr(0, dot));
    } else if (mode == "ABSOLUTE" || mode == "REALPATH") {
      std::string base;
      for (size_t k = 3; k + 1 < a.size(); ++k)
        if (a[k].value.text == "BASE_DIR") base = a[k + 1].value.text;
      if (p.empty() || p[0] != '/') {
        if (base.empty())
          return Set(var, CMakeValue::Unknown("a path relative to the consumer's source directory")), true;
        p = base + "/" + p;
      }
      out = Collapse(p);
      if (mode == "REALPATH")
        if (auto real = files_.RealPath(out)) out = *real;
    } else if (mode == "PROGRAM") {
      return Set(var, UnknownResult("get_filename_component(PROGRAM)")), true;
    } else {
      return false;
    }
    Set(var, {out});
    return true;
  }
  if (n == "cmake_path") {
    CMakePathCommand(a);
    return true;
  }
  if (n == "file") {
    FileCommand(a);
    return true;
  }
  return false;
}

void CMakeEvaluator::CMakePathCommand(const std::vector<Arg>& a) {
  if (a.size() < 2) return;
  const std::string& op = a[0].value.text;
  const std::string& var = a[1].value.text;
  const CMakeValue* cur = Get(var);
  CMakeValue value = cur ? *cur : CMakeValue{};
  std::string output = var;
  for (size_t k = 2; k + 1 < a.size(); ++k)
    if (a[k].value.text == "OUTPUT_VARIABLE") output = a[k + 1].value.text;
  namespace fs = std::filesystem;
  if (op == "SET" && a.size() >= 3) {
    bool normalize = a[2].value.text == "NORMALIZE";
    const CMakeValue& in = a[normalize && a.size() > 3 ? 3 : 2].value;
    if (!in.known) return Set(var, in);
    Set(var, {normalize ? fs::path(in.text).lexically_normal().generic_string() : in.text});
    return;
  }
  if (!value.known) {
    Set(op == "GET" && a.size() >= 4 ? a.back().value.text : output, value);
    return;
  }
  fs::path p(value.text);
  if (op == "GET" && a.size() >= 4) {
    const std::string& part = a[2].value.text;
    bool last_only = a.size() >= 5 && a[3].value.text == "LAST_ONLY";
    std::string out;
    if (part == "PARENT_PATH")
      out = p.parent_path().generic_string();
    else if (part == "FILENAME")
      out = p.filename().generic_string();
    else if (part == "ROOT_PATH" || part == "ROOT_DIRECTORY")
      out = p.root_directory().generic_string();
    else if (part == "ROOT_NAME")
      out = "";
    else if (part == "RELATIVE_PART")
      out = p.relative_path().generic_string();
    else if (part == "EXTENSION" || part == "STEM") {
      std::string name = p.filename().generic_string();
      size_t dot = last_only ? name.rfind('.') : name.find('.', name.starts_with(".") ? 1 : 0);
      if (dot == 0) dot = std::string::npos;
      out = part == "EXTENSION" ? (dot == std::string::npos ? "" : name.substr(dot))
                                : (dot == std::string::npos ? name : name.substr(0, dot));
    } else {
      return Skip("cmake_path", "cmake_path(GET " + part + ") is not evaluated");
    }
    Set(a.back().value.text, {out});
    return;
  }
  if (op == "APPEND") {
    for (size_t k = 2; k < a.size(); ++k) {
      if (a[k].value.text == "OUTPUT_VARIABLE") break;
      if (!a[k].value.known) return Set(output, a[k].value);
      p /= a[k].value.text;
    }
    Set(output, {p.generic_string()});
    return;
  }
  if (op == "NORMAL_PATH") {
    Set(output, {p.lexically_normal().generic_string()});
    return;
  }
  if (op == "ABSOLUTE_PATH") {
    std::string base;
    for (size_t k = 2; k + 1 < a.size(); ++k)
      if (a[k].value.text == "BASE_DIRECTORY") base = a[k + 1].value.text;
    if (!p.is_absolute() && base.empty())
      return Set(output, CMakeValue::Unknown("a path relative to the consumer's source directory"));
    fs::path abs = p.is_absolute() ? p : fs::path(base) / p;
    bool normalize = false;
    for (const Arg& x : a) normalize |= x.value.text == "NORMALIZE";
    Set(output, {normalize ? abs.lexically_normal().generic_string() : abs.generic_string()});
    return;
  }
  if (op == "IS_ABSOLUTE" && a.size() >= 3) {
    Set(a[2].value.text, {p.is_absolute() ? "ON" : "OFF"});
    return;
  }
  Skip("cmake_path", "cmake_path(" + op + ") is not evaluated");
}

void CMakeEvaluator::FileCommand(const std::vector<Arg>& a) {
  if (a.empty()) return;
  const std::string& op = a[0].value.text;
  if ((op == "GLOB" || op == "GLOB_RECURSE") && a.size() >= 2) {
    const std::string& var = a[1].value.text;
    std::string relative;
    std::vector<std::string> found;
    for (size_t k = 2; k < a.size(); ++k) {
      const std::string& t = a[k].value.text;
      if (!a[k].quoted && (t == "LIST_DIRECTORIES" || t == "RELATIVE")) {
        if (t == "RELATIVE" && k + 1 < a.size()) relative = a[k + 1].value.text;
        ++k;
        continue;
      }
      if (!a[k].quoted && (t == "CONFIGURE_DEPENDS" || t == "FOLLOW_SYMLINKS")) continue;
      if (!a[k].value.known) return Set(var, a[k].value);
      if (t.empty() || t[0] != '/')
        return Set(var, CMakeValue::Unknown("a glob relative to the consumer's source directory"));
      if (op == "GLOB_RECURSE")
        return Set(var, CMakeValue::Unknown("file(GLOB_RECURSE), which rocm-audit does not evaluate"));
      for (std::string& f : files_.Glob(t)) found.push_back(std::move(f));
    }
    std::sort(found.begin(), found.end());
    if (!relative.empty())
      for (std::string& f : found)
        if (IsUnderDirectory(f, relative)) f = f.substr(std::min(f.size(), relative.size() + 1));
    Set(var, {JoinList(found)});
    return;
  }
  if ((op == "TO_CMAKE_PATH" || op == "TO_NATIVE_PATH") && a.size() >= 3) {
    Set(a[2].value.text, a[1].value);
    return;
  }
  if (op == "REAL_PATH" && a.size() >= 3) {
    if (!a[1].value.known) return Set(a[2].value.text, a[1].value);
    std::string p = a[1].value.text;
    if (p.empty() || p[0] != '/') {
      std::string base;
      for (size_t k = 3; k + 1 < a.size(); ++k)
        if (a[k].value.text == "BASE_DIRECTORY") base = a[k + 1].value.text;
      if (base.empty())
        return Set(a[2].value.text,
                   CMakeValue::Unknown("a path relative to the consumer's source directory"));
      p = base + "/" + p;
    }
    auto real = files_.RealPath(Collapse(p));
    Set(a[2].value.text, {real ? *real : Collapse(p)});
    return;
  }
  if (op == "RELATIVE_PATH" && a.size() >= 4) {
    if (!a[2].value.known || !a[3].value.known)
      return Set(a[1].value.text, !a[2].value.known ? a[2].value : a[3].value);
    Set(a[1].value.text,
        {std::filesystem::path(a[3].value.text).lexically_relative(a[2].value.text).generic_string()});
    return;
  }
  if ((op == "READ" || op == "STRINGS" || op == "SIZE" || op == "TIMESTAMP" || op == "MD5" || op == "SHA1" ||
       op == "SHA256" || op == "SHA512" || op == "READ_SYMLINK") &&
      a.size() >= 3) {
    Set(a[2].value.text, CMakeValue::Unknown("file(" + op + "), which rocm-audit does not read"));
    return;
  }
  Skip("file", "file(" + op + ") is never run: it would change files");
}

CMakeEvaluator::Flow CMakeEvaluator::Include(const std::vector<Arg>& a) {
  if (a.empty()) return Flow::kNormal;
  bool optional = false;
  std::string result_var;
  for (size_t k = 1; k < a.size(); ++k) {
    if (a[k].value.text == "OPTIONAL") optional = true;
    if (a[k].value.text == "RESULT_VARIABLE" && k + 1 < a.size()) result_var = a[++k].value.text;
  }
  const CMakeValue& name = a[0].value;
  auto result = [&](CMakeValue v) {
    if (!result_var.empty()) Set(result_var, std::move(v));
  };
  if (!name.known) {
    Skip("include", "an include of a file not known here (" + name.why + ")");
    result(CMakeValue::Unknown(name.why));
    return Flow::kNormal;
  }
  std::string path = name.text;
  if (path.empty() || path[0] != '/') {
    // A module: CMAKE_MODULE_PATH first, then CMake's own modules.
    if (const CMakeValue* mp = Get("CMAKE_MODULE_PATH"); mp && mp->known)
      for (const std::string& dir : SplitList(mp->text))
        if (files_.Exists(dir + "/" + path + ".cmake") == Tri::kTrue) {
          path = Collapse(dir + "/" + path + ".cmake");
          break;
        }
    if (path.empty() || path[0] != '/') {
      if (IsCMakeModule(path)) {
        result({std::string(kCMakeRoot) + "/Modules/" + path + ".cmake"});
        return Flow::kNormal;
      }
      Skip("include",
           "include(" + path + "): neither a module of CMake " + std::string(kCMakeVersion) +
               " nor in CMAKE_MODULE_PATH; it would be looked up in the consumer's source directory");
      result({path + "-NOTFOUND"});
      return Flow::kNormal;
    }
  }
  path = Collapse(path);
  if (files_.Exists(path) != Tri::kTrue) {
    Reference(path, "include", {}, optional);
    result({path + "-NOTFOUND"});
    return Flow::kNormal;
  }
  result({path});
  Reference(path, "include", {}, optional);
  std::string failure;
  Flow f = RunFile(path, &failure);
  if (!failure.empty()) Fail("include(" + path + "): the file " + failure);
  return f;
}

}  // namespace rocm_audit
