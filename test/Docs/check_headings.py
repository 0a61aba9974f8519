#!/usr/bin/env python3
"""Checks that no section of the Markdown files under the given folders (and
files) is empty: a heading followed, with nothing in between, by a heading
of its level or above (what an edit that moved a section's text leaves
behind).   check_headings.py PATH..."""
import os
import re
import sys

files = []
for path in sys.argv[1:]:
    if os.path.isdir(path):
        for root, _, names in os.walk(path):
            files += [os.path.join(root, n) for n in names if n.endswith(".md")]
    else:
        files.append(path)
bad = []
for path in sorted(files):
    heading, fenced = None, False
    for number, line in enumerate(open(path), 1):
        if line.startswith("```"):
            fenced = not fenced
            heading = None
            continue
        m = None if fenced else re.match(r"(#+) ", line)
        if m:
            level = len(m.group(1))
            if heading and level <= heading[0]:
                bad.append(f"{path}:{heading[1]}: empty section "
                           f"'{heading[2]}'")
            heading = (level, number, line.strip())
        elif line.strip():
            heading = None
if bad:
    sys.exit("\n".join(bad))
print(f"{len(files)} files, no empty section")
