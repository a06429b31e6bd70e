#include "audit/cmake/pkg_config_world.h"

#include <strings.h>
#include <cctype>
#include <cstring>
#include <map>
#include <set>

#include "audit/cmake/package_config.h"
#include "audit/fs/path.h"
#include "audit/support/text.h"

namespace rocm_audit {
namespace {

constexpr size_t kMaxPcFile = 1 << 20;
constexpr int kMaxDepth = 64;

bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool IsAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

// A .pc file's variables and fields, as pkgconf's parser reads them: "#" starts a comment,
// a line is "<key>=<value>" (a variable) or "<key>: <value>" (a field), ${var} expanded.
struct PcFile {
  std::map<std::string, std::string> variables, fields;
};

std::string Expand(const std::string& value, const std::map<std::string, std::string>& variables,
                   int depth = 0) {
  std::string out;
  for (size_t i = 0; i < value.size(); ++i) {
    if (value[i] == '$' && i + 1 < value.size() && value[i + 1] == '{') {
      size_t end = value.find('}', i + 2);
      if (end != std::string::npos) {
        auto it = variables.find(value.substr(i + 2, end - i - 2));
        if (it != variables.end() && depth < 16) out += Expand(it->second, variables, depth + 1);
        i = end;
        continue;
      }
    }
    out += value[i];
  }
  return out;
}

PcFile ParsePc(const std::string& text, const std::string& pc_file) {
  PcFile pc;
  pc.variables["pcfiledir"] = DirName(pc_file);
  pc.variables["pc_sysrootdir"] = "/";
  std::string line;
  auto take = [&] {
    size_t k = 0;
    while (k < line.size() && (line[k] == ' ' || line[k] == '\t')) ++k;
    size_t key_end = k;
    while (key_end < line.size() && (IsAlnum(line[key_end]) || line[key_end] == '_' || line[key_end] == '.'))
      ++key_end;
    size_t op = key_end;
    while (op < line.size() && (line[op] == ' ' || line[op] == '\t')) ++op;
    if (key_end == k || op >= line.size() || (line[op] != ':' && line[op] != '=')) return;
    const std::string key = line.substr(k, key_end - k);
    const std::string value = Expand(std::string(Trim(line.substr(op + 1))), pc.variables);
    (line[op] == ':' ? pc.fields : pc.variables)[key] = value;
  };
  for (size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : '\n';
    if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {  // a continued line
      ++i;
      continue;
    }
    if (c == '\\' && i + 1 < text.size() && text[i + 1] == '#') {  // an escaped '#'
      line += '#';
      ++i;
      continue;
    }
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
      take();
      line.clear();
      continue;
    }
    if (c == '\n') {
      take();
      line.clear();
      continue;
    }
    line += c;
  }
  return pc;
}

struct Requirement {
  std::string name, op, version;
};

// A Requires: list or a query, as pkgconf's dependency parser splits it: names separated by
// spaces or commas, each perhaps followed by an operator (<, <=, =, !=, >=, >) and a version.
std::vector<Requirement> ParseRequirements(const std::string& list) {
  std::vector<Requirement> out;
  size_t i = 0;
  auto separator = [&](char c) { return c == ' ' || c == '\t' || c == ',' || c == '\n'; };
  auto is_op = [](char c) { return c == '<' || c == '>' || c == '=' || c == '!'; };
  while (i < list.size()) {
    while (i < list.size() && separator(list[i])) ++i;
    Requirement r;
    while (i < list.size() && !separator(list[i]) && !is_op(list[i])) r.name += list[i++];
    while (i < list.size() && (list[i] == ' ' || list[i] == '\t')) ++i;
    while (i < list.size() && is_op(list[i])) r.op += list[i++];
    if (!r.op.empty()) {
      while (i < list.size() && (list[i] == ' ' || list[i] == '\t')) ++i;
      while (i < list.size() && !separator(list[i])) r.version += list[i++];
    }
    if (!r.name.empty())
      out.push_back(std::move(r));
    else if (!r.op.empty())
      ++i;  // an operator with no name before it: pkgconf skips it
  }
  return out;
}

bool Satisfies(const std::string& have, const Requirement& r) {
  if (r.op.empty()) return true;
  const int c = ComparePkgConfigVersions(have, r.version);
  if (r.op == "<") return c < 0;
  if (r.op == "<=") return c <= 0;
  if (r.op == "=") return c == 0;
  if (r.op == "!=") return c != 0;
  if (r.op == ">=") return c >= 0;
  if (r.op == ">") return c > 0;
  return false;  // pkgconf refuses an operator it does not know
}

class Resolver {
 public:
  Resolver(const std::vector<std::string>& path, const InstalledFiles& files) : path_(path), files_(files) {}

  // Empty when `r` and what it requires are all there; else what is missing.
  std::string Missing(const Requirement& r, int depth, std::string* version = nullptr,
                      std::string* pc_file = nullptr) {
    if (depth > kMaxDepth) return "Requires nested more than " + std::to_string(kMaxDepth) + " deep";
    const PcFile* pc = Load(r.name, pc_file);
    if (!pc) return "no " + r.name + ".pc in pkg-config's path";
    auto v = pc->fields.find("Version");
    const std::string have = v == pc->fields.end() ? "" : v->second;
    if (version) *version = have;
    if (!Satisfies(have, r)) return r.name + " is version " + have + ", asked " + r.op + " " + r.version;
    if (!done_.insert(r.name + " " + r.op + " " + r.version).second) return "";
    for (const char* field : {"Requires", "Requires.private"}) {
      auto f = pc->fields.find(field);
      if (f == pc->fields.end()) continue;
      for (const Requirement& q : ParseRequirements(f->second))
        if (std::string why = Missing(q, depth + 1); !why.empty()) return why + ", required by " + r.name;
    }
    return "";
  }

 private:
  const PcFile* Load(const std::string& name, std::string* pc_file) {
    auto it = loaded_.find(name);
    if (it == loaded_.end()) {
      std::optional<std::pair<std::string, PcFile>> found;
      for (const std::string& dir : path_) {
        const std::string file = dir + "/" + name + ".pc";
        if (auto text = files_.Read(file, kMaxPcFile)) {
          found = std::make_pair(file, ParsePc(*text, file));
          break;
        }
      }
      it = loaded_.emplace(name, std::move(found)).first;
    }
    if (!it->second) return nullptr;
    if (pc_file) *pc_file = it->second->first;
    return &it->second->second;
  }

  const std::vector<std::string>& path_;
  const InstalledFiles& files_;
  std::map<std::string, std::optional<std::pair<std::string, PcFile>>> loaded_;
  std::set<std::string> done_;
};

}  // namespace

std::vector<std::string> PkgConfigDefaultPath() {
  const std::string arch(kLibraryArchitecture);
  return {"/usr/local/lib/" + arch + "/pkgconfig", "/usr/local/lib/pkgconfig", "/usr/local/share/pkgconfig",
          "/usr/lib/" + arch + "/pkgconfig",       "/usr/lib/pkgconfig",       "/usr/share/pkgconfig"};
}

int ComparePkgConfigVersions(const std::string& a, const std::string& b) {
  if (strcasecmp(a.c_str(), b.c_str()) == 0) return 0;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    while (i < a.size() && !IsAlnum(a[i]) && a[i] != '~') ++i;
    while (j < b.size() && !IsAlnum(b[j]) && b[j] != '~') ++j;
    const bool ta = i < a.size() && a[i] == '~', tb = j < b.size() && b[j] == '~';
    if (ta || tb) {  // '~' sorts before anything, the end too
      if (!ta) return 1;
      if (!tb) return -1;
      ++i, ++j;
      continue;
    }
    if (i >= a.size() || j >= b.size()) break;
    const bool numeric = IsDigit(a[i]);
    size_t ei = i, ej = j;
    while (ei < a.size() && (numeric ? IsDigit(a[ei]) : IsAlpha(a[ei]))) ++ei;
    while (ej < b.size() && (numeric ? IsDigit(b[ej]) : IsAlpha(b[ej]))) ++ej;
    if (ej == j) return numeric ? 1 : -1;  // a number is newer than letters
    std::string x = a.substr(i, ei - i), y = b.substr(j, ej - j);
    if (numeric) {
      x.erase(0, std::min(x.find_first_not_of('0'), x.size()));
      y.erase(0, std::min(y.find_first_not_of('0'), y.size()));
      if (x.size() != y.size()) return x.size() > y.size() ? 1 : -1;
    }
    if (int c = x.compare(y); c != 0) return c < 0 ? -1 : 1;
    i = ei, j = ej;
  }
  if (i >= a.size() && j >= b.size()) return 0;
  return i >= a.size() ? -1 : 1;
}

PkgConfigAnswer PkgConfigExists(const std::string& spec, const std::vector<std::string>& path,
                                const InstalledFiles& files) {
  PkgConfigAnswer answer;
  std::vector<Requirement> asked = ParseRequirements(spec);
  if (asked.size() != 1) {
    answer.why = "'" + spec + "' is not one module";
    return answer;
  }
  Resolver resolver(path, files);
  answer.why = resolver.Missing(asked[0], 0, &answer.version, &answer.pc_file);
  answer.found = answer.why.empty();
  return answer;
}

}  // namespace rocm_audit
