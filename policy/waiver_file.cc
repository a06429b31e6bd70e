#include "policy/waiver_file.h"

#include <sstream>

#include "audit/support/text.h"
#include "policy/name_glob.h"

namespace rocm_audit {
namespace {

std::string Trimmed(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

std::vector<std::string> Fields(std::string_view s) {
  std::vector<std::string> out;
  std::istringstream in{std::string(s)};
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

bool NamesARule(std::string_view glob, std::span<const Rule> rules) {
  for (const Rule& r : rules)
    if (GlobMatches(glob, r.id)) return true;
  return false;
}

}  // namespace

bool ParseWaivers(std::string_view text, const std::string& file_name, std::span<const Rule> rules,
                  std::vector<Waiver>* out, std::string* error) {
  size_t line_number = 0, start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    std::string where = file_name + ":" + std::to_string(line_number) + ": ";
    std::string content = Trimmed(line);
    if (content.empty() || content[0] == '#') continue;
    size_t hash = content.find('#');
    std::vector<std::string> fields =
        Fields(content.substr(0, hash == std::string::npos ? content.size() : hash));
    std::string reason = hash == std::string::npos ? "" : Trimmed(std::string_view(content).substr(hash + 1));
    if (fields.size() < 2 || fields.size() > 3) {
      *error = where + "a waiver is CHECK-ID PATH-GLOB [KEY-GLOB] # reason, not '" + content + "'";
      return false;
    }
    if (reason.empty()) {
      *error = where + "the waiver has no reason: add '# why this finding is accepted'";
      return false;
    }
    if (!NamesARule(fields[0], rules)) {
      *error = where + "'" + fields[0] + "' names no check (see --list-checks)";
      return false;
    }
    out->push_back({fields[0], GlobOfWrittenText(fields[1]),
                    fields.size() == 3 ? GlobOfWrittenText(fields[2]) : "", reason, file_name, line_number,
                    content});
  }
  return true;
}

bool WaiverMatches(const Waiver& waiver, const Finding& finding, const std::string& path,
                   const std::vector<std::string>& key_values) {
  if (!GlobMatches(waiver.check, finding.check)) return false;
  bool path_matches = false;
  if (waiver.path.find('/') == std::string::npos) {
    path_matches = NameGlobMatches(waiver.path, BaseName(path));
  } else {
    // A leading '/' reads as "from the top of the audited input" (the installed system).
    std::string_view glob = waiver.path;
    while (glob.starts_with('/')) glob.remove_prefix(1);
    path_matches = NameGlobMatches(glob, path) || NameGlobMatches(waiver.path, finding.file);
  }
  if (!path_matches) return false;
  if (waiver.key.empty()) return true;
  for (const std::string& value : key_values)
    if (NameGlobMatches(waiver.key, value)) return true;
  return false;
}

}  // namespace rocm_audit
