#include "audit/cmake/recorder.h"

#include <optional>

#include "audit/fs/path.h"

namespace rocm_audit {

CMakeSite Recorder::Site() const {
  return {command_files_.empty() ? std::string() : command_files_.back(), current_ ? current_->line : 0};
}

CMakeSite Recorder::UserSite() const { return frames_.empty() ? Site() : frames_.front().call; }

std::string Recorder::Undecided() const {
  std::string out;
  for (const std::string& u : undecided_) {
    if (u.empty()) continue;
    if (!out.empty()) out += "; ";
    out += u;
  }
  return out;
}

CMakeReference* Recorder::Reference(const std::string& path, const std::string& via,
                                    const std::string& target, bool optional, bool checked_by_cmake) {
  if (path.empty() || path[0] != '/') return nullptr;
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
  for (auto it = loop_values_.rbegin(); it != loop_values_.rend(); ++it)
    if (!it->empty() && base.find(*it) != std::string_view::npos) {
      r.component = *it;
      break;
    }
  for (CMakeReference& old : out_.references) {
    if (old.path != r.path) continue;
    // The first reference to a path is kept, unless a decided one follows an undecided one.
    if (!old.undecided.empty() && r.undecided.empty()) {
      r.exists = old.exists;
      old = std::move(r);
    }
    return &old;
  }
  r.exists = path_exists() == Tri::kTrue;
  out_.references.push_back(std::move(r));
  return &out_.references.back();
}

void Recorder::Skip(const std::string& command, const std::string& reason) {
  out_.skipped.push_back({command, Site(), reason});
}

void Recorder::Fail(const std::string& message) {
  // A failure right after an EXISTS test that found nothing is the package's own check of
  // that file (set_and_check, the import check of generated Targets files): the finding is
  // the missing file, which stops the configure.
  for (auto level = missing_tests_.rbegin(); level != missing_tests_.rend(); ++level) {
    if (level->empty()) continue;
    if (CMakeReference* r = Reference(level->back(), frames_.empty() ? "if(EXISTS)" : frames_.back().name)) {
      r->stops_configure = true;
      return;
    }
  }
  out_.failures.push_back({message, UserSite(), Undecided()});
}

}  // namespace rocm_audit
