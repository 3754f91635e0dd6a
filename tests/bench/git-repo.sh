#!/bin/sh
# tests/bench/git-repo.sh N DIR: a git repository of N commits on master,
# made with git fast-import (seconds, not the hours of N git commits):
# commit i adds one line to file i mod 500 and carries a Link: to a
# message no archive holds, so that mlq import --git tries every rule on
# every commit and links none: the most work a commit can cost.
set -eu
n=$1 dir=$2
rm -rf "$dir"
git init -q -b master "$dir"
awk -v n="$n" 'BEGIN {
	t = 1600000000
	for (i = 1; i <= n; i++) {
		f = i % 500
		body[f] = body[f] sprintf("int v%d = %d;\n", i, i)
		msg = sprintf("bench: value %d in f%03d.c\n\nLink: https://lore.kernel.org/r/bench-%d@example.org\nSigned-off-by: Bench <bench@example.org>\n", i, f, i)
		printf "commit refs/heads/master\nmark :%d\n", i
		printf "author Bench <bench@example.org> %d +0000\n", t + i * 60
		printf "committer Bench <bench@example.org> %d +0000\n", t + i * 60
		printf "data %d\n%s", length(msg), msg
		if (i > 1)
			printf "from :%d\n", i - 1
		printf "M 100644 inline f%03d.c\ndata %d\n%s\n", f, length(body[f]), body[f]
	}
}' | LC_ALL=C git -C "$dir" fast-import --quiet
