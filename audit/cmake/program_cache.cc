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
  std::shared_ptr<Slot> slot;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = by_path_.find(path);
    if (it != by_path_.end() && it->second.hash == hash && it->second.size == text->size()) {
      slot = it->second.slot;
    } else {
      slot = std::make_shared<Slot>();
      if (it != by_path_.end()) {
        kept_bytes_ -= it->second.size;
        it->second = {hash, text->size(), slot};
        kept_bytes_ += text->size();
      } else if (kept_bytes_ + text->size() <= kMaxCachedProgramBytes) {
        by_path_.emplace(path, Entry{hash, text->size(), slot});
        kept_bytes_ += text->size();
      }
    }
  }
  // Parsed outside the map's lock, once: evaluations running in parallel that ask for the
  // same text meanwhile wait for this parse instead of making their own.
  std::call_once(slot->once, [&] { slot->program = ParseProgram(path, *text); });
  return slot->program;
}

}  // namespace rocm_audit
