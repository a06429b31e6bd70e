// The finished audit: what reports render. Reports never analyse; they read this.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "audit/model/file_facts.h"
#include "audit/model/finding.h"
#include "audit/model/rule.h"

namespace rocm_audit {

/// A package given as a PATH, unpacked and audited as installed.
struct InputPackage {
  std::string file;          ///< as given
  std::string format;        ///< deb, rpm, wheel, conda, tar, zip
  std::string name;          ///< what the package calls itself (its file name when it does not say)
  std::string version;       ///< "" when it does not say
  std::string architecture;  ///< a .deb's Architecture; "" otherwise
  std::vector<std::string> depends;
  /// Not in the JSON report: the files and links it unpacked, relative to `unpacked_into`,
  /// so that reports name them PACKAGE:/member.
  std::vector<std::string> members;
  std::vector<std::string> provides;  ///< a .deb's Provides; not in the JSON report
  /// A .deb's Source (its name, else the package's) and the source version it names ("" when
  /// the same as the package's); "" for other formats.
  std::string source, source_version;
  std::vector<std::string> conflicts, breaks, replaces;  ///< a .deb's, one relation each
};

/// What the run was asked to audit, and how the loader was configured.
struct ReportInputs {
  std::vector<std::string> paths;
  std::vector<std::string> roots;  ///< --root layers, canonical, top first
  std::vector<std::string> library_path;
  std::vector<std::string> ld_so_conf_dirs;  ///< what the ld.so.conf files named
  std::vector<std::string> suppress_files;   ///< --suppress, in order
  std::string baseline_file;                 ///< --baseline; empty: none
  std::vector<InputPackage> packages;        ///< PATHs that were packages, in order
  std::string unpacked_into;                 ///< the private directory they were unpacked into (gone now)
  /// The installed world (design.md §1.1): whether the audited files are the top of layers
  /// (packages, or --sibling trees beside them), the sibling layers, and the base below
  /// them (layers, canonical; empty with --no-base).
  bool installed_world = false;
  std::vector<std::string> siblings;
  std::vector<std::string> base;
  std::vector<std::string> replacing;  ///< packages whose installed copies in the base are replaced
  /// `diff OLD NEW`: the PATHs of each side (sorted: a set has no order); `paths` lists
  /// OLD's then NEW's. Both empty in an audit.
  std::vector<std::string> old_paths, new_paths;
  /// `diff OLD NEW`: how the sides' audits differ ("base: OLD over no base (--no-base), NEW
  /// over /"), one line each; empty when they ran alike.
  std::vector<std::string> sides_differ;
};

/// `diff OLD NEW`: what the update means for one package of NEW (NEW itself when it is no
/// package), first of the report: compatible, or each thing it needs or drops.
struct PackageVerdict {
  std::string package;      ///< its name, or NEW's PATHs when NEW is no package
  std::string old_version;  ///< "" when OLD has no package of the name, or it says none
  std::string new_version;
  /// The source package it is built from (NEW's, else OLD's), and the version Source: names
  /// when not the package's own; "" when no .deb says (a tree, another format).
  std::string source, source_version;
  /// The package file as given (a .deb's path), else NEW's first PATH: where a dashboard
  /// shows the verdict.
  std::string file;
  /// One line each, most severe first: "needs a SONAME bump: ...", "needs a transition: ...",
  /// "drops GPU processors: ...", "drops CMake interface: ...". Empty: compatible.
  std::vector<std::string> needs;
  size_t new_defects = 0;  ///< new-finding findings of its files that count
  /// The most severe of the findings its `needs` come from (a gate's level); kNote when
  /// compatible.
  Severity severity = Severity::kNote;
};

struct Report {
  ReportInputs inputs;
  std::vector<PackageVerdict> verdicts;  ///< `diff` only: per package of NEW
  /// Audited files, in walk order: those whose facts the run kept. A run that hands each
  /// file's facts to a sink as it goes (the JSON report renders files[] then) keeps none,
  /// and counts them in `streamed_by_kind`.
  std::vector<FileFacts> files;
  std::map<std::string, size_t> streamed_by_kind;  ///< audited files not kept, by kind
  std::map<std::string, size_t> counts;            ///< every walked file, by kind
  std::vector<Finding> findings;                   ///< grouped by file (walk order), most severe first
  std::vector<Rule> rules;                         ///< every rule the run could report, for legends
  std::vector<std::string> disabled;               ///< rule IDs the policy turned off (--enable/--disable)

  /// Every audited file, kept or streamed: in all, and by kind (FileFacts::kind).
  size_t FilesAudited() const;
  std::map<std::string, size_t> AuditedByKind() const;
  /// Findings of severity `s` that count (not suppressed).
  size_t Count(Severity s) const;
  /// Suppressed findings of one kind ("waiver" | "baseline").
  size_t CountSuppressed(std::string_view kind) const;
  /// Whether any finding that counts is at or above `level`.
  bool HasFindingsAtOrAbove(Severity level) const;
};

/// Orders each finding's fields as its rule declares them (Rule::fields), so that every
/// renderer emits them in that order; fields a rule does not declare (none: a test checks
/// every fixture report) go last.
void ArrangeDeclaredFields(Report* report);

}  // namespace rocm_audit
