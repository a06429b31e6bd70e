#include "audit/loader/closure.h"

#include <algorithm>
#include <climits>
#include <utility>

#include <llvm/ADT/DenseSet.h>

namespace rocm_audit {

int LoadClosure::FindByName(std::string_view name) const {
  if (!by_name.empty() || objects.empty()) {
    auto it = by_name.find(llvm::StringRef(name.data(), name.size()));
    return it == by_name.end() ? -1 : it->second;
  }
  for (size_t i = 0; i < objects.size(); ++i) {
    const LoadedObject& o = objects[i];
    if (std::find(o.names.begin(), o.names.end(), name) != o.names.end() || o.path == name)
      return static_cast<int>(i);
  }
  return -1;
}

namespace {

llvm::StringRef Ref(std::string_view s) { return {s.data(), s.size()}; }

// The closure as it grows, with what each step looks up kept in indexes. ld.so walks lists
// for each DT_NEEDED (the loaded objects for a name or a file, the loaders up to the main
// object for their RPATH); here a name or a file is a hash lookup, and the RPATH walk
// visits only the loaders that have one: a closure of N objects costs O(N) expected where
// rebuilding the chain and scanning the objects for every DT_NEEDED cost O(N^2).
class ClosureBuilder {
 public:
  ClosureBuilder(const LoaderConfig& config, ObjectStore& store, LoaderMemo* memo)
      : search_(config, memo ? &memo->search : nullptr), store_(store), memo_(memo) {}

  void Add(LoadedObject obj) {
    int index = static_cast<int>(closure_.objects.size());
    // A name already taken stays with the first object that has it: the one a scan finds.
    for (std::string_view n : obj.names) closure_.by_name.try_emplace(Ref(n), index);
    closure_.by_name.try_emplace(Ref(obj.path), index);
    by_real_path_.try_emplace(Ref(obj.real_path), index);
    if (obj.id.known()) by_id_.try_emplace({obj.id.dev, obj.id.ino}, index);
    int up = obj.loader < 0 ? -1 : rpath_up_[obj.loader];
    rpath_up_.push_back(obj.model->rpath.empty() ? up : index);
    closure_.objects.push_back(std::move(obj));
  }

  void Resolve(int next) {
    // objects grows below: its elements are read by index, never held by reference.
    const ElfModel* requester = closure_.objects[next].model;
    const ElfModel& main = *closure_.objects[0].model;
    for (size_t k = 0; k < requester->needed.size(); ++k) {
      const std::string_view name = requester->needed[k];
      if (closure_.FindByName(name) >= 0) continue;  // already loaded under this name
      // A name an earlier object failed to find is searched again with this object's own
      // RPATH/RUNPATH: _dl_map_object never matches a name against a failed (faked) map.
      const ResolvedNeeded* found = Search(name, k, next, main);
      const Resolution& res = found->resolution;
      if (!res.found) {
        Fail(name, next, Resolution(res), {});
        continue;
      }
      // Same file under another name: ld.so compares st_dev/st_ino (_dl_map_object_from_fd)
      // and reuses the map, so a hard link or a bind-mounted copy is the object loaded.
      if (int same = SameFile(res); same >= 0) {
        closure_.objects[same].names.push_back(name);
        closure_.by_name.try_emplace(Ref(name), same);
        continue;
      }
      if (!found->stored->model) {
        Fail(name, next, Resolution(res), found->stored->error);
        continue;
      }
      LoadedObject obj;
      obj.model = found->stored->model.get();
      obj.path = res.path;
      obj.real_path = res.real_path;
      obj.id = res.id;
      obj.loader = next;
      if (!res.searched.empty()) obj.found_by = res.searched.back().source;
      obj.names.push_back(name);
      if (!obj.model->soname.empty() && obj.model->soname != name) obj.names.push_back(obj.model->soname);
      closure_.found.push_back(found);
      Add(std::move(obj));
    }
  }

  void KeepRunAnswers(std::shared_ptr<const void> answers) { closure_.run_answers = std::move(answers); }
  LoadClosure Take() { return std::move(closure_); }
  size_t size() const { return closure_.objects.size(); }

 private:
  // The loaders of object `from`, itself first, that have a DT_RPATH.
  class Walk : public RpathWalk {
   public:
    Walk(const ClosureBuilder& b, int from) : b_(b), next_(b.rpath_up_[from]) {}
    const RpathLink* Next() override {
      if (next_ < 0) return nullptr;
      const LoadedObject& o = b_.closure_.objects[next_];
      link_ = {o.model, DirName(o.path)};
      next_ = o.loader < 0 ? -1 : b_.rpath_up_[o.loader];
      return &link_;
    }

   private:
    const ClosureBuilder& b_;
    int next_;
    RpathLink link_{};
  };

  // What `name`, the k-th DT_NEEDED of object `next`, resolves to: the run's answer when
  // no DT_RPATH is inherited (LoaderMemo), else this closure's own search. The run's answer
  // for a member's name is read from the answer that found the member, once one closure
  // has kept it there.
  const ResolvedNeeded* Search(std::string_view name, size_t k, int next, const ElfModel& main) {
    const LoadedObject& requester_object = closure_.objects[next];
    // A name no open() can take is decided from its length (LibrarySearch): never copied
    // into a key.
    const bool shared =
        memo_ && !(!requester_object.model->has_runpath && rpath_up_[next] >= 0) && name.size() < PATH_MAX;
    std::atomic<const ResolvedNeeded*>* slot = nullptr;
    if (shared && next > 0 && closure_.found[next - 1]->next) slot = &closure_.found[next - 1]->next[k];
    if (slot)
      if (const ResolvedNeeded* known = slot->load(std::memory_order_acquire)) return known;
    if (shared) {
      key_.assign(requester_object.path);  // the builder's buffer: no allocation per name
      key_ += '\0';
      key_ += name;
      key_ += '\0';
      key_ += main.interpreter;
      if (const auto* known = memo_->needed->Find(key_)) return Remember(slot, known->get());
    }
    Walk up(*this, next);
    const RpathLink requester{requester_object.model, DirName(requester_object.path)};
    auto searched = std::make_shared<ResolvedNeeded>();
    searched->resolution = search_.Find(name, requester, main, up);
    const Resolution& res = searched->resolution;
    if (res.found) searched->stored = store_.Get(res.real_path, res.path);
    if (!shared) {
      closure_.own_answers.push_back(std::move(searched));
      return closure_.own_answers.back().get();
    }
    if (const ElfModel* found = searched->stored ? searched->stored->model.get() : nullptr)
      searched->next = std::make_unique<std::atomic<const ResolvedNeeded*>[]>(found->needed.size());
    return Remember(slot, memo_->needed->Keep(key_, std::move(searched)).get());
  }

  static const ResolvedNeeded* Remember(std::atomic<const ResolvedNeeded*>* slot,
                                        const ResolvedNeeded* answer) {
    if (slot) slot->store(answer, std::memory_order_release);
    return answer;
  }

  // The first loaded object that is the found file: the same real path or device and inode.
  int SameFile(const Resolution& res) const {
    int same = -1;
    if (auto it = by_real_path_.find(Ref(res.real_path)); it != by_real_path_.end()) same = it->second;
    if (res.id.known())
      if (auto it = by_id_.find({res.id.dev, res.id.ino});
          it != by_id_.end() && (same < 0 || it->second < same))
        same = it->second;
    return same;
  }

  // A name is one unresolved library however many objects need it. The index is keyed by
  // views into the requesters' models, which live as long as the closure.
  void Fail(std::string_view name, int next, Resolution&& why, std::string parse_error) {
    if (auto it = unresolved_.find(Ref(name)); it != unresolved_.end()) {
      closure_.unresolved[it->second].needed_by.push_back(next);
      return;
    }
    unresolved_.try_emplace(Ref(name), closure_.unresolved.size());
    closure_.unresolved.push_back({std::string(name), {next}, std::move(why), std::move(parse_error)});
  }

  LoadClosure closure_;
  LibrarySearch search_;
  ObjectStore& store_;
  LoaderMemo* memo_;
  std::string key_;  ///< Search's key into memo_->needed
  llvm::DenseMap<llvm::StringRef, int> by_real_path_;
  llvm::DenseMap<std::pair<uint64_t, uint64_t>, int> by_id_;
  std::vector<int> rpath_up_;  ///< per object: itself or its nearest loader with a DT_RPATH, or -1
  llvm::DenseMap<llvm::StringRef, size_t> unresolved_;  ///< name -> index in closure_.unresolved
};

}  // namespace

LoadClosure BuildClosure(std::shared_ptr<const StoredObject> main, const std::string& main_path,
                         const std::string& main_real_path, const LoaderConfig& config, ObjectStore& store,
                         LoaderMemo* memo) {
  ClosureBuilder builder(config, store, memo);
  if (memo) builder.KeepRunAnswers(memo->needed);
  auto paths = std::make_shared<const std::pair<std::string, std::string>>(main_path, main_real_path);
  LoadedObject root;
  root.model = main->model.get();
  root.path = paths->first;
  root.real_path = paths->second;
  // The store's fstat of the file names it as a stat of its path would.
  root.id = main->dev || main->ino ? FileId{main->dev, main->ino} : FileIdOf(main_real_path);
  if (!root.model->soname.empty()) root.names.push_back(root.model->soname);
  builder.Add(std::move(root));
  for (size_t next = 0; next < builder.size(); ++next) builder.Resolve(static_cast<int>(next));
  LoadClosure closure = builder.Take();
  closure.main_object = std::move(main);
  closure.main_paths = std::move(paths);
  return closure;
}

LoadClosure DirectNeedsOf(LoadClosure&& closure) {
  LoadClosure kept;
  if (closure.objects.empty()) return kept;
  kept.main_object = std::move(closure.main_object);
  kept.main_paths = std::move(closure.main_paths);
  kept.run_answers = std::move(closure.run_answers);
  const ElfModel& main = *closure.objects[0].model;
  llvm::DenseMap<int, int> kept_as;  // index in `closure` -> index in `kept`
  // An object kept has the names that matched it here: views into the main object's model
  // and its own, both alive for as long as `kept` is. Names other objects gave it viewed
  // models `kept` lets go.
  auto keep = [&](int index) {
    auto [it, fresh] = kept_as.try_emplace(index, static_cast<int>(kept.objects.size()));
    if (!fresh) return it->second;
    LoadedObject& o = closure.objects[index];
    if (index > 0) kept.found.push_back(closure.found[index - 1]);
    o.names.clear();
    if (!o.model->soname.empty()) o.names.push_back(o.model->soname);
    kept.objects.push_back(std::move(o));
    return it->second;
  };
  // Each name matched before any object is moved out.
  std::vector<std::pair<std::string_view, int>> matched;
  for (std::string_view name : main.needed)
    if (int found = closure.FindByName(name); found >= 0) matched.emplace_back(name, found);
  keep(0);
  for (const auto& [name, found] : matched) {
    int at = keep(found);
    kept.by_name.try_emplace(Ref(name), at);
    if (std::find(kept.objects[at].names.begin(), kept.objects[at].names.end(), name) ==
        kept.objects[at].names.end())
      kept.objects[at].names.push_back(name);
  }
  // Of this closure's own searches, those that found an object kept.
  llvm::DenseSet<const ResolvedNeeded*> found(kept.found.begin(), kept.found.end());
  for (std::shared_ptr<const ResolvedNeeded>& own : closure.own_answers)
    if (found.contains(own.get())) kept.own_answers.push_back(std::move(own));
  return kept;
}

}  // namespace rocm_audit
