#include "diff/diff.h"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <future>
#include <memory>
#include <sstream>

#include "diff/compare.h"
#include "diff/package_verdict.h"
#include "diff/side.h"
#include "engine/audit.h"
#include "engine/base_consumers.h"
#include "engine/consumer_index.h"
#include "engine/known_rules.h"

namespace rocm_audit {
namespace {

// A regular file that starts like a JSON object may be a report; a package never does.
bool ReadJsonText(const std::string& input, std::string* text) {
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
  return true;
}

bool LoadSide(const AuditRequest& request, const std::vector<std::string>& inputs, Side* side,
              std::string* error) {
  std::string text;
  for (const std::string& input : inputs) {
    if (!ReadJsonText(input, &text)) continue;
    Side read;
    const ReportSide what = SideOfJsonReport(input, text, &read, error);
    if (what == ReportSide::kError) return false;
    if (what == ReportSide::kNotAReport) continue;
    if (inputs.size() > 1) {
      *error = input + ": a JSON report is a side of diff alone, not one of a set";
      return false;
    }
    *side = std::move(read);
    side->base = request.roots;
    return true;
  }
  AuditRequest one = request;
  one.paths = inputs;
  one.symbol_facts = true;
  one.release_at_exit = false;  // a second audit follows in this process
  Report report;
  if (!Audit(one, &report, error)) return false;
  *side = SideOfReport(inputs, std::move(report));
  return true;
}

// How the two sides' audits differ, one line per condition: findings that depend on the base
// or on an option ("libdrm.so.2 not found" with --no-base, found over /) differ between
// sides audited differently although the update changed nothing.
std::vector<std::string> SidesDiffer(const Side& old_side, const Side& new_side) {
  std::vector<std::string> out;
  for (const auto& [what, old_value] : old_side.audited_with) {
    auto now = new_side.audited_with.find(what);
    if (now != new_side.audited_with.end() && now->second != old_value)
      out.push_back(what + ": OLD " + old_value + ", NEW " + now->second);
  }
  return out;
}

}  // namespace

bool Diff(const AuditRequest& request, std::vector<std::string> old_inputs,
          std::vector<std::string> new_inputs, Report* report, std::string* error,
          const std::vector<std::string>& consumer_indexes) {
  // A set has no order: its packages are installed in one operation, and the report of a
  // set given in any order is the same.
  std::sort(old_inputs.begin(), old_inputs.end());
  std::sort(new_inputs.begin(), new_inputs.end());
  // The two sides are audited at once, and the base is scanned for consumers beside them when
  // it is known beforehand: unpacking a package decodes each of its compressed blocks on one
  // thread, and an audit run alone leaves a core idle meanwhile. The runs share nothing but
  // the private directory's registry, which is locked.
  const std::vector<std::string> expected_base = BaseKnownBeforehand(request, new_inputs);
  auto base = std::make_unique<BaseConsumers>(expected_base, request.jobs);
  base->ScanInBackground();
  Side old_side, new_side;
  std::string old_error;
  // --jobs N is the whole run's: each side's audit gets half (its packages decoded N/2 at a
  // time), and with one job the sides are audited one after the other.
  AuditRequest side_request = request;
  if (request.jobs > 1) side_request.jobs = request.jobs / 2;
  std::future<bool> old_loaded =
      std::async(request.jobs == 1 ? std::launch::deferred : std::launch::async,
                 [&] { return LoadSide(side_request, old_inputs, &old_side, &old_error); });
  const bool new_loaded = LoadSide(side_request, new_inputs, &new_side, error);
  const bool old_ok = old_loaded.get();
  if (!new_loaded) return false;  // NEW's error first, as a run reading NEW first would say
  if (!old_ok) {
    *error = std::move(old_error);
    return false;
  }
  // A report side, or a world other than the one foreseen: the base NEW's audit names.
  if (new_side.base != expected_base) {
    base = std::make_unique<BaseConsumers>(new_side.base, request.jobs);
    if (!new_side.from_report) base->ScanInBackground();
  }
  for (const std::string& index : consumer_indexes)
    if (!ReadConsumerIndex(index, base.get(), error)) return false;
  report->inputs.paths = old_inputs;
  report->inputs.paths.insert(report->inputs.paths.end(), new_inputs.begin(), new_inputs.end());
  report->inputs.old_paths = old_inputs;
  report->inputs.new_paths = new_inputs;
  report->inputs.roots = request.roots;
  report->inputs.library_path = request.library_path;
  report->inputs.suppress_files = request.suppress_files;
  report->inputs.baseline_file = request.policy.baseline_file;
  report->inputs.sides_differ = SidesDiffer(old_side, new_side);
  report->inputs.base = new_side.base;  // named on the first line; no world of its own
  report->rules = KnownRules();
  // The summary counts the files of NEW, the side the findings are about.
  for (const FileFacts& f : new_side.files) ++report->streamed_by_kind[f.kind];
  report->findings = CompareSides(old_side, new_side, *base);
  ApplyPolicy(request.policy, report);
  ArrangeDeclaredFields(report);
  report->verdicts = PackageVerdicts(old_side, new_side, report->findings);
  return true;
}

}  // namespace rocm_audit
