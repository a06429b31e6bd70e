#include "audit/loader/search_trail.h"

namespace rocm_audit {

void SearchTrail::Add(const std::shared_ptr<const SearchList>& list, size_t index, std::string_view outcome) {
  ++size_;
  if (!runs_.empty()) {
    Run& last = runs_.back();
    if (last.list == list && last.first + last.count == index && last.outcome == outcome) {
      ++last.count;
      return;
    }
  }
  runs_.push_back({list, index, 1, std::string(outcome)});
}

SearchStepView SearchTrail::back() const {
  const Run& last = runs_.back();
  return {last.list->directories[last.first + last.count - 1], last.list->source, last.outcome};
}

SearchStepView SearchTrail::const_iterator::operator*() const {
  const Run& run = trail_->runs_[run_];
  return {run.list->directories[run.first + offset_], run.list->source, run.outcome};
}

SearchTrail::const_iterator& SearchTrail::const_iterator::operator++() {
  if (++offset_ == trail_->runs_[run_].count) {
    ++run_;
    offset_ = 0;
  }
  return *this;
}

}  // namespace rocm_audit
