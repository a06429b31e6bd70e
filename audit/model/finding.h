// A finding: one defect in one file, as data. Checks produce findings; reports render them.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "audit/model/rule.h"
#include "audit/model/severity.h"
#include "audit/support/path_text.h"

namespace rocm_audit {

/// Why an accepted finding does not count toward --fail-on: a waiver line or the baseline.
struct Suppression {
  std::string kind;    ///< "waiver" | "baseline"
  std::string reason;  ///< the waiver's reason; "present in the baseline" for the baseline
  std::string source;  ///< "FILE:LINE" of the waiver, or the baseline file
};

/// Findings of one file alike but for one number of their message (an entry's index, as
/// in "entry 17 has ..."): reported once, as compilers report a repeated diagnostic.
struct Repeats {
  uint64_t count = 0;             ///< the findings this one stands for, itself included (>= 2)
  std::vector<uint64_t> numbers;  ///< the number of the first few of them, in the order they came
  size_t position = 0;            ///< which number of the message they differ in
};

struct Finding {
  std::string check;  ///< the rule's stable ID (Rule::id)
  Severity severity = Severity::kError;
  std::string file;     ///< the audited file (as found by the walk)
  std::string message;  ///< what is wrong, in one sentence
  std::string hint;     ///< what would fix it, specific to this finding
  /// The check's own machine-readable fields (symbol, version, library, ...), an open
  /// record each check defines for itself: a new check adds fields without touching the
  /// model or a renderer. Copied verbatim into the JSON finding and SARIF properties.
  nlohmann::ordered_json fields = nlohmann::ordered_json::object();
  /// Stable across runs and machines (check, path below the audited input, key fields);
  /// set by the policy, empty before it runs.
  std::string key;
  /// Set when a waiver or the baseline accepts the finding: it is still reported, but
  /// counts toward neither the summary's severities nor the exit status.
  std::optional<Suppression> suppressed;
  /// Set when findings alike were folded into this one (FindingSink).
  std::optional<Repeats> repeated;
  /// Where `message` and `hint` name paths of this machine: the report shows each as it
  /// shows paths (cli/shown_report.cc), and the rest of them is words, shown as they are (an
  /// RPATH entry, a link's target, an ar table's "/SYM64/" stay as the file has them). Set
  /// with the text, by SetMessage, AddToMessage and SetHint; a text assigned whole names none.
  std::vector<TextPath> message_paths;
  std::vector<TextPath> hint_paths;

  void SetMessage(PathText text) {
    message = text.text();
    message_paths = text.paths();
  }
  void AddToMessage(const PathText& more) {
    for (const TextPath& p : more.paths()) message_paths.push_back({p.offset + message.size(), p.size});
    message += more.text();
  }
  void SetHint(PathText text) {
    hint = text.text();
    hint_paths = text.paths();
  }
};

/// A finding of `rule` about `file`: the rule's default severity and generic fix, which the
/// check then makes specific.
Finding MakeFinding(const Rule& rule, const std::string& file);

/// The most bytes of one string of a finding (its message, its hint, each string and member
/// name of its fields), and the most elements of one array of its fields. A name in a file
/// can be as long as the file (a 100 MB DT_NEEDED string), a list as long as the file
/// allows (100,000 RUNPATH entries searched), and a report repeats them; real ones are far
/// shorter (PATH_MAX is 4,096 bytes).
/// The string field `name` of `finding`; "" when it is absent or not a string (the
/// comparison's verdicts and the diff's renderers read fields this way).
inline std::string StringField(const Finding& finding, const char* name) {
  auto it = finding.fields.find(name);
  return it != finding.fields.end() && it->is_string() ? it->get<std::string>() : std::string();
}

inline constexpr size_t kMaxFindingStringBytes = 8192;
inline constexpr size_t kMaxFindingArrayElements = 10000;

/// `text` when it fits kMaxFindingStringBytes; else its start (cut at a character
/// boundary) and "... [N more bytes, FNV-1a H]", the hash of the whole text: two long
/// names that share their start and length still make two findings (finding_key.h).
std::string BoundedText(std::string text);
/// The same text as BoundedText, copying only what it keeps: a name as long as its file is
/// cut where it lies in the mapping.
std::string BoundedView(std::string_view text);

/// BoundedText on the message, the hint and every string of the fields; arrays cut to
/// kMaxFindingArrayElements, the message saying how many elements of which field it left out.
void BoundFindingSize(Finding* finding);

/// The bytes of text a finding carries: its file, rule, message and hint, and every string
/// and member name of its fields (8 for any other value). A report repeats them (a key, a
/// SARIF location) a fixed number of times, so a report's bytes grow with this sum.
uint64_t FindingBytes(const Finding& finding);

/// A file's findings may hold this many times the file's own size in text (FindingBytes),
/// when that is more than the least a run allows (--max-report-bytes-per-file), and its facts'
/// lists as much again: a report then grows with its input's bytes, never with how often a
/// crafted file makes a check quote one name (1,000 DT_NEEDED entries pointing into one 4 KB
/// string of a 20 KB file made 42 MB of JSON).
inline constexpr uint64_t kReportBytesPerFileByte = 16;

/// The text a file of `file_size` bytes may hold in findings, and in its facts' lists: the
/// larger of `least` and kReportBytesPerFileByte times its size.
uint64_t ReportByteBudget(uint64_t least, uint64_t file_size);

/// What one file's findings may hold: a number of findings, and bytes of text (FindingBytes).
struct FindingLimits {
  size_t count = SIZE_MAX;
  uint64_t bytes = UINT64_MAX;
};

/// Collects findings, each bounded in size (BoundFindingSize). Checks only ever append here;
/// they never print.
class FindingSink {
 public:
  FindingSink() = default;
  /// At most `limit` findings kept: the most severe, ties in the order they came.
  explicit FindingSink(size_t limit) : limits_{.count = limit} {}
  /// Within `limits`: the most severe first, ties in the order they came, as long as both the
  /// count and the bytes fit; the first of them is kept whatever its size (a finding is
  /// bounded on its own), so that a file's most severe finding is always reported. Findings
  /// of one file alike but for one number of their message, with the same value of each of
  /// their rule's key fields (`rules` give them), are folded into the first
  /// (Finding::repeated), at most kRepeatsShown numbers named.
  FindingSink(FindingLimits limits, std::span<const Rule* const> rules);
  FindingSink(size_t limit, std::span<const Rule* const> rules) : FindingSink(FindingLimits{limit}, rules) {}

  void Add(Finding finding);
  /// The findings, most severe first (ties in the order they came); past the limits, those
  /// left out are counted in `left_out` (`left_out_for_bytes` of them by the byte limit) and
  /// their bytes in `bytes_left_out`. A folded finding's message ends saying so.
  std::vector<Finding> SortedWithinLimit() &&;
  /// The same findings as SortedWithinLimit, left out and counted alike, in the order they came.
  std::vector<Finding> WithinLimit() &&;

  std::vector<Finding> findings;
  size_t left_out = 0;
  size_t left_out_for_bytes = 0;
  uint64_t bytes_left_out = 0;

 private:
  // Folds `f` into an earlier finding alike; false when there is none.
  bool Fold(const Finding& f);
  // Sorts `findings` and cuts them to the limits, counting what goes.
  void CutToLimits();

  FindingLimits limits_;
  uint64_t bytes_ = 0;                                                         ///< FindingBytes of `findings`
  std::unordered_map<std::string_view, std::vector<std::string>> key_fields_;  ///< by rule ID
  struct Alike {
    size_t index;                   ///< into findings
    std::vector<uint64_t> numbers;  ///< of its message
  };
  std::unordered_map<std::string, Alike> alike_;  ///< by their shape (finding.cc, ShapeOf)
};

/// The most numbers a folded finding names.
inline constexpr size_t kRepeatsShown = 5;

}  // namespace rocm_audit
