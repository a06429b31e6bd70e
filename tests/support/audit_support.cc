#include "tests/support/audit_support.h"

#include <gtest/gtest.h>

namespace rocm_audit::testing {

Report AuditWith(const AuditRequest& options) {
  Report report;
  std::string error;
  EXPECT_TRUE(rocm_audit::Audit(options, &report, &error)) << error;
  return report;
}

Report Audit(const std::vector<std::string>& paths, const std::string& root,
             std::vector<std::string> library_path, std::string conf) {
  AuditRequest o;
  o.paths = paths;
  if (!root.empty()) o.roots = {root};
  o.library_path = std::move(library_path);
  o.ld_so_conf = std::move(conf);
  o.jobs = 2;
  return AuditWith(o);
}

std::vector<Finding> FindingsOf(const Report& report, const std::string& check, const std::string& file) {
  std::vector<Finding> out;
  for (const Finding& f : report.findings)
    if (f.check == check && (file.empty() || f.file == file)) out.push_back(f);
  return out;
}

std::vector<std::string> FilesOf(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const Finding& f : findings) out.push_back(f.file);
  return out;
}

std::vector<std::string> AuditedPaths(const Report& report) {
  std::vector<std::string> out;
  for (const FileFacts& f : report.files) out.push_back(f.path);
  return out;
}

const FileFacts* FactsOf(const Report& report, const std::string& file) {
  for (const FileFacts& f : report.files)
    if (f.path == file) return &f;
  return nullptr;
}

std::vector<std::string> ClosureOf(const Report& report, const std::string& file) {
  const FileFacts* f = FactsOf(report, file);
  return f && f->closure ? f->closure->objects : std::vector<std::string>();
}

std::vector<std::string> UnresolvedOf(const Report& report, const std::string& file) {
  const FileFacts* f = FactsOf(report, file);
  return f && f->closure ? f->closure->unresolved : std::vector<std::string>();
}

}  // namespace rocm_audit::testing
