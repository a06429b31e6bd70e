#include "diff/debian_relations.h"

#include "audit/support/text.h"

namespace rocm_audit {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// lib/dpkg/version.c order(): digits 0, letters themselves, '~' before everything (even the
// end), other characters after the letters.
int Order(char c) {
  if (IsDigit(c)) return 0;
  if (IsAlpha(c)) return static_cast<unsigned char>(c);
  if (c == '~') return -1;
  if (c) return static_cast<unsigned char>(c) + 256;
  return 0;
}

// lib/dpkg/version.c verrevcmp(): alternating runs of non-digits (by Order) and digits (by
// value, leading zeros dropped); the end of a string reads as '\0'.
int VerRevCmp(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  auto at = [](std::string_view s, size_t k) { return k < s.size() ? s[k] : '\0'; };
  while (i < a.size() || j < b.size()) {
    while ((i < a.size() && !IsDigit(a[i])) || (j < b.size() && !IsDigit(b[j]))) {
      const int ac = Order(at(a, i)), bc = Order(at(b, j));
      if (ac != bc) return ac - bc;
      ++i, ++j;
    }
    while (at(a, i) == '0') ++i;
    while (at(b, j) == '0') ++j;
    int first_diff = 0;
    while (IsDigit(at(a, i)) && IsDigit(at(b, j))) {
      if (!first_diff) first_diff = at(a, i) - at(b, j);
      ++i, ++j;
    }
    if (IsDigit(at(a, i))) return 1;
    if (IsDigit(at(b, j))) return -1;
    if (first_diff) return first_diff;
  }
  return 0;
}

struct Version {
  unsigned long long epoch = 0;
  std::string_view upstream, revision;
};

// lib/dpkg/parsehelp.c parseversion(): the epoch before the first ':', the revision after
// the last '-'. An epoch that is not a number is taken as 0 (dpkg refuses the version; a
// relation that names it then matches nothing it would not match anyway).
Version Parse(std::string_view v) {
  Version out;
  v = Trim(v);
  if (size_t colon = v.find(':'); colon != std::string_view::npos) {
    for (char c : v.substr(0, colon))
      if (IsDigit(c) && out.epoch < 1000000000ULL) out.epoch = out.epoch * 10 + (c - '0');
    v = v.substr(colon + 1);
  }
  const size_t dash = v.rfind('-');
  out.upstream = v.substr(0, dash);
  if (dash != std::string_view::npos) out.revision = v.substr(dash + 1);
  return out;
}

struct Relation {
  std::string_view name, op, version;
};

// "name[:arch] [(op version)]"; alternatives ("a | b") are not allowed in these fields
// (deb-control(5)): the first is taken.
Relation ParseRelation(std::string_view r) {
  Relation out;
  r = Trim(r.substr(0, r.find('|')));
  const size_t end = r.find_first_of(" \t([");
  out.name = r.substr(0, end);
  out.name = out.name.substr(0, out.name.find(':'));
  const size_t open = r.find('('), close = r.find(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return out;
  std::string_view inside = Trim(r.substr(open + 1, close - open - 1));
  size_t op_end = 0;
  while (op_end < inside.size() && (inside[op_end] == '<' || inside[op_end] == '>' || inside[op_end] == '='))
    ++op_end;
  out.op = inside.substr(0, op_end);
  out.version = Trim(inside.substr(op_end));
  return out;
}

// Whether `version` satisfies "(op wanted)": lib/dpkg/depcon.c versionsatisfied(); the
// obsolete "<" and ">" mean "<=" and ">=" (dpkg's deprecated forms).
bool Satisfies(std::string_view version, std::string_view op, std::string_view wanted) {
  const int c = CompareDebianVersions(version, wanted);
  if (op == "<<") return c < 0;
  if (op == "<=" || op == "<") return c <= 0;
  if (op == "=") return c == 0;
  if (op == ">=" || op == ">") return c >= 0;
  if (op == ">>") return c > 0;
  return false;  // an operator dpkg refuses
}

}  // namespace

int CompareDebianVersions(std::string_view a, std::string_view b) {
  const Version va = Parse(a), vb = Parse(b);
  if (va.epoch != vb.epoch) return va.epoch < vb.epoch ? -1 : 1;
  if (int c = VerRevCmp(va.upstream, vb.upstream)) return c;
  return VerRevCmp(va.revision, vb.revision);
}

bool RelationSatisfiedBy(std::string_view relation, std::string_view name, std::string_view version,
                         const std::vector<std::string>& provides) {
  const Relation r = ParseRelation(relation);
  if (r.name.empty()) return false;
  if (r.name == name) return r.op.empty() || (!version.empty() && Satisfies(version, r.op, r.version));
  for (const std::string& p : provides) {
    const Relation given = ParseRelation(p);
    if (given.name != r.name) continue;
    // A versioned relation is met only by a versioned Provides (Policy 7.5).
    if (r.op.empty() || (given.op == "=" && Satisfies(given.version, r.op, r.version))) return true;
  }
  return false;
}

}  // namespace rocm_audit
