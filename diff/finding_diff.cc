// new-finding and fixed-finding: the audit findings of the two sides, matched by the key
// --baseline matches them by (policy/finding_key.h), its paths taken below their install
// prefix (installed_layout.h): a defect of a file installed at another prefix on the other
// side is the same defect. A file that one side could not read (side-unreadable) has no
// findings to compare on that side: the other side's are not news.
#include <map>
#include <set>

#include "diff/compare.h"
#include "diff/file_identity.h"
#include "diff/installed_layout.h"
#include "engine/comparison_rules.h"

namespace rocm_audit {
namespace {

// Each finding of a side by what it is about (file_identity.h), counted: a key an audit
// gives twice (a RUNPATH listing one missing directory twice) is two findings, matched one
// for one.
class IdentityKeys {
 public:
  explicit IdentityKeys(const Side& side) : identity_(FileIdentities(side)) {
    for (const Finding& f : side.findings)
      ++count_[Of(f)];  // accepted ones too: an accepted defect is not news when it reappears
  }
  std::string Of(const Finding& f) const { return KeyByIdentity(f.key, identity_); }
  /// Takes one finding of `key` from this side; false when none is left.
  bool Take(const std::string& key) {
    auto it = count_.find(key);
    if (it == count_.end() || it->second == 0) return false;
    --it->second;
    return true;
  }

 private:
  std::map<std::string, std::string, std::less<>> identity_;
  std::map<std::string, size_t> count_;
};

// `occurrence`: the how-manieth finding of its key on its side, given from the second on so
// that no two findings of the diff share a key.
// `side`: the side `of` is a finding of, whose package of the file the finding names.
Finding Counterpart(const Rule& rule, const Finding& of, const Side& side, const char* where,
                    size_t occurrence) {
  Finding f = MakeFinding(rule, of.file);
  f.message = std::string(where) + of.message + " (" + of.check + ")";
  f.fields = {{"rule", of.check}, {"baseline_key", of.key}};
  if (occurrence > 1) f.fields["occurrence"] = occurrence;
  if (const SidePackage* p = side.PackageOf(of.file)) f.fields["package"] = p->name;
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
  IdentityKeys before(old_side), after(new_side);
  const UnreadOnOneSide unread = OnOneSide(old_side, new_side);
  std::map<std::string, size_t> not_compared;  // by place
  std::map<std::string, size_t> seen;          // occurrences by baseline key
  // An accepted finding (a waiver or the baseline) is neither new nor fixed news.
  for (const Finding& f : new_side.findings)
    if (!f.suppressed && !before.Take(after.Of(f))) {
      if (unread.Holds(f)) {
        not_compared[PlaceBelowPrefix(f.file)] += !SaysUnread(f);
        continue;
      }
      Finding n = Counterpart(kNewFindingRule, f, new_side, "new in NEW: ", ++seen["new|" + f.key]);
      n.severity = f.severity;
      out.Add(std::move(n));
    }
  IdentityKeys now(new_side);
  for (const Finding& f : old_side.findings)
    if (!f.suppressed && !now.Take(before.Of(f))) {
      if (unread.Holds(f))
        not_compared[PlaceBelowPrefix(f.file)] += !SaysUnread(f);
      else
        out.Add(Counterpart(kFixedFindingRule, f, old_side, "fixed in NEW: ", ++seen["fixed|" + f.key]));
    }
  for (const auto& [place, f] : unread.new_only) out.Add(SideUnreadable(*f, false, not_compared[place]));
  for (const auto& [place, f] : unread.old_only) out.Add(SideUnreadable(*f, true, not_compared[place]));
}

}  // namespace rocm_audit
