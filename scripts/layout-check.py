#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
layout-check.py - Documentation/layout.rst against the tree (TAP).

Checks: every .c and .h file under userspace/ and module/ (those git
tracks, else those on disk) sits in a folder the "Source folders" section
describes, and each folder it describes exists; every path the "Recipes"
section names exists (a path with a placeholder (<name>) or a wildcard
names a pattern, not a file, and is skipped; "x.[ch]" stands for x.c and
x.h); every #include "..." of a file under userspace/ or kernels/ that
lands in another folder lands in one its folder's entry allows: a folder
named in the entry's sentences that say "calls" (a path such as
``netlink/df_nodes.h`` allows its folder), or, for "May call every folder
above", any folder described before it. include/uapi/ is shared by all;
memdiagctl.c and the tests may include anything.

Usage: scripts/layout-check.py [TOP]   (TOP: the repository, by default
the parent of this script's folder)
"""

import os
import re
import subprocess
import sys

TOKEN = re.compile(r"``([^`]+)``")


def section(text, title):
    """The body of the top-level section @title: up to the next one."""
    m = re.search(r"^%s\n=+\n" % re.escape(title), text, re.M)
    if not m:
        return None
    rest = text[m.end():]
    nxt = re.search(r"^[^\n]+\n=+\n", rest, re.M)
    return rest[:nxt.start()] if nxt else rest


def sources(top):
    """Tracked .c/.h files under userspace/ and module/ (disk if no git)."""
    try:
        out = subprocess.run(["git", "-C", top, "ls-files", "userspace",
                              "module"], capture_output=True, text=True,
                             check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        out = []
        for sub in ("userspace", "module"):
            for d, _, files in os.walk(os.path.join(top, sub)):
                out += [os.path.relpath(os.path.join(d, f), top)
                        for f in files]
    return sorted(f for f in out if f.endswith((".c", ".h")))


def inc_dirs(top):
    """userspace/Makefile's include path, in its order (its SRCDIRS): a
    "x.h" not beside the including file is the first of these that has it."""
    mk = open(os.path.join(top, "userspace", "Makefile"),
              encoding="utf-8").read()
    m = re.search(r"^SRCDIRS\s*:=\s*(.*)$", mk, re.M)
    return ["include/uapi", "userspace"] + \
        ["userspace/" + d for d in (m.group(1).split() if m else [])]


def entries(folders_text):
    """[(folder, body)] of the definition list, in the page's order."""
    out = []
    for m in re.finditer(r"^``([^`]+/)``\n((?:[ \t]+.*\n?|\n(?=[ \t]))*)",
                         folders_text, re.M):
        out.append((m.group(1), m.group(2)))
    return out


def allowed_folders(body, before, known):
    """The folders an entry's "Calls" sentences name; None: every one."""
    text = " ".join(body.split())
    if re.search(r"\bMay call every folder above\b", text):
        return set(before)
    allowed = set()
    for sent in re.findall(r"\b[Cc]alls\b[^.]*(?:\.(?=\w|`)[^.]*)*", text):
        for tok in TOKEN.findall(sent):
            for f in known:
                short = f[len("userspace/"):] if f.startswith(
                    "userspace/") else f
                if tok == f or tok == short or tok.startswith(short) and \
                        "/" in tok[len(short) - 1:]:
                    allowed.add(f)
    return allowed


def resolve(top, dirs, src, name):
    """The repository path #include "@name" in @src means, or None."""
    for d in [os.path.dirname(src)] + dirs:
        p = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(os.path.join(top, p)):
            return p
    return None


def include_breaks(top, folders_text, known):
    """Include edges between folders that the includer's entry forbids."""
    ents = [(f, b) for f, b in entries(folders_text)
            if f.startswith(("userspace/", "kernels/"))]
    order = [f for f, _ in ents]
    rules = {}
    for i, (f, body) in enumerate(ents):
        rules[f] = allowed_folders(body, order[:i], known)
    breaks, edges = [], set()
    dirs = inc_dirs(top)
    files = []
    for sub in ("userspace", "kernels"):
        for d, _, names in os.walk(os.path.join(top, sub)):
            files += [os.path.relpath(os.path.join(d, n), top)
                      for n in names if n.endswith((".c", ".h"))]
    for src in sorted(files):
        folder = os.path.dirname(src) + "/"
        # the top (memdiagctl.c) and the tests may include anything
        if folder not in rules or folder in ("userspace/",
                                            "userspace/tests/"):
            continue
        text = open(os.path.join(top, src), encoding="utf-8",
                    errors="replace").read()
        for name in re.findall(r'^#\s*include\s+"([^"]+)"', text, re.M):
            dst = resolve(top, dirs, src, name)
            if not dst:
                continue
            to = os.path.dirname(dst) + "/"
            if to == folder or to.startswith("include/uapi/"):
                continue
            edges.add((folder, to))
            if to not in rules[folder]:
                breaks.append("%s includes %s (%s), not in %s's Calls" %
                              (src, name, to, folder))
    return breaks, edges


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    page = os.path.join(top, "Documentation", "layout.rst")
    text = open(page, encoding="utf-8").read()
    n = 0
    failed = 0

    def result(ok, what, detail=""):
        nonlocal n, failed
        n += 1
        print("%s %d - %s" % ("ok" if ok else "not ok", n, what))
        if not ok:
            failed += 1
            for line in detail.splitlines():
                print("# " + line)

    folders_text = section(text, "Source folders")
    recipes_text = section(text, "Recipes")
    result(folders_text is not None and recipes_text is not None,
           "layout.rst has the sections 'Source folders' and 'Recipes'")
    if folders_text is None or recipes_text is None:
        print("1..%d" % n)
        return 1

    # the definition list's terms: a line that is only ``folder/``
    folders = set(re.findall(r"^``([^`]+/)``$", folders_text, re.M))
    missing_dirs = sorted(f for f in folders
                          if not os.path.isdir(os.path.join(top, f)))
    result(not missing_dirs, "every folder layout.rst describes exists",
           "\n".join(missing_dirs))

    homeless = [f for f in sources(top)
                if os.path.dirname(f) + "/" not in folders]
    result(not homeless,
           "every .c/.h under userspace/ and module/ is in a described folder",
           "in no folder of layout.rst:\n" + "\n".join(homeless))

    absent = []
    named = 0
    for tok in TOKEN.findall(recipes_text):
        if "/" not in tok or "<" in tok or "*" in tok or " " in tok:
            continue
        paths = [tok]
        if tok.endswith(".[ch]"):
            paths = [tok[:-5] + ".c", tok[:-5] + ".h"]
        for p in paths:
            named += 1
            if not os.path.exists(os.path.join(top, p)):
                absent.append(p)
    result(named > 0 and not absent,
           "every file the recipes name exists (%d named)" % named,
           "named but absent:\n" + "\n".join(absent))

    breaks, edges = include_breaks(top, folders_text, folders)
    result(edges and not breaks,
           "every include between folders is one the includer's "
           "\"Calls\" allows (%d folder edges)" % len(edges),
           "\n".join(breaks))
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
