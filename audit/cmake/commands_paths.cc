// get_filename_component, and the lexical path rules the path commands share.
#include "audit/cmake/commands.h"
#include "audit/fs/path.h"
#include "audit/support/text.h"

namespace rocm_audit {
namespace {

// CMake's GetFilenamePath: everything before the last '/', "/" for a top-level name.
std::string FilenamePath(const std::string& p) {
  size_t slash = p.rfind('/');
  if (slash == 0) return "/";
  return slash == std::string::npos ? "" : p.substr(0, slash);
}

// ABSOLUTE, REALPATH: relative to BASE_DIR, else to the consumer's source directory.
CMakeValue AbsoluteComponent(Interpreter& in, const Args& a, std::string p, bool real) {
  std::string base;
  for (size_t k = 3; k + 1 < a.size(); ++k)
    if (a[k].value.text == "BASE_DIR") base = a[k + 1].value.text;
  if (p.empty() || p[0] != '/') {
    if (base.empty()) return CMakeValue::Unknown("a path relative to the consumer's source directory");
    p = base + "/" + p;
  }
  std::string out = CollapsePath(p);
  if (real)
    if (auto resolved = in.files().RealPath(out)) out = *resolved;
  return {out};
}

}  // namespace

std::string CollapsePath(const std::string& p) {
  std::string n = NormalizePath(p);
  return n.empty() ? "/" : n;
}

Flow GetFilenameComponentCommand(Interpreter& in, const std::string& name, const Args& a) {
  if (a.size() < 3) return Flow::kNormal;
  const std::string& var = a[0].value.text;
  const CMakeValue& input = a[1].value;
  const std::string& mode = a[2].value.text;
  if (!input.known) {
    in.Set(var, input);
    return Flow::kNormal;
  }
  const std::string& p = input.text;
  std::string out;
  if (mode == "DIRECTORY" || mode == "PATH") {
    out = FilenamePath(p);
  } else if (mode == "NAME") {
    out = BaseName(p);
  } else if (mode == "EXT" || mode == "NAME_WE" || mode == "LAST_EXT" || mode == "NAME_WLE") {
    std::string file(BaseName(p));
    size_t dot = mode == "EXT" || mode == "NAME_WE" ? file.find('.') : file.rfind('.');
    bool ext = mode == "EXT" || mode == "LAST_EXT";
    out = dot == std::string::npos ? (ext ? "" : file) : (ext ? file.substr(dot) : file.substr(0, dot));
  } else if (mode == "ABSOLUTE" || mode == "REALPATH") {
    in.Set(var, AbsoluteComponent(in, a, p, mode == "REALPATH"));
    return Flow::kNormal;
  } else if (mode == "PROGRAM") {
    in.Set(var, in.UnknownResult("get_filename_component(PROGRAM)"));
    return Flow::kNormal;
  } else {
    return in.NotEvaluated(name);
  }
  in.Set(var, {out});
  return Flow::kNormal;
}

}  // namespace rocm_audit
