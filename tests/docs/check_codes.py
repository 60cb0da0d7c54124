#!/usr/bin/python3
"""Checks a documented table of codes (exit statuses, status codes) against
the C definitions it documents: every value the headers define is in the
table, and the table has no value they do not define.

usage: check_codes.py --codes HEADER:enum:NAME|HEADER:prefix:PREFIX ...
                      [--except NAME]... --doc FILE --section TITLE [--names]

Each --codes (repeatable: a tool's table may hold the codes every tool
shares and its own) gives the enumerators of `enum NAME` in HEADER
(explicit or implied values), or its `#define PREFIX...  <number>` lines.
The table is the section TITLE of the document: in Markdown, the rows
`| <number> | ...` under the heading TITLE; in a manual page (roff), the
tags of the .TP/.IP items under `.SH TITLE` whose text is a number, or
that hold one in parentheses. With --names, each row must also name one of
its value's C names.

Exit status: 0 the table matches, 1 it does not (each difference on stdout),
2 usage error or an unreadable file.
"""
import argparse
import re
import sys


def die(msg):
    print(f"check_codes.py: {msg}", file=sys.stderr)
    sys.exit(2)


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        die(f"{path}: {e.strerror}")


def strip_c_comments(text):
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)


def header_values(text, enum, prefix, excluded, known):
    """{name: value} from enum `enum`, or the #defines starting with prefix;
    an enumerator may be set to a name of `known` (an earlier --codes's)."""
    values = {}
    if enum:
        m = re.search(r"\benum\s+" + re.escape(enum) + r"\s*\{(.*?)\}", strip_c_comments(text), re.S)
        if not m:
            return None
        nxt = 0
        for item in m.group(1).split(","):
            item = item.strip()
            if not item:
                continue
            im = re.fullmatch(r"([A-Za-z_]\w*)\s*(?:=\s*(0x[0-9A-Fa-f]+|\d+|[A-Za-z_]\w*))?", item)
            if not im or (im.group(2) and im.group(2)[0].isalpha() and im.group(2) not in known):
                die(f"enum {enum}: cannot read the enumerator '{item}'")
            if im.group(2):
                nxt = known[im.group(2)] if im.group(2)[0].isalpha() else int(im.group(2), 0)
            values[im.group(1)] = nxt
            nxt += 1
    else:
        for m in re.finditer(r"^#define\s+(" + re.escape(prefix) + r"\w*)\s+\(?(0x[0-9A-Fa-f]+|\d+)\)?\s*$",
                             strip_c_comments(text), re.M):
            values[m.group(1)] = int(m.group(2), 0)
    for name in excluded:
        values.pop(name, None)
    return values


def roff_text(line):
    """A roff line's words without requests' names, font escapes or quotes."""
    line = re.sub(r"^\.\w+\s*", "", line)
    line = re.sub(r"\\f(\[\w*\]|\(..|.)", "", line)
    return line.replace('"', " ").replace("\\-", "-").replace("\\&", "")


def tag_number(text):
    m = re.fullmatch(r"\s*(\d+)\s*", text) or re.search(r"\((\d+)\)", text)
    return int(m.group(1)) if m else None


def markdown_rows(text, title):
    """[(value, row text)] of the table under the heading `title`."""
    rows, inside, level = [], False, 0
    for line in text.splitlines():
        h = re.match(r"^(#+)\s+(.*?)\s*$", line)
        if h:
            if inside and len(h.group(1)) <= level:
                break
            if h.group(2) == title:
                inside, level = True, len(h.group(1))
            continue
        if inside:
            m = re.match(r"^\|\s*`?(\d+)`?\s*\|", line)
            if m:
                rows.append((int(m.group(1)), line))
    return rows if inside else None


def roff_rows(text, title):
    """[(value, tag and paragraph text)] of the items under `.SH title`."""
    rows, inside, lines = [], False, text.splitlines()
    for i, line in enumerate(lines):
        sh = re.match(r'^\.SH\s+"?(.*?)"?\s*$', line)
        if sh:
            if inside:
                break
            inside = sh.group(1) == title
            continue
        if not inside:
            continue
        tag = None
        if line.startswith(".TP") and i + 1 < len(lines):
            tag, body_from = lines[i + 1], i + 2
        elif line.startswith(".IP "):
            tag, body_from = line, i + 1
        if tag is None:
            continue
        value = tag_number(roff_text(tag))
        if value is None:
            continue
        body = [tag]
        for b in lines[body_from:]:
            if re.match(r"^\.(TP|IP|SH|SS|PP|P|LP)\b", b):
                break
            body.append(b)
        rows.append((value, "\n".join(body)))
    return rows if inside else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--codes", action="append", required=True, metavar="HEADER:enum|prefix:NAME")
    ap.add_argument("--except", dest="excluded", action="append", default=[])
    ap.add_argument("--resolve", action="append", default=[],
                    help="HEADER:enum:NAME whose enumerators --codes may be set to, not checked")
    ap.add_argument("--doc", required=True)
    ap.add_argument("--section", required=True)
    ap.add_argument("--names", action="store_true")
    a = ap.parse_args()

    values = []  # (name, value, header)
    resolved = {}
    for spec in a.resolve:
        header, _, what = spec.partition(":enum:")
        resolved.update(header_values(read(header), what, None, [], {}) or die(f"{header}: no enum {what}"))
    for spec in a.codes:
        header, sep, rest = spec.partition(":")
        kind, sep2, what = rest.partition(":")
        if not (sep and sep2 and kind in ("enum", "prefix") and what):
            die(f"--codes {spec}: not HEADER:enum:NAME or HEADER:prefix:PREFIX")
        found = header_values(read(header), what if kind == "enum" else None,
                              what if kind == "prefix" else None, a.excluded,
                              {**resolved, **{n: v for n, v, _ in values}})
        if not found:
            die(f"{header}: no " + (f"enum {what}" if kind == "enum" else f"{what}* #define with a number"))
        values += [(n, v, header) for n, v in found.items()]
    doc = read(a.doc)
    is_roff = re.search(r"^\.TH\s", doc, re.M) is not None
    rows = (roff_rows if is_roff else markdown_rows)(doc, a.section)
    if rows is None:
        die(f"{a.doc}: no section '{a.section}'")

    where = f"{a.doc} ({a.section})"
    problems = []
    by_value, headers = {}, {}
    for name, v, header in values:
        by_value.setdefault(v, []).append(name)
        headers.setdefault(v, []).append(header)
    sources = " and ".join(dict.fromkeys(h for _, _, h in values))
    seen = {}
    for v, row in rows:
        if v in seen:
            problems.append(f"{where}: {v} is documented twice")
        seen[v] = row
        if v not in by_value:
            problems.append(f"{where}: documents {v}, which "
                            + (f"{sources} does not define" if len(a.codes) == 1 else f"none of {sources} defines"))
    for v, names in sorted(by_value.items()):
        if v not in seen:
            problems.append(f"{where}: lacks {v} ({', '.join(names)}, {', '.join(dict.fromkeys(headers[v]))})")
        elif a.names and not any(re.search(r"\b" + n + r"\b", roff_text(seen[v]) if is_roff else seen[v])
                                 for n in names):
            problems.append(f"{where}: the row of {v} does not name {' or '.join(names)}")
    for p in problems:
        print(p)
    if not problems:
        print(f"{where}: {len(rows)} codes, as {sources} define" + ("s" if len(a.codes) == 1 else "") + " them")
    return 1 if problems else 0


sys.exit(main())
