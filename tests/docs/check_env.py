#!/usr/bin/python3
"""Checks the table of environment variables (docs/environment.md) against
the sources: every ARA_* variable the sources read is in the table, and
every ARA_* row of the table is read somewhere.

usage: check_env.py SOURCE_ROOT TABLE

What counts as a read, in the sources outside tests/ and build trees:
- C and assembly: a string literal that is exactly an ARA_* name (getenv,
  ara_env_get, ara_env_is, the RTM runtime's sink and file tables and
  ARA_BOOT_ENV all name the variable so; no other literal is one);
- shell: a parameter expansion with a default or a check, ${ARA_X:-...},
  ${ARA_X-...}, ${ARA_X:?...} or ${ARA_X:=...} (a variable a script only
  sets and uses itself is not read from the environment);
- CMake: $ENV{ARA_X}.
The table's rows are the Markdown table rows whose first cell is `NAME`.

Exit status: 0 they agree, 1 they do not (each difference on stdout, with
the file that reads the variable), 2 usage error or an unreadable table.
"""
import os
import re
import sys

PATTERNS = {
    "c": re.compile(r'"(ARA_[A-Z0-9_]+)"'),
    "sh": re.compile(r"\$\{(ARA_[A-Z0-9_]+)(?::?[-?=])"),
    "cmake": re.compile(r"\$ENV\{(ARA_[A-Z0-9_]+)\}"),
}
KIND = {".c": "c", ".h": "c", ".S": "c", ".sh": "sh", ".cmake": "cmake", ".in": "cmake"}
SKIP_DIRS = {"tests", ".git", "results"}


def kind_of(path):
    name = os.path.basename(path)
    if name == "CMakeLists.txt":
        return "cmake"
    ext = os.path.splitext(name)[1]
    if ext in KIND:
        return KIND[ext]
    if ext == "":  # scripts without a suffix: by their #! line
        try:
            with open(path, "rb") as f:
                first = f.readline()
        except OSError:
            return None
        if first.startswith(b"#!") and (b"sh" in first):
            return "sh"
    return None


def reads(root):
    """{name: [relative paths that read it]}."""
    found = {}
    for d, dirs, files in os.walk(root):
        rel = os.path.relpath(d, root)
        dirs[:] = [x for x in dirs
                   if not (rel == "." and (x in SKIP_DIRS or x.startswith("build")))]
        for f in files:
            path = os.path.join(d, f)
            k = kind_of(path)
            if k is None:
                continue
            try:
                with open(path, encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
            except OSError:
                continue
            for name in PATTERNS[k].findall(text):
                found.setdefault(name, set()).add(os.path.relpath(path, root))
    return found


def table_names(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        print(f"check_env.py: {path}: {e.strerror}", file=sys.stderr)
        sys.exit(2)
    return set(re.findall(r"^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|", text, re.M))


def main():
    if len(sys.argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    root, table = sys.argv[1:]
    if not os.path.isdir(root):
        print(f"check_env.py: {root}: not a directory", file=sys.stderr)
        return 2
    found = reads(root)
    documented = table_names(table)
    problems = []
    for name in sorted(set(found) - documented):
        problems.append(f"{table}: lacks {name}, read by {', '.join(sorted(found[name]))}")
    for name in sorted(n for n in documented - set(found) if n.startswith("ARA_")):
        problems.append(f"{table}: lists {name}, which no source outside tests/ reads")
    for p in problems:
        print(p)
    if not problems:
        print(f"{table}: {len(found)} ARA_* variables, as the sources read them")
    return 1 if problems else 0


sys.exit(main())
