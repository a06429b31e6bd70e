#include "engine/consumer_index.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "audit/model/byte_text.h"
#include "audit/support/parallel.h"
#include "audit/unpack/private_dir.h"

namespace rocm_audit {
namespace {

using Json = nlohmann::ordered_json;

// A line longer than this is no record of an index (a record is one file's imports: libLLVM's
// largest consumers import some 30,000 names, 2 MiB).
constexpr size_t kMaxLineBytes = size_t(64) << 20;

bool IsElf(const std::string& host) {
  const int fd = open(host.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
  if (fd < 0) return false;
  char magic[4] = {};
  struct stat st;
  const bool elf = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && pread(fd, magic, 4, 0) == 4 &&
                   std::string_view(magic, 4) == std::string_view(
                                                     "\x7f"
                                                     "ELF",
                                                     4);
  close(fd);
  return elf;
}

Json Strings(const std::vector<std::string>& list) {
  Json out = Json::array();
  for (const std::string& s : list) out.push_back(LosslessText(s));
  return out;
}

// The lines of one unpacked package: its members that ld.so could load, by path. A GPU code
// object is never loaded by ld.so, and separate debug files load nothing.
std::string LinesOf(const UnpackedPackage& u, const std::string& tree) {
  std::vector<std::string> members = u.members;
  std::sort(members.begin(), members.end());
  std::string out;
  for (const std::string& m : members) {
    if (m.starts_with("usr/lib/debug/") || !IsElf(tree + "/" + m)) continue;
    std::optional<ElfFacts> elf = ReadConsumerFacts(tree + "/" + m);
    if (!elf || elf->machine == "amdgpu") continue;
    Json line = {{kConsumerIndexKey, 1},
                 {"package", LosslessText(u.name)},
                 {"version", LosslessText(u.version)},
                 {"architecture", LosslessText(u.architecture)},
                 {"path", LosslessText("/" + m)},
                 {"soname", LosslessText(elf->soname)},
                 {"needed", Strings(elf->needed)},
                 {"imports", Strings(elf->imports)}};
    out += line.dump() + "\n";
  }
  return out;
}

std::vector<std::string> StringsOf(const nlohmann::json& j, const char* name) {
  std::vector<std::string> out;
  if (auto it = j.find(name); it != j.end() && it->is_array())
    for (const auto& v : *it)
      if (v.is_string()) out.push_back(BytesOfLosslessText(v.get<std::string>()));
  return out;
}

std::string StringOf(const nlohmann::json& j, const char* name) {
  auto it = j.find(name);
  return it != j.end() && it->is_string() ? BytesOfLosslessText(it->get<std::string>()) : std::string();
}

// Whether `line` nests arrays and objects at most `limit` deep (strings skipped): a record
// nests 2 deep, and a hostile line of 64 MiB of '[' is refused before it is parsed.
bool NestsAtMost(std::string_view line, int limit) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return false;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return true;
}

// The consumer a line records, or false when it is no record of an index.
bool ConsumerOfLine(std::string_view line, std::string* installed, FileFacts* consumer) {
  if (!NestsAtMost(line, 2)) return false;
  const nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return false;
  const auto format = j.find(kConsumerIndexKey);
  if (format == j.end() || !format->is_number_integer() || format->get<int64_t>() != 1) return false;
  *installed = StringOf(j, "path");
  const std::string package = StringOf(j, "package");
  if (!installed->starts_with('/') || package.empty()) return false;
  consumer->path = package + ":" + *installed;
  consumer->kind = "elf";
  ElfFacts elf;
  elf.soname = StringOf(j, "soname");
  elf.needed = StringsOf(j, "needed");
  elf.imports = StringsOf(j, "imports");
  elf.has_dynamic = elf.has_symbols = true;
  consumer->elf = std::move(elf);
  return true;
}

}  // namespace

bool IndexPackages(const std::vector<std::string>& packages, const UnpackLimits& limits, unsigned jobs,
                   std::ostream& out, std::vector<IndexProblem>* problems, std::string* error) {
  std::vector<PackageFormat> formats;
  for (const std::string& p : packages) {
    struct stat st;
    std::optional<PackageFormat> format;
    if (stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode)) format = DetectPackageFile(p);
    if (!format) {
      *error = p + ": not a package (index takes .deb, .rpm, wheel, conda, tar or zip files)";
      return false;
    }
    formats.push_back(*format);
  }
  PrivateDir dir(error);
  if (dir.path().empty()) return false;
  std::vector<std::string> lines(packages.size());
  std::vector<std::vector<UnpackProblem>> refused(packages.size());
  // Each package unpacked, indexed and removed by one worker: the disk holds --jobs packages
  // at a time, whatever the size of the list.
  ParallelFor(packages.size(), jobs ? jobs : std::thread::hardware_concurrency(), [&](size_t i) {
    const std::string tree = dir.path() + "/" + std::to_string(i);
    mkdir(tree.c_str(), 0700);
    UnpackBudget budget{limits};
    const UnpackedPackage u = UnpackPackage(packages[i], formats[i], tree, &budget, &refused[i]);
    lines[i] = LinesOf(u, tree);
    RemoveTree(tree);
  });
  for (size_t i = 0; i < packages.size(); ++i) {
    out << lines[i];
    for (const UnpackProblem& p : refused[i])
      problems->push_back({packages[i], (p.member.empty() ? "" : p.member + ": ") + p.reason});
  }
  out.flush();
  if (!out) {
    *error = "cannot write the index";
    return false;
  }
  return true;
}

bool ReadConsumerIndex(const std::string& file, BaseConsumers* base, std::string* error) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    *error = file + ": cannot read the consumer index";
    return false;
  }
  // Read in blocks, a line at most kMaxLineBytes: a file without newlines is refused at the
  // cap, never held whole.
  std::string pending;
  std::vector<char> block(size_t(1) << 20);
  size_t number = 0;
  auto take = [&](std::string_view line) {
    ++number;
    if (line.empty()) return true;
    std::string installed;
    FileFacts consumer;
    if (!ConsumerOfLine(line, &installed, &consumer)) return false;
    base->AddIndexed(std::move(installed), std::move(consumer));
    return true;
  };
  bool ok = true;
  while (ok && in) {
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    pending.append(block.data(), static_cast<size_t>(in.gcount()));
    size_t start = 0;
    for (size_t nl; ok && (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1)
      ok = take(std::string_view(pending).substr(start, nl - start));
    pending.erase(0, start);
    if (pending.size() > kMaxLineBytes) {
      ok = false;
      ++number;
    }
  }
  if (ok && !pending.empty()) ok = take(pending);
  if (!ok)
    *error = file + ":" + std::to_string(number) + ": not a line of a consumer index (rocm-audit index)";
  return ok;
}

}  // namespace rocm_audit
