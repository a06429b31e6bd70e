// malformed-file: what the core could not parse. An unusable file is an error; a broken
// table in an otherwise readable file is a note (the rest was audited); a file named like
// a shared library that is no object at all is a note.
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    // Error: ld.so refuses the file ("invalid ELF header", "file too short") and the link editor rejects it.
    // A damaged table in a readable file and a non-object named like a library are notes (what needs them
    // fails, and is reported, where it loads); a package file in the tree is a warning (its contents are not
    // audited). lintian: elf-error, a warning (readelf's complaint, often about another architecture's file);
    // auditwheel: none.
    {
        .id = "malformed-file",
        .severity = Severity::kError,
        .title = "a file that looks like an object/archive but cannot be parsed",
        .fix = "rebuild or re-extract the file; it is truncated or corrupt",
        .key_fields = "",
        .explanation = "A file that is, by its first bytes, an ELF object or an ar archive cannot be "
                       "parsed: it is truncated, a header or table points past its end, or an archive "
                       "member header is broken. Such a file is an error: the loader refuses it (\"file too "
                       "short\", \"invalid ELF header\", \"failed to map segment from shared object\") and "
                       "the link editor rejects it (\"file format not recognized\", \"truncated\"), so "
                       "programs and builds that use it fail. A readable ELF file with one damaged table "
                       "(dynamic symbols, symbol versions, a hash table) is a note, since the rest was "
                       "audited, and so is a file named like a shared library (libfoo.so, libfoo.so.1) that "
                       "is neither ELF nor a linker script, on which the loader would stop with \"invalid "
                       "ELF header\". These come from interrupted downloads or copies, a strip or patchelf "
                       "run that failed half-way, or a text file (a Git LFS pointer, an HTML error page) "
                       "saved under a library's name. Rebuild or re-extract the file.",
        .example = "/usr/lib/x86_64-linux-gnu/librocsparse.so.1.0.60200\n"
                   "  error[malformed-file]: elf file cannot be parsed: section headers: section header "
                   "table goes past the end of the file: e_shoff = 0x2b4f1d8\n"
                   "    fix: rebuild or re-extract the file; it is truncated or corrupt",
        .cause_fields = "",
        .cause = "{files} cannot be parsed: {reason}",
        .fields = "reason:string",
    },
};

void Run(const FileInput& in, FindingSink& sink) {
  const WalkedFile& file = in.file.walked;
  std::string kind(FileKindName(file.kind));
  // A reason describes the file's bytes (offsets, member and table names such as "/SYM64/"),
  // never a path of this machine: its words are never shown as paths.
  for (const ParseProblem& p : in.file.problems) {
    Finding f = MakeFinding(kRules[0], file.path);
    switch (p.kind) {
      case ParseProblem::kNotAnObject:
        f.severity = Severity::kNote;
        f.SetMessage("named like a shared library but " + p.reason);
        break;
      case ParseProblem::kPartlyUnreadable:
        f.severity = Severity::kNote;
        f.SetMessage(kind + " file is partly unreadable (the rest was audited): " + p.reason);
        break;
      case ParseProblem::kUnparsable: f.SetMessage(kind + " file cannot be parsed: " + p.reason); break;
      case ParseProblem::kUnknownArchive:
        f.SetMessage(p.reason);
        f.SetHint("remove it from the install tree, or install the static library that was meant");
        break;
      case ParseProblem::kPackageInTree:
        f.severity = Severity::kWarning;
        f.SetMessage(p.reason);
        f.SetHint(
            "audit the package itself: rocm-audit PACKAGE.deb (with --root / for the rest of the system)");
        break;
    }
    f.fields["reason"] = p.reason;
    sink.Add(std::move(f));
  }
}

}  // namespace

extern const Check kMalformedFileCheck{"malformed_file", kRules, FileCheck{Run}, kNeedsElfAndLoader};

}  // namespace rocm_audit
