#include "audit/elf/object_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

#include "audit/elf/elf_reader.h"

namespace rocm_audit {
namespace {

// Maps a regular file, as MapFile does, without ever blocking: the loader hands the store
// files it found by searching, not files the walk classified, and open(2) of a FIFO waits
// for a writer. Opened non-blocking, and refused unless the descriptor is a regular file.
std::shared_ptr<llvm::MemoryBuffer> MapRegularFile(const std::string& path, std::string* error) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    *error = std::generic_category().message(errno);
    return nullptr;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    *error = "not a regular file";
    close(fd);
    return nullptr;
  }
  // RequiresNullTerminator=false lets LLVM mmap the file instead of copying it.
  auto buf = llvm::MemoryBuffer::getOpenFile(llvm::sys::fs::convertFDToNativeFile(fd), path,
                                             static_cast<uint64_t>(st.st_size),
                                             /*RequiresNullTerminator=*/false, /*IsVolatile=*/false);
  close(fd);
  if (!buf) {
    *error = buf.getError().message();
    return nullptr;
  }
  return std::shared_ptr<llvm::MemoryBuffer>(std::move(*buf));
}

}  // namespace

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
    auto buffer = MapRegularFile(real_path, &error);
    if (buffer) {
      auto model = std::make_shared<ElfModel>();
      if (ReadElf(std::move(buffer), display_path, model.get(), &error)) stored->model = model;
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
