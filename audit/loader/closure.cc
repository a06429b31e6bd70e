#include "audit/loader/closure.h"

#include <algorithm>

namespace rocm_audit {

int LoadClosure::FindByName(const std::string& name) const {
  for (size_t i = 0; i < objects.size(); ++i) {
    const LoadedObject& o = objects[i];
    if (std::find(o.names.begin(), o.names.end(), name) != o.names.end() || o.path == name)
      return static_cast<int>(i);
  }
  return -1;
}

LoadClosure BuildClosure(const ElfModel& main, const std::string& main_path,
                         const std::string& main_real_path, const LoaderConfig& config, ObjectStore& store) {
  LoadClosure closure;
  LoadedObject root;
  root.model = &main;
  root.path = main_path;
  root.real_path = main_real_path;
  root.id = FileIdOf(main_real_path);
  if (!main.soname.empty()) root.names.push_back(main.soname);
  closure.objects.push_back(std::move(root));

  for (size_t next = 0; next < closure.objects.size(); ++next) {
    // Copy what we need: push_back below may move the vector's elements.
    const ElfModel* requester = closure.objects[next].model;
    for (const std::string& name : requester->needed) {
      if (closure.FindByName(name) >= 0) continue;  // already loaded under this name
      // A name an earlier object failed to find is searched again with this object's own
      // RPATH/RUNPATH: _dl_map_object never matches a name against a failed (faked) map.
      std::vector<RpathLink> chain;
      for (int i = static_cast<int>(next); i >= 0; i = closure.objects[i].loader)
        chain.push_back({closure.objects[i].model, DirName(closure.objects[i].path)});
      Resolution res = FindLibrary(name, chain, config);
      auto fail = [&](Resolution&& why, std::string parse_error) {
        auto known = std::find_if(closure.unresolved.begin(), closure.unresolved.end(),
                                  [&](const UnresolvedLibrary& u) { return u.name == name; });
        if (known != closure.unresolved.end())
          known->needed_by.push_back(static_cast<int>(next));
        else
          closure.unresolved.push_back(
              {name, {static_cast<int>(next)}, std::move(why), std::move(parse_error)});
      };
      if (!res.found) {
        fail(std::move(res), {});
        continue;
      }
      // Same file under another name: ld.so compares st_dev/st_ino (_dl_map_object_from_fd)
      // and reuses the map, so a hard link or a bind-mounted copy is the object loaded.
      auto same = std::find_if(closure.objects.begin(), closure.objects.end(), [&](const LoadedObject& o) {
        return o.real_path == res.real_path || (o.id.known() && o.id == res.id);
      });
      if (same != closure.objects.end()) {
        same->names.push_back(name);
        continue;
      }
      auto stored = store.Get(res.real_path, res.path);
      if (!stored->model) {
        fail(std::move(res), stored->error);
        continue;
      }
      LoadedObject obj;
      obj.model = stored->model.get();
      obj.path = res.path;
      obj.real_path = res.real_path;
      obj.id = res.id;
      obj.loader = static_cast<int>(next);
      obj.found_by = res.searched.empty() ? "" : res.searched.back().source;
      obj.names.push_back(name);
      if (!obj.model->soname.empty() && obj.model->soname != name) obj.names.push_back(obj.model->soname);
      closure.keep_alive.push_back(std::move(stored));
      closure.objects.push_back(std::move(obj));
    }
  }
  return closure;
}

}  // namespace rocm_audit
