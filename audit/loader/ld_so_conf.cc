#include "audit/loader/ld_so_conf.h"

#include <sys/stat.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <utility>

#include "audit/fs/open_file.h"
#include "audit/fs/path.h"

namespace rocm_audit {
namespace {

// An ld.so.conf is a few hundred bytes; past this, the rest of a file is not read.
constexpr size_t kMaxConfBytes = 16 << 20;

// The text of a configuration file, never blocking (a FIFO or device in its place is not
// read: ldconfig's fopen would wait on a FIFO for ever), at most its first kMaxConfBytes;
// nullopt when it is missing, unreadable, not a regular file, or already read. Whether it
// was read is asked of its inode first, so that a file that a thousand include lines match
// is read once, and again of the file read, which a rename in between may have replaced.
std::optional<std::string> ReadOnce(const std::string& host, std::set<std::pair<dev_t, ino_t>>* read) {
  struct stat st;
  if (stat(host.c_str(), &st) == 0 && read->count({st.st_dev, st.st_ino})) return std::nullopt;
  RegularFileText file = ReadRegularFile(host, kMaxConfBytes, PastCap::kCut);
  if (!file.text || !read->insert({file.st.st_dev, file.st.st_ino}).second) return std::nullopt;
  return std::move(file.text);
}

// One file being read: its lines from `pos`, and the files its current include line
// matched that are still to be read, from `next_match`.
struct Frame {
  std::string conf_path;
  std::string text;
  size_t pos = 0;
  std::vector<std::string> matches;
  size_t next_match = 0;
};

void AddDirectories(std::istringstream& words, std::string word, std::vector<std::string>* dirs,
                    std::set<std::string>* seen) {
  // ldconfig also splits on ':', ',' and tabs, and accepts the old "dir=TYPE" syntax.
  std::string rest = std::move(word);
  for (std::string more; words >> more;) rest += " " + more;
  std::replace_if(rest.begin(), rest.end(), [](char c) { return c == ':' || c == ','; }, ' ');
  std::istringstream entries(rest);
  for (std::string dir; entries >> dir;) {
    if (auto eq = dir.find('='); eq != std::string::npos) dir.resize(eq);
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    if (!dir.empty() && seen->insert(dir).second) dirs->push_back(dir);
  }
}

}  // namespace

std::vector<std::string> ReadLdSoConf(const RootedFs& fs, const std::string& conf_path) {
  std::vector<std::string> dirs;
  std::set<std::string> seen;
  std::set<std::pair<dev_t, ino_t>> read;
  // ldconfig (elf/ldconfig.c, parse_conf) reads an included file where the include stands,
  // depth first; a directory it names again keeps its first place. A file already read
  // adds nothing but its own includes, already read as well: reading each file once gives
  // the same directories in the same order, where ldconfig would read a file that includes
  // itself k times k^depth times (and recurse for ever on a cycle). The frames are a stack
  // of their own: a chain of includes as long as there are files does not exhaust the
  // thread's stack.
  std::vector<Frame> stack;
  // A file in /proc or /sys is the process's and machine's that read it, here the auditor's
  // (/proc/self/cwd/x.conf is a file of the directory rocm-audit runs in): never read.
  auto enter = [&](const std::string& path) {
    auto resolved = fs.ResolveFully(fs.HostPath(path));
    if (!resolved || !resolved->KernelView().empty()) return;
    if (auto text = ReadOnce(resolved->host, &read)) {
      stack.emplace_back();
      stack.back().conf_path = path;
      stack.back().text = std::move(*text);
    }
  };
  enter(conf_path);
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next_match < top.matches.size()) {
      std::string next = std::move(top.matches[top.next_match++]);
      enter(next);  // may move `top`
      continue;
    }
    if (top.pos >= top.text.size()) {
      stack.pop_back();
      continue;
    }
    size_t end = top.text.find('\n', top.pos);
    if (end == std::string::npos) end = top.text.size();
    std::string line = top.text.substr(top.pos, end - top.pos);
    top.pos = end + 1;
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string word;
    if (!(words >> word)) continue;
    if (word == "include") {
      top.matches.clear();
      top.next_match = 0;
      for (std::string pattern; words >> pattern;) {
        if (pattern[0] != '/') pattern = DirName(top.conf_path) + "/" + pattern;
        for (const auto& m : fs.Glob(pattern)) top.matches.push_back(fs.DisplayPath(m));
      }
      continue;
    }
    if (word == "hwcap") continue;
    AddDirectories(words, std::move(word), &dirs, &seen);
  }
  return dirs;
}

}  // namespace rocm_audit
