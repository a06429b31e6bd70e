# A Spack mixin: audit the install prefix with rocm-audit after `install`, as Spack's own
# install-time checks do. Spack imports a recipe's helpers from a package repository of your
# own (namespace `local` below, added with `spack repo add`); where this file goes depends on
# the repository's package API:
#
# - API v2 (`spack repo create` of Spack 1.0 and later; the builtin repository
#   spack_repo.builtin is one): the repository is <root>/spack_repo/local/ and Spack puts
#   <root> on the Python path, so a module beside packages/ is importable as the builtin
#   repository's build_systems/ modules are. Put this file at
#   <root>/spack_repo/local/rocm_audit.py and, in a recipe:
#       from spack_repo.local.rocm_audit import RocmAuditMixin
# - API v1 (Spack 0.x, and v1 repositories Spack 1.x still reads): only package directories
#   are importable, as spack.pkg.<namespace>.<directory with - as _>. Put this file at
#   packages/rocm-audit-mixin/package.py of the repository and, in a recipe:
#       from spack.pkg.local.rocm_audit_mixin import RocmAuditMixin
#
# Then:
#   class Rocblas(CMakePackage, RocmAuditMixin):
#       rocm_audit_flags = ["--require-arch", "gfx906,gfx90a"]
#       rocm_audit_suppress = "rocm-audit.suppress"   # in the recipe's directory
#
# The hook's first line names the package and its prefix. A finding at --fail-on error fails
# the install ("has findings"); rocm-audit unable to audit (exit 2: an unreadable waiver file,
# a bad option) fails it as a tool error. `spack install --test=root` is not needed.
import os


def rocm_audit_command(prefix, flags=(), suppress=None, executable="rocm-audit"):
    """The command line that audits `prefix`: a pure function, tested on its own."""
    command = [executable, "--no-progress", "--fail-on", "error"]
    if suppress:
        command += ["--suppress", suppress]
    command += list(flags)
    command.append(str(prefix))
    return command


def rocm_audit_heading(name, prefix):
    """The hook's first line: what it audits."""
    return "rocm-audit: auditing {0} (its install prefix {1})".format(name, prefix)


def rocm_audit_failure(name, status):
    """Why the install fails for rocm-audit's exit `status`, or None when it passes. Exit 1
    is findings at --fail-on; 2 (or anything else) is rocm-audit unable to audit: a tool
    error, not findings."""
    if status == 0:
        return None
    if status == 1:
        return "rocm-audit: {0} has findings; fix them, or waive them with reasons in rocm_audit_suppress".format(name)
    return "rocm-audit could not audit {0} (exit {1}): a tool error, not findings; its message is above".format(
        name, status
    )


try:  # inside Spack
    from spack.package import Executable, InstallError, run_after, which

    class RocmAuditMixin:
        rocm_audit_flags = []
        rocm_audit_suppress = None

        @run_after("install")
        def rocm_audit(self):
            tool = which("rocm-audit", required=True)
            suppress = self.rocm_audit_suppress
            if suppress and not os.path.isabs(suppress):
                suppress = os.path.join(os.path.dirname(self.module.__file__), suppress)
            command = rocm_audit_command(self.prefix, self.rocm_audit_flags, suppress, tool.path)
            print(rocm_audit_heading(self.spec.name, self.prefix))
            audit = Executable(command[0])
            audit(*command[1:], fail_on_error=False)
            failure = rocm_audit_failure(self.spec.name, audit.returncode)
            if failure:
                raise InstallError(failure)

except ImportError:  # outside Spack: only the pure function is available
    pass
