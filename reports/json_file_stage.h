// files[] of the JSON report, rendered while the audit runs: each file's facts become their
// element's text as soon as they are collected, and are freed. The text waits in an unnamed
// spill file (in memory when no spill directory takes one) until the report is written, so
// that what the run holds until then does not grow with the files it audits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

#include "audit/model/file_facts.h"

namespace rocm_audit {

class JsonFileStage {
 public:
  /// `spill_dirs`: where the text waits, the first that gives a spill file (none: memory).
  explicit JsonFileStage(const std::vector<std::string>& spill_dirs);
  ~JsonFileStage();
  JsonFileStage(const JsonFileStage&) = delete;
  JsonFileStage& operator=(const JsonFileStage&) = delete;

  /// The element of files[] at `index`: each index once, from any thread, in any order
  /// (the text goes to the spill file as it comes; only where it went is kept, 16 bytes).
  void Add(size_t index, const FileFacts& facts);

  /// Writes files[] as WriteJson writes a kept one, in index order ("[]" when empty); false
  /// when the spilled text could not be read back.
  bool WriteArray(std::ostream& out) const;

  bool spilled() const { return fd_ >= 0; }

 private:
  struct Place {
    uint64_t offset = 0;  // in the spill file, or in memory_ when in_memory
    uint64_t size = 0;
    bool in_memory = false;
  };

  std::mutex mutex_;
  std::vector<Place> places_;  // by index
  int fd_ = -1;
  uint64_t file_size_ = 0;  // taken by elements so far (a failed write leaves a hole)
  std::string memory_;      // the text of elements without a spill file, or once a write to it
                            // failed (a full disk)
};

}  // namespace rocm_audit
