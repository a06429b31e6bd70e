#include "diff/debian_symbols.h"

#include <set>

namespace rocm_audit {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::string_view FirstWord(std::string_view s) {
  s = Trim(s);
  return s.substr(0, s.find_first_of(" \t"));
}

// The tags of "(tag1|tag2=value)rest": sets them on `sym` and returns rest.
std::string_view TakeTags(std::string_view spec, DebSymbol* sym) {
  if (!spec.starts_with('(')) return spec;
  const size_t close = spec.find(')');
  if (close == std::string_view::npos) return spec;
  std::string_view tags = spec.substr(1, close - 1);
  while (!tags.empty()) {
    const size_t bar = tags.find('|');
    const std::string_view tag = tags.substr(0, bar);
    const std::string_view name = tag.substr(0, tag.find('='));
    if (name == "optional") sym->optional = true;
    if (name == "c++") sym->cxx = true;
    if (name == "symver") sym->symver = true;
    if (name == "regex") sym->regex = true;
    if (name == "arch" || name == "arch-bits" || name == "arch-endian") sym->other_arch = true;
    if (bar == std::string_view::npos) break;
    tags.remove_prefix(bar + 1);
  }
  return spec.substr(close + 1);
}

// " [(tags)]name minver [id]", the name quoted ("...") when it holds spaces (a C++ name).
bool ParseSymbolLine(std::string_view line, DebSymbol* sym) {
  std::string_view rest = TakeTags(Trim(line), sym);
  if (rest.starts_with('"')) {
    const size_t end = rest.find('"', 1);
    if (end == std::string_view::npos) return false;
    sym->name = std::string(rest.substr(1, end - 1));
    rest.remove_prefix(end + 1);
  } else {
    sym->name = std::string(FirstWord(rest));
    rest.remove_prefix(std::min(rest.size(), Trim(rest).data() - rest.data() + sym->name.size()));
  }
  sym->minver = std::string(FirstWord(rest));
  return !sym->name.empty() && !sym->minver.empty();
}

}  // namespace

std::vector<DebSymbolsLibrary> ParseDebSymbols(std::string_view text) {
  std::vector<DebSymbolsLibrary> out;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (Trim(line).empty() || line.starts_with('|') || line.starts_with('*')) continue;
    DebSymbol sym;
    if (line.starts_with("#MISSING:")) {
      // "#MISSING: 1.2-1# name@Base 1.0": kept by dpkg-gensymbols once the symbol was lost.
      const size_t end = line.find('#', 1);
      if (end == std::string_view::npos || out.empty()) continue;
      sym.deprecated = true;
      if (ParseSymbolLine(line.substr(end + 1), &sym)) out.back().symbols.push_back(std::move(sym));
      continue;
    }
    if (line.starts_with('#')) continue;
    if (line.starts_with(' ') || line.starts_with('\t')) {
      if (!out.empty() && ParseSymbolLine(line, &sym)) out.back().symbols.push_back(std::move(sym));
      continue;
    }
    DebSymbolsLibrary lib;
    lib.soname = std::string(FirstWord(line));
    lib.package = std::string(FirstWord(Trim(line).substr(lib.soname.size())));
    out.push_back(std::move(lib));
  }
  return out;
}

std::vector<DebShlib> ParseDebShlibs(std::string_view text) {
  std::vector<DebShlib> out;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = Trim(text.substr(0, nl));
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (line.empty() || line.starts_with('#')) continue;
    DebShlib s;
    // "udeb: libbsd 0 libbsd0-udeb (>= 0.11.7)": a type ends with a colon.
    if (const std::string_view first = FirstWord(line); first.ends_with(':')) {
      s.type = std::string(first.substr(0, first.size() - 1));
      line = Trim(line.substr(first.size()));
    }
    s.library = std::string(FirstWord(line));
    line = Trim(line.substr(s.library.size()));
    s.soversion = std::string(FirstWord(line));
    line = Trim(line.substr(s.soversion.size()));
    s.package = std::string(FirstWord(line));
    if (!s.library.empty() && !s.package.empty()) out.push_back(std::move(s));
  }
  return out;
}

std::string DebSymbolName(std::string_view export_name) {
  const size_t at = export_name.find('@');
  if (at == std::string_view::npos) return std::string(export_name) + "@Base";
  std::string_view version = export_name.substr(at + 1);
  if (version.starts_with('@')) version.remove_prefix(1);
  return std::string(export_name.substr(0, at)) + "@" + std::string(version);
}

bool DpkgNeverLists(std::string_view name) {
  static const std::set<std::string_view> kNever = {"__bss_end__",
                                                    "__bss_end",
                                                    "_bss_end__",
                                                    "__bss_start",
                                                    "__bss_start__",
                                                    "__data_start",
                                                    "__do_global_ctors_aux",
                                                    "__do_global_dtors_aux",
                                                    "__do_jv_register_classes",
                                                    "_DYNAMIC",
                                                    "_edata",
                                                    "_end",
                                                    "__end__",
                                                    "__exidx_end",
                                                    "__exidx_start",
                                                    "_fbss",
                                                    "_fdata",
                                                    "_fini",
                                                    "_ftext",
                                                    "_GLOBAL_OFFSET_TABLE_",
                                                    "__gmon_start__",
                                                    "__gnu_local_gp",
                                                    "_gp",
                                                    "_init",
                                                    "_PROCEDURE_LINKAGE_TABLE_",
                                                    "_SDA2_BASE_",
                                                    "_SDA_BASE_"};
  if (kNever.count(name) || name.starts_with("__aeabi_") || name.starts_with(".gomp_critical_user_"))
    return true;
  // powerpc's register save and restore helpers, 14 to 31.
  for (std::string_view prefix : {"_restfpr_", "_restgpr_", "_savefpr_", "_savegpr_"})
    if (name.starts_with(prefix)) {
      std::string_view n = name.substr(prefix.size());
      if (n.ends_with("_x")) n.remove_suffix(2);
      if (n.size() == 2 && n >= "14" && n <= "31") return true;
    }
  return false;
}

}  // namespace rocm_audit
