#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kcov-fuzz.sh - the random and the coverage-guided nlfuzz, the same number
# of messages each, on a KCOV kernel with memdiag.ko built with
# KCOV_INSTRUMENT=y (make fuzz-guided boots it): each on a freshly loaded
# module on the simulated skx, edges and PCs of memdiag's text reached at
# checkpoints (nlfuzz_kcov.c), for each seed, and at the end of each run
# every PC and edge it reached (--cov-dump; "# kcov-section: " lines give
# the module's section addresses to map them). Then the first seed's guided
# corpus is replayed on a fresh module to record each message's answer,
# replayed again to check the answers repeat, replayed with one recorded
# answer changed to check that the replay catches it, and printed between
# "# corpus-begin" and "# corpus-end" lines ("# corpus: " before each
# line) for the host to keep. Prints TAP.
#
# Environment: MEMDIAG_KO, MEMDIAG_SIM_KO; MEMDIAG_FUZZ_COUNT messages for
# each fuzzer (default 20000), MEMDIAG_FUZZ_SEED (default random; several,
# space-separated, compare in one boot).
set -u
cd "$(dirname "$0")/../.." || exit 1
. selftests/memdiag/lib.sh

ko=${MEMDIAG_KO:?}
count=${MEMDIAG_FUZZ_COUNT:-20000}
seeds=${MEMDIAG_FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
fuzz=selftests/memdiag/nlfuzz
echo "# seeds $seeds, $count messages each (repeat: MEMDIAG_FUZZ_SEED=\"$seeds\" MEMDIAG_FUZZ_COUNT=$count)"

# fresh: memdiag and the sim (re)loaded as fuzz.sh loads them
fresh() {
	sim_cleanup
	sim_load "$1" skx fuzz_preset
}

# text_range: LO:HI around memdiag's loaded text: every executable
# section of the .ko but the init ones (freed after the load), at the
# address sysfs gives it (root reads the real ones). Kernel addresses are
# negative in bash's arithmetic, and compare right among themselves.
text_range() {
	readelf -SW "$ko" | sed 's/^ *\[ *[0-9]*\]//' |
	awk '$2 == "PROGBITS" && $7 ~ /X/ && $1 !~ /^\.init/ { print $1, $5 }' |
	{
		local name size addr lo='' hi=''
		while read -r name size; do
			addr=$(cat "/sys/module/memdiag/sections/$name") ||
				continue
			[ -n "$lo" ] && [ $((addr)) -ge $((lo)) ] || lo=$addr
			[ -n "$hi" ] && [ $((addr + 0x$size)) -le $((hi)) ] ||
				hi=$((addr + 0x$size))
		done
		[ -z "$hi" ] || printf '%#x:%#x\n' $((lo)) $((hi))
	}
}

# sections: each loaded section's name and address, for the host to map
# the PCs nlfuzz --cov-dump prints (offsets from the range's start) to
# the .ko's sections and source lines
sections() {
	local s
	for s in /sys/module/memdiag/sections/.*; do
		printf '# kcov-section: %s %s\n' "${s##*/}" "$(cat "$s")"
	done
}

if [ ! -e /sys/kernel/debug/kcov ]; then
	skip "no /sys/kernel/debug/kcov: not a KCOV kernel"
	tap_end
	exit 0
fi
corpus=
for seed in $seeds; do
	fresh "random: " || { tap_end; exit 1; }
	range=$(text_range)
	echo "# memdiag text: $range"
	sections
	check "memdiag's text range from sysfs" test -n "$range"
	subtest "random nlfuzz, seed $seed, $count messages, coverage measured" \
		"$fuzz" --seed "$seed" --count "$count" --kcov "$range" --cov-dump

	fresh "guided: " || { tap_end; exit 1; }
	range=$(text_range)
	subtest "guided nlfuzz, seed $seed, $count messages" \
		"$fuzz" --seed "$seed" --count "$count" --kcov "$range" \
		--guided --cov-dump --corpus-out "/tmp/corpus-$seed.raw"
	[ -n "$corpus" ] || corpus=/tmp/corpus-$seed.raw
done

fresh "record: " || { tap_end; exit 1; }
subtest "the corpus replayed on a fresh module, answers recorded" \
	"$fuzz" --replay "$corpus" --record /tmp/corpus.txt
fresh "replay: " || { tap_end; exit 1; }
subtest "the corpus replayed again: the same answers" \
	"$fuzz" --replay /tmp/corpus.txt

# the replay can fail: the first message's recorded answer changed
awk '!done && !/^#/ && !/^socket/ { $1 = $1 == "EINVAL" ? "ack" : "EINVAL"; done = 1 } 1' \
	/tmp/corpus.txt > /tmp/corpus.bad
fresh "break: " || { tap_end; exit 1; }
out=$("$fuzz" --replay /tmp/corpus.bad 2>&1)
rc=$?
printf '%s\n' "$out" | grep -E '^# (FAIL|replay)' | sed 's/^/    /'
if [ "$rc" != 0 ] && printf '%s\n' "$out" | grep -q 'answered .*, recorded'; then
	ok "a corpus with one recorded answer changed fails the replay"
else
	not_ok "a corpus with one recorded answer changed fails the replay" \
		"exit status $rc" "$out"
fi
sim_cleanup
echo "# corpus-begin"
sed 's/^/# corpus: /' /tmp/corpus.txt
echo "# corpus-end"
tap_end
