// The directories one library search tried, in order, with what each held: what the
// unresolved-library finding lists. ld.so tries every name in every directory of its lists
// (elf/dl-load.c, open_path), so N names missing from M directories make N x M steps; a
// trail holds them as runs over lists shared by every search that walks them, one run for
// each stretch of one list with one outcome, so a name not found anywhere costs a run per
// list, not a step per directory.
#pragma once

#include <cstddef>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rocm_audit {

/// The directories of one search list, expanded once for every name searched in them.
struct SearchList {
  std::string source;  ///< "RPATH of libX.so", "--library-path", "RUNPATH of ...", "ld.so.conf", "default"
  std::vector<std::string> directories;  ///< host directories, in order
};

struct SearchStep {
  std::string directory;  ///< host directory tried
  std::string source;     ///< "RPATH of libX.so", "--library-path", "RUNPATH of ...", "ld.so.conf", "default"
  std::string outcome;    ///< "not found", "skipped: wrong ELF class", ...
};

/// One step of a trail, viewed where the trail keeps it.
struct SearchStepView {
  const std::string& directory;
  const std::string& source;
  const std::string& outcome;
  operator SearchStep() const { return {directory, source, outcome}; }
};

class SearchTrail {
 public:
  /// Appends the step of `list`'s directory `index`.
  void Add(const std::shared_ptr<const SearchList>& list, size_t index, std::string_view outcome);

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  SearchStepView back() const;

  class const_iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = SearchStep;
    using reference = SearchStepView;
    using pointer = void;
    using difference_type = std::ptrdiff_t;

    SearchStepView operator*() const;
    const_iterator& operator++();
    const_iterator operator++(int) {
      const_iterator was = *this;
      ++*this;
      return was;
    }
    bool operator==(const const_iterator&) const = default;

   private:
    friend class SearchTrail;
    const_iterator(const SearchTrail* trail, size_t run) : trail_(trail), run_(run) {}
    const SearchTrail* trail_;
    size_t run_;
    size_t offset_ = 0;
  };
  using value_type = SearchStep;
  using iterator = const_iterator;
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, runs_.size()}; }

 private:
  // Consecutive directories of one list with one outcome.
  struct Run {
    std::shared_ptr<const SearchList> list;
    size_t first, count;
    std::string outcome;
  };
  std::vector<Run> runs_;
  size_t size_ = 0;
};

}  // namespace rocm_audit
