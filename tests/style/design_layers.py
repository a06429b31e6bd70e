#!/usr/bin/python3
"""Fails when docs/design.md's layer map and the build's layers differ.

The build is the truth: every `rocm_audit_layer(<library> <folder>)` in CMakeLists.txt is a
layer, and the rocm_audit_* libraries its target_link_libraries() names (any keyword: a
PRIVATE link gives the same include tree) are what it may see. The design doc states the
same in a fenced block after "## 2. Layers", one line per layer:

    audit/loader/   -> audit/elf/, audit/fs/

("-> nothing" for a layer that sees no other). Every layer must have exactly one line and
its arrows must be the build's links, no more and no less; `rocm_audit_core` (the interface
library of all of audit/) stands for the layers it links.

Usage: design_layers.py CMakeLists.txt docs/design.md [--drop-one]
  --drop-one: check a copy of the doc with one arrow removed (the control: must fail).
"""
import re
import sys


def build_layers(cmake_text):
    folders = dict(re.findall(r"rocm_audit_layer\((rocm_audit_\w+)\s+([\w/]+)\)", cmake_text))
    links = {}
    for target, body in re.findall(r"target_link_libraries\((rocm_audit_\w+)\s+([^)]*)\)", cmake_text):
        links.setdefault(target, set()).update(re.findall(r"\b(rocm_audit_\w+)\b", body))
    def expand(name, seen=()):
        if name in folders:
            return {name}
        out = set()
        for dep in links.get(name, ()):
            if dep not in seen:
                out |= expand(dep, seen + (name,))
        return out
    layers = {}
    for lib, folder in folders.items():
        seen = set()
        for dep in links.get(lib, ()):
            seen |= expand(dep)
        layers[folder.rstrip("/") + "/"] = {folders[d].rstrip("/") + "/" for d in seen if d != lib}
    return layers


def doc_layers(doc_text, drop_one):
    section = doc_text.split("## 2. Layers", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```\n(.*?)```", section, re.S)
    if not block:
        sys.exit("design.md §2 has no fenced layer map")
    layers, problems = {}, []
    for line in block.group(1).splitlines():
        m = re.match(r"\s*([\w/]+/)\s+->\s+(.*?)\s*(\(.*\))?\s*$", line)
        if not m:
            continue
        targets = set() if m.group(2) == "nothing" else {t.strip() for t in m.group(2).split(",") if t.strip()}
        if m.group(1) in layers:
            problems.append(f"{m.group(1)} has two lines")
        layers[m.group(1)] = targets
    if drop_one:
        for folder in sorted(layers):
            if layers[folder]:
                layers[folder].discard(sorted(layers[folder])[0])
                break
    return layers, problems


def main(argv):
    drop_one = "--drop-one" in argv
    paths = [a for a in argv if not a.startswith("--")]
    build = build_layers(open(paths[0]).read())
    doc, problems = doc_layers(open(paths[1]).read(), drop_one)
    for folder in sorted(set(build) | set(doc)):
        if folder not in doc:
            problems.append(f"{folder}: a layer of the build the design doc does not show")
        elif folder not in build:
            problems.append(f"{folder}: shown in the design doc, no layer of the build")
        elif build[folder] != doc[folder]:
            missing = ", ".join(sorted(build[folder] - doc[folder])) or "-"
            extra = ", ".join(sorted(doc[folder] - build[folder])) or "-"
            problems.append(f"{folder}: the build links {missing} that the doc omits; the doc shows {extra} the build does not link")
    for p in problems:
        print("design.md §2:", p)
    print(f"{len(build)} layers, {sum(len(v) for v in build.values())} arrows, {len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
