// dangling-symlink, symlink-loop, unreadable-file, link-outside-tree, special-file: what the
// walk could not or would not follow. The walk goes on past each; these say what was not audited and why.
#include "checks/registry.h"

namespace rocm_audit {
namespace {

constexpr Rule kRules[] = {
    // Warning: the link is as good as missing (a -dev package's libfoo.so breaks -lfoo), but in a split
    // package its target often ships in another package; a library the loader then misses is reported as
    // unresolved-library, an error. lintian: none (it checks only wildcard links,
    // package-contains-broken-symlink-wildcard, a warning); auditwheel: none.
    {
        .id = "dangling-symlink",
        .severity = Severity::kWarning,
        .title = "a symbolic link whose target does not exist",
        .fix = "ship the target (for a -dev package's libfoo.so link: the versioned library) or remove the "
               "link",
        .key_fields = "",
        .explanation = "A symbolic link in the audited tree points at a target that does not exist, so the "
                       "walk reports it and audits nothing behind it. For users the link is as good as "
                       "missing: a -dev package's libfoo.so link whose versioned library is not shipped "
                       "makes the link editor fail with \"cannot find -lfoo\" and breaks CMake imported "
                       "targets that name it, and a dangling soname link makes the loader fail with "
                       "\"cannot open shared object file\". It usually comes from a package split that put "
                       "the link and its target in different packages without a dependency between them, a "
                       "file renamed during install, or an absolute target that exists only on the build "
                       "machine (audit a staged tree with --root so that absolute targets resolve where "
                       "they will be installed). Ship the target, point the link at the installed name, or "
                       "remove the link.",
        .example = "/usr/lib/x86_64-linux-gnu/libhipblas.so\n"
                   "  warning[dangling-symlink]: symlink target does not exist (-> libhipblas.so.2)\n"
                   "    fix: ship the target (for a -dev package's libfoo.so link: the versioned library) "
                   "or remove the link",
        .cause_fields = "*",
        .cause = "dangling symlinks: {files}",
        .fields = "",
    },
    // Warning: everything that opens the link fails with ELOOP; a library the loader needs through it is
    // reported as unresolved-library, an error. lintian: symlink-is-self-recursive (a link to an ancestor
    // directory), a warning; auditwheel: none.
    {
        .id = "symlink-loop",
        .severity = Severity::kWarning,
        .title = "a symbolic link that loops back on itself",
        .fix = "fix the link target",
        .key_fields = "",
        .explanation = "A symbolic link leads, directly or through other links, back to itself, so it never "
                       "reaches a file. Everything that opens it fails with \"Too many levels of symbolic "
                       "links\" (ELOOP): the loader, the link editor, CMake, the compiler's include search. "
                       "The walk cannot follow it, so nothing behind it is audited. It usually comes from a "
                       "link created relative to the wrong directory (libfoo.so.1 pointing at libfoo.so.1) "
                       "or from two links left pointing at each other after a rename. Point the link at the "
                       "real file.",
        .example = "/opt/rocm-6.2.0/lib/libhsa-runtime64.so.1\n"
                   "  warning[symlink-loop]: symlink loops back on itself\n"
                   "    fix: fix the link target",
        .cause_fields = "*",
        .cause = "symlink loops: {files}",
        .fields = "",
    },
    // Warning: nothing in it was audited, and users other than its owner may meet the same "Permission
    // denied"; but the cause may be the auditing user's rights, not the package's modes. lintian:
    // non-standard-file-perm and non-standard-dir-perm, warnings; auditwheel: none.
    {
        .id = "unreadable-file",
        .severity = Severity::kWarning,
        .title = "a file or directory the audit cannot read",
        .fix = "fix the permissions, or run the audit as a user that can read the tree",
        .key_fields = "",
        .explanation = "A file or directory of the audited tree could not be read: stat, open, read or a "
                       "directory listing failed, for the reason the message gives (usually \"Permission "
                       "denied\"). Nothing in it was audited, so the report says nothing about that file or "
                       "what lies below that directory. If the permissions are the ones the package "
                       "installs, users other than the owner hit the same wall: the loader reports \"cannot "
                       "open shared object file: Permission denied\", and compilers or CMake cannot read "
                       "the headers or package configs. Install files with modes such as 0644 (0755 for "
                       "executables and directories), or run the audit as a user that can read the tree.",
        .example = "/opt/rocm-6.2.0/lib/librocprofiler64.so.2.0.60200\n"
                   "  warning[unreadable-file]: cannot open: Permission denied\n"
                   "    fix: fix the permissions, or run the audit as a user that can read the tree",
        .cause_fields = "*",
        .cause = "unreadable: {files}",
        .fields = "",
    },
    // Note: no defect; it says what the audit did not follow. lintian, auditwheel: none.
    {
        .id = "link-outside-tree",
        .severity = Severity::kNote,
        .title = "a symbolic link out of the audited paths, neither followed nor audited as part of them",
        .fix = "audit the link's target together with this tree (another PATH), or with --root so that "
               "absolute links resolve inside the installed system",
        .key_fields = "",
        .explanation = "A symbolic link below an audited directory points out of the audited paths: to /, "
                       "to a parent directory, or into another store path. The walk neither follows it nor "
                       "audits its target as part of the tree, so that a link such as a lib -> /usr/lib "
                       "shortcut or the entries of a Nix symlinkJoin does not pull the whole machine or "
                       "another package into the audit. The loader and other tools may still go through the "
                       "link at run time, and the audit has checked nothing behind it. This is a note, not "
                       "a defect in itself. To cover the target, audit it together with this tree (give it "
                       "as another PATH), or audit with --root so that absolute links resolve inside the "
                       "installed system.",
        .example =
            "/nix/store/4kbl2x9rj6ya8mqw1zcfsvd0gn5hp7ic-rocm-merged-6.2.2/lib/librocblas.so.4.2.60202\n"
            "  note[link-outside-tree]: links to "
            "/nix/store/9hq3wz2m0xvkbr5lcy8dn1sfj7gip4am-rocblas-6.2.2/lib/librocblas.so.4.2.60202, outside "
            "the audited paths: not followed, not audited as part of them\n"
            "    fix: audit the link's target together with this tree (another PATH), or with --root so "
            "that absolute links resolve inside the installed system",
        .cause_fields = "*",
        .cause = "links out of the audited paths: {files}",
        .fields = "",
    },
    // Error: installed by a package, a device node gives whoever can open it the device, past the permissions
    // of /dev, and a FIFO blocks whatever reads it; Debian Policy 10.6 forbids both in a package. lintian:
    // special-file, an error; in a package given as a PATH the same member is package-member-refused, an
    // error; auditwheel: none.
    {
        .id = "special-file",
        .severity = Severity::kError,
        .title = "a FIFO, socket or device node in the audited tree, never opened",
        .fix = "do not install special files; create them at run time (systemd-tmpfiles, the program itself)",
        .key_fields = "",
        .explanation = "The audited tree holds a FIFO, a socket or a device node. The walk never opens one: "
                       "reading a FIFO can block forever and a device such as /dev/zero never ends, so "
                       "nothing about it is audited. A package has no business installing one, and this is "
                       "an error: a device node installed with the package's modes gives whoever can open "
                       "it the device, past the permissions of /dev, and a FIFO blocks whatever reads it. "
                       "Debian Policy (10.6) forbids device files and named pipes in a package, and lintian "
                       "reports them as special-file. In a staged tree it usually is a leftover of a test "
                       "or of a build step that created a named pipe in the install prefix. If the tree was "
                       "meant to be the whole system, audit it without its /dev. Remove the file from the "
                       "installed tree, or create it at run time.",
        .example = "/opt/rocm-6.2.0/lib/librocm_smi64.so.7\n"
                   "  error[special-file]: a FIFO: not opened\n"
                   "    fix: do not install special files; create them at run time (systemd-tmpfiles, the "
                   "program itself)",
        .cause_fields = "*",
        .cause = "special files: {files}",
        .fields = "",
    },
};

const Rule& RuleOf(WalkProblem::Kind kind) {
  switch (kind) {
    case WalkProblem::kDanglingSymlink: return kRules[0];
    case WalkProblem::kSymlinkLoop: return kRules[1];
    case WalkProblem::kUnreadable: return kRules[2];
    case WalkProblem::kOutsideTree: return kRules[3];
    case WalkProblem::kSpecialFile: return kRules[4];
  }
  return kRules[2];
}

void Run(const TreeInput& in, FindingSink& sink) {
  for (const WalkProblem& p : in.walk_problems) {
    Finding f = MakeFinding(RuleOf(p.kind), p.path);
    f.SetMessage(PathText::Marked(p.message, p.message_paths));
    sink.Add(std::move(f));
  }
}

}  // namespace

extern const Check kWalkProblemsCheck{"walk_problems", kRules, TreeCheck{Run}, kNeedsElfAndLoader};

}  // namespace rocm_audit
