// How the report writes bytes that need not be UTF-8 or printable: file names, DT_NEEDED,
// SONAME and RUNPATH strings, symlink targets, bundle entry IDs, CMake strings. The model
// keeps them as the file system or the file has them; each sink writes them in one of two
// forms (docs/design.md §5, "Bytes that are not UTF-8").
//
// Lossless text (JSON, SARIF, GitLab, and what --baseline reads back): every well-formed
// UTF-8 sequence as it is; every byte that is not part of one as the four characters \xNN
// (lowercase hex); a backslash doubled where it would otherwise start an escape (before
// another backslash, before an 'x', or before an escaped byte). Reading it back, "\\" is a
// backslash, "\x" and two hex digits a byte, and any other backslash itself. Distinct bytes
// are distinct text, and text of a string without "\\", "\x" or invalid UTF-8 is the string.
//
// Display text (the text report, --tree, HTML, JUnit, messages on stderr): the lossless
// text with control characters escaped as well, so that nothing from an audited file moves
// a terminal's cursor, changes its colours or breaks an XML parser: C0 controls, DEL and
// noncharacters U+FFFE/U+FFFF as \xNN or \uNNNN, C1 controls (U+0080..U+009F) and the
// bidirectional controls (which reorder what a terminal shows) as \uNNNN, as `ls -b` and
// readelf show such names. Other non-ASCII text stays as it is.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rocm_audit {

/// `bytes` as lossless text (see above).
std::string LosslessText(std::string_view bytes);
/// The bytes a LosslessText() stands for (its inverse).
std::string BytesOfLosslessText(std::string_view text);
/// Whether LosslessText(bytes) differs from `bytes`.
bool NeedsLosslessText(std::string_view bytes);
/// The byte that the escape "\xNN" starting at text[i] (a backslash) stands for, or nothing
/// when text[i..i+3] is not one.
std::optional<char> EscapedByteAt(std::string_view text, size_t i);

/// `json`, the UTF-8 text of a JSON document, with DEL, C1 controls, bidirectional controls
/// and U+FFFE/U+FFFF written as \uNNNN escapes. These are valid in a JSON string, but a
/// terminal or a reviewer's eye misreads them (U+009B starts a terminal escape, U+202E
/// reverses the text after it); escaped, the document decodes to the same bytes. Outside
/// strings JSON text is ASCII, so every such character is inside a string.
std::string EscapeMisreadInJson(std::string json);

/// Whether a newline and a tab stay as they are (a document's own line structure: JUnit's
/// failure text, a message of several lines) or are escaped like other controls (a name).
enum class Newlines { kEscape, kKeep };

/// `bytes` as display text (see above).
std::string DisplayText(std::string_view bytes, Newlines newlines = Newlines::kEscape);
/// Whether DisplayText(bytes, newlines) differs from `bytes`.
bool NeedsDisplayText(std::string_view bytes, Newlines newlines = Newlines::kEscape);

}  // namespace rocm_audit
