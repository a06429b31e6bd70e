// Removed symbols as a packager reads them: C++ names demangled (LLVM's Itanium demangler,
// what c++filt and nm -C use) and grouped by the namespace or class that declares them, so
// that 149 symbols of librocrand.so.1 read as a few scopes rather than a column of _Z...
#pragma once

#include <string>
#include <vector>

namespace rocm_audit {

struct ScopeGroup {
  std::string scope;               ///< "rocrand::detail"; a vtable or typeinfo: its class; "" for C names
  std::vector<std::string> names;  ///< demangled, "@VERSION" kept, in the input's order
};

/// `symbols` (nm -D names, "name@@VERSION") grouped by scope, scopes sorted ("" first).
/// A name too long to demangle safely stays mangled under "".
std::vector<ScopeGroup> GroupByScope(const std::vector<std::string>& symbols);

}  // namespace rocm_audit
