// file(): a subcommand table. Lookups (GLOB, REAL_PATH) and the lines of a text file
// (STRINGS) go through InstalledFiles; other reads of file contents give unknown values; every operation that
// would change files is recorded and never run.
#include <algorithm>
#include <filesystem>

#include "audit/cmake/cmake_regex.h"
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

// READ, SIZE, the hashes, ...: <file> <var>; the contents are not read.
bool ReadContents(Interpreter& in, const std::string& op, const Args& a) {
  if (a.size() < 3) return false;
  in.Set(a[2].value.text, CMakeValue::Unknown("file(" + op + "), which rocm-audit does not read"));
  return true;
}

// STRINGS <file> <var> [REGEX <regex>] [LIMIT_COUNT <n>]: the installed file's lines, as
// cmFileCommand reads a text file: a line ends at '\n', '\r' is dropped, an empty line is an
// item, each ';' is escaped as "\;", and REGEX keeps the lines it finds a match in. A file
// with bytes outside printable ASCII and tab (where CMake splits strings differently), one
// larger than 1 MiB, or another option gives an unknown value.
bool Strings(Interpreter& in, const std::string& op, const Args& a) {
  if (a.size() < 3) return false;
  const std::string& var = a[2].value.text;
  auto unknown = [&](const std::string& why) {
    in.Set(var, CMakeValue::Unknown("file(STRINGS) " + why));
    return true;
  };
  if (!a[1].value.known) return unknown("of a file not known here");
  std::unique_ptr<CMakeRegex> re;
  size_t limit = SIZE_MAX;
  for (size_t k = 3; k < a.size(); ++k) {
    const bool has_value = k + 1 < a.size() && a[k + 1].value.known;
    if (a[k].value.text == "REGEX" && has_value) {
      std::string error;
      if (!(re = CMakeRegex::Compile(a[++k].value.text, &error)))
        return unknown("with a regex not evaluated here");
    } else if (a[k].value.text == "LIMIT_COUNT" && has_value) {
      limit = std::strtoull(a[++k].value.text.c_str(), nullptr, 10);
    } else {
      return unknown("with " + a[k].value.text + ", which rocm-audit does not evaluate");
    }
  }
  std::optional<std::string> text = in.files().Read(a[1].value.text, 1 << 20);
  if (!text) return unknown("of " + a[1].value.text + ", which cannot be read or is larger than 1 MiB");
  for (unsigned char c : *text)
    if (c != '\n' && c != '\r' && c != '\t' && (c < 0x20 || c >= 0x7F))
      return unknown("of a file that is not plain ASCII text");
  // Every line is searched: the searches are charged before any is made, at what one over
  // the whole text costs (CMakeRegex::SearchWork). A 1 MiB line searched with a pattern of
  // 400 alternatives took 6.8 s, and was charged nothing.
  in.Charge(text->size());
  if (re) in.Charge(re->SearchWork(text->size()));
  if (in.OverBudget()) {
    in.Skip("file", "file(STRINGS) of " + a[1].value.text + ": the evaluation's work budget ran out");
    return unknown("past the evaluation's work budget");
  }
  std::vector<std::string> lines;
  std::string line;
  auto take = [&] {
    if (lines.size() < limit && (!re || re->Find(line))) lines.push_back(std::move(line));
    line.clear();
  };
  for (char c : *text) {
    if (c == '\n')
      take();
    else if (c == ';')
      line += "\\;";
    else if (c != '\r')
      line += c;
  }
  if (!line.empty()) take();
  in.Set(var, {JoinList(lines)});
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
    {"STRINGS", Strings},
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
  if (!run || !run(in, op, a)) {
    // What it would write exists afterwards (file(WRITE|APPEND|TOUCH|MAKE_DIRECTORY <path>...),
    // file(GENERATE|CONFIGURE OUTPUT <path>)); it is never written here.
    const bool one = op == "WRITE" || op == "APPEND";  // the rest is the text
    const bool each = op == "TOUCH" || op == "MAKE_DIRECTORY";
    for (size_t k = 1; k < a.size(); ++k)
      if (a[k].value.known && ((one && k == 1) || each || a[k - 1].value.text == "OUTPUT"))
        in.NoteConsumerFile(a[k].value.text);
    in.Skip("file", "file(" + op + ") is never run: it would change files");
  }
  return Flow::kNormal;
}

}  // namespace rocm_audit
