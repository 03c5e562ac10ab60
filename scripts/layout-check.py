#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
layout-check.py - Documentation/layout.rst against the tree (TAP).

Checks: every .c and .h file under userspace/ and module/ (those git
tracks, else those on disk) sits in a folder the "Source folders" section
describes, and each folder it describes exists; every path the "Recipes"
section names exists. A path with a placeholder (<name>) or a wildcard
names a pattern, not a file, and is skipped; "x.[ch]" stands for x.c and
x.h.

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
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
