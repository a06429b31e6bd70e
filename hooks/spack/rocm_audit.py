# A Spack mixin: audit the install prefix with rocm-audit after `install`, as Spack's own
# install-time checks do. In a package recipe:
#
#   from spack.pkg.builtin.rocm_audit_mixin import RocmAuditMixin   # or copy this file
#   class Rocblas(CMakePackage, RocmAuditMixin):
#       rocm_audit_flags = ["--require-arch", "gfx906,gfx90a"]
#       rocm_audit_suppress = "rocm-audit.suppress"   # in the package directory
#
# A finding at --fail-on error fails the install. `spack install --test=root` is not needed.
import os


def rocm_audit_command(prefix, flags=(), suppress=None, executable="rocm-audit"):
    """The command line that audits `prefix`: a pure function, tested on its own."""
    command = [executable, "--no-progress", "--fail-on", "error"]
    if suppress:
        command += ["--suppress", suppress]
    command += list(flags)
    command.append(str(prefix))
    return command


try:  # inside Spack
    from spack.package import Executable, run_after, which

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
            Executable(command[0])(*command[1:])

except ImportError:  # outside Spack: only the pure function is available
    pass
