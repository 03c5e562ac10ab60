#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# doc_paths.sh - the source files that the shipped bash completion names
# (its comments point at the test that checks it) exist in this tree, so
# that a moved file cannot leave it pointing nowhere. TAP.
# usage: doc_paths.sh TOPDIR
set -u
top=$1
failed=0
file=dist/bash-completion/memdiagctl
paths=$(grep -oE '(userspace|selftests|scripts|dist)/[A-Za-z0-9_./-]*\.(sh|c|py)' \
	"$top/$file" | sort -u)
if [ -z "$paths" ]; then
	echo "not ok - $file names no source file: the pattern is stale"
	exit 1
fi
for p in $paths; do
	if [ -e "$top/$p" ]; then
		echo "ok - $file: $p exists"
	else
		echo "not ok - $file: $p does not exist"
		failed=$((failed + 1))
	fi
done
[ "$failed" = 0 ]
