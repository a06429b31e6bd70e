// What an audit hands out while it runs, before the Report is whole. The engine calls these
// from its worker threads, in any order; an implementation serialises what it shares.
//
// File facts are the one stream that changes what the Report holds: a sink that takes them
// (the JSON report renders each file's files[] element as it comes; SARIF, JUnit and GitLab
// only count files) keeps the run's memory flat, where a Report keeping every file's facts
// grows with the tree. The Report then counts those files by kind
// (Report::streamed_by_kind). Everything else here only observes.
#pragma once

#include <cstddef>

#include "audit/inspect/inspected_file.h"
#include "audit/inspect/load_facts.h"
#include "audit/loader/search_path.h"
#include "audit/model/file_facts.h"
#include "audit/model/report.h"

namespace rocm_audit {

class AuditSinks {
 public:
  virtual ~AuditSinks() = default;

  /// Once, when the inputs are known (packages unpacked, roots resolved) and before any
  /// file is read: true when this sink takes every audited file's facts (FileFacts) instead
  /// of the Report.
  virtual bool TakesFileFacts(const ReportInputs& inputs) {
    (void)inputs;
    return false;
  }
  /// Whether the load graph (ClosureFacts::nodes: an edge per DT_NEEDED of every object of
  /// every closure, the tree view's) is made into the files' facts. A report that never
  /// draws it says no: kept for every file of a tree, it grows with the sum of the closures.
  virtual bool DrawsLoadGraph() const { return true; }
  /// One audited file's facts, with its index in walk order (only when TakesFileFacts).
  virtual void FileFactsReady(size_t index, FileFacts&& facts) {
    (void)index;
    (void)facts;
  }
  /// One loadable file's loader facts (closure, binding), with its index in walk order, as
  /// soon as they are made.
  virtual void LoadFactsReady(size_t index, const InspectedFile& file, const LoadFacts& load,
                              const LoaderConfig& loader) {
    (void)index;
    (void)file;
    (void)load;
    (void)loader;
  }
  /// `phase` is "scanning" (total 0: not known yet), "reading" or "auditing".
  virtual void Progress(const char* phase, size_t done, size_t total) {
    (void)phase;
    (void)done;
    (void)total;
  }
};

}  // namespace rocm_audit
