#include "tests/audit/elf/readelf_view.h"

#include <regex>
#include <sstream>

#include "tests/support/test_support.h"

namespace rocm_audit {
namespace {

struct Versym {
  int index = 0;
  bool hidden = false;
  std::string name;
};

// "[...]" at the end of a dynamic entry's line: "Shared library: [libc.so.6]".
std::string Bracketed(const std::string& line) {
  size_t open = line.find('['), close = line.rfind(']');
  return open == std::string::npos || close == std::string::npos || close < open
             ? std::string()
             : line.substr(open + 1, close - open - 1);
}

// readelf's word for a value, looked up in `names`.
template <size_t N>
bool Named(const std::pair<const char*, int> (&names)[N], const std::string& s, int* out) {
  for (const auto& [name, value] : names)
    if (s == name) return *out = value, true;
  return false;
}

bool ParseBinding(const std::string& s, int* out) {
  static const std::pair<const char*, int> kNames[] = {
      {"LOCAL", 0}, {"GLOBAL", 1}, {"WEAK", 2}, {"UNIQUE", 10}};
  return Named(kNames, s, out);
}

bool ParseVisibility(const std::string& s, int* out) {
  static const std::pair<const char*, int> kNames[] = {
      {"DEFAULT", 0}, {"INTERNAL", 1}, {"HIDDEN", 2}, {"PROTECTED", 3}};
  return Named(kNames, s, out);
}

// st_shndx as readelf names it (binutils get_symbol_index_type).
bool ParseSectionIndex(const std::string& s, int* out) {
  if (s == "UND") return *out = 0, true;
  if (s == "ABS") return *out = 0xfff1, true;
  if (s == "COM") return *out = 0xfff2, true;
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return false;
  *out = std::stoi(s);
  return true;
}

// "   1: 000000000000a5f0   443 FUNC    GLOBAL DEFAULT   10 name@@VER" (undefined ones end
// in "@VER (2)"). st_other bits beyond the visibility print as "[...]" after it.
bool ParseSymbolLine(const std::string& line, ElfView::Symbol* out) {
  std::istringstream in(line);
  std::vector<std::string> t;
  for (std::string w; in >> w;) t.push_back(w);
  if (t.size() < 7) return false;
  size_t ndx = 6;
  if (t[ndx].front() == '[') {
    while (ndx < t.size() && t[ndx].back() != ']') ++ndx;
    ++ndx;
  }
  if (ndx >= t.size()) return false;
  if (!ParseBinding(t[4], &out->binding) || !ParseVisibility(t[5], &out->visibility) ||
      !ParseSectionIndex(t[ndx], &out->section_index))
    return false;
  out->name = ndx + 1 < t.size() ? t[ndx + 1].substr(0, t[ndx + 1].find('@')) : "";
  return true;
}

}  // namespace

bool ParseReadelf(const std::string& text, ElfView* out, std::string* error) {
  enum { kNone, kDynamic, kSymbols, kVersym, kVerdef, kVerneed } section = kNone;
  static const std::regex kSymbolHeader(R"(^Symbol table '\.dynsym' contains (\d+) entr)");
  static const std::regex kVersymEntry(R"(([0-9a-f]+)([h ])\(([^)]*)\))");
  static const std::regex kVerdefLine(
      R"(^\s*\S+: Rev: \d+\s+Flags: (.*?)\s+Index: (\d+)\s+Cnt: \d+\s+Name: (\S+)$)");
  static const std::regex kParent(R"(^\s*\S+: Parent \d+: (\S+)$)");
  static const std::regex kVerneedLine(R"(^\s*\S+: Version: \d+\s+File: (\S+)\s+Cnt: \d+$)");
  static const std::regex kVernaux(R"(^\s*\S+:\s+Name: (\S+)\s+Flags: .*Version: \d+$)");
  size_t declared_symbols = 0;
  bool have_versym = false;
  std::vector<Versym> versyms;
  std::string file;  // the current DT_VERNEED entry's
  int verdef_index = -1;
  std::istringstream in(text);
  auto fail = [&](const std::string& line) {
    *error = "readelf line not understood: " + line;
    return false;
  };
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (line.rfind("Dynamic section at offset", 0) == 0) {
      section = kDynamic;
    } else if (std::regex_search(line, m, kSymbolHeader)) {
      section = kSymbols;
      declared_symbols = std::stoul(m[1]);
    } else if (line.rfind("Version symbols section", 0) == 0) {
      section = kVersym;
      have_versym = true;
    } else if (line.rfind("Version definition section", 0) == 0) {
      section = kVerdef;
    } else if (line.rfind("Version needs section", 0) == 0) {
      section = kVerneed;
    } else if (line.rfind("No version information", 0) == 0 ||
               line.rfind("There is no dynamic section", 0) == 0) {
      section = kNone;
    } else if (line.empty() || line.rfind(" Addr:", 0) == 0) {
      continue;
    } else if (section == kDynamic) {
      if (line.find("(NEEDED)") != std::string::npos) out->needed.push_back(Bracketed(line));
      if (line.find("(SONAME)") != std::string::npos) out->soname = Bracketed(line);
      if (line.find("(RPATH)") != std::string::npos) out->rpath = SplitSearchPath(Bracketed(line));
      if (line.find("(RUNPATH)") != std::string::npos) {
        out->has_runpath = true;
        out->runpath = SplitSearchPath(Bracketed(line));
      }
    } else if (section == kSymbols) {
      if (line.find("Num:") != std::string::npos) continue;
      ElfView::Symbol s;
      if (!ParseSymbolLine(line, &s)) return fail(line);
      out->symbols.push_back(std::move(s));
    } else if (section == kVersym) {
      size_t colon = line.find(':');
      if (colon == std::string::npos) return fail(line);
      std::string entries = line.substr(colon + 1);
      for (std::sregex_iterator it(entries.begin(), entries.end(), kVersymEntry), end; it != end; ++it)
        versyms.push_back(Versym{std::stoi((*it)[1], nullptr, 16), (*it)[2] == "h", (*it)[3]});
    } else if (section == kVerdef) {
      if (std::regex_search(line, m, kVerdefLine)) {
        verdef_index = std::stoi(m[2]);
        out->verdef_chains[verdef_index] = {m[3]};
        if (m[1].str().find("BASE") == std::string::npos) out->defined_versions.push_back(m[3]);
      } else if (std::regex_search(line, m, kParent) && verdef_index >= 0) {
        out->verdef_chains[verdef_index].push_back(m[1]);
      } else {
        return fail(line);
      }
    } else if (section == kVerneed) {
      if (std::regex_search(line, m, kVerneedLine))
        file = m[1];
      else if (std::regex_search(line, m, kVernaux))
        out->needed_versions.push_back(file + ":" + m[1].str());
      else
        return fail(line);
    }
  }
  if (out->has_runpath) out->rpath.clear();  // as the model does (ld.so ignores DT_RPATH then)
  if (out->symbols.size() != declared_symbols) {
    *error = "readelf announced " + std::to_string(declared_symbols) + " dynamic symbols and listed " +
             std::to_string(out->symbols.size());
    return false;
  }
  for (size_t i = 0; have_versym && i < out->symbols.size() && i < versyms.size(); ++i) {
    ElfView::Symbol& s = out->symbols[i];
    s.has_version = true;
    s.version_index = versyms[i].index;
    s.version_hidden = versyms[i].hidden;
    s.version = versyms[i].index > 1 ? versyms[i].name : "";
  }
  return true;
}

bool RunReadelf(const std::string& readelf, const std::string& path, ElfView* out, std::string* error) {
  std::string quoted = "'";
  for (char c : path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  quoted += "'";
  std::string text;
  int rc = testing::RunCommand(readelf + " -W -d -V --dyn-syms " + quoted + " 2>/dev/null", &text);
  if (rc != 0) {
    *error = readelf + " exited with " + std::to_string(rc) + " on " + path;
    return false;
  }
  return ParseReadelf(text, out, error);
}

}  // namespace rocm_audit
