// file(): a subcommand table. Lookups (GLOB, REAL_PATH) go through InstalledFiles; reads of
// file contents give unknown values; every operation that would change files is recorded
// and never run.
#include <algorithm>
#include <filesystem>

#include "audit/cmake/commands.h"
#include "audit/cmake/lists.h"
#include "audit/cmake/name_table.h"
#include "audit/fs/path.h"

namespace rocm_audit {
namespace {

/// Runs file(<op> ...); false when the arguments are not what it takes.
using FileOp = bool (*)(Interpreter& in, const std::string& op, const Args& a);

// GLOB, GLOB_RECURSE: <var> [LIST_DIRECTORIES x] [RELATIVE dir] [CONFIGURE_DEPENDS] <globs>...
bool Glob(Interpreter& in, const std::string& op, const Args& a) {
  if (a.size() < 2) return false;
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
    CMakeValue unknown;
    if (!a[k].value.known)
      unknown = a[k].value;
    else if (t.empty() || t[0] != '/')
      unknown = CMakeValue::Unknown("a glob relative to the consumer's source directory");
    else if (op == "GLOB_RECURSE")
      unknown = CMakeValue::Unknown("file(GLOB_RECURSE), which rocm-audit does not evaluate");
    if (!unknown.known) {
      in.Set(var, unknown);
      return true;
    }
    bool cut = false;
    for (std::string& f : in.files().Glob(t, &cut)) found.push_back(std::move(f));
    if (cut) {
      const std::string why =
          "a glob that reads more than " + std::to_string(kMaxGlobEntries) + " directory entries";
      in.Skip("file", "file(" + op + "): " + why);
      in.Set(var, CMakeValue::Unknown(why));
      return true;
    }
  }
  std::sort(found.begin(), found.end());
  if (!relative.empty())
    for (std::string& f : found)
      if (IsUnderDirectory(f, relative)) f = f.substr(std::min(f.size(), relative.size() + 1));
  in.Set(var, {JoinList(found)});
  return true;
}

// TO_CMAKE_PATH, TO_NATIVE_PATH: the same on the systems audited.
bool ToPath(Interpreter& in, const std::string&, const Args& a) {
  if (a.size() < 3) return false;
  in.Set(a[2].value.text, a[1].value);
  return true;
}

bool RealPath(Interpreter& in, const std::string&, const Args& a) {
  if (a.size() < 3) return false;
  const std::string& out = a[2].value.text;
  if (!a[1].value.known) {
    in.Set(out, a[1].value);
    return true;
  }
  std::string p = a[1].value.text;
  if (p.empty() || p[0] != '/') {
    std::string base;
    for (size_t k = 3; k + 1 < a.size(); ++k)
      if (a[k].value.text == "BASE_DIRECTORY") base = a[k + 1].value.text;
    if (base.empty()) {
      in.Set(out, CMakeValue::Unknown("a path relative to the consumer's source directory"));
      return true;
    }
    p = base + "/" + p;
  }
  auto real = in.files().RealPath(CollapsePath(p));
  in.Set(out, {real ? *real : CollapsePath(p)});
  return true;
}

bool RelativePath(Interpreter& in, const std::string&, const Args& a) {
  if (a.size() < 4) return false;
  if (!a[2].value.known || !a[3].value.known) {
    in.Set(a[1].value.text, !a[2].value.known ? a[2].value : a[3].value);
    return true;
  }
  in.Set(a[1].value.text,
         {std::filesystem::path(a[3].value.text).lexically_relative(a[2].value.text).generic_string()});
  return true;
}

// READ, STRINGS, SIZE, the hashes, ...: <file> <var>; the contents are not read.
bool ReadContents(Interpreter& in, const std::string& op, const Args& a) {
  if (a.size() < 3) return false;
  in.Set(a[2].value.text, CMakeValue::Unknown("file(" + op + "), which rocm-audit does not read"));
  return true;
}

constexpr NameEntry<FileOp> kFileOps[] = {
    {"GLOB", Glob},
    {"GLOB_RECURSE", Glob},
    {"MD5", ReadContents},
    {"READ", ReadContents},
    {"READ_SYMLINK", ReadContents},
    {"REAL_PATH", RealPath},
    {"RELATIVE_PATH", RelativePath},
    {"SHA1", ReadContents},
    {"SHA256", ReadContents},
    {"SHA512", ReadContents},
    {"SIZE", ReadContents},
    {"STRINGS", ReadContents},
    {"TIMESTAMP", ReadContents},
    {"TO_CMAKE_PATH", ToPath},
    {"TO_NATIVE_PATH", ToPath},
};
static_assert(IsSorted(kFileOps));

}  // namespace

Flow FileCommand(Interpreter& in, const std::string&, const Args& a) {
  if (a.empty()) return Flow::kNormal;
  const std::string& op = a[0].value.text;
  FileOp run = FindIn(kFileOps, op);
  if (!run || !run(in, op, a)) in.Skip("file", "file(" + op + ") is never run: it would change files");
  return Flow::kNormal;
}

}  // namespace rocm_audit
