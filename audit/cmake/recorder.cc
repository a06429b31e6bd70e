#include "audit/cmake/recorder.h"

#include <algorithm>
#include <optional>

#include "audit/cmake/consumer_dirs.h"
#include "audit/fs/path.h"

namespace rocm_audit {

CMakeSite Recorder::Site() const {
  return {command_files_.empty() ? SharedPath() : command_files_.back(), current_ ? current_->line : 0};
}

CMakeSite Recorder::UserSite() const { return frames_.empty() ? Site() : frames_.front().call; }

// The conditions of the kMaxUndecidedShown outermost undecided levels, and a count of the
// rest: blocks nest without bound (interpreter_blocks.cc), and each record under 100,000
// undecided if()s would otherwise copy all their conditions.
constexpr size_t kMaxUndecidedShown = 8;

std::string Recorder::Undecided() const {
  std::string out;
  size_t shown = 0;
  for (auto it = undecided_.begin(); it != undecided_.end() && shown < kMaxUndecidedShown; ++it) {
    if (it->empty()) continue;
    if (!out.empty()) out += "; ";
    out += *it;
    ++shown;
  }
  if (undecided_conditions_ > shown)
    out += "; and " + std::to_string(undecided_conditions_ - shown) + " more undecided conditions";
  return out;
}

void Recorder::PushUndecided(std::string why) {
  if (!why.empty()) ++undecided_conditions_, out_.undecided = true;
  undecided_.push_back(std::move(why));
}

void Recorder::PopUndecided() { ResetUndecided(undecided_.size() - 1); }

void Recorder::ResetUndecided(size_t mark) {
  for (size_t k = mark; k < undecided_.size(); ++k)
    if (!undecided_[k].empty()) --undecided_conditions_;
  undecided_.resize(mark);
}

CMakeReference* Recorder::Reference(const std::string& path, const std::string& via,
                                    const std::string& target, bool optional, bool checked_by_cmake) {
  // The consumer's build and source trees hold what its configure makes, not the package's files.
  if (path.empty() || path[0] != '/' || InConsumerTree(NormalizePath(path))) return nullptr;
  CMakeReference r;
  // Whether the path as written exists, asked of the files once: both the choice of the
  // path's spelling and a new reference need it, and each Exists() may stat the layers.
  std::optional<Tri> exists;
  auto path_exists = [&] {
    if (!exists) exists = files_.Exists(path);
    return *exists;
  };
  // "staging/../lib" is kept as written: the kernel, unlike a lexical normalisation, fails
  // it when staging/ does not exist.
  r.path = NormalizePath(path);
  if (std::string_view(path).find("..") != std::string_view::npos && path_exists() != files_.Exists(r.path))
    r.path = path;
  r.via = via;
  r.site = UserSite();
  r.undecided = Undecided();
  r.target = target;
  r.optional = optional;
  r.checked_by_cmake = checked_by_cmake;
  std::string_view base = BaseName(r.path);
  // The innermost loops only: foreach() nests without bound.
  const size_t loops = std::min<size_t>(loop_values_.size(), 64);
  for (auto it = loop_values_.rbegin(); it != loop_values_.rbegin() + loops; ++it)
    if (!it->empty() && base.find(*it) != std::string_view::npos) {
      r.component = *it;
      break;
    }
  // Found by path through an index: a loop of 100,000 include(OPTIONAL) of paths that
  // differ took 43 s of CPU when each scanned the references before it.
  if (auto known = reference_index_.find(r.path); known != reference_index_.end()) {
    CMakeReference& old = out_.references[known->second];
    // The first reference to a path is kept, unless a decided one follows an undecided one.
    if (!old.undecided.empty() && r.undecided.empty()) {
      r.exists = old.exists;
      old = std::move(r);
    }
    return &old;
  }
  r.exists = path_exists() == Tri::kTrue;
  reference_index_.emplace(r.path, out_.references.size());
  out_.references.push_back(std::move(r));
  return &out_.references.back();
}

void Recorder::Skip(const std::string& command, const std::string& reason) {
  out_.skipped.push_back({command, Site(), reason});
}

CMakeFailure* Recorder::Fail(const PathText& message) {
  // A failure right after an EXISTS test that found nothing is the package's own check of
  // that file (set_and_check, the import check of generated Targets files): the finding is
  // the missing file, which stops the configure.
  // The innermost if() levels only: blocks nest without bound.
  const size_t levels = std::min<size_t>(missing_tests_.size(), 64);
  for (auto level = missing_tests_.rbegin(); level != missing_tests_.rbegin() + levels; ++level) {
    if (level->empty()) continue;
    if (CMakeReference* r = Reference(level->back(), frames_.empty() ? "if(EXISTS)" : frames_.back().name)) {
      r->stops_configure = true;
      return nullptr;
    }
  }
  out_.failures.push_back(CMakeFailure::Of(message, UserSite(), Undecided()));
  return &out_.failures.back();
}

}  // namespace rocm_audit
