#include "audit/model/finding.h"

#include <algorithm>
#include <cstdio>

namespace rocm_audit {
namespace {

using Json = nlohmann::ordered_json;

// FNV-1a, 64 bits: a fixed function, so a cut name's key is the same on every machine.
uint64_t Fnv1a(std::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ULL;
  return hash;
}

// Strings and member names bounded, arrays cut; `cut` collects "field: N elements" notes.
void Bound(Json& j, const std::string& field, std::vector<std::string>* cut) {
  if (j.is_string()) {
    std::string& s = j.get_ref<std::string&>();
    if (s.size() > kMaxFindingStringBytes) s = BoundedText(std::move(s));
  } else if (j.is_array()) {
    if (j.size() > kMaxFindingArrayElements) {
      cut->push_back(field + ": " + std::to_string(j.size() - kMaxFindingArrayElements) + " more elements");
      j.erase(j.begin() + kMaxFindingArrayElements, j.end());
    }
    for (Json& value : j) Bound(value, field, cut);
  } else if (j.is_object()) {
    bool long_name = false;
    for (auto it = j.begin(); it != j.end(); ++it) long_name |= it.key().size() > kMaxFindingStringBytes;
    if (long_name) {
      Json out = Json::object();
      for (auto it = j.begin(); it != j.end(); ++it) out[BoundedText(it.key())] = std::move(it.value());
      j = std::move(out);
    }
    for (auto it = j.begin(); it != j.end(); ++it) Bound(it.value(), field.empty() ? it.key() : field, cut);
  }
}

bool MoreSevere(const Finding& a, const Finding& b) { return a.severity > b.severity; }

}  // namespace

std::string BoundedText(std::string text) {
  if (text.size() <= kMaxFindingStringBytes) return text;
  size_t keep = kMaxFindingStringBytes;
  // Back to the start of a UTF-8 sequence (at most 3 continuation bytes), so that the cut
  // makes no invalid byte of a valid name.
  for (int i = 0; i < 3 && keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80; ++i) --keep;
  char tail[96];
  std::snprintf(tail, sizeof tail, "... [%zu more bytes, FNV-1a %016llx]", text.size() - keep,
                static_cast<unsigned long long>(Fnv1a(text)));
  text.resize(keep);
  text += tail;
  return text;
}

void BoundFindingSize(Finding* finding) {
  std::vector<std::string> cut;
  Bound(finding->fields, "", &cut);
  finding->message = BoundedText(std::move(finding->message));
  if (!cut.empty()) {
    std::string note;
    for (const std::string& c : cut) note += (note.empty() ? "" : "; ") + c;
    finding->message += " [left out of this finding's fields: " + note + "]";
  }
  finding->hint = BoundedText(std::move(finding->hint));
}

void FindingSink::Add(Finding finding) {
  BoundFindingSize(&finding);
  findings.push_back(std::move(finding));
  // Past twice the limit, the least severe latest go: memory stays within twice the limit
  // however many findings a file makes (one per RUNPATH entry of 100,000).
  if (findings.size() > limit_ && findings.size() - limit_ > limit_) {
    std::stable_sort(findings.begin(), findings.end(), MoreSevere);
    left_out += findings.size() - limit_;
    findings.resize(limit_);
  }
}

std::vector<Finding> FindingSink::SortedWithinLimit() && {
  std::stable_sort(findings.begin(), findings.end(), MoreSevere);
  if (findings.size() > limit_) {
    left_out += findings.size() - limit_;
    findings.resize(limit_);
  }
  return std::move(findings);
}

Finding MakeFinding(const Rule& rule, const std::string& file) {
  Finding f;
  f.check = std::string(rule.id);
  f.severity = rule.severity;
  f.file = file;
  f.hint = std::string(rule.fix);
  return f;
}

}  // namespace rocm_audit
