#include "policy/policy.h"

#include <filesystem>
#include <map>

#include "policy/finding_key.h"
#include "policy/name_glob.h"

namespace rocm_audit {

// Note: no defect of the tree; a stale waiver only hides the next finding it happens to match. lintian:
// unused-override, info (not shown by default); auditwheel: none.
const Rule kUnusedWaiverRule{
    .id = "unused-waiver",
    .severity = Severity::kNote,
    .title = "a --suppress waiver that accepted no finding: stale, or mistyped",
    .fix = "delete the waiver, or correct its check, path or key glob",
    .key_fields = "line",
    .explanation =
        "A line of a --suppress file accepted none of this run's findings. Either the defect it waived has "
        "been fixed, and the line only hides the next defect that happens to match it, or its check ID, "
        "path glob or key glob does not say what its author meant (a path glob without '/' matches file "
        "names; one with '/' matches the path below the audited input). Delete the line, or correct it; the "
        "waiver file stays a list of defects still accepted.",
    .example =
        "rocm-audit.suppress\n"
        "  note[unused-waiver]: waiver matched no finding: undefined-symbol libthread_db.so* ps_* # gdb "
        "provides ps_*\n"
        "    fix: delete the waiver, or correct its check, path or key glob",
    .cause_fields = "*",
    .cause = "{n} waivers matched no finding, in {files}",
    .fields = "line:integer waiver:string",
};

namespace {

// weakly_canonical(p), each directory resolved once: a path that exists and is no symbolic
// link is its directory's canonical form and its name (one lstat(2)), where
// weakly_canonical reads every component of every input again (a readlink(2) each).
std::filesystem::path WeaklyCanonical(const std::filesystem::path& p,
                                      std::map<std::filesystem::path, std::filesystem::path>* dirs,
                                      std::error_code& ec) {
  const std::filesystem::path name = p.filename();
  std::error_code lstat_ec;
  const auto status = std::filesystem::symlink_status(p, lstat_ec);
  if (name.empty() || name == "." || name == ".." || lstat_ec || !std::filesystem::exists(status) ||
      std::filesystem::is_symlink(status))
    return std::filesystem::weakly_canonical(p, ec);
  const std::filesystem::path parent = p.has_parent_path() ? p.parent_path() : ".";
  auto [dir, fresh] = dirs->try_emplace(parent);
  if (fresh) dir->second = std::filesystem::weakly_canonical(parent, ec);
  if (ec || dir->second.empty()) return std::filesystem::weakly_canonical(p, ec);
  return dir->second / name;
}

// Each input as given and as an absolute path, so that keys of fields holding absolute
// paths under an input are relative too.
std::vector<std::string> InputForms(const std::vector<std::string>& paths) {
  std::vector<std::string> out = paths;
  std::map<std::filesystem::path, std::filesystem::path> dirs;
  for (const std::string& p : paths) {
    std::error_code ec;
    std::filesystem::path absolute = std::filesystem::absolute(p, ec).lexically_normal();
    if (!ec) out.push_back(absolute.string());
    std::filesystem::path canonical = WeaklyCanonical(p, &dirs, ec);
    if (!ec) out.push_back(canonical.string());
  }
  return out;
}

bool GlobNamesARule(const std::string& glob, std::span<const Rule> rules) {
  for (const Rule& r : rules)
    if (GlobMatches(glob, r.id)) return true;
  return false;
}

Finding UnusedWaiverNote(const Waiver& w) {
  Finding n = MakeFinding(kUnusedWaiverRule, w.file);
  n.message = "waiver matched no finding: " + w.text;
  n.fields["line"] = w.line;
  n.fields["waiver"] = w.text;
  return n;
}

}  // namespace

bool CheckPolicyNames(const Policy& policy, std::span<const Rule> rules, std::string* error) {
  auto check = [&](const std::string& glob, const char* option) {
    if (GlobNamesARule(glob, rules)) return true;
    *error = std::string(option) + " " + glob + ": names no check (see --list-checks)";
    return false;
  };
  for (const std::string& g : policy.enable)
    if (!check(g, "--enable")) return false;
  for (const std::string& g : policy.disable)
    if (!check(g, "--disable")) return false;
  for (const auto& [g, level] : policy.severity)
    if (!check(g, "--severity")) return false;
  return true;
}

bool RuleEnabled(const Policy& policy, std::string_view id) {
  bool on = policy.enable.empty();
  for (const std::string& g : policy.enable) on |= GlobMatches(g, id);
  for (const std::string& g : policy.disable) on &= !GlobMatches(g, id);
  return on;
}

void ApplyPolicy(const Policy& policy, Report* report) {
  // Files unpacked from packages are keyed below the directory they were unpacked into
  // ("usr/lib/libx.so.1"), as their package would install them.
  std::vector<std::string> paths = report->inputs.paths;
  if (!report->inputs.unpacked_into.empty()) paths.push_back(report->inputs.unpacked_into);
  const std::vector<std::string> inputs = InputForms(paths);
  std::map<std::string, std::string_view, std::less<>> key_fields;
  for (const Rule& r : report->rules) {
    key_fields[std::string(r.id)] = r.key_fields;
    if (!RuleEnabled(policy, r.id)) report->disabled.push_back(std::string(r.id));
  }
  std::erase_if(report->findings, [&](const Finding& f) { return !RuleEnabled(policy, f.check); });

  std::vector<size_t> uses(policy.waivers.size(), 0);
  std::map<std::string, size_t> baseline;  // key -> findings of the baseline it still accepts
  for (const std::string& k : policy.baseline_keys) ++baseline[k];
  for (Finding& f : report->findings) {
    std::string_view fields = key_fields[f.check];
    f.key = FindingKey(f, fields, inputs);
    const std::string path = PathBelowInput(f.file, inputs);
    const std::vector<std::string> values = KeyValues(f, fields);
    for (size_t i = 0; i < policy.waivers.size() && !f.suppressed; ++i) {
      const Waiver& w = policy.waivers[i];
      if (!WaiverMatches(w, f, path, values)) continue;
      f.suppressed = Suppression{"waiver", w.reason, w.Source()};
      ++uses[i];
    }
    auto accepted = baseline.find(f.key);
    if (!f.suppressed && accepted != baseline.end() && accepted->second > 0) {
      --accepted->second;
      f.suppressed = Suppression{"baseline", "present in the baseline", policy.baseline_file};
    }
  }
  if (RuleEnabled(policy, kUnusedWaiverRule.id))
    for (size_t i = 0; i < policy.waivers.size(); ++i)
      if (!uses[i]) {
        Finding n = UnusedWaiverNote(policy.waivers[i]);
        n.key = FindingKey(n, kUnusedWaiverRule.key_fields, {});
        report->findings.push_back(std::move(n));
      }
  for (Finding& f : report->findings)
    for (const auto& [glob, level] : policy.severity)
      if (GlobMatches(glob, f.check)) f.severity = level;
}

}  // namespace rocm_audit
