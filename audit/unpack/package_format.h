// Which PATH arguments are packages rocm-audit unpacks and audits as installed trees: told
// by their bytes (the name only breaks ties: a wheel and a .conda are both zip files).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rocm_audit {

enum class PackageFormat { kDeb, kRpm, kWheel, kConda, kTar, kZip };

std::string_view PackageFormatName(PackageFormat f);  ///< "deb", "rpm", "wheel", "conda", "tar", "zip"

/// The format of the file at `path` (read: its first bytes), or nullopt when it is not a
/// package: ELF files, static libraries and everything else keep being audited as files.
/// `head` is the file's first bytes (at least 512 when the file has them).
std::optional<PackageFormat> DetectPackageFormat(std::string_view path, std::string_view head);

/// Reads the first bytes of `path` and detects; nullopt also when it cannot be read.
std::optional<PackageFormat> DetectPackageFile(const std::string& path);

/// Whether a package of this format is relocatable by design (wheels and conda packages are
/// unpacked wherever the user's environment is).
bool RelocatableByDesign(PackageFormat f);

}  // namespace rocm_audit
