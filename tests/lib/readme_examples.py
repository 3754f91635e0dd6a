#!/usr/bin/env python3
"""Runs the README's examples and compares their output with the README.

usage: readme_examples.py README MLQ [--write]
The examples sit between "<!-- examples:" and "<!-- end of examples -->",
indented four spaces: a line "$ mlq ARGS" is run (ARGS split as a shell
would), the lines after it, up to the next "$", are what it prints.
Prints TAP, one test per command; --write puts the real output in the
README instead.
"""
import shlex, subprocess, sys


def main():
    readme, mlq = sys.argv[1:3]
    write = "--write" in sys.argv[3:]
    lines = open(readme, encoding="utf-8").read().split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("<!-- examples:"))
    end = next(i for i, l in enumerate(lines) if l == "<!-- end of examples -->")
    out, n, bad = lines[:start + 1], 0, 0
    i = start + 1
    while i < end:
        cmd = lines[i]
        if not cmd.startswith("    $ mlq "):
            print("Bail out! not a command: %r" % cmd)
            return 1
        i += 1
        want = []
        while i < end and not lines[i].startswith("    $ "):
            want.append(lines[i][4:])
            i += 1
        r = subprocess.run([mlq] + shlex.split(cmd[len("    $ mlq "):]),
                           capture_output=True, text=True)
        got = r.stdout.rstrip("\n").split("\n")
        n += 1
        same = got == want and r.returncode == 0
        bad += not same
        print("%s %d - README: %s" % ("ok" if same else "not ok", n, cmd[6:]))
        if not same:
            for l in got:
                print("#   got: " + l)
            if r.stderr:
                print("#   stderr: " + r.stderr.strip())
        out.append(cmd)
        out.extend(("    " + l) if l else "" for l in got)
    out.extend(lines[end:])
    if write:
        open(readme, "w", encoding="utf-8").write("\n".join(out))
    print("1..%d" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
