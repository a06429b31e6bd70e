// package-member-refused, package-limit: what unpacking a package given as a PATH refused
// (a member that would leave the private directory or that is no file: path traversal, a
// link out of the package, a device node) or stopped at (a cap on size, members or the
// compression ratio). The rest of the package is audited as far as it was unpacked.
// upload-not-audited: what of an upload (.changes) was not audited (engine/upload_inputs.h).
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    // Error: a package manager that trusts the member writes outside the install root (zip slip) or creates a
    // device node. lintian: package-contains-unsafe-symlink and special-file, errors; auditwheel: none.
    {
        .id = "package-member-refused",
        .severity = Severity::kError,
        .title = "a package member that unpacking refused: a name with '..' or an absolute name, a link out "
                 "of the package, a device node, FIFO or socket, or a member it could not read",
        .fix = "rebuild the package without the member (a package installs files below its root, with links "
               "that stay inside it)",
        .key_fields = "member",
        .explanation = "A member of a package given as a PATH (a .deb, .rpm, wheel, conda package, tarball "
                       "or zip) was not unpacked. Its name is absolute or climbs out of the package with "
                       "'..', it is a symbolic or hard link whose target leaves the package, it is a device "
                       "node, FIFO or socket, or it cannot be read (a truncated or corrupt archive). "
                       "rocm-audit unpacks packages into a private directory and never writes outside it; a "
                       "package manager that trusts such a member would write outside the install root (the "
                       "'zip slip' class of defects). The rest of the package is audited.",
        .example = "librocsolver0_6.4.3_amd64.deb\n"
                   "  error[package-member-refused]: usr/lib/x86_64-linux-gnu/librocsolver.so: a symbolic "
                   "link out of the package (-> ../../../../etc/passwd)\n"
                   "    fix: rebuild the package without the member (a package installs files below its "
                   "root, with links that stay inside it)",
        .cause_fields = "",
        .cause = "{files}: {n} members refused ({reason*})",
        .fields = "package:path member:string reason:string",
    },
    // Error: part of the package was not audited, so a clean report would vouch for files no check read; the
    // caps stop decompression bombs. lintian, auditwheel: none.
    {
        .id = "package-limit",
        .severity = Severity::kError,
        .title = "unpacking a package stopped at a cap: total size (--max-unpacked), members "
                 "(--max-members) or compression ratio (--max-ratio)",
        .fix = "raise the cap if the package is genuine (--max-unpacked, --max-members, --max-ratio), or "
               "reject it",
        .key_fields = "reason",
        .explanation = "Unpacking a package stopped at one of its caps, so part of it was not audited: more "
                       "bytes than --max-unpacked (default 8 GiB, all packages of a run together), more "
                       "members than --max-members (default 200,000), or more than --max-ratio (default "
                       "200) unpacked bytes per compressed byte past the first MiB, which is what a "
                       "decompression bomb does. The caps keep a hostile package from filling the disk or "
                       "memory of the machine that audits it.",
        .example = "bomb.tar.xz\n"
                   "  error[package-limit]: zeros.bin: unpacks to more than 200 times its compressed size "
                   "(--max-ratio): a decompression bomb\n"
                   "    fix: raise the cap if the package is genuine (--max-unpacked, --max-members, "
                   "--max-ratio), or reject it",
        .cause_fields = "",
        .cause = "{files}: unpacking stopped: {reason}",
        .fields = "package:path member:string reason:string",
    },
    // Error: an upload given to audit and not audited, whole or in part, would pass as clean. lintian: its
    // checksum and missing-file errors on a .changes; auditwheel: none.
    {
        .id = "upload-not-audited",
        .severity = Severity::kError,
        .title =
            "an upload (.changes) not audited, whole or in part: a file it lists missing or not matching "
            "its size and checksums, no binary package listed, a .dsc, or a .changes that cannot be read",
        .fix = "audit the .changes of a binary build with every file it lists next to it, as it was uploaded",
        .key_fields = "member",
        .explanation = "A .changes given as a PATH stands for the binary packages (.deb, .udeb) it lists in "
                       "its Files and Checksums-Sha256 fields, read from the files next to it and audited "
                       "together as one set, as lintian takes an upload. A listed package that is missing, "
                       "is not a regular file, or whose size, SHA-256 or MD5 differs from what the .changes "
                       "says is not the file that was uploaded, and is not audited. A .changes that names "
                       "no binary package (a source-only upload), a source package description (.dsc), or "
                       "a .changes that cannot be read (no Files field, a line that is no file entry, an "
                       "OpenPGP signed message without its signature, more than 16 MiB) leaves nothing to "
                       "audit: a clean report would vouch for an upload no check read.",
        .example = "rocblas_6.4.3-1_amd64.changes\n"
                   "  error[upload-not-audited]: librocblas5_6.4.3-1_amd64.deb: its SHA-256 is 5e3a..., the "
                   ".changes says 9c41...: not the file that was uploaded\n"
                   "    fix: audit the .changes of a binary build with every file it lists next to it, as it "
                   "was uploaded",
        .cause_fields = "",
        .cause = "{files}: {reason}",
        .fields = "package:path member:string reason:string",
    },
};

const Rule& RuleOf(const UnpackProblem& p) { return kRules[p.upload ? 2 : p.limit ? 1 : 0]; }

void Run(const TreeInput& in, FindingSink& sink) {
  for (const UnpackProblem& p : in.unpack_problems) {
    Finding f = MakeFinding(RuleOf(p), p.package);
    f.message = (p.member.empty() ? "" : p.member + ": ") + p.reason;
    f.fields["package"] = p.package;
    f.fields["member"] = p.member;
    f.fields["reason"] = p.reason;
    sink.Add(std::move(f));
  }
}

}  // namespace

extern const Check kPackageProblemsCheck{"package_problems", kRules, TreeCheck{Run}, kNeedsElfAndLoader};

}  // namespace rocm_audit
