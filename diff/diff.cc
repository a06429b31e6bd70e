#include "diff/diff.h"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "diff/compare.h"
#include "diff/side.h"
#include "engine/audit.h"
#include "engine/known_rules.h"

namespace rocm_audit {
namespace {

// A regular file that starts like a JSON object is read as a report; a package never does.
bool ReadReportText(const std::string& input, std::string* text) {
  struct stat st;
  if (stat(input.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  std::ifstream in(input, std::ios::binary);
  char first = 0;
  while (in.get(first) && std::isspace(static_cast<unsigned char>(first))) {}
  if (first != '{') return false;
  in.seekg(0);
  std::ostringstream all;
  all << in.rdbuf();
  *text = std::move(all).str();
  return IsJsonReport(*text);
}

bool LoadSide(const AuditRequest& request, const std::string& input, Side* side, std::string* error) {
  std::string text;
  if (ReadReportText(input, &text)) {
    side->base = request.roots;
    return SideOfJsonReport(input, text, side, error);
  }
  AuditRequest one = request;
  one.paths = {input};
  one.symbol_facts = true;
  one.release_at_exit = false;  // a second audit follows in this process
  Report report;
  if (!Audit(one, &report, error)) return false;
  *side = SideOfReport(input, std::move(report));
  return true;
}

}  // namespace

bool Diff(const AuditRequest& request, const std::string& old_input, const std::string& new_input,
          Report* report, std::string* error) {
  Side old_side, new_side;
  if (!LoadSide(request, old_input, &old_side, error) || !LoadSide(request, new_input, &new_side, error))
    return false;
  report->inputs.paths = {old_input, new_input};
  report->inputs.roots = request.roots;
  report->inputs.library_path = request.library_path;
  report->inputs.suppress_files = request.suppress_files;
  report->inputs.baseline_file = request.policy.baseline_file;
  report->rules = KnownRules();
  // The summary counts the files of NEW, the side the findings are about.
  for (const FileFacts& f : new_side.files) ++report->streamed_by_kind[f.kind];
  report->findings = CompareSides(old_side, new_side);
  ApplyPolicy(request.policy, report);
  ArrangeDeclaredFields(report);
  return true;
}

}  // namespace rocm_audit
