#include "audit/model/finding.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "audit/model/message_numbers.h"

namespace rocm_audit {
namespace {

using Json = nlohmann::ordered_json;

// FNV-1a, 64 bits: a fixed function, so a cut name's key is the same on every machine.
uint64_t Fnv1a(std::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ULL;
  return hash;
}

// A string BoundedView already cut ("...start... [N more bytes, FNV-1a H]") is within the
// bound: cut again, it would lose the count and hash of the whole.
bool AlreadyCut(std::string_view s) {
  if (s.size() <= kMaxFindingStringBytes || s.size() > kMaxFindingStringBytes + 96 || s.back() != ']')
    return false;
  const size_t tail = s.find("... [", kMaxFindingStringBytes - 3);
  return tail != std::string_view::npos && tail <= kMaxFindingStringBytes &&
         s.find(" more bytes, FNV-1a ", tail) != std::string_view::npos;
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

uint64_t JsonBytes(const Json& j) {
  if (j.is_string()) return j.get_ref<const std::string&>().size();
  uint64_t bytes = 0;
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) bytes += it.key().size() + JsonBytes(it.value());
  } else if (j.is_array()) {
    for (const Json& value : j) bytes += JsonBytes(value);
  } else {
    bytes = 8;
  }
  return bytes;
}

}  // namespace

std::string BoundedText(std::string text) {
  if (text.size() <= kMaxFindingStringBytes || AlreadyCut(text)) return text;
  return BoundedView(text);
}

std::string BoundedView(std::string_view text) {
  if (text.size() <= kMaxFindingStringBytes) return std::string(text);
  size_t keep = kMaxFindingStringBytes;
  // Back to the start of a UTF-8 sequence (at most 3 continuation bytes), so that the cut
  // makes no invalid byte of a valid name.
  for (int i = 0; i < 3 && keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80; ++i) --keep;
  char tail[96];
  std::snprintf(tail, sizeof tail, "... [%zu more bytes, FNV-1a %016llx]", text.size() - keep,
                static_cast<unsigned long long>(Fnv1a(text)));
  std::string out(text.substr(0, keep));
  out += tail;
  return out;
}

namespace {

// A text cut to `kept` bytes names only the paths, or the starts of paths, in those bytes.
void CutPaths(size_t kept, std::vector<TextPath>* paths) {
  std::erase_if(*paths, [&](const TextPath& p) { return p.offset >= kept; });
  for (TextPath& p : *paths) p.size = std::min(p.size, kept - p.offset);
}

// BoundedText of a text that names `paths`.
void BoundTextNaming(std::string* text, std::vector<TextPath>* paths) {
  const bool cut = text->size() > kMaxFindingStringBytes && !AlreadyCut(*text);
  *text = BoundedText(std::move(*text));
  if (cut) CutPaths(text->rfind("... ["), paths);
}

}  // namespace

void BoundFindingSize(Finding* finding) {
  std::vector<std::string> cut;
  Bound(finding->fields, "", &cut);
  BoundTextNaming(&finding->message, &finding->message_paths);
  if (!cut.empty()) {
    std::string note;
    for (const std::string& c : cut) note += (note.empty() ? "" : "; ") + c;
    finding->message += " [left out of this finding's fields: " + note + "]";
  }
  BoundTextNaming(&finding->hint, &finding->hint_paths);
}

uint64_t ReportByteBudget(uint64_t least, uint64_t file_size) {
  const uint64_t scaled =
      file_size > UINT64_MAX / kReportBytesPerFileByte ? UINT64_MAX : file_size * kReportBytesPerFileByte;
  return std::max(least, scaled);
}

uint64_t FindingBytes(const Finding& finding) {
  return finding.file.size() + finding.check.size() + finding.message.size() + finding.hint.size() +
         JsonBytes(finding.fields);
}

FindingSink::FindingSink(FindingLimits limits, std::span<const Rule* const> rules) : limits_(limits) {
  for (const Rule* r : rules) key_fields_.emplace(r->id, FieldNames(r->key_fields));
}

namespace {

// What findings alike share: file, rule, severity, the message's words and the values of
// the rule's key fields (findings with different keys are never one: a waiver or the
// baseline names each).
std::string ShapeOf(const Finding& f, const std::string& message_shape,
                    const std::vector<std::string>& keys) {
  std::string shape = f.file + '\0' + f.check + '\0' + std::to_string(static_cast<int>(f.severity)) + '\0';
  shape += message_shape;
  for (const std::string& name : keys) {
    auto it = f.fields.find(name);
    shape += '\0';
    // MessagePack: byte-exact, where dump() throws on a name that is not UTF-8.
    if (it == f.fields.end()) {
      shape += '-';
    } else {
      const std::vector<uint8_t> bytes = Json::to_msgpack(*it);
      shape.append(bytes.begin(), bytes.end());
    }
  }
  return shape;
}

// " [4096 alike, differing only in number 2 of this message: 0, 1, 2, 3, 4, ...]"
std::string RepeatsNote(const Repeats& r) {
  std::string note = " [" + std::to_string(r.count) + " alike, differing only in number " +
                     std::to_string(r.position + 1) + " of this message: ";
  for (size_t i = 0; i < r.numbers.size(); ++i) note += (i ? ", " : "") + std::to_string(r.numbers[i]);
  return note + (r.count > r.numbers.size() ? ", ...]" : "]");
}

}  // namespace

bool FindingSink::Fold(const Finding& f) {
  auto rule = key_fields_.find(f.check);
  if (rule == key_fields_.end()) return false;
  MessageNumbers mine = SplitNumbers(f.message, f.message_paths);
  if (mine.numbers.empty()) return false;
  auto [it, fresh] = alike_.try_emplace(ShapeOf(f, mine.shape, rule->second));
  if (fresh) {
    // The caller appends `f` next: it is the first of its shape.
    it->second = {findings.size(), std::move(mine.numbers)};
    return false;
  }
  Alike& first = it->second;
  Finding& kept = findings[first.index];
  size_t differ = 0, differing = 0;
  for (size_t i = 0; i < mine.numbers.size(); ++i)
    if (mine.numbers[i] != first.numbers[i]) differ = i, ++differing;
  if (differing != 1 || (kept.repeated && kept.repeated->position != differ)) return false;
  if (!kept.repeated) kept.repeated = Repeats{1, {first.numbers[differ]}, differ};
  ++kept.repeated->count;
  if (kept.repeated->numbers.size() < kRepeatsShown) kept.repeated->numbers.push_back(mine.numbers[differ]);
  return true;
}

void FindingSink::Add(Finding finding) {
  BoundFindingSize(&finding);
  if (!key_fields_.empty() && Fold(finding)) return;
  bytes_ += FindingBytes(finding);
  findings.push_back(std::move(finding));
  // Past twice a limit, the least severe latest go: memory stays within twice the limits
  // however many findings a file makes (one per RUNPATH entry of 100,000).
  if ((findings.size() > limits_.count && findings.size() - limits_.count > limits_.count) ||
      (bytes_ > limits_.bytes && bytes_ - limits_.bytes > limits_.bytes)) {
    CutToLimits();
    alike_.clear();  // the slots moved; later findings fold among themselves
  }
}

void FindingSink::CutToLimits() {
  // Which are kept: the most severe, ties in the order they came, as long as both limits
  // hold. They stay in the order they came.
  std::vector<size_t> by_severity(findings.size());
  std::iota(by_severity.begin(), by_severity.end(), 0);
  std::stable_sort(by_severity.begin(), by_severity.end(),
                   [&](size_t a, size_t b) { return MoreSevere(findings[a], findings[b]); });
  std::vector<char> keep(findings.size(), 0);
  size_t kept = 0;
  uint64_t bytes = 0;
  for (; kept < findings.size() && kept < limits_.count; ++kept) {
    const uint64_t more = FindingBytes(findings[by_severity[kept]]);
    if (kept > 0 && more > limits_.bytes - std::min(bytes, limits_.bytes)) break;
    bytes += more;
    keep[by_severity[kept]] = 1;
  }
  if (kept < limits_.count) left_out_for_bytes += std::min(findings.size(), limits_.count) - kept;
  left_out += findings.size() - kept;
  size_t out = 0;
  for (size_t i = 0; i < findings.size(); ++i) {
    if (!keep[i]) {
      bytes_left_out += FindingBytes(findings[i]);
    } else if (out++ != i) {
      findings[out - 1] = std::move(findings[i]);
    }
  }
  findings.resize(out);
  bytes_ = bytes;
}

std::vector<Finding> FindingSink::SortedWithinLimit() && {
  std::vector<Finding> kept = std::move(*this).WithinLimit();
  std::stable_sort(kept.begin(), kept.end(), MoreSevere);
  return kept;
}

std::vector<Finding> FindingSink::WithinLimit() && {
  for (Finding& f : findings)
    if (f.repeated) f.message += RepeatsNote(*f.repeated);
  CutToLimits();
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
