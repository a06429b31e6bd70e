// list(): two subcommand tables, the reads (LENGTH, GET, FIND, JOIN, SUBLIST: a result
// variable) and the edits (APPEND, REMOVE_ITEM, TRANSFORM, ...: the list in place). An
// unknown list gives unknown results; list(APPEND) to a generated Targets file's
// import-check list records the files it names. A list keeps its empty elements ("a;;b" has
// three), as under policy CMP0007 NEW, which every cmake_minimum_required() since 2.6 sets.
#include <algorithm>
#include <memory>

#include "audit/cmake/arg_values.h"
#include "audit/cmake/cmake_regex.h"
#include "audit/cmake/commands.h"
#include "audit/cmake/name_table.h"

namespace rocm_audit {
namespace {

struct ListCall {
  Interpreter& in;
  const Args& a;
  const std::string& op;
  const std::string& var;
};

/// A read: sets `out` from the items `v`.
using ListRead = void (*)(const ListCall& c, const std::vector<std::string>& v, const std::string& out);
/// An edit of the items `v` with the arguments `add`.
enum class Edited { kList, kDone, kNotEvaluated };  ///< set the list; nothing more; record it
using ListEdit = Edited (*)(const ListCall& c, std::vector<std::string>& v,
                            const std::vector<std::string>& add);

void Length(const ListCall& c, const std::vector<std::string>& v, const std::string& out) {
  c.in.Set(out, {std::to_string(v.size())});
}

void Get(const ListCall& c, const std::vector<std::string>& v, const std::string& out) {
  std::vector<std::string> got;
  for (size_t k = 2; k + 1 < c.a.size(); ++k) {
    long long i = std::atoll(c.a[k].value.text.c_str());
    if (i < 0) i += static_cast<long long>(v.size());
    if (i < 0 || i >= static_cast<long long>(v.size())) {
      c.in.Skip("list", "list(GET) index out of range");
      return;
    }
    got.push_back(v[static_cast<size_t>(i)]);
  }
  c.in.Set(out, {JoinList(got)});
}

void FindItem(const ListCall& c, const std::vector<std::string>& v, const std::string& out) {
  auto it = c.a.size() > 2 ? std::find(v.begin(), v.end(), c.a[2].value.text) : v.end();
  c.in.Set(out, {it == v.end() ? "-1" : std::to_string(it - v.begin())});
}

void Join(const ListCall& c, const std::vector<std::string>& v, const std::string& out) {
  c.in.Set(out, {JoinList(v, c.a.size() > 2 ? c.a[2].value.text : "")});
}

void Sublist(const ListCall& c, const std::vector<std::string>& v, const std::string& out) {
  size_t begin = c.a.size() > 2 ? std::strtoull(c.a[2].value.text.c_str(), nullptr, 10) : 0;
  long long len = c.a.size() > 3 ? std::atoll(c.a[3].value.text.c_str()) : -1;
  std::vector<std::string> sub;
  for (size_t k = begin; k < v.size() && (len < 0 || static_cast<long long>(sub.size()) < len); ++k)
    sub.push_back(v[k]);
  c.in.Set(out, {JoinList(sub)});
}

Edited Append(const ListCall&, std::vector<std::string>& v, const std::vector<std::string>& add) {
  v.insert(v.end(), add.begin(), add.end());
  return Edited::kList;
}

Edited Prepend(const ListCall&, std::vector<std::string>& v, const std::vector<std::string>& add) {
  v.insert(v.begin(), add.begin(), add.end());
  return Edited::kList;
}

Edited Insert(const ListCall&, std::vector<std::string>& v, const std::vector<std::string>& add) {
  if (add.empty()) return Edited::kNotEvaluated;
  size_t at = std::min<size_t>(std::strtoull(add[0].c_str(), nullptr, 10), v.size());
  v.insert(v.begin() + at, add.begin() + 1, add.end());
  return Edited::kList;
}

Edited RemoveItem(const ListCall&, std::vector<std::string>& v, const std::vector<std::string>& add) {
  std::erase_if(v, [&](const std::string& s) { return std::find(add.begin(), add.end(), s) != add.end(); });
  return Edited::kList;
}

Edited RemoveAt(const ListCall&, std::vector<std::string>& v, const std::vector<std::string>& add) {
  std::vector<std::string> kept;
  for (size_t k = 0; k < v.size(); ++k)
    if (std::find(add.begin(), add.end(), std::to_string(k)) == add.end()) kept.push_back(v[k]);
  v = kept;
  return Edited::kList;
}

Edited RemoveDuplicates(const ListCall&, std::vector<std::string>& v, const std::vector<std::string>&) {
  std::vector<std::string> kept;
  for (auto& s : v)
    if (std::find(kept.begin(), kept.end(), s) == kept.end()) kept.push_back(s);
  v = kept;
  return Edited::kList;
}

Edited Reverse(const ListCall&, std::vector<std::string>& v, const std::vector<std::string>&) {
  std::reverse(v.begin(), v.end());
  return Edited::kList;
}

Edited Sort(const ListCall&, std::vector<std::string>& v, const std::vector<std::string>&) {
  std::sort(v.begin(), v.end());
  return Edited::kList;
}

// POP_BACK, POP_FRONT: [<out-var>...]; with none, one item is dropped.
Edited Pop(const ListCall& c, std::vector<std::string>& v, const std::vector<std::string>&) {
  const Args& a = c.a;
  bool back = c.op == "POP_BACK";
  for (size_t k = 2; k < a.size() || (k == 2 && a.size() == 2); ++k) {
    if (v.empty()) break;
    std::string item = back ? v.back() : v.front();
    if (back)
      v.pop_back();
    else
      v.erase(v.begin());
    if (k < a.size()) c.in.Set(a[k].value.text, {item});
    if (a.size() == 2) break;
  }
  return Edited::kList;
}

Edited Filter(const ListCall& c, std::vector<std::string>& v, const std::vector<std::string>&) {
  if (c.a.size() < 5) return Edited::kNotEvaluated;
  bool include = c.a[2].value.text == "INCLUDE";
  std::string error;
  std::unique_ptr<CMakeRegex> re = CMakeRegex::Compile(c.a[4].value.text, &error);
  if (!re) return Edited::kNotEvaluated;  // CMake: "failed to compile regex"
  for (const std::string& s : v) {
    c.in.Charge(re->SearchWork(s.size()));
    if (s.size() > kMaxRegexInput || c.in.OverBudget()) return Edited::kNotEvaluated;
  }
  std::erase_if(v, [&](const std::string& s) { return re->Find(s).has_value() != include; });
  return Edited::kList;
}

// TRANSFORM <action> [<argument>] [OUTPUT_VARIABLE <out>]: the result goes to <out>.
Edited Transform(const ListCall& c, std::vector<std::string>& v, const std::vector<std::string>&) {
  const Args& a = c.a;
  if (a.size() < 3) return Edited::kNotEvaluated;
  const std::string& action = a[2].value.text;
  std::string output = c.var;
  for (size_t k = 3; k + 1 < a.size(); ++k)
    if (a[k].value.text == "OUTPUT_VARIABLE") output = a[k + 1].value.text;
  const size_t max = c.in.limits().max_value_bytes;
  size_t grown = 0;
  for (std::string& s : v) {
    if ((grown += s.size() + (a.size() > 3 ? a[3].value.text.size() : 0)) > max) {
      c.in.ValueTooLong();
      c.in.Set(output, CMakeValue::Unknown("a list longer than " + std::to_string(max) + " bytes"));
      return Edited::kDone;
    }
    if (action == "APPEND" && a.size() > 3)
      s += a[3].value.text;
    else if (action == "PREPEND" && a.size() > 3)
      s = a[3].value.text + s;
    else if (action == "TOLOWER")
      s = ToLower(s);
    else if (action == "TOUPPER")
      s = ToUpper(s);
    else if (action == "STRIP") {
      size_t b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
      s = b == std::string::npos ? "" : s.substr(b, e - b + 1);
    }
  }
  c.in.Set(output, {JoinList(v)});
  return Edited::kDone;
}

constexpr NameEntry<ListRead> kListReads[] = {
    {"FIND", FindItem}, {"GET", Get}, {"JOIN", Join}, {"LENGTH", Length}, {"SUBLIST", Sublist},
};
static_assert(IsSorted(kListReads));

constexpr NameEntry<ListEdit> kListEdits[] = {
    {"APPEND", Append},
    {"FILTER", Filter},
    {"INSERT", Insert},
    {"POP_BACK", Pop},
    {"POP_FRONT", Pop},
    {"PREPEND", Prepend},
    {"REMOVE_AT", RemoveAt},
    {"REMOVE_DUPLICATES", RemoveDuplicates},
    {"REMOVE_ITEM", RemoveItem},
    {"REVERSE", Reverse},
    {"SORT", Sort},
    {"TRANSFORM", Transform},
};
static_assert(IsSorted(kListEdits));

// Generated Targets files list the files each imported target needs; CMake checks them at
// the end of the file and stops the configure when one is missing.
void RecordImportCheckFiles(const ListCall& c) {
  const std::string& var = c.var;
  if (c.op != "APPEND" ||
      !(var.starts_with("_cmake_import_check_files_for_") || var.starts_with("_IMPORT_CHECK_FILES_FOR_")))
    return;
  std::string target =
      var.substr(var.find("_for_") != std::string::npos ? var.find("_for_") + 5 : var.find("_FOR_") + 5);
  for (size_t k = 2; k < c.a.size(); ++k)
    if (c.a[k].value.known)
      for (const std::string& f : SplitList(c.a[k].value.text))
        c.in.Reference(f, "import-check-files", target);
}

void Edit(const ListCall& c, const CMakeValue& list) {
  const Args& a = c.a;
  CMakeValue args = JoinArgs(a, 2, a.size());
  if (!list.known || !args.known) {
    if (c.op == "POP_BACK" || c.op == "POP_FRONT")
      for (size_t k = 2; k < a.size(); ++k)
        c.in.Set(a[k].value.text, CMakeValue::Unknown(!list.known ? list.why : args.why));
    c.in.Set(c.var, !list.known ? list : args);
    return;
  }
  if (c.op == "APPEND") {
    // As CMake's HandleAppendCommand (cmListCommand.cxx): nothing to append leaves the
    // variable alone; else the items joined by ';' are added to the list's text as it is,
    // neither split (splitting the whole list per item made building a list quadratic:
    // Qt6's configs append hundreds) nor rid of empty items (`list(APPEND L "")` on "x"
    // gives "x;").
    if (a.size() < 3) return;
    c.in.Set(c.var, {list.text.empty() ? args.text : list.text + ";" + args.text});
    return;
  }
  std::vector<std::string> v = SplitList(list.text, /*keep_empty=*/true);
  ListEdit edit = FindIn(kListEdits, c.op);
  Edited done = edit ? edit(c, v, SplitList(args.text)) : Edited::kNotEvaluated;
  if (done == Edited::kList) c.in.Set(c.var, {JoinList(v)});
  if (done != Edited::kNotEvaluated) return;
  c.in.Skip("list", "list(" + c.op + ") is not evaluated");
  c.in.Set(c.var, CMakeValue::Unknown("list(" + c.op + ")"));
}

}  // namespace

Flow ListCommand(Interpreter& in, const std::string&, const Args& a) {
  if (a.size() < 2 || !a[1].value.known) return Flow::kNormal;
  const ListCall c{in, a, a[0].value.text, a[1].value.text};
  const CMakeValue* current = in.Get(c.var);
  CMakeValue list = current ? *current : CMakeValue{};
  RecordImportCheckFiles(c);
  if (ListRead read = FindIn(kListReads, c.op)) {
    std::string out = a.back().value.text;
    if (!list.known)
      in.Set(out, list);
    else
      read(c, SplitList(list.text, /*keep_empty=*/true), out);
    return Flow::kNormal;
  }
  Edit(c, list);
  return Flow::kNormal;
}

}  // namespace rocm_audit
