# The setup hook as a package: nativeBuildInputs = [ (callPackage ./default.nix { inherit rocm-audit; }) ];
{ makeSetupHook, rocm-audit }:
makeSetupHook {
  name = "rocm-audit-hook";
  substitutions = { rocmAudit = "${rocm-audit}/bin/rocm-audit"; };
} ./rocm-audit-hook.sh
