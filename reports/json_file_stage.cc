#include "reports/json_file_stage.h"

#include <cerrno>
#include <memory>

#include <unistd.h>

#include "audit/support/spill_file.h"
#include "reports/file_facts_json.h"

namespace rocm_audit {
namespace {

// pwrite until all of it is written; false on any error (ENOSPC: the disk is full).
bool WriteAllAt(int fd, const std::string& text, uint64_t offset) {
  for (size_t done = 0; done < text.size();) {
    ssize_t n = pwrite(fd, text.data() + done, text.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

JsonFileStage::JsonFileStage(const std::vector<std::string>& spill_dirs) : fd_(OpenSpillFile(spill_dirs)) {}

JsonFileStage::~JsonFileStage() {
  if (fd_ >= 0) close(fd_);
}

void JsonFileStage::Add(size_t index, const FileFacts& facts) {
  const std::string text = FileFactsElementText(facts);  // on the calling worker
  uint64_t offset = 0;
  {
    // The element's place in the file is taken under the lock and written without it.
    std::lock_guard lock(mutex_);
    if (places_.size() <= index) places_.resize(index + 1);
    offset = file_size_;
    file_size_ += fd_ >= 0 ? text.size() : 0;
    places_[index] = {offset, text.size(), false};
  }
  if (fd_ >= 0 && WriteAllAt(fd_, text, offset)) return;
  std::lock_guard lock(mutex_);  // no spill file, or it is full: the element stays in memory
  places_[index] = {memory_.size(), text.size(), true};
  memory_ += text;
}

// Elements are separated as a kept files[] separates them: ",\n" between, none after the last.
bool JsonFileStage::WriteArray(std::ostream& out) const {
  if (places_.empty()) {
    out << "[]";
    return true;
  }
  out << "[\n";
  std::string buffer;
  for (size_t i = 0; i < places_.size(); ++i) {
    const Place& place = places_[i];
    if (i) out << ",\n";
    if (place.in_memory) {
      out << std::string_view(memory_).substr(place.offset, place.size);
      continue;
    }
    buffer.resize(place.size);
    for (uint64_t done = 0; done < place.size;) {
      ssize_t n =
          pread(fd_, buffer.data() + done, place.size - done, static_cast<off_t>(place.offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      done += static_cast<uint64_t>(n);
    }
    out << buffer;
  }
  out << "\n  ]";
  return true;
}

}  // namespace rocm_audit
