#include "audit/cmake/program_cache.h"

#include <functional>
#include <optional>

#include "audit/cmake/installed_files.h"

namespace rocm_audit {

ProgramPtr ProgramCache::Get(const std::string& path, size_t cap, const InstalledFiles& files,
                             std::string* why) {
  if (ProgramPtr kept = KeptOfStillWorld(path, cap, files, why)) return kept;
  std::optional<std::string> text = files.Read(path, cap, why);
  if (!text) return nullptr;
  const uint64_t hash = std::hash<std::string>{}(*text);
  std::shared_ptr<Slot> slot;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = by_path_.find(path);
    if (it != by_path_.end() && it->second.hash == hash && it->second.size == text->size()) {
      slot = it->second.slot;
      it->second.shared |= it->second.evaluation != evaluation_;
      it->second.evaluation = evaluation_;
    } else {
      slot = std::make_shared<Slot>();
      const Entry entry{hash, text->size(), slot, evaluation_, forgotten_.count(path) > 0};
      if (it != by_path_.end()) {
        kept_bytes_ -= it->second.size;
        it->second = entry;
        kept_bytes_ += text->size();
        if (!entry.shared) unshared_.push_back(path);
      } else if (kept_bytes_ + text->size() <= kMaxCachedProgramBytes) {
        by_path_.emplace(path, entry);
        kept_bytes_ += text->size();
        if (!entry.shared) unshared_.push_back(path);
      }
    }
  }
  // Parsed outside the map's lock, once: evaluations running in parallel that ask for the
  // same text meanwhile wait for this parse instead of making their own.
  std::call_once(slot->once, [&] { slot->program = ParseProgram(path, *text); });
  return slot->program;
}

ProgramPtr ProgramCache::KeptOfStillWorld(const std::string& path, size_t cap, const InstalledFiles& files,
                                          std::string* why) {
  if (!files.HoldsStill()) return nullptr;
  std::shared_ptr<Slot> slot;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = by_path_.find(path);
    if (it == by_path_.end() || it->second.size > cap) return nullptr;
    slot = it->second.slot;
    it->second.shared |= it->second.evaluation != evaluation_;
    it->second.evaluation = evaluation_;
  }
  // Kept, but perhaps not parsed yet by the evaluation that read it: whichever runs first
  // parses it (the other's call is then a no-op).
  std::call_once(slot->once, [&] {
    if (std::optional<std::string> text = files.Read(path, cap, why))
      slot->program = ParseProgram(path, *text);
  });
  return slot->program;
}

void ProgramCache::ForgetUnshared() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> still_held;
  for (std::string& path : unshared_) {
    auto it = by_path_.find(path);
    if (it == by_path_.end() || it->second.shared) continue;  // dropped (a repeat), or kept for the run
    const Entry& e = it->second;
    // Held elsewhere, dropping it frees nothing, and the next run of it would parse a copy.
    if (e.slot.use_count() > 1 || e.slot->program.use_count() > 1) {
      still_held.push_back(std::move(path));
      continue;
    }
    kept_bytes_ -= e.size;
    forgotten_.insert(it->first);
    by_path_.erase(it);
  }
  unshared_ = std::move(still_held);
  ++evaluation_;
}

}  // namespace rocm_audit
