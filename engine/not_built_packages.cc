#include "engine/not_built_packages.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

namespace rocm_audit {

// Note: nothing is known to be wrong; a file the build cannot see was not checked. A build of every package
// of the source (dpkg-buildpackage -b), or one with the package installed, checks it. lintian, auditwheel:
// none.
const Rule kNotBuiltSiblingRule{
    .id = "not-built-sibling",
    .severity = Severity::kNote,
    .title =
        "a file a package needs is not found, and a package of its source that this build does not "
        "build (and that is not installed) may ship it: not checked",
    .fix =
        "nothing, when that package ships the file: a build of every package of the source "
        "(dpkg-buildpackage -b) checks it",
    .key_fields = "instead_of needed",
    .explanation =
        "A Debian source builds several binary packages, and a build need not build all of them: Debian's "
        "buildds run dpkg-buildpackage -B, which builds only the architecture-dependent packages, and -A "
        "builds only the Architecture: all ones; a package may also be excluded (dh -N, a build profile). A "
        "-dev package's CMake config may include() a file of an Architecture: all package of the same source "
        "that it depends on, which such a build does not make. dh_rocm_audit names the packages of the "
        "source that the build does not make and that are not installed on the build machine (--not-built); "
        "a file, library or CMake dependency the audited packages need and that is not found is then not "
        "reported as missing (cmake-missing-file, cmake-missing-library, cmake-missing-target, "
        "cmake-missing-dependency, cmake-dependency-version, cmake-config-error, unresolved-library) "
        "but as this note, naming those packages and why each was not built: the audit "
        "cannot tell whether they ship it. A package of the source that is installed on the build machine "
        "stands in with its installed files instead, and what it lacks is reported as usual. A build of "
        "every package of the source (dpkg-buildpackage -b) checks the file.",
    .example =
        "/usr/lib/x86_64-linux-gnu/cmake/roctap/roctapConfig.cmake\n"
        "  note[not-built-sibling]: roctapConfig.cmake:1: include names "
        "/usr/share/roctap/roctap-macros.cmake, which does not exist; not checked: it may be shipped "
        "by a package of this source that this build does not build and that is not installed here: "
        "roctap-common (Architecture: all; dpkg-buildpackage -B builds only the "
        "architecture-dependent packages)\n"
        "    fix: nothing, when roctap-common ships the file: a build of every package of the source "
        "(dpkg-buildpackage -b) checks it, and so does this build once roctap-common is installed",
    .cause_fields = "instead_of",
    .cause = "{n} needs not checked ({instead_of}): packages of the source not built ({files})",
    .fields = "instead_of:string needed:string not_built:[string] why:[string]",
};

namespace {

// The checks whose findings at warning or error say that something needed is not there, and
// the field that names it. A dangling link stays what it is: a warning, which fails no build,
// and as often a defect of the package itself (a man-page link to a page not installed).
struct MissingKind {
  std::string_view check;
  std::string_view field;
};
constexpr std::array<MissingKind, 7> kMissing{{
    {"cmake-missing-file", "referenced"},
    {"cmake-missing-library", "library"},
    {"cmake-missing-target", "linked"},
    {"cmake-missing-dependency", "dependency"},
    {"cmake-dependency-version", "dependency"},
    {"cmake-config-error", "missing_files"},
    {"unresolved-library", "library"},
}};

// What the finding says is missing: its field's value (the first of a list), else its file.
std::string NeededBy(const Finding& f, std::string_view field) {
  if (!field.empty())
    if (auto it = f.fields.find(std::string(field)); it != f.fields.end()) {
      const nlohmann::ordered_json& v = it->is_array() && !it->empty() ? it->front() : *it;
      if (v.is_string()) return v.get<std::string>();
    }
  return f.file;
}

const MissingKind* MissingKindOf(const Finding& f) {
  if (f.severity == Severity::kNote) return nullptr;
  // A cmake-config-error is a missing file only when the config tested one (FATAL_ERROR after EXISTS).
  if (f.check == "cmake-config-error" && !f.fields.contains("missing_files")) return nullptr;
  for (const MissingKind& k : kMissing)
    if (k.check == f.check) return &k;
  return nullptr;
}

std::string NamesWithWhy(const std::vector<NotBuiltPackage>& not_built) {
  std::string out;
  for (const NotBuiltPackage& p : not_built) {
    if (!out.empty()) out += ", ";
    out += p.name + (p.why.empty() ? "" : " (" + p.why + ")");
  }
  return out;
}

std::string Names(const std::vector<NotBuiltPackage>& not_built) {
  std::string out;
  for (size_t i = 0; i < not_built.size(); ++i)
    out += (i == 0 ? "" : i + 1 == not_built.size() ? " or " : ", ") + not_built[i].name;
  return out;
}

void MakeNote(const MissingKind& kind, const std::vector<NotBuiltPackage>& not_built, Finding* f) {
  const std::string needed = NeededBy(*f, kind.field);
  const std::string instead_of = f->check;
  f->check = std::string(kNotBuiltSiblingRule.id);
  f->severity = Severity::kNote;
  f->message +=
      "; not checked: it may be shipped by a package of this source that this build does not build "
      "and that is not installed here: " +
      NamesWithWhy(not_built);
  const std::string names = Names(not_built);
  f->SetHint(
      "nothing, when " + names +
      " ships it: a build of every package of the source (dpkg-buildpackage -b) checks it, and so does "
      "this build once " +
      names + (not_built.size() == 1 ? " is" : " are") + " installed");
  nlohmann::ordered_json fields = nlohmann::ordered_json::object();
  fields["instead_of"] = instead_of;
  fields["needed"] = needed;
  fields["not_built"] = nlohmann::ordered_json::array();
  fields["why"] = nlohmann::ordered_json::array();
  for (const NotBuiltPackage& p : not_built) {
    fields["not_built"].push_back(p.name);
    fields["why"].push_back(p.why);
  }
  f->fields = std::move(fields);
  f->repeated.reset();
  BoundFindingSize(f);
}

}  // namespace

// Debian Policy 5.6.1: a package name is at least two characters of [a-z0-9+.-], starting
// with a letter or digit.
bool ParseNotBuiltPackage(const std::string& text, NotBuiltPackage* out, std::string* error) {
  const size_t eq = text.find('=');
  std::string name = text.substr(0, eq);
  const bool valid =
      name.size() >= 2 && std::isalnum(static_cast<unsigned char>(name[0])) &&
      std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '.' || c == '-';
      });
  if (!valid) {
    *error = "--not-built " + text + ": expected PACKAGE=WHY, PACKAGE a Debian package name";
    return false;
  }
  out->name = std::move(name);
  out->why = eq == std::string::npos ? "" : text.substr(eq + 1);
  return true;
}

void JudgeNeedsOfNotBuiltPackages(const std::vector<NotBuiltPackage>& not_built,
                                  std::vector<Finding>* findings) {
  if (not_built.empty()) return;
  bool changed = false;
  for (Finding& f : *findings)
    if (const MissingKind* kind = MissingKindOf(f)) {
      MakeNote(*kind, not_built, &f);
      changed = true;
    }
  if (!changed) return;
  // Findings are grouped by file, most severe first within a file: a note made of an error
  // moves after the file's errors and warnings.
  for (auto begin = findings->begin(); begin != findings->end();) {
    auto end = std::find_if(begin, findings->end(), [&](const Finding& f) { return f.file != begin->file; });
    std::stable_sort(begin, end, [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
    begin = end;
  }
}

}  // namespace rocm_audit
