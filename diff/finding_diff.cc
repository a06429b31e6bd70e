// new-finding and fixed-finding: the audit findings of the two sides, matched by the key
// --baseline matches them by (policy/finding_key.h), its paths taken below their install
// prefix (installed_layout.h): a defect of a file installed at another prefix on the other
// side is the same defect. A file that one side could not read (side-unreadable) has no
// findings to compare on that side: the other side's are not news.
#include <map>
#include <set>

#include "diff/compare.h"
#include "diff/installed_layout.h"
#include "engine/comparison_rules.h"

namespace rocm_audit {
namespace {

std::set<std::string> Keys(const Side& side) {
  std::set<std::string> out;
  for (const Finding& f : side.findings) out.insert(KeyBelowPrefix(f.key));
  return out;
}

Finding Counterpart(const Rule& rule, const Finding& of, const char* where) {
  Finding f = MakeFinding(rule, of.file);
  f.message = std::string(where) + of.message + " (" + of.check + ")";
  f.fields = {{"rule", of.check}, {"baseline_key", of.key}};
  return f;
}

// Each file a side could not read, by its place below the prefix, with the first finding
// that says so.
std::map<std::string, const Finding*> Unread(const Side& side) {
  std::map<std::string, const Finding*> out;
  for (const Finding& f : side.findings)
    if (SaysUnread(f)) out.emplace(PlaceBelowPrefix(f.file), &f);
  return out;
}

// Files only one side could not read: the place, and that side's finding.
struct UnreadOnOneSide {
  std::map<std::string, const Finding*> old_only, new_only;
  bool Holds(const Finding& f) const {
    const std::string place = PlaceBelowPrefix(f.file);
    return old_only.count(place) || new_only.count(place);
  }
};

UnreadOnOneSide OnOneSide(const Side& old_side, const Side& new_side) {
  UnreadOnOneSide out;
  const auto old_unread = Unread(old_side), new_unread = Unread(new_side);
  for (const auto& [place, f] : old_unread)
    if (!new_unread.count(place)) out.old_only.emplace(place, f);
  for (const auto& [place, f] : new_unread)
    if (!old_unread.count(place)) out.new_only.emplace(place, f);
  return out;
}

Finding SideUnreadable(const Finding& of, bool old, size_t not_compared) {
  Finding f = MakeFinding(kSideUnreadableRule, of.file);
  if (!old) f.severity = of.severity;
  f.message = std::string(old ? "OLD" : "NEW") + " could not read this file: " + of.message + " (" +
              of.check + "); " + std::to_string(not_compared) +
              (not_compared == 1 ? " finding" : " findings") + " of it not compared";
  f.fields = {{"side", old ? "old" : "new"},
              {"rule", of.check},
              {"baseline_key", of.key},
              {"not_compared", not_compared}};
  return f;
}

}  // namespace

// The findings that say an audit could not read a file, or a table of it
// (checks/malformed_file.cc, checks/walk_problems.cc): what it would have found there is
// unknown. Accepted ones too: a waiver does not make the file readable. A file that is only
// partly unreadable was audited (a cap on the names looked up, a table cut short: the note
// says "the rest was audited"), so its findings are compared as any file's; else a note that
// NEW gained would hide the exports NEW dropped.
bool SaysUnread(const Finding& f) {
  if (f.check == "unreadable-file") return true;
  return f.check == "malformed-file" &&
         f.message.find("is partly unreadable (the rest was audited)") == std::string::npos;
}

std::set<std::string> UnreadPlaces(const Side& side) {
  std::set<std::string> out;
  for (const Finding& f : side.findings)
    if (SaysUnread(f)) out.insert(PlaceBelowPrefix(f.file));
  return out;
}

void CompareFindings(const Side& old_side, const Side& new_side, FindingSink& out) {
  const std::set<std::string> before = Keys(old_side);
  const std::set<std::string> after = Keys(new_side);
  const UnreadOnOneSide unread = OnOneSide(old_side, new_side);
  std::map<std::string, size_t> not_compared;  // by place
  // An accepted finding (a waiver or the baseline) is neither new nor fixed news.
  for (const Finding& f : new_side.findings)
    if (!f.suppressed && !before.count(KeyBelowPrefix(f.key))) {
      if (unread.Holds(f)) {
        not_compared[PlaceBelowPrefix(f.file)] += !SaysUnread(f);
        continue;
      }
      Finding n = Counterpart(kNewFindingRule, f, "new in NEW: ");
      n.severity = f.severity;
      out.Add(std::move(n));
    }
  for (const Finding& f : old_side.findings)
    if (!f.suppressed && !after.count(KeyBelowPrefix(f.key))) {
      if (unread.Holds(f))
        not_compared[PlaceBelowPrefix(f.file)] += !SaysUnread(f);
      else
        out.Add(Counterpart(kFixedFindingRule, f, "fixed in NEW: "));
    }
  for (const auto& [place, f] : unread.new_only) out.Add(SideUnreadable(*f, false, not_compared[place]));
  for (const auto& [place, f] : unread.old_only) out.Add(SideUnreadable(*f, true, not_compared[place]));
}

}  // namespace rocm_audit
