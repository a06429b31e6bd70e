#include "audit/model/report_reader.h"

#include "audit/model/byte_text.h"

namespace rocm_audit {
namespace {

using Json = nlohmann::json;
using DomParser = nlohmann::detail::json_sax_dom_parser<Json>;

constexpr size_t kMaxSyntaxMessage = 240;

// nlohmann's own DOM builder (an explicit stack, no recursion), refusing the array or object
// that would open one level too many: a SAX event that returns false ends the parse there.
// sax_parse takes the handler by its type, so these hide the base's functions.
class BoundedDom : public DomParser {
 public:
  BoundedDom(Json& root, size_t max_depth) : DomParser(root, /*allow_exceptions_=*/false), max_(max_depth) {}

  bool start_object(size_t n) { return Enter() && DomParser::start_object(n); }
  bool end_object() { return Leave() && DomParser::end_object(); }
  bool start_array(size_t n) { return Enter() && DomParser::start_array(n); }
  bool end_array() { return Leave() && DomParser::end_array(); }
  template <class Exception>
  bool parse_error(size_t position, const std::string& token, const Exception& e) {
    // Its "last read" quotes the input: a long token is cut (a name's bytes are escaped
    // where the message is shown).
    syntax_ = std::string(e.what()).substr(0, kMaxSyntaxMessage);
    return DomParser::parse_error(position, token, e);
  }

  bool too_deep() const { return too_deep_; }
  const std::string& syntax() const { return syntax_; }

 private:
  bool Enter() {
    if (depth_ == max_) {
      too_deep_ = true;
      return false;
    }
    ++depth_;
    return true;
  }
  bool Leave() {
    --depth_;
    return true;
  }

  const size_t max_;
  size_t depth_ = 0;
  bool too_deep_ = false;
  std::string syntax_;
};

std::string Decoded(const std::string& text) {
  return text.find('\\') == std::string::npos ? text : BytesOfLosslessText(text);
}

// In place: the report is the largest thing a diff side holds. Recursion is bounded by the
// depth the parse allowed.
void DecodeStrings(Json& j) {
  if (j.is_string()) {
    std::string& s = j.get_ref<std::string&>();
    if (s.find('\\') != std::string::npos) s = BytesOfLosslessText(s);
  } else if (j.is_array()) {
    for (Json& value : j) DecodeStrings(value);
  } else if (j.is_object()) {
    bool renamed = false;
    for (auto it = j.begin(); it != j.end() && !renamed; ++it)
      renamed = it.key().find('\\') != std::string::npos;
    if (renamed) {
      Json out = Json::object();
      for (auto it = j.begin(); it != j.end(); ++it) out[Decoded(it.key())] = std::move(it.value());
      j = std::move(out);
    }
    for (Json& value : j) DecodeStrings(value);
  }
}

}  // namespace

bool ParseBoundedJson(std::string_view text, size_t max_depth, Json* value, std::string* error) {
  Json parsed;
  BoundedDom dom(parsed, max_depth);
  const bool ok = Json::sax_parse(text, &dom);
  if (dom.too_deep()) {
    *error = "nests deeper than " + std::to_string(max_depth) + " levels of arrays and objects";
    return false;
  }
  if (!ok || dom.is_errored()) {
    *error = "not JSON: " + (dom.syntax().empty() ? std::string("a parse error") : dom.syntax());
    return false;
  }
  *value = std::move(parsed);
  return true;
}

bool ReadJsonReport(std::string_view text, Json* report, std::string* error) {
  Json parsed;
  std::string why;
  if (!ParseBoundedJson(text, kMaxReportDepth, &parsed, &why)) {
    *error = "not a rocm-audit JSON report: " + why;
    return false;
  }
  const auto version = parsed.is_object() ? parsed.find("schema_version") : parsed.end();
  if (version == parsed.end() || !version->is_number_integer() || version->get<int64_t>() != 1) {
    *error = "not a rocm-audit JSON report (schema_version 1, --format json)";
    return false;
  }
  DecodeStrings(parsed);
  *report = std::move(parsed);
  return true;
}

bool WrittenByRocmAudit(const Json& report) {
  const auto tool = report.find("tool");
  if (tool == report.end() || !tool->is_object()) return false;
  const auto name = tool->find("name");
  return name != tool->end() && name->is_string() && name->get_ref<const std::string&>() == "rocm-audit";
}

}  // namespace rocm_audit
