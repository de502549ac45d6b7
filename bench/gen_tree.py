#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the search benchmark's tree: about 2,000 text files and 20 MB under
# 100 folders, deterministic (fixed seed), with a rare literal, a frequent
# regex shape and no occurrence of the benchmark's no-match token.
# Usage: gen_tree.py DIR [FILES] [MEGABYTES]
import os
import random
import sys

WORDS = ("alpha beta gamma delta value result index buffer config parse token "
         "stream handle return import class struct while for if else print "
         "vector string count offset limit path file search match line").split()
EXTENSIONS = (".py", ".js", ".md", ".txt", ".c")


def line(rng):
    roll = rng.random()
    if roll < 0.001:
        return "    x = needle_literal(%d)" % rng.randrange(1000)
    if roll < 0.011:
        name = "".join(rng.choice("abcdefghij") for _ in range(rng.randrange(3, 8)))
        return "def fn_%s_%03d(arg):" % (name, rng.randrange(1000))
    return " ".join(rng.choice(WORDS) for _ in range(rng.randrange(4, 12)))


def main():
    root = sys.argv[1]
    files = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    total = (int(sys.argv[3]) if len(sys.argv) > 3 else 20) * 1024 * 1024
    per_file = total // files
    rng = random.Random(42)
    for i in range(files):
        folder = os.path.join(root, "d%02d" % (i % 20), "s%d" % (i // 20 % 5))
        os.makedirs(folder, exist_ok=True)
        name = "file_%04d%s" % (i, EXTENSIONS[i % len(EXTENSIONS)])
        out, size = [], 0
        while size < per_file:
            text = line(rng)
            out.append(text)
            size += len(text) + 1
        with open(os.path.join(folder, name), "w") as handle:
            handle.write("\n".join(out) + "\n")
        os.utime(os.path.join(folder, name), (1_700_000_000 + i, 1_700_000_000 + i))


if __name__ == "__main__":
    main()
