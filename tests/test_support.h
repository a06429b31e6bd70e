// Shared helpers for tests: temporary trees built with the real toolchain through
// fixtures/lib.sh, and in-process audit runs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "audit/audit_run.h"
#include "reports/report.h"

namespace rocm_audit::testing {

/// A fresh directory, removed with everything in it when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& rel) const { return path_ + "/" + rel; }

 private:
  std::string path_;
};

/// Runs `script` with bash in `dir`, after sourcing fixtures/lib.sh (mklib, mkexe, ...).
/// Fails the current test (and returns false) when the script fails.
bool BuildTree(const std::string& dir, const std::string& script);

/// Runs a shell command; returns its exit status and its standard output.
int RunCommand(const std::string& command, std::string* output = nullptr);

/// An in-process audit of `paths`, rooted at `root` (empty: the host), with no
/// ld.so.conf unless `conf` names one inside the root.
Report Audit(const std::vector<std::string>& paths, const std::string& root,
             std::vector<std::string> library_path = {}, std::string conf = "/etc/ld.so.conf");
Report AuditWith(const AuditOptions& options);

/// Findings of one check, optionally only those about `file`.
std::vector<Finding> FindingsOf(const Report& report, const std::string& check,
                                const std::string& file = "");

/// The closure (resolved paths, load order) rocm-audit recorded for `file`.
std::vector<std::string> ClosureOf(const Report& report, const std::string& file);
std::vector<std::string> UnresolvedOf(const Report& report, const std::string& file);

/// The whole file (empty when it cannot be read).
std::string ReadAll(const std::string& path);
void WriteAll(const std::string& path, std::string_view bytes);

/// The real-package corpus: $CORPUS, default $HOME/rocm-corpus (may not exist).
std::string CorpusRoot();

/// Whether `tool` is on PATH.
bool HaveTool(const std::string& tool);

}  // namespace rocm_audit::testing
