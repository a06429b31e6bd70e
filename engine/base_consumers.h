// Who outside the compared sides an update hits: the ELF files of the base the updated
// packages are installed over (the installed world's base, or the --root layers) that link
// a library the update changed, and those a consumer index lists (consumer_index.h: the
// files of an archive's packages, indexed beforehand). Auditing the base would cost an audit
// of the whole system; instead one scan per run reads the dynamic section of each ELF file in
// the base's program and library directories (audit/fs/program_directories.h), mapped in an
// arena per worker (audit/elf/mapped_file_arena.h) on the run's --jobs workers, and the
// dynamic symbol tables only of those that DT_NEEDED a changed SONAME.
#pragma once

#include <functional>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "audit/model/file_facts.h"
#include "engine/audit_request.h"

namespace rocm_audit {

/// What the base scan read, for the cost the documentation states.
struct BaseScanCost {
  size_t files = 0;          ///< regular files looked at
  size_t elf_files = 0;      ///< of them ELF files whose dynamic section was read
  size_t symbol_tables = 0;  ///< dynamic symbol tables read (files linking a changed SONAME)
  size_t workers = 0;        ///< the scan's pool: the run's --jobs (a helping caller aside)
};

/// The consumer facts of the ELF file at `host` (soname, needed, imports, exports), as the
/// base scan reads them; none for a file that is no consumer (not ELF, refused by the reader,
/// no dynamic section: ld.so would not load it either).
std::optional<ElfFacts> ReadConsumerFacts(const std::string& host);

/// The base `inputs` will be installed over when it is known before they are audited: the
/// world of .deb or .rpm PATHs with no --root, --sibling or --no-base is installed over /
/// (engine/installed_world.h). Otherwise empty, and their audit says.
std::vector<std::string> BaseKnownBeforehand(const AuditRequest& request,
                                             const std::vector<std::string>& inputs);

class BaseConsumers {
 public:
  /// `layers`: host directories, top first (a path shows the first layer's file); none: no
  /// base, nobody is hit there. `jobs`: the run's --jobs (0: the hardware's threads).
  explicit BaseConsumers(std::vector<std::string> layers, unsigned jobs = 0);
  ~BaseConsumers();

  /// Scans the base on a thread of its own, while the caller audits the other side: the scan
  /// reads tens of thousands of files of the host, mostly in the kernel (open, read, map),
  /// and an audit unpacking one package leaves a core idle. Linking() waits for it.
  void ScanInBackground();
  /// Consumers beside the base, read from consumer indexes: `path` "PACKAGE:/usr/bin/prog",
  /// `installed` "/usr/bin/prog". Before the first Linking().
  void AddIndexed(std::string installed, FileFacts consumer);
  /// Which of the installed paths of the base's and the indexes' ELF files are the sides'
  /// own copies, the files the update replaces, not consumers: asked once, at the first
  /// Linking(), with every such path (sorted, "/usr/lib/libx.so.1").
  using Replaced = std::function<std::set<std::string>(const std::vector<std::string>& installed)>;
  void Exclude(Replaced replaced) { replaced_ = std::move(replaced); }

  /// The base's ELF files whose DT_NEEDED names `soname`, by the path the installed system
  /// shows ("/usr/bin/prog"), then the indexes' ("PACKAGE:/usr/bin/prog"), with their
  /// imported symbols (ElfFacts::imports). The first call scans the base, or waits for the
  /// scan ScanInBackground() started.
  const std::vector<FileFacts>& Linking(const std::string& soname);
  const BaseScanCost& cost() const { return cost_; }

 private:
  struct Scanned {
    std::string path;  ///< installed path, "/usr/bin/prog"
    std::string host;  ///< where it is read
    std::vector<std::string> needed;
  };
  struct Indexed {
    std::string installed;
    FileFacts facts;
  };
  struct ScanWork;
  /// The base's directories and the chunks of their files, into work_.
  void List();
  /// kBackground: beside the audits (ScanInBackground()), at the lowest priority; kHelping:
  /// the caller that needs the scan, taking the chunks left.
  enum class ScanMode { kForeground, kBackground, kHelping };
  /// Takes chunks of work_ until none is left.
  void ScanChunks(ScanMode mode);
  /// The scan done (by the caller, or with the caller's help), its ELF files in elf_.
  void FinishScan();
  /// own_: the sides' copies, once the scan is done.
  void PlaceSides();

  std::vector<std::string> layers_;
  unsigned jobs_ = 0;
  Replaced replaced_;
  bool placed_ = false;
  std::set<std::string> own_;  ///< installed paths, "/usr/bin/prog"
  bool scanned_ = false;
  std::unique_ptr<ScanWork> work_;  ///< while the scan runs
  std::promise<void> listed_;       ///< set once work_ lists the base
  std::future<void> listed_future_;
  std::future<void> scanning_;  ///< the scan ScanInBackground() started, until Linking() waits
  std::vector<Scanned> elf_;
  std::vector<Indexed> indexed_;
  std::map<std::string, std::vector<FileFacts>, std::less<>> linking_;
  BaseScanCost cost_;
};

}  // namespace rocm_audit
