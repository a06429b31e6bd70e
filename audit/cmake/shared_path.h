// A list file's path as the records of an evaluation hold it: one string per file, shared.
// A run keeps tens of thousands of sites (where each target property was set, where each
// reference was made), and a copy of the path in each cost more than the rest of the site.
#pragma once

#include <memory>
#include <string>

namespace rocm_audit {

class SharedPath {
 public:
  SharedPath() = default;
  SharedPath(std::string path) : path_(std::make_shared<const std::string>(std::move(path))) {}
  SharedPath(const char* path) : SharedPath(std::string(path)) {}

  const std::string& str() const { return path_ ? *path_ : Empty(); }
  operator const std::string&() const { return str(); }
  bool empty() const { return str().empty(); }

 private:
  static const std::string& Empty() {
    static const std::string empty;
    return empty;
  }
  std::shared_ptr<const std::string> path_;
};

}  // namespace rocm_audit
