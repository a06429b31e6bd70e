// Who outside the compared sides an update hits: the ELF files of the base the updated
// packages are installed over (the installed world's base, or the --root layers) that link
// a library the update changed. Auditing the base would cost an audit of the whole system;
// instead one scan per run reads the dynamic section of each ELF file in the base's program
// and library directories, and the dynamic symbol tables only of those that DT_NEEDED a
// changed SONAME, when a rule asks who binds a removed symbol.
#pragma once

#include <future>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "audit/model/file_facts.h"

namespace rocm_audit {

/// What the base scan read, for the cost the documentation states.
struct BaseScanCost {
  size_t files = 0;          ///< regular files looked at
  size_t elf_files = 0;      ///< of them ELF files whose dynamic section was read
  size_t symbol_tables = 0;  ///< dynamic symbol tables read (files linking a changed SONAME)
};

class BaseConsumers {
 public:
  /// `layers`: host directories, top first (a path shows the first layer's file); none: no
  /// base, nobody is hit there.
  explicit BaseConsumers(std::vector<std::string> layers);
  ~BaseConsumers();

  /// Scans the base on a thread of its own, while the caller audits the other side: the scan
  /// reads tens of thousands of files of the host, mostly in the kernel (open, read, map),
  /// and an audit unpacking one package leaves a core idle. Linking() waits for it.
  void ScanInBackground();
  /// `sides`: the paths each compared side ships, below its input ("usr/lib/libx.so.1", or
  /// "lib/libx.so.1" for a side given at its usr/): the base's copies of them are what the
  /// update replaces, not consumers. A side is one install (installed_layout.h): its copies
  /// are the base's files at its files' places below the one directory of the base where
  /// most of them are found. Before the first Linking().
  void Exclude(std::vector<std::vector<std::string>> sides) { sides_ = std::move(sides); }

  /// The base's ELF files whose DT_NEEDED names `soname`, by the path the installed system
  /// shows ("/usr/bin/prog"), with their imported symbols (ElfFacts::imports). The first
  /// call scans the base, or waits for the scan ScanInBackground() started.
  const std::vector<FileFacts>& Linking(const std::string& soname);
  const BaseScanCost& cost() const { return cost_; }

 private:
  struct Scanned {
    std::string path;  ///< installed path, "/usr/bin/prog"
    std::string host;  ///< where it is read
    std::vector<std::string> needed;
  };
  /// `background`: beside the audits (ScanInBackground()), at the lowest priority.
  void Scan(bool background);
  /// own_: the base's copies of the sides' files, once the scan is done.
  void PlaceSides();

  std::vector<std::string> layers_;
  std::vector<std::vector<std::string>> sides_;
  bool placed_ = false;
  std::set<std::string> own_;  ///< installed paths, "/usr/bin/prog"
  bool scanned_ = false;
  std::future<void> scanning_;  ///< the scan ScanInBackground() started, until Linking() waits
  std::vector<Scanned> elf_;
  std::map<std::string, std::vector<FileFacts>, std::less<>> linking_;
  BaseScanCost cost_;
};

}  // namespace rocm_audit
