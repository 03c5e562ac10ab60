#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test.sh - memdiag's whole test suite (the README's test command): install
# what is missing, check the generated files, build the module for every
# Debian kernel here with W=1 and the CLI with -Werror, run the host tests,
# then boot each kernel in QEMU/TCG on each test CPU and run the selftests
# in it. Every step reports TAP; the run ends with "N passed, N failed".
#
# MEMDIAG_GUESTS="skx-2s hsx" limits the VM part to some guests;
# MEMDIAG_KERNELS="6.12.117+deb12-amd64" to some kernels.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

pass=0
fail=0
skipped=0
failures=()
logdir=$top/build/test-logs
mkdir -p "$logdir"

# count STEP LOG: add the TAP results in LOG to the totals
count() {
	local step=$1 log=$2 line
	while IFS= read -r line; do
		case "$line" in
		"not ok "*)
			fail=$((fail + 1))
			failures+=("$step: ${line#not ok }") ;;
		"ok "*"# SKIP"*)
			skipped=$((skipped + 1)) ;;
		"ok "*)
			pass=$((pass + 1)) ;;
		esac
	done < <(grep -E '^(not )?ok [0-9]+' "$log")
}

# step NAME COMMAND...: run COMMAND; if it prints TAP, count its tests,
# and count the command's own exit status as one more test either way.
step() {
	local name=$1 log rc
	shift
	log=$logdir/$(echo "$name" | tr -c 'A-Za-z0-9._-' '_').log
	echo "== $name"
	"$@" > "$log" 2>&1 && rc=0 || rc=$?
	sed 's/^/   /' "$log"
	count "$name" "$log"
	if [ $rc = 0 ]; then
		pass=$((pass + 1))
		echo "   ok - $name"
	else
		fail=$((fail + 1))
		failures+=("$name: exit status $rc")
		echo "   not ok - $name (exit status $rc)"
	fi
	return $rc
}

scripts/deps.sh || { echo "test: installing dependencies failed" >&2; exit 1; }
LINUX_SRC=$(scripts/linux-src.sh) || exit 1
export LINUX_SRC

step "generated files match the YNL spec" scripts/ynl-gen.sh --check
step "checkpatch --strict on module/" sh -c '
	cp=$LINUX_SRC/scripts/checkpatch.pl
	$cp --strict --no-tree --quiet -f $(ls module/*.[ch] module/sim/*.[ch] | grep -v compat.h) &&
	# the compat header exists to compare kernel versions
	$cp --strict --no-tree --quiet \
		--ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON -f module/compat.h'

kernels=${MEMDIAG_KERNELS:-$(scripts/kernels.sh)}
step "Debian 6.1 and 6.12 kernels with headers are installed" sh -c \
	"echo '$kernels' | grep -q '^6\.1\.' && echo '$kernels' | grep -q '^6\.12\.'"
built=()
for k in $kernels; do
	step "module builds for $k with W=1, no warnings" scripts/build-module.sh "$k" &&
		built+=("$k")
done
step "memdiagctl builds with -Wall -Wextra -Werror" make -s -C userspace
step "memdiagctl host tests" make -s -C userspace check
step "selftest programs build" make -s -C selftests
step "uarch table agrees with perf's mapfile and the uncore driver" \
	/usr/bin/python3 selftests/host/uarch_oracle.py "$LINUX_SRC" \
	selftests/host/dump_uarch.bin
step "prefetcher table agrees with intel-family.h, msr-index.h and resctrl" \
	/usr/bin/python3 selftests/host/prefetch_oracle.py "$LINUX_SRC" \
	selftests/host/dump_prefetch.bin

guests=${MEMDIAG_GUESTS:-$(awk '!/^#/ && NF { print $1 }' selftests/memdiag/guests)}
for k in "${built[@]}"; do
	for g in $guests; do
		read -r _ cpu smp env < <(awk -v g="$g" '$1 == g' selftests/memdiag/guests)
		args=(--kernel "$k" --cpu "$cpu" --smp "$smp" --timeout 300
		      --env "MEMDIAG_KO=build/$k/memdiag.ko" --env "LINUX_SRC=$LINUX_SRC")
		for e in $env; do args+=(--env "$e"); done
		step "VM $k $g: selftests, clean dmesg" \
			selftests/vm/run.sh "${args[@]}" -- selftests/memdiag/guest.sh
	done
done

# The simulated platform: counters, sessions and restore, per kernel.
for k in "${built[@]}"; do
	step "VM $k sim: counters on the simulated platform, clean dmesg" \
		selftests/vm/run.sh --kernel "$k" --timeout 600 \
		--env "MEMDIAG_KO=build/$k/memdiag.ko" \
		--env "MEMDIAG_SIM_KO=build/$k/memdiag_sim.ko" \
		--env "LINUX_SRC=$LINUX_SRC" -- sh -c \
		'selftests/memdiag/sim-basic.sh; a=$?; selftests/memdiag/sim.sh && exit $a'
	step "VM $k sim: prefetcher control, per-core scope, hotplug, restore" \
		selftests/vm/run.sh --kernel "$k" --timeout 600 \
		--smp 8,sockets=2,cores=2,threads=2 \
		--env "MEMDIAG_KO=build/$k/memdiag.ko" \
		--env "MEMDIAG_SIM_KO=build/$k/memdiag_sim.ko" \
		-- selftests/memdiag/prefetch-sim.sh

done

# The counters memdiagctl run reads around its kernels, on the sim.
for k in "${built[@]}"; do
	step "VM $k sim: counters around memdiagctl run, clean dmesg" \
		selftests/vm/run.sh --kernel "$k" --timeout 600 \
		--env "MEMDIAG_KO=build/$k/memdiag.ko" \
		--env "MEMDIAG_SIM_KO=build/$k/memdiag_sim.ko" \
		-- selftests/memdiag/sim-run.sh
done

echo
for f in "${failures[@]}"; do
	echo "FAILED: $f"
done
if [ $skipped -gt 0 ]; then
	echo "$pass passed, $fail failed, $skipped skipped"
else
	echo "$pass passed, $fail failed"
fi
[ $fail = 0 ]
