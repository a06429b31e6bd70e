#include "audit/cmake/expand.h"

#include <algorithm>
#include <string>

namespace rocm_audit {
namespace {

constexpr int kMaxNesting = 32;

class Expander {
 public:
  Expander(std::string_view raw, const VariableLookup& vars, const VariableLookup& env, size_t max_bytes)
      : raw_(raw), vars_(vars), env_(env), max_bytes_(max_bytes) {}

  CMakeValue Run(bool* too_long) {
    size_t at = 0;
    CMakeValue out;
    out.text = Until(&at, /*close=*/false, 0, &out);
    if (too_long_) {
      out = CMakeValue::Unknown("a value longer than " + std::to_string(max_bytes_) + " bytes");
      if (too_long) *too_long = true;
    }
    return out;
  }

 private:
  // Expands from *at up to the end, or up to the '}' closing a reference when `close`.
  std::string Until(size_t* at, bool close, int depth, CMakeValue* state) {
    std::string out;
    while (*at < raw_.size()) {
      char c = raw_[*at];
      if (close && c == '}') {
        ++*at;
        return out;
      }
      if (c == '\\' && *at + 1 < raw_.size()) {
        char e = raw_[*at + 1];
        *at += 2;
        switch (e) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case 'r': out += '\r'; break;
          case '0': break;
          case ';': out += "\\;"; break;  // kept: it protects the ';' from list splitting
          default: out += e;
        }
        continue;
      }
      if (c == '$') {
        std::string_view rest = raw_.substr(*at);
        const VariableLookup* table = nullptr;
        size_t open = 0;
        if (rest.starts_with("${")) {
          table = &vars_;
          open = 2;
        } else if (rest.starts_with("$ENV{")) {
          table = &env_;
          open = 5;
        } else if (rest.starts_with("$CACHE{")) {
          table = &vars_;
          open = 7;
        }
        if (table && depth == kMaxNesting) {
          // CMake nests references without bound (cmMakefile::ExpandVariablesInStringNew keeps
          // a stack); past kMaxNesting one is left as written, and the value is unknown.
          if (state->known)
            state->why = "variable references nested deeper than " + std::to_string(kMaxNesting);
          state->known = false;
          table = nullptr;
        }
        if (table) {
          size_t inner = *at + open;
          std::string name = Until(&inner, /*close=*/true, depth + 1, state);
          *at = inner;
          if (const CMakeValue* v = (*table)(name)) {
            if (!v->known && state->known) {
              state->known = false;
              state->why = v->why;
            }
            if (v->text.size() > max_bytes_ - std::min(out.size(), max_bytes_)) {
              too_long_ = true;
              *at = raw_.size();
              return out;
            }
            out += v->text;
          }
          continue;
        }
      }
      out += c;
      ++*at;
    }
    return out;
  }

  std::string_view raw_;
  const VariableLookup& vars_;
  const VariableLookup& env_;
  size_t max_bytes_;
  bool too_long_ = false;
};

}  // namespace

CMakeValue ExpandReferences(std::string_view raw, const VariableLookup& vars, const VariableLookup& env,
                            size_t max_bytes, bool* too_long) {
  return Expander(raw, vars, env, max_bytes).Run(too_long);
}

}  // namespace rocm_audit
