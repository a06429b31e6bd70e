#!/usr/bin/python3
"""Fails when a folder's sources include a header outside the folders it may see.

A layer whose library links another sees, through CMake's transitive include directories,
every layer below that one: diff/ links the engine, which links the checks and all of
audit/, so the include-tree probes (Layers.* in tests/CMakeLists.txt) cannot hold diff/ to
the engine's and the model's headers. This reads the `#include "..."` lines themselves.

Usage: layer_includes.py FOLDER ALLOWED...
  FOLDER: a source folder (diff); ALLOWED: a folder prefix ("engine/") or one header
  ("checks/comparison_rules.h") its sources may include. Prints each include outside them.
"""
import pathlib
import re
import sys


def main():
    folder = pathlib.Path(sys.argv[1])
    allowed = sys.argv[2:]
    bad = []
    for source in sorted(folder.glob("*.[hc]*")):
        for number, line in enumerate(source.read_text().splitlines(), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if m and not any(m.group(1) == a or (a.endswith("/") and m.group(1).startswith(a)) for a in allowed):
                bad.append(f"{source}:{number}: {m.group(1)}")
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
