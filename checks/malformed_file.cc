// malformed-file: what the core could not parse. An unusable file is an error; a broken
// table in an otherwise readable file is a note (the rest was audited); a file named like
// a shared library that is no object at all is a note.
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    {"malformed-file", Severity::kError, "a file that looks like an object/archive but cannot be parsed",
     "rebuild or re-extract the file; it is truncated or corrupt"},
};

void Run(const FileInput& in, FindingSink& sink) {
  const WalkedFile& file = in.file.walked;
  std::string kind(FileKindName(file.kind));
  for (const ParseProblem& p : in.file.problems) {
    Finding f = MakeFinding(kRules[0], file.path);
    switch (p.kind) {
      case ParseProblem::kNotAnObject:
        f.severity = Severity::kNote;
        f.message = "named like a shared library but " + p.reason;
        break;
      case ParseProblem::kPartlyUnreadable:
        f.severity = Severity::kNote;
        f.message = kind + " file is partly unreadable (the rest was audited): " + p.reason;
        break;
      case ParseProblem::kUnparsable: f.message = kind + " file cannot be parsed: " + p.reason; break;
    }
    f.fields["reason"] = p.reason;
    sink.Add(std::move(f));
  }
}

}  // namespace

extern const Check kMalformedFileCheck{"malformed_file", kRules, FileCheck{Run}};

}  // namespace rocm_audit
