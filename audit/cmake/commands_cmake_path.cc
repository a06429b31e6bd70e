// cmake_path(): two subcommand tables. SET makes the path variable from its argument; the
// others read it, and an unknown path gives an unknown result whatever the subcommand.
#include <filesystem>

#include "audit/cmake/commands.h"
#include "audit/cmake/name_table.h"

namespace rocm_audit {
namespace {

namespace fs = std::filesystem;

struct PathCall {
  Interpreter& in;
  const Args& a;
  const std::string& var;
  std::string output;  ///< OUTPUT_VARIABLE, else the path variable
};

/// Runs cmake_path(<op> ...) on the path `p`; false when the arguments are not what it takes.
using PathOp = bool (*)(PathCall& c, const fs::path& p);

bool SetPath(PathCall& c, const fs::path&) {
  const Args& a = c.a;
  if (a.size() < 3) return false;
  bool normalize = a[2].value.text == "NORMALIZE";
  const CMakeValue& input = a[normalize && a.size() > 3 ? 3 : 2].value;
  if (!input.known) {
    c.in.Set(c.var, input);
    return true;
  }
  c.in.Set(c.var, {normalize ? fs::path(input.text).lexically_normal().generic_string() : input.text});
  return true;
}

// GET <var> <part> [LAST_ONLY] <out-var>
bool GetPart(PathCall& c, const fs::path& p) {
  const Args& a = c.a;
  if (a.size() < 4) return false;
  const std::string& part = a[2].value.text;
  bool last_only = a.size() >= 5 && a[3].value.text == "LAST_ONLY";
  std::string out;
  if (part == "PARENT_PATH") {
    out = p.parent_path().generic_string();
  } else if (part == "FILENAME") {
    out = p.filename().generic_string();
  } else if (part == "ROOT_PATH" || part == "ROOT_DIRECTORY") {
    out = p.root_directory().generic_string();
  } else if (part == "ROOT_NAME") {
    out = "";
  } else if (part == "RELATIVE_PART") {
    out = p.relative_path().generic_string();
  } else if (part == "EXTENSION" || part == "STEM") {
    std::string name = p.filename().generic_string();
    size_t dot = last_only ? name.rfind('.') : name.find('.', name.starts_with(".") ? 1 : 0);
    if (dot == 0) dot = std::string::npos;
    out = part == "EXTENSION" ? (dot == std::string::npos ? "" : name.substr(dot))
                              : (dot == std::string::npos ? name : name.substr(0, dot));
  } else {
    c.in.Skip("cmake_path", "cmake_path(GET " + part + ") is not evaluated");
    return true;
  }
  c.in.Set(a.back().value.text, {out});
  return true;
}

bool AppendPath(PathCall& c, const fs::path& base) {
  fs::path p = base;
  for (size_t k = 2; k < c.a.size(); ++k) {
    if (c.a[k].value.text == "OUTPUT_VARIABLE") break;
    if (!c.a[k].value.known) {
      c.in.Set(c.output, c.a[k].value);
      return true;
    }
    p /= c.a[k].value.text;
  }
  c.in.Set(c.output, {p.generic_string()});
  return true;
}

bool NormalPath(PathCall& c, const fs::path& p) {
  c.in.Set(c.output, {p.lexically_normal().generic_string()});
  return true;
}

bool AbsolutePath(PathCall& c, const fs::path& p) {
  std::string base;
  for (size_t k = 2; k + 1 < c.a.size(); ++k)
    if (c.a[k].value.text == "BASE_DIRECTORY") base = c.a[k + 1].value.text;
  if (!p.is_absolute() && base.empty()) {
    c.in.Set(c.output, CMakeValue::Unknown("a path relative to the consumer's source directory"));
    return true;
  }
  fs::path abs = p.is_absolute() ? p : fs::path(base) / p;
  bool normalize = false;
  for (const Arg& x : c.a) normalize |= x.value.text == "NORMALIZE";
  c.in.Set(c.output, {normalize ? abs.lexically_normal().generic_string() : abs.generic_string()});
  return true;
}

bool IsAbsolute(PathCall& c, const fs::path& p) {
  if (c.a.size() < 3) return false;
  c.in.Set(c.a[2].value.text, {p.is_absolute() ? "ON" : "OFF"});
  return true;
}

constexpr NameEntry<PathOp> kNewPathOps[] = {{"SET", SetPath}};
static_assert(IsSorted(kNewPathOps));

constexpr NameEntry<PathOp> kPathOps[] = {
    {"ABSOLUTE_PATH", AbsolutePath}, {"APPEND", AppendPath},      {"GET", GetPart},
    {"IS_ABSOLUTE", IsAbsolute},     {"NORMAL_PATH", NormalPath},
};
static_assert(IsSorted(kPathOps));

}  // namespace

Flow CMakePathCommand(Interpreter& in, const std::string&, const Args& a) {
  if (a.size() < 2) return Flow::kNormal;
  const std::string& op = a[0].value.text;
  PathCall c{in, a, a[1].value.text, a[1].value.text};
  const CMakeValue* cur = in.Get(c.var);
  CMakeValue value = cur ? *cur : CMakeValue{};
  for (size_t k = 2; k + 1 < a.size(); ++k)
    if (a[k].value.text == "OUTPUT_VARIABLE") c.output = a[k + 1].value.text;
  if (PathOp make = FindIn(kNewPathOps, op); make && make(c, {})) return Flow::kNormal;
  if (!value.known) {
    in.Set(op == "GET" && a.size() >= 4 ? a.back().value.text : c.output, value);
    return Flow::kNormal;
  }
  PathOp read = FindIn(kPathOps, op);
  if (!read || !read(c, fs::path(value.text)))
    in.Skip("cmake_path", "cmake_path(" + op + ") is not evaluated");
  return Flow::kNormal;
}

}  // namespace rocm_audit
