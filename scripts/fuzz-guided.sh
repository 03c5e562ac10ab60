#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fuzz-guided.sh - "make fuzz-guided": the random and the coverage-guided
# netlink fuzzer against memdiag on the KCOV kernel, the same number of
# messages each, in one boot (selftests/memdiag/kcov-fuzz.sh). Uses the
# coverage kernel of scripts/debug-kernel.sh (built once, CONFIG_KCOV),
# builds memdiag.ko and memdiag_sim.ko against it with KCOV_INSTRUMENT=y
# into build/kcov/ (the module only: KCOV_INSTRUMENT_ALL is off), and
# leaves the boot's output in build/kcov/fuzz.log and the guided run's
# corpus, with each message's recorded answer, in build/kcov/corpus.txt
# (selftests/memdiag/nlfuzz.corpus is the one make check replays).
# Environment: MEMDIAG_FUZZ_COUNT (messages for each fuzzer, default
# 20000), MEMDIAG_FUZZ_SEED, MEMDIAG_FUZZ_TIMEOUT (seconds, default 1800).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
out=build/kcov
kdir=$(scripts/debug-kernel.sh coverage) || exit 1
scripts/build-module.sh "$kdir" kcov KCOV_INSTRUMENT=y || exit 1
make -s -C userspace && make -s -C selftests || exit 1
set -- --env "MEMDIAG_FUZZ_COUNT=${MEMDIAG_FUZZ_COUNT:-20000}"
[ -z "${MEMDIAG_FUZZ_SEED:-}" ] ||
	set -- "$@" --env "MEMDIAG_FUZZ_SEED=$MEMDIAG_FUZZ_SEED"
t0=$(date +%s)
selftests/vm/run.sh --kernel "$kdir" --smp 4,sockets=2,cores=2 \
	--timeout "${MEMDIAG_FUZZ_TIMEOUT:-1800}" \
	--env "MEMDIAG_KO=$out/memdiag.ko" \
	--env "MEMDIAG_SIM_KO=$out/memdiag_sim.ko" "$@" \
	-- selftests/memdiag/kcov-fuzz.sh > "$out/fuzz.log" 2>&1 && rc=0 || rc=$?
sed -n '/^# corpus-begin/,/^# corpus-end/s/^# corpus: //p' "$out/fuzz.log" \
	> "$out/corpus.txt"
grep -E '^ *# (seed|kcov:|replay)|^(not )?ok' "$out/fuzz.log"
echo "fuzz-guided: $(( $(date +%s) - t0 )) s in the guest; $(grep -vcE '^(#|socket)' "$out/corpus.txt") corpus messages in $(grep -c '^socket' "$out/corpus.txt") sequences in $out/corpus.txt; log $out/fuzz.log"
exit "$rc"
