#include "audit/inspect/plugin_wheel.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "audit/fs/open_file.h"
#include "audit/fs/path.h"

namespace rocm_audit {
namespace {

// A RECORD of torch lists ~15,000 files (2 MB); past this a file is not a RECORD worth reading.
constexpr size_t kMaxMetadataBytes = 64 << 20;
// site-packages/torch/lib/x.so is two levels below the dist-info's parent; pkg/a/b/c/x.so four.
constexpr int kMaxLevels = 8;

bool AllDigits(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// "311" -> "3.11"; "" when it is not MAJOR then MINOR digits.
std::string DottedVersion(std::string_view digits) {
  if (digits.size() < 2 || !AllDigits(digits)) return "";
  return std::string(digits.substr(0, 1)) + "." + std::string(digits.substr(1));
}

// The lines of a dist-info file, its first kMaxMetadataBytes. Only a regular file is read,
// never through a symbolic link and never blocking: a RECORD that is a FIFO would wait for a
// writer for ever, one linked to /dev/zero would never end, and the walk reports both as not
// followed (special-file, link-outside-tree). Anything else reads as no lines.
std::vector<std::string> Lines(const std::string& path) {
  std::vector<std::string> out;
  RegularFileText file = ReadRegularFile(path, kMaxMetadataBytes, PastCap::kCut, Links::kRefuse);
  std::string_view text = file.text ? std::string_view(*file.text) : std::string_view();
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (line.ends_with('\r')) line.remove_suffix(1);
    out.emplace_back(line);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return out;
}

// RECORD is CSV (path,hash,size); a path with a comma is quoted with "" doubled inside.
std::string RecordPath(const std::string& line) {
  if (line.empty() || line[0] != '"') return line.substr(0, line.find(','));
  std::string out;
  for (size_t i = 1; i < line.size(); ++i) {
    if (line[i] != '"') {
      out += line[i];
    } else if (i + 1 < line.size() && line[i + 1] == '"') {
      out += '"';
      ++i;
    } else {
      break;
    }
  }
  return out;
}

}  // namespace

std::optional<WheelAbi> ParseWheelTag(const std::string& tag) {
  size_t a = tag.find('-');
  size_t b = a == std::string::npos ? a : tag.find('-', a + 1);
  if (b == std::string::npos) return std::nullopt;
  std::string python = tag.substr(0, a), abi = tag.substr(a + 1, b - a - 1);
  WheelAbi out;
  out.tag = tag;
  if (abi == "abi3" && python.starts_with("cp")) {
    out.kind = WheelAbi::Kind::kStableAbi;
    out.version = DottedVersion(python.substr(2));
  } else if (abi.starts_with("pypy")) {  // pypy310_pp73: PyPy 3.10, release series 7.3
    out.kind = WheelAbi::Kind::kPyPy;
    out.version = DottedVersion(abi.substr(4, abi.find('_') - 4));
  } else if (abi.starts_with("cp")) {  // cp311, cp37m, cp313t: the flags belong to the version
    size_t digits = 2;
    while (digits < abi.size() && std::isdigit(static_cast<unsigned char>(abi[digits]))) ++digits;
    std::string dotted = DottedVersion(std::string_view(abi).substr(2, digits - 2));
    if (!dotted.empty()) out.version = dotted + abi.substr(digits);
  }
  if (out.version.empty()) return std::nullopt;
  return out;
}

const std::vector<WheelIndex::DistInfo>& WheelIndex::DistInfosIn(const std::string& dir) const {
  auto [it, fresh] = by_dir_.try_emplace(dir);
  if (!fresh) return it->second;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    // The dist-info itself, never a link to a directory elsewhere (out of the tree, /proc).
    if (!name.ends_with(".dist-info") || !entry.is_directory(ec) || entry.is_symlink(ec)) continue;
    DistInfo info;
    for (std::string& line : Lines(entry.path() / "RECORD"))
      if (std::string p = RecordPath(line); !p.empty()) info.record.insert(std::move(p));
    for (const std::string& line : Lines(entry.path() / "WHEEL")) {
      if (!line.starts_with("Tag:")) continue;
      std::string value = line.substr(4);
      value.erase(0, value.find_first_not_of(" \t"));
      if ((info.abi = ParseWheelTag(value))) break;
    }
    if (!info.record.empty()) it->second.push_back(std::move(info));
  }
  return it->second;
}

std::optional<WheelAbi> WheelIndex::AbiOf(const std::string& module) const {
  std::lock_guard lock(mutex_);
  std::string dir = DirName(module);
  std::string relative(BaseName(module));
  for (int level = 0; level < kMaxLevels && !dir.empty(); ++level) {
    for (const DistInfo& info : DistInfosIn(dir))
      if (info.record.count(relative)) return info.abi;
    if (dir == "/" || dir == ".") break;
    relative = std::string(BaseName(dir)) + "/" + relative;
    dir = DirName(dir);
  }
  return std::nullopt;
}

}  // namespace rocm_audit
