// Parses each ELF file at most once per run, whoever asks first (the walk or the loader
// emulation), and shares the model between threads.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "audit/elf/elf_model.h"

namespace rocm_audit {

/// The reason a file is unreadable when memory ran out while it was read.
inline constexpr std::string_view kOutOfMemoryReason =
    "memory ran out while reading it (std::bad_alloc): nothing of it was audited, the run went on";

struct StoredObject {
  std::shared_ptr<const ElfModel> model;  ///< null when parsing failed
  std::string error;                      ///< why, when it failed
  /// The file's device and inode as it was opened (0, 0 when it was not): the loader tells
  /// objects apart by them, and asking the file system again costs a stat per closure.
  uint64_t dev = 0, ino = 0;
};

class ObjectStore {
 public:
  /// `real_path` identifies the file (symlinks resolved); `display_path` names it in
  /// the model and in messages. Thread-safe; concurrent callers wait for one parse.
  std::shared_ptr<const StoredObject> Get(const std::string& real_path, const std::string& display_path);
  /// Lets go of the file's model, once the run needs it no more (a GPU code object after its
  /// checks): a later Get parses it again. Those holding the model keep it.
  void Forget(const std::string& real_path);

 private:
  struct Slot {
    std::once_flag once;
    std::shared_ptr<const StoredObject> value;
  };
  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<Slot>> slots_;
};

}  // namespace rocm_audit
