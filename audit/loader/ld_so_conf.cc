#include "audit/loader/ld_so_conf.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace rocm_audit {
namespace {

constexpr int kMaxIncludeDepth = 16;  // include cycles must not recurse forever

void ReadInto(const RootedFs& fs, const std::string& conf_path, int depth, std::vector<std::string>* dirs,
              std::set<std::string>* seen) {
  if (depth > kMaxIncludeDepth) return;
  auto host = fs.Resolve(fs.HostPath(conf_path));
  if (!host) return;
  std::ifstream in(*host);
  std::string line;
  while (std::getline(in, line)) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string word;
    if (!(words >> word)) continue;
    if (word == "include") {
      std::string pattern;
      while (words >> pattern) {
        if (pattern[0] != '/') pattern = DirName(conf_path) + "/" + pattern;
        for (const auto& m : fs.Glob(pattern)) ReadInto(fs, fs.DisplayPath(m), depth + 1, dirs, seen);
      }
      continue;
    }
    if (word == "hwcap") continue;
    // ldconfig also splits on ':', ',' and tabs, and accepts the old "dir=TYPE" syntax.
    std::string rest = word;
    for (std::string more; words >> more;) rest += " " + more;
    std::replace_if(rest.begin(), rest.end(), [](char c) { return c == ':' || c == ','; }, ' ');
    std::istringstream entries(rest);
    for (std::string dir; entries >> dir;) {
      if (auto eq = dir.find('='); eq != std::string::npos) dir.resize(eq);
      while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
      if (!dir.empty() && seen->insert(dir).second) dirs->push_back(dir);
    }
  }
}

}  // namespace

std::vector<std::string> ReadLdSoConf(const RootedFs& fs, const std::string& conf_path) {
  std::vector<std::string> dirs;
  std::set<std::string> seen;
  ReadInto(fs, conf_path, 0, &dirs, &seen);
  return dirs;
}

}  // namespace rocm_audit
