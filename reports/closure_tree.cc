#include "reports/closure_tree.h"

#include <vector>

namespace rocm_audit {
namespace {

// "[RUNPATH of libfat.so.1]", "[default]"; the search step's own words (SearchStep::source).
std::string Label(const std::string& found_by) { return found_by.empty() ? "" : " [" + found_by + "]"; }

void Draw(const ClosureFacts& closure, int node, const std::string& indent, std::vector<bool>* drawn,
          std::string* out) {
  const std::vector<NeededEdge>& needed = closure.nodes[node].needed;
  for (size_t i = 0; i < needed.size(); ++i) {
    const NeededEdge& e = needed[i];
    const bool last = i + 1 == needed.size();
    std::string line = indent + (last ? "└── " : "├── ") + e.name;
    const bool expand = e.object >= 0 && !(*drawn)[e.object];
    if (e.object < 0)
      line += " not found";
    else
      line += Label(closure.nodes[e.object].found_by) + (expand ? "" : " (drawn above)");
    if (!e.missing_version.empty()) line += " version " + e.missing_version + " not found";
    *out += line + "\n";
    if (!expand) continue;
    (*drawn)[e.object] = true;
    Draw(closure, e.object, indent + (last ? "    " : "│   "), drawn, out);
  }
}

}  // namespace

std::string RenderClosureTree(const FileFacts& file) {
  if (!file.closure || file.closure->nodes.empty()) return "";
  const ClosureFacts& closure = *file.closure;
  std::vector<bool> drawn(closure.nodes.size(), false);
  drawn[0] = true;
  std::string out = file.path + "\n";
  Draw(closure, 0, "", &drawn, &out);
  return out;
}

}  // namespace rocm_audit
