#include "audit/cmake/program_cache.h"

#include <functional>
#include <optional>

#include "audit/cmake/installed_files.h"

namespace rocm_audit {

ProgramPtr ProgramCache::Get(const std::string& path, size_t cap, const InstalledFiles& files,
                             std::string* why) {
  std::optional<std::string> text = files.Read(path, cap, why);
  if (!text) return nullptr;
  const uint64_t hash = std::hash<std::string>{}(*text);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = by_path_.find(path);
        it != by_path_.end() && it->second.hash == hash && it->second.size == text->size())
      return it->second.program;
  }
  // Parsed outside the lock: another evaluation may parse the same file meanwhile, and the
  // last one kept is the one later evaluations get.
  ProgramPtr program = ParseProgram(path, *text);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = by_path_.find(path);
  if (it != by_path_.end()) {
    kept_bytes_ -= it->second.size;
    it->second = {hash, text->size(), program};
  } else if (kept_bytes_ + text->size() <= kMaxCachedProgramBytes) {
    by_path_.emplace(path, Entry{hash, text->size(), program});
  } else {
    return program;
  }
  kept_bytes_ += text->size();
  return program;
}

}  // namespace rocm_audit
