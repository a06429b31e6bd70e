#include "audit/elf/object_store.h"

#include <sys/stat.h>

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Support/MemoryBuffer.h>

#include <new>

#include "audit/elf/elf_reader.h"
#include "audit/elf/resident_pages.h"

namespace rocm_audit {

std::shared_ptr<const StoredObject> ObjectStore::Get(const std::string& real_path,
                                                     const std::string& display_path) {
  std::shared_ptr<Slot> slot;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& s = slots_[real_path];
    if (!s) s = std::make_shared<Slot>();
    slot = s;
  }
  std::call_once(slot->once, [&] {
    auto stored = std::make_shared<StoredObject>();
    std::string error;
    // Out of memory reading one file makes that file unreadable, for every caller: the
    // walk's reader and the loader's search both go on without it.
    try {
      struct stat opened;
      auto buffer = MapFile(real_path, &error, &opened);
      if (buffer) {
        stored->dev = static_cast<uint64_t>(opened.st_dev);
        stored->ino = static_cast<uint64_t>(opened.st_ino);
        auto model = std::make_shared<ElfModel>();
        const bool read = ReadElf(buffer, display_path, model.get(), &error);
        // Reading it scanned its symbol table whole; lookups read a few pages of it. A GPU
        // code object is unmapped right after its own checks (ReadAfterItsChecks): released
        // now and again after its checks, it would flush every core's TLB twice for pages
        // the munmap gives back anyway.
        model->pages_kept =
            model->machine == llvm::ELF::EM_AMDGPU || ReleaseResidentPagesUnlessSmall(*buffer) == 0;
        if (read) stored->model = model;
      }
    } catch (const std::bad_alloc&) {
      stored->model = nullptr;
      error = std::string(kOutOfMemoryReason);
    }
    stored->error = error;
    slot->value = std::move(stored);
  });
  return slot->value;
}

void ObjectStore::Forget(const std::string& real_path) {
  std::lock_guard<std::mutex> lock(mutex_);
  slots_.erase(real_path);
}

}  // namespace rocm_audit
