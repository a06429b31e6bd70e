# Nix setup hook: audits every output of the derivation after fixup, as stdenv's own
# audits (auditTmpdir, the noBrokenSymlinks check) do. Put rocm-audit in nativeBuildInputs
# through the derivation in default.nix:
#   nativeBuildInputs = [ rocmAuditHook ];
#   rocmAuditFlags = [ "--require-arch" "gfx906,gfx90a,gfx1030" ];   # optional
#   rocmAuditSuppress = ./rocm-audit.suppress;                        # optional
#   dontRocmAudit = true;                                             # to skip
# Each output is audited as a store path: its RUNPATHs into other store paths (its
# dependencies) are followed, and a finding at --fail-on (default error) fails the build.
# The outputs of the derivation (out, dev, lib) are siblings, as dh's binary packages of one
# source are: fixupPhase has written all of them before postFixup, at the absolute store
# paths by which they name each other, so each output's audit finds the others where they
# are installed and needs no --sibling (which layers a tree over /, not a store path).
# The checks whose findings are errors by default: bundle-id-mismatch, cmake-config-error, cmake-consumer-scope,
# cmake-dependency-version, cmake-missing-file, cmake-missing-library, cmake-missing-target, cmake-no-location,
# malformed-bundle, malformed-file, missing-arch, missing-arch-data, missing-version,
# mixed-soname, package-limit, package-member-refused, rpath-build-dir, rpath-relative,
# special-file, undefined-symbol, unresolved-library, upload-not-audited (rocm-audit --explain
# ID says which of a check's findings are only warnings or notes). So a RUNPATH into /build fails the build.
rocmAuditHook() {
    if [ -n "${dontRocmAudit-}" ]; then return 0; fi
    local output dir flags=()
    if [ -n "${__structuredAttrs-}" ]; then
        flags+=("${rocmAuditFlags[@]}")
    else
        # shellcheck disable=SC2206
        flags+=(${rocmAuditFlags-})
    fi
    if [ -n "${rocmAuditSuppress-}" ]; then flags+=(--suppress "$rocmAuditSuppress"); fi
    for output in ${outputs-out}; do
        dir="${!output}"
        [ -e "$dir" ] || continue
        echo "rocm-audit: auditing output $output ($dir)"
        # rocm-audit exits 1 for findings at --fail-on and 2 when it could not audit (a bad
        # option, an unreadable waiver file): the second is a tool error, not findings.
        local status=0
        @rocmAudit@ --no-progress --fail-on error "${flags[@]}" "$dir" || status=$?
        case $status in
            0) ;;
            1)
                echo "rocm-audit: output $output has findings; fix them, or waive them with reasons in rocmAuditSuppress" >&2
                return 1
                ;;
            *)
                echo "rocm-audit: could not audit output $output (exit $status): a tool error, not findings; its message is above" >&2
                return 1
                ;;
        esac
    done
}

postFixupHooks+=(rocmAuditHook)
