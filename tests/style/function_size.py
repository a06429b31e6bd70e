#!/usr/bin/python3
"""Fails when a function body or a lambda in the given C++ files is longer than --max lines,
counted from the first line of its signature to its closing brace.

A '{' opens a function body when the text before it, back to the previous ';', '{' or '}'
outside parentheses, ends with ')' (after const, noexcept, override, mutable, a trailing
return type) and does not start with if/for/while/switch/catch: function definitions,
constructors with initializer lists, and lambdas. Comments, string and character literals
are blanked first, so braces inside them do not count.

Usage: function_size.py [--max N] PATH...
A PATH that is a folder stands for every .cc and .h file below it; a PATH that does not exist
is skipped (a product folder not created yet), but at least one file must be checked.
"""
import os
import re
import sys

CONTROL = {"if", "for", "while", "switch", "catch", "else", "do", "try"}
TRAILER = re.compile(r"(\s*->\s*[\w:<>,\s*&]+|\s*\b(const|noexcept|override|final|mutable)\b|\s*&&?)\s*$")


def blank(text):
    """Comments and literals as spaces, newlines kept, so offsets and lines stay."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out[i] = " "
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            for k in range(i, end):
                if text[k] != "\n":
                    out[k] = " "
            i = end
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            open_paren = text.find("(", i)
            delim = text[i + 2:open_paren]
            end = text.find(")" + delim + '"', open_paren)
            end = n if end < 0 else end + len(delim) + 2
            for k in range(i + 1, end):
                if text[k] != "\n":
                    out[k] = " "
            i = end
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator: 1'000
                i += 1
                continue
            k = i + 1
            while k < n and text[k] != c and text[k] != "\n":
                k += 2 if text[k] == "\\" else 1
            for m in range(i + 1, min(k, n)):
                out[m] = " "
            i = k + 1
        elif c == "#" and (i == 0 or text[i - 1] == "\n"):  # a preprocessor line
            while i < n and text[i] != "\n":
                out[i] = " "
                i += 1
        else:
            i += 1
    return "".join(out)


def opens_function(header):
    h = header.strip()
    if not h:
        return False
    first = re.match(r"[A-Za-z_]\w*", h)
    if first and first.group(0) in CONTROL:
        return False
    stripped = h
    while TRAILER.search(stripped):
        shorter = TRAILER.sub("", stripped)
        if shorter == stripped:
            break
        stripped = shorter
    # Constructors: "X(...) : a_(x), b_(y)" ends with ')' too.
    return stripped.endswith(")")


def functions(text):
    """(first line, last line) of every function body and lambda."""
    code = blank(text)
    line_of = []
    line = 1
    for ch in code:
        line_of.append(line)
        if ch == "\n":
            line += 1
    stack = []  # (is_function, first line) per open brace
    boundary = 0  # where the current header starts
    parens = 0
    found = []
    for i, ch in enumerate(code):
        if ch in "([":
            parens += 1
        elif ch in ")]":
            parens = max(0, parens - 1)
        elif ch == ";" and parens == 0:
            boundary = i + 1
        elif ch == "{":
            header = code[boundary:i]
            # A lambda inside an argument list: its header starts after the last '(' or ','.
            if parens:
                header = re.split(r"[(,]", header)[-1] if "[" not in header else header[header.rfind("[") :]
            is_function = opens_function(header)
            start = boundary + (len(code[boundary:i]) - len(code[boundary:i].lstrip()))
            if parens and "[" in code[boundary:i]:
                start = code.rfind("[", boundary, i)
            stack.append((is_function, line_of[start] if start < len(line_of) else line_of[i], parens))
            boundary = i + 1
            parens = 0
        elif ch == "}":
            if stack:
                is_function, first, outer_parens = stack.pop()
                if is_function:
                    found.append((first, line_of[i]))
                parens = outer_parens
            boundary = i + 1
    return found


def sources(path):
    """The C++ files `path` names: itself, or every .cc and .h below a folder, sorted."""
    if not os.path.isdir(path):
        return [path] if os.path.exists(path) else []
    found = []
    for folder, _, names in os.walk(path):
        found += [os.path.join(folder, n) for n in names if n.endswith((".cc", ".h"))]
    return sorted(found)


def main(argv):
    limit = 80
    paths = []
    args = iter(argv)
    for a in args:
        if a == "--max":
            limit = int(next(args))
        else:
            paths.append(a)
    files = [f for p in paths for f in sources(p)]
    if not files:
        print("no C++ file in " + " ".join(paths))
        return 1
    longest = (0, "", 0)
    failed = False
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for first, last in functions(text):
            lines = last - first + 1
            if lines > longest[0]:
                longest = (lines, path, first)
            if lines > limit:
                print(f"{path}:{first}: a function of {lines} lines; at most {limit}")
                failed = True
    print(f"longest: {longest[0]} lines at {longest[1]}:{longest[2]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
