#include "diff/package_verdict.h"

#include <cctype>
#include <map>

#include "diff/shared_libraries.h"

namespace rocm_audit {
namespace {

using Json = nlohmann::ordered_json;

std::vector<std::string> List(const Finding& f, const char* name) {
  std::vector<std::string> out;
  auto it = f.fields.find(name);
  if (it == f.fields.end() || !it->is_array()) return out;
  for (const Json& v : *it)
    if (v.is_string())
      out.push_back(v.get<std::string>());
    else if (v.is_object() && v.contains("file") && v["file"].is_string())
      out.push_back(v["file"].get<std::string>());
  return out;
}

// The first three items, then how many more.
std::string Few(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size() && i < 3; ++i) out += (i ? ", " : "") + items[i];
  if (items.size() > 3) out += " and " + std::to_string(items.size() - 3) + " more";
  return out;
}

class Verdicts {
 public:
  Verdicts(const Side& old_side, const Side& new_side) : old_(old_side), new_(new_side) {
    for (const SidePackage& p : new_side.packages) Add(p, true);
    if (out_.empty()) {
      std::string name;
      for (const std::string& in : new_side.inputs) name += (name.empty() ? "" : ", ") + in;
      out_.push_back({name, "", "", "", "", new_side.inputs.empty() ? "" : new_side.inputs.front(), {}, 0});
    }
  }

  /// The verdict of the package of NEW that holds `path`.
  PackageVerdict& OfNew(std::string_view path) {
    const SidePackage* p = new_.PackageOf(path);
    auto it = p ? at_.find(p->name) : at_.end();
    return it == at_.end() ? out_.front() : out_[it->second];
  }
  /// The verdict of the package of OLD that held `path`: NEW's of that name, or one of its own
  /// (a package NEW no longer ships).
  PackageVerdict& OfOld(std::string_view path) {
    const SidePackage* p = old_.PackageOf(path);
    if (!p) return out_.front();
    if (auto it = at_.find(p->name); it != at_.end()) return out_[it->second];
    Add(*p, false);
    return out_.back();
  }
  /// A file of NEW with its package, when NEW is packages.
  std::string WithPackage(const std::string& path) const {
    const SidePackage* p = new_.PackageOf(path);
    return p ? path + " (" + p->name + ")" : path;
  }
  const Side& New() const { return new_; }
  std::vector<PackageVerdict> Take() { return std::move(out_); }

 private:
  // `p` of NEW (`in_new`), or of OLD when NEW no longer ships it.
  void Add(const SidePackage& p, bool in_new) {
    if (!at_.emplace(p.name, out_.size()).second) return;
    std::string before;
    for (const SidePackage& o : old_.packages)
      if (o.name == p.name) before = o.version;
    out_.push_back({p.name, before, in_new ? p.version : "", p.source, p.source_version, p.file, {}, 0});
  }

  const Side& old_;
  const Side& new_;
  std::vector<PackageVerdict> out_;
  std::map<std::string, size_t, std::less<>> at_;
};

// One thing `p` needs or drops, as severe as the finding `f` it comes from.
void Need(PackageVerdict& p, const Finding& f, std::string line) {
  if (p.needs.empty() || f.severity > p.severity) p.severity = f.severity;
  p.needs.push_back(std::move(line));
}

std::string Hits(Verdicts& v, const Finding& f) {
  std::vector<std::string> hits = List(f, "hit");
  if (hits.empty()) return "";
  for (std::string& h : hits) h = v.WithPackage(h);
  return "; " + std::to_string(hits.size()) + " file(s) still use it: " + Few(hits);
}

void SymbolsRemoved(Verdicts& v, const Finding& f) {
  if (f.severity == Severity::kNote) return;  // version nodes alone: nothing a program bound
  PackageVerdict& p = v.OfNew(f.file);
  const std::string soname = StringField(f, "soname"), next = NextSoname(soname);
  std::string line = "needs a SONAME bump: " + soname + " -> " + (next.empty() ? "a new SONAME" : next);
  if (const SidePackage* pkg = v.New().PackageOf(f.file))
    if (std::string renamed = NextPackageName(pkg->name, soname, next); !renamed.empty())
      line += ", package " + pkg->name + " -> " + renamed;
  auto count = f.fields.find("count");
  if (count != f.fields.end() && count->is_number())
    line += " (" + std::to_string(count->get<uint64_t>()) + " symbol(s) removed" + Hits(v, f) + ")";
  Need(p, f, std::move(line));
}

void SonameChanged(Verdicts& v, const Finding& f) {
  auto still = f.fields.find("old_still_provided");
  if (still != f.fields.end() && still->is_boolean() && still->get<bool>()) return;
  const std::string old_soname = StringField(f, "old_soname"), new_soname = StringField(f, "new_soname");
  auto stays = f.fields.find("old_package_stays");
  PackageVerdict& p = v.OfNew(f.file);
  if (stays != f.fields.end() && stays->is_boolean() && stays->get<bool>()) {
    Need(p, f,
         "needs a transition: " + old_soname + " -> " + new_soname + " (" + StringField(f, "old_package") +
             " stays installable)" + Hits(v, f));
    return;
  }
  if (const std::string by = StringField(f, "old_package_removed_by"); !by.empty()) {
    // A package of its own for the new SONAME, but a relation removes the old one.
    Need(p, f,
         "needs co-installable library packages: " + old_soname + " -> " + new_soname + " (" + by +
             ": installing it removes " + old_soname + ")" + Hits(v, f));
    return;
  }
  std::string line = "needs a package rename: " + old_soname + " -> " + new_soname;
  if (const SidePackage* pkg = v.New().PackageOf(f.file))
    if (std::string renamed = NextPackageName(pkg->name, old_soname, new_soname); !renamed.empty())
      line += ", package " + pkg->name + " -> " + renamed + " (installing " + pkg->name + " removes " +
              old_soname + ")";
  Need(p, f, line + Hits(v, f));
}

void Dropped(Verdicts& v, const Finding& f) {
  if (f.check == "library-removed") {
    Need(v.OfOld(f.file), f, "drops library " + StringField(f, "soname") + Hits(v, f));
  } else if (f.check == "processors-lost") {
    const std::vector<std::string> lost = List(f, "lost");
    if (!lost.empty()) Need(v.OfNew(f.file), f, "drops GPU processors: " + Few(lost) + " (" + f.file + ")");
  } else if (f.check == "cmake-interface-removed") {
    std::vector<std::string> gone = List(f, "removed_targets");
    for (const std::string& c : List(f, "removed_components")) gone.push_back("component " + c);
    for (const std::string& r : List(f, "removed_variables")) gone.push_back("variable " + r);
    if (gone.empty()) gone.push_back("a dependency version raised");
    Need(v.OfNew(f.file), f, "drops CMake interface of " + StringField(f, "package") + ": " + Few(gone));
  } else if (f.check == "cmake-dependency-dropped") {
    Need(v.OfNew(f.file), f,
         "drops CMake interface of " + StringField(f, "package") + ": no longer loads " +
             StringField(f, "dependency") + " (" + Few(List(f, "targets")) + ")");
  }
}

}  // namespace

std::string NextPackageName(std::string_view package, std::string_view soname, std::string_view next_soname) {
  const std::string_view major = SonameMajor(soname), next = SonameMajor(next_soname);
  if (major.empty() || next.empty() || !package.ends_with(major) || package.size() == major.size()) return "";
  const std::string_view head = package.substr(0, package.size() - major.size());
  // libfoo1 for libfoo.so.1; libfoo64-5 when the name ends in a digit: a digit before the
  // major is part of the name, and the match a coincidence.
  if (std::isdigit(static_cast<unsigned char>(head.back()))) return "";
  return std::string(head) + std::string(next);
}

std::vector<PackageVerdict> PackageVerdicts(const Side& old_side, const Side& new_side,
                                            const std::vector<Finding>& findings) {
  Verdicts v(old_side, new_side);
  for (const Finding& f : findings) {
    if (f.suppressed) continue;
    if (f.check == "symbols-removed")
      SymbolsRemoved(v, f);
    else if (f.check == "soname-changed")
      SonameChanged(v, f);
    else if (f.check == "new-finding")
      ++v.OfNew(f.file).new_defects;
    else
      Dropped(v, f);
  }
  return v.Take();
}

}  // namespace rocm_audit
