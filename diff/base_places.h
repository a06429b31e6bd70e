// Which files of the base (or of a consumer index) the update replaces: the base's copies
// of the files either side ships are not consumers of the update, they are what it
// installs over. A side is one install, so its copies are the base's files at the places
// (installed_layout.h) of the side's files below the one directory of the base where most
// of them are found (/usr for a side given at its usr/, / for a .deb or a staging tree);
// another install's copy (/opt/x/bin/prog) is a consumer.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace rocm_audit {

/// `installed`: the base's ELF files by installed path ("/usr/lib/libx.so.1"); `sides`: the
/// paths each compared side ships, below its input ("usr/lib/libx.so.1", or "lib/libx.so.1"
/// for a side given at its usr/). The installed paths that are the sides' own copies.
std::set<std::string> ReplacedInBase(const std::vector<std::string>& installed,
                                     const std::vector<std::vector<std::string>>& sides);

}  // namespace rocm_audit
