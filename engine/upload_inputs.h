// Uploads given as PATHs: a Debian .changes (deb-changes(5)) stands for the .deb and .udeb
// files it lists, read next to it and checked against its sizes and checksums, then audited
// together as one set, as lintian and debdiff take one. What does not match, is missing, or
// is no binary package at all (a .dsc, a source-only .changes) is a problem of the upload
// (an upload-not-audited finding), never an empty pass.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "audit/unpack/unpack.h"

namespace rocm_audit {

/// A file a .changes lists: its name (a file next to the .changes) and what its Files and
/// Checksums-Sha256 fields say of it ("" where a field does not list it).
struct UploadedFile {
  std::string name;
  uint64_t size = 0;
  std::string md5;     ///< lower-case hex, from Files
  std::string sha256;  ///< lower-case hex, from Checksums-Sha256
};

/// What a .changes says, read from its text: the files of its Files and Checksums-Sha256
/// fields, in their order. OpenPGP cleartext armor (RFC 4880 §7) is skipped and dash-escaped
/// lines are unescaped. False with `error` when the text is no .changes (no Files field,
/// a line of a field that cannot be read, a file name that is not a plain name).
[[nodiscard]] bool ParseChangesText(std::string_view text, std::vector<UploadedFile>* files,
                                    std::string* error);

/// Whether `path` names an upload description this reads (by its name: "*.changes",
/// "*.dsc"), as lintian tells them.
bool IsUploadDescription(std::string_view path);

/// The binary packages of the upload described by `path` (a regular file), verified: each
/// .deb/.udeb it lists that exists next to it with the size and checksums it gives. Every
/// other outcome is a problem in `problems` (with `upload` set): a file missing or not
/// matching, a .changes naming no binary package, a .dsc, a .changes that cannot be read.
std::vector<std::string> VerifiedUploadBinaries(const std::string& path, unsigned jobs,
                                                std::vector<UnpackProblem>* problems);

/// `paths` with each upload description among them (a regular file) replaced by its verified
/// binary packages (a .deb given twice is kept once); what is not audited of an upload, and
/// a listed file that is no .deb by its bytes, are problems in `problems`.
std::vector<std::string> ExpandUploads(const std::vector<std::string>& paths, unsigned jobs,
                                       std::vector<UnpackProblem>* problems);

}  // namespace rocm_audit
