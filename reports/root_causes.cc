#include "reports/root_causes.h"

#include "audit/support/text.h"

#include <algorithm>
#include <map>

namespace rocm_audit {
namespace {

using Json = nlohmann::ordered_json;

std::string Text(const Json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); }

// "a, b, c and 4 more"
std::string FirstThree(const std::vector<std::string>& values) {
  std::string out;
  for (size_t i = 0; i < values.size() && i < 3; ++i) out += (i ? ", " : "") + values[i];
  if (values.size() > 3) out += " and " + std::to_string(values.size() - 3) + " more";
  return out;
}

// The directory every value lies in ("/usr/lib/amdgcn/bitcode" for its .bc files).
std::string CommonDirectory(const std::vector<std::string>& values) {
  if (values.empty()) return "";
  std::string common =
      values[0].substr(0, values[0].rfind('/') == std::string::npos ? 0 : values[0].rfind('/'));
  for (const std::string& v : values) {
    while (!common.empty() && !(v.size() > common.size() && v.compare(0, common.size(), common) == 0 &&
                                v[common.size()] == '/')) {
      size_t slash = common.rfind('/');
      common = slash == std::string::npos ? "" : common.substr(0, slash);
    }
  }
  return common.empty() ? "/" : common;
}

struct Group {
  const Rule* rule = nullptr;
  std::vector<const Finding*> findings;
};

std::vector<std::string> DistinctValues(const Group& g, const std::string& field) {
  std::vector<std::string> out;
  for (const Finding* f : g.findings) {
    auto it = f->fields.find(field);
    if (it == f->fields.end() || it->is_null()) continue;
    std::string v = Text(*it);
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  return out;
}

std::string FilesText(const std::vector<std::string>& files) {
  std::vector<std::string> names;
  for (const std::string& f : files) names.emplace_back(BaseName(f));
  if (names.size() == 1) return names[0];
  std::string out = std::to_string(names.size()) + " files (";
  for (size_t i = 0; i < names.size() && i < 3; ++i) out += (i ? ", " : "") + names[i];
  return out + (names.size() > 3 ? ", ...)" : ")");
}

// `cause` with every {token} filled in from the group; a [bracketed part] only when each
// field it names has a value in the group. `complete` says whether every field had one.
std::string Fill(std::string_view cause, const Group& g, const std::vector<std::string>& files,
                 bool* complete) {
  std::string out;
  for (size_t i = 0; i < cause.size(); ++i) {
    if (cause[i] == '[') {
      size_t close = cause.find(']', i);
      if (close != std::string_view::npos) {
        bool present = true;
        std::string part = Fill(cause.substr(i + 1, close - i - 1), g, files, &present);
        if (present) out += part;
        i = close;
        continue;
      }
    }
    size_t end = cause[i] == '{' ? cause.find('}', i) : std::string_view::npos;
    if (end == std::string_view::npos) {
      out += cause[i];
      continue;
    }
    std::string token(cause.substr(i + 1, end - i - 1));
    i = end;
    if (token == "n") {
      out += std::to_string(g.findings.size());
    } else if (token == "files") {
      out += FilesText(files);
    } else if (token == "message") {
      out += g.findings[0]->message;
    } else {
      const bool list = token.ends_with('*'), directory = token.ends_with('/');
      auto values = DistinctValues(g, list || directory ? token.substr(0, token.size() - 1) : token);
      if (values.empty()) *complete = false;
      out += list             ? FirstThree(values)
             : directory      ? CommonDirectory(values)
             : values.empty() ? ""
                              : values[0];
    }
  }
  return out;
}

std::string Fill(const Group& g, const std::vector<std::string>& files) {
  bool complete = true;
  return Fill(g.rule && !g.rule->cause.empty() ? g.rule->cause : "{message}", g, files, &complete);
}

}  // namespace

std::vector<RootCause> RootCauses(const Report& report) {
  std::map<std::string, const Rule*> rules;
  for (const Rule& r : report.rules) rules[std::string(r.id)] = &r;
  std::vector<std::string> order;
  std::map<std::string, Group> groups;
  for (const Finding& f : report.findings) {
    if (f.suppressed) continue;
    const Rule* rule = rules.count(f.check) ? rules[f.check] : nullptr;
    std::string key = f.check;
    std::string_view cause_fields = rule ? rule->cause_fields : "";
    if (cause_fields.empty()) key += "|" + f.file;
    if (cause_fields != "*")
      for (const std::string& field : FieldNames(cause_fields))
        key += "|" + (f.fields.contains(field) ? Text(f.fields[field]) : "");
    auto [it, added] = groups.try_emplace(key);
    if (added) order.push_back(key);
    it->second.rule = rule;
    it->second.findings.push_back(&f);
  }
  std::vector<RootCause> out;
  for (const std::string& key : order) {
    const Group& g = groups[key];
    RootCause c;
    c.check = g.findings[0]->check;
    c.findings = g.findings.size();
    for (const Finding* f : g.findings) {
      c.severity = std::max(c.severity, f->severity);
      if (std::find(c.files.begin(), c.files.end(), f->file) == c.files.end()) c.files.push_back(f->file);
    }
    c.line = Fill(g, c.files);
    out.push_back(std::move(c));
  }
  // In a diff, what the update breaks comes before the audit findings it carries over
  // (new-finding and the like, often the base's doing): of equal severity, the break first.
  auto carried = [](const RootCause& c) { return c.check == "new-finding" || c.check == "fixed-finding"; };
  std::stable_sort(out.begin(), out.end(), [&](const RootCause& a, const RootCause& b) {
    if (a.severity != b.severity) return a.severity > b.severity;
    if (carried(a) != carried(b)) return carried(b);
    return a.findings > b.findings;
  });
  return out;
}

}  // namespace rocm_audit
