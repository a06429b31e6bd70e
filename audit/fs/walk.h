// Walks the PATH arguments: each regular file once (by device and inode, preferring a
// path that is not a symlink), classified by content; dangling links, loops and
// unreadable entries become problems, never a stop.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "audit/fs/file_kind.h"
#include "audit/fs/rooted_fs.h"
#include "audit/fs/walked_files.h"
#include "audit/support/path_text.h"

namespace rocm_audit {

/// Something the walk could not follow or read. Never a stop: the walk goes on.
struct WalkProblem {
  enum Kind {
    kDanglingSymlink,
    kSymlinkLoop,
    kUnreadable,
    kOutsideTree,  ///< a link out of the audited paths: not followed, not audited
    kSpecialFile,  ///< a FIFO, socket or device node: never opened
  } kind;
  std::string path;
  std::string message;  ///< what failed, with the OS's reason
  /// Where `message` names paths of this machine (a link's target as it lands), for the
  /// finding that says it (Finding::message_paths).
  std::vector<TextPath> message_paths{};
};

struct WalkResult {
  /// every kind but kOther (kept only when named like a shared library), in walk order
  WalkedFiles files;
  std::map<std::string, size_t> counts;  ///< files by kind name, kOther included
  std::vector<WalkProblem> problems;
};

/// `on_entry(n)`, if given, is called with the number of entries seen so far. The inputs
/// themselves are followed wherever they point; a symlink met below an input directory is
/// followed only while its target stays inside one of the inputs (a link to "/" or to a
/// parent would walk the whole machine; a store path's links into other store paths would
/// audit those packages as part of this one).
WalkResult WalkInputs(const std::vector<std::string>& inputs, const RootedFs& fs,
                      const std::function<void(size_t)>& on_entry = nullptr);

}  // namespace rocm_audit
