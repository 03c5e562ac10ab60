#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test.sh - memdiag's whole test suite (the README's test command): install
# what is missing, check the generated files, build the module for every
# Debian kernel here with W=1 and the CLI with -Werror, run the host tests,
# then boot each kernel in QEMU/TCG and run the VM tests of
# selftests/memdiag/vmtests in it. Every test prints TAP (kselftest programs
# nested as KTAP subtests); each line "ok"/"not ok" at any depth counts
# once, and so does each step's exit status. Ends with "N passed, N failed".
#
# MEMDIAG_TEST="sim-run guest" (make check TEST=...) runs only those tests:
# names from vmtests or the host steps' names (test.sh --list shows them);
# MEMDIAG_GUESTS="skx-2s hsx" limits the guests of the "guest" test;
# MEMDIAG_KERNELS="6.12.117+deb12-amd64" the kernels; "debug" there is the
# kernel scripts/debug-kernel.sh builds (make check-debug), whose VM tests
# get four times the time; "kcsan" its variant with KCSAN instead of KASAN
# (make check-kcsan); "coverage" its gcov variant (make coverage:
# memdiag built with GCOV_PROFILE=y, each boot's counters copied into
# build/coverage/gcda/BOOT/ for scripts/coverage-report.sh;
# MEMDIAG_COVERAGE_REUSE=1 boots the module the last such run built).
# MEMDIAG_SUITE=full (make check-full) runs the full rows of vmtests and
# the full host steps besides the check ones (make check: about 30 minutes
# on two cores; make check-full: what make check ran before, about an
# hour and a half);
# MEMDIAG_SUITE=stress (make stress) runs the stress rows of vmtests
# instead, and no host step; MEMDIAG_VM_ONLY=1 skips the host steps too.
# The kernels that run instead of Debian's (debug, kcsan, coverage) run
# the full rows.
#
# The host steps run one after the other; then the VM boots run N at a
# time (test.sh -j N, MEMDIAG_JOBS=N, make check JOBS=N; default: the
# number of CPUs, each QEMU/TCG guest being one host thread). Each boot's
# output goes to its log and is printed, and counted, in the table's order
# once that boot and every one before it has ended, so the output and
# the summary are those of a sequential run.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
vmtests=selftests/memdiag/vmtests
suite=${MEMDIAG_SUITE:-check}
# suite_rows SUITE: the names of that suite's rows of vmtests
suite_rows() { awk -v s="$1" '!/^#/ && $2 == s { printf "%s ", $1 }' $vmtests; }
guestsf=selftests/memdiag/guests
host_steps="regen op-rows checkpatch pyflakes kernels build unit selftests-build bench-ratio dmesg-check vm-boot kcsan-instrumented uarch-oracle amd-oracle df-rotate df-map prefetch-oracle coverage-report completion layout install rules kubernetes image deb secureboot"
# the host steps only make check-full runs: the Secure Boot guest builds a
# Debian system first (mmdebstrap, long on a fresh machine)
full_host_steps="secureboot"

jobs=${MEMDIAG_JOBS:-$(nproc)}
case "${1:-}" in
-j) jobs=${2:-}; shift 2 ;;
-j*) jobs=${1#-j}; shift ;;
esac
case "$jobs" in
'' | *[!0-9]* | 0*) echo "test: -j (MEMDIAG_JOBS, make check JOBS=) needs a number of parallel VM boots, 1 or more; got '$jobs'" >&2
	exit 2 ;;
esac

if [ "${1:-}" = --list ]; then
	echo "host steps: $host_steps"
	echo "VM tests (make check): $(suite_rows check)"
	echo "VM tests make check-full adds: $(suite_rows full)"
	echo "host steps make check-full adds: $full_host_steps"
	echo "VM tests (make stress): $(suite_rows stress)"
	echo "guests: $(awk '!/^#/ && NF { printf "%s ", $1 }' $guestsf)"
	exit 0
fi

only=${MEMDIAG_TEST:-}
for t in $only; do
	case " $host_steps $(awk '!/^#/ && NF { printf "%s ", $1 }' $vmtests)" in
	*" $t "*) ;;
	*) echo "test: no test named '$t' (scripts/test.sh --list shows them)" >&2; exit 2 ;;
	esac
done
# wanted NAME: NAME is selected (everything is when MEMDIAG_TEST is empty)
wanted() { [ -z "$only" ] || [[ " $only " == *" $1 "* ]]; }
# host NAME: the host step NAME runs
vm_only=${MEMDIAG_VM_ONLY:-}
case $suite in
check | full) ;;
stress) vm_only=1 ;;
*) echo "test: MEMDIAG_SUITE is check, full or stress; got '$suite'" >&2; exit 2 ;;
esac
# in_suite S: a vmtests row of suite S runs in this suite
in_suite() { [ "$1" = "$suite" ] || { [ "$suite" = full ] && [ "$1" = check ]; }; }
# a TEST naming a VM row of another suite would run nothing: say where it is
for t in $only; do
	s=$(awk -v n="$t" '!/^#/ && $1 == n { print $2; exit }' $vmtests)
	[ -z "$s" ] || in_suite "$s" && continue
	case $s in
	full) echo "test: '$t' is a make check-full row: make check-full TEST=$t" >&2 ;;
	*) echo "test: '$t' is a make $s row: make $s TEST=$t" >&2 ;;
	esac
	exit 2
done
# host NAME: the host step NAME runs
host() {
	[ -z "$vm_only" ] && wanted "$1" &&
		{ [ "$suite" = full ] || [[ " $full_host_steps " != *" $1 "* ]]; }
}

pass=0
fail=0
skipped=0
failures=()
logdir=$top/build/test-logs
mkdir -p "$logdir"

# count STEP LOG: add the TAP results in LOG, at any nesting depth, to the
# totals; a test number is optional in TAP ("not ok - name" is a failure)
count() {
	local step=$1 log=$2 line
	while IFS= read -r line; do
		line=${line#"${line%%[! ]*}"}
		case "$line" in
		"not ok "*)
			fail=$((fail + 1))
			failures+=("$step: ${line#not ok }") ;;
		"ok "*"# SKIP"*)
			skipped=$((skipped + 1)) ;;
		"ok "*)
			pass=$((pass + 1)) ;;
		esac
	done < <(grep -E '^ *(not )?ok( [0-9]+)?( |$)' "$log")
}

logof() { echo "$logdir/$(echo "$1" | tr -c 'A-Za-z0-9._-' '_').log"; }

# every reported step's name and seconds, for the table at the end
step_names=()
step_secs=()
# report NAME LOG RC SECONDS: print a finished step's output and count it
report() {
	local name=$1 log=$2 rc=$3 secs=$4
	step_names+=("$name")
	step_secs+=("$secs")
	echo "== $name"
	sed 's/^/   /' "$log"
	count "$name" "$log"
	if [ "$rc" = 0 ]; then
		pass=$((pass + 1))
		echo "   ok - $name ($secs s)"
	else
		fail=$((fail + 1))
		failures+=("$name: exit status $rc")
		echo "   not ok - $name (exit status $rc, $secs s)"
	fi
}

# step ID NAME COMMAND...: unless ID is deselected ("-": never), run COMMAND; if it
# prints TAP, count its tests, and count the command's own exit status as
# one more test either way.
step() {
	local id=$1 name=$2 log rc t0=$SECONDS
	shift 2
	[ "$id" = - ] || wanted "$id" || return 0
	log=$(logof "$name")
	"$@" < /dev/null > "$log" 2>&1 && rc=0 || rc=$?
	report "$name" "$log" $rc $((SECONDS - t0))
	return $rc
}

# VM boots: vmstep queues one (as step would run it), vm_run_all runs
# them $jobs at a time and reports them in order. A finished boot leaves
# LOG.rc and LOG.secs next to its log.
vm_names=()
vm_cmds=()
vmstep() { # ID NAME COMMAND...
	local id=$1 name=$2
	shift 2
	wanted "$id" || return 0
	vm_names+=("$name")
	vm_cmds+=("$(printf '%q ' "$@")")
}
vm_launch() { # INDEX
	local log
	log=$(logof "${vm_names[$1]}")
	rm -f "$log.rc" "$log.secs"
	(
		t0=$SECONDS
		eval "${vm_cmds[$1]}" < /dev/null > "$log" 2>&1 && rc=0 || rc=$?
		echo $((SECONDS - t0)) > "$log.secs"
		echo $rc > "$log.rc"
	) &
}
vm_run_all() {
	local n=${#vm_names[@]} launched=0 printed=0 running i log
	while [ $printed -lt $n ]; do
		running=0
		for ((i = printed; i < launched; i++)); do
			[ -e "$(logof "${vm_names[$i]}").rc" ] || running=$((running + 1))
		done
		while [ $launched -lt $n ] && [ $running -lt "$jobs" ]; do
			vm_launch $launched
			launched=$((launched + 1))
			running=$((running + 1))
		done
		log=$(logof "${vm_names[$printed]}")
		if [ -e "$log.rc" ]; then
			report "${vm_names[$printed]}" "$log" "$(cat "$log.rc")" "$(cat "$log.secs")"
			rm -f "$log.rc" "$log.secs"
			printed=$((printed + 1))
		else
			sleep 2	# a boot takes minutes; polling costs nothing
		fi
	done
	wait
}
# an interrupted run takes its boots with it (run.sh ends its QEMU)
trap 'trap - INT TERM; kill $(jobs -p) 2> /dev/null; exit 130' INT TERM

scripts/deps.sh || { echo "test: installing dependencies failed" >&2; exit 1; }
LINUX_SRC=$(scripts/linux-src.sh) || exit 1
export LINUX_SRC

# hstep ID NAME COMMAND...: a host step
hstep() { host "$1" || return 0; step "$@"; }

hstep regen "generated files match the YNL spec" scripts/ynl-gen.sh --check
hstep op-rows "every request of the spec has its op_need row and its privilege matrix row, nothing else has one" \
	selftests/host/op_rows_test.py
hstep checkpatch "checkpatch --strict on module/" sh -c '
	cp=$LINUX_SRC/scripts/checkpatch.pl
	$cp --strict --no-tree --quiet -f $(ls module/*.[ch] module/sim/*.[ch] | grep -v compat.h) &&
	# the compat header exists to compare kernel versions
	$cp --strict --no-tree --quiet \
		--ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON -f module/compat.h'
# an undefined name in a Python script fails only when its line runs
hstep pyflakes "pyflakes3 finds nothing in the Python scripts and tests" sh -c '
	pyflakes3 $(git ls-files "*.py")'

kernels=${MEMDIAG_KERNELS:-$(scripts/kernels.sh)}
hstep kernels "Debian 6.1 and 6.12 kernels, stock and PREEMPT_RT, with headers are installed" sh -c "
	for re in '^6\.1\.[^ ]*-amd64$' '^6\.12\.[^ ]*-amd64$' '^6\.1\.[^ ]*-rt-amd64$' '^6\.12\.[^ ]*-rt-amd64$'; do
		echo '$kernels' | grep -v -- '-rt-' | grep -q \"\$re\" ||
		echo '$kernels' | grep -q -- \"\$re\" || { echo \"no kernel matches \$re in: $kernels\"; exit 1; }
	done"
# the module is built for every kernel a selected VM test boots
need_modules=
if host build; then
	need_modules=1
else
	while read -r name s _; do
		in_suite "$s" && wanted "$name" && need_modules=1
	done < <(grep -v '^#' $vmtests)
fi
built=()
declare -A kdir
# is_built_kernel K: K is a kernel scripts/debug-kernel.sh builds, not a
# Debian one
is_built_kernel() { [ "$1" = debug ] || [ "$1" = coverage ] || [ "$1" = kcsan ]; }
for k in $kernels; do
	[ -n "$need_modules" ] || break
	kdir[$k]=$k
	if is_built_kernel "$k" && ! kdir[$k]=$(scripts/debug-kernel.sh "$k"); then
		fail=$((fail + 1))
		failures+=("the $k kernel does not build (build/$k-kernel/build.log)")
		continue
	fi
	# a Debian kernel by its version, the debug kernel by its tree
	bargs=("$k")
	is_built_kernel "$k" && bargs=("${kdir[$k]}" "$k")
	[ "$k" != coverage ] || bargs+=(GCOV_PROFILE=y)
	if [ "$k" = coverage ] && [ -n "${MEMDIAG_COVERAGE_REUSE:-}" ]; then
		# make coverage ADD=1: the counters already there need the
		# objects they were counted on (scripts/coverage.sh checks)
		built+=("$k")
	elif host build || is_built_kernel "$k"; then
		step - "module builds for $k with W=1, no warnings" \
			scripts/build-module.sh "${bargs[@]}" && built+=("$k")
	elif scripts/build-module.sh "${bargs[@]}" > /dev/null; then
		built+=("$k")	# only what the selected tests need: no TAP line
	else
		fail=$((fail + 1))
		failures+=("module build for $k")
	fi
done
# A KCSAN boot that reports nothing shows something only if KCSAN sees the
# module: every object of both modules built for it must be instrumented,
# or its boots are not run at all
if [[ " ${built[*]} " == *" kcsan "* ]] &&
	! step - "memdiag.ko and memdiag_sim.ko for kcsan: every object instrumented by KCSAN" \
		scripts/kcsan-instrumented.sh build/kcsan/src/module; then
	mapfile -t built < <(printf '%s\n' "${built[@]}" | grep -vx kcsan)
	echo "   the kcsan boots are not run: the module is not instrumented"
fi
hstep build "memdiagctl builds with -Wall -Wextra -Werror" make -s -j"$(nproc)" -C userspace
hstep unit "memdiagctl host tests" make -s -j"$(nproc)" -C userspace check
hstep selftests-build "selftest programs build" make -s -j"$(nproc)" -C selftests
# packaging and the exporter's rules (selftests/fleet/, Documentation/fleet.rst)
hstep completion "bash completion offers what the CLI's tables hold" \
	selftests/fleet/completion.sh
hstep layout "Documentation/layout.rst describes every source folder; its recipes name files that exist; includes between folders follow its Calls" \
	scripts/layout-check.py
fleet_k=$(printf '%s\n' "${built[@]}" | grep -v -- '-rt-' | grep -vxE 'debug|coverage|kcsan' | tail -n1)
[ -n "$fleet_k" ] &&
	hstep install "make install/uninstall into a DESTDIR, make sign" \
		selftests/fleet/install.sh "$fleet_k"
hstep rules "alerting rules: promtool check rules and test rules" sh -c \
	'promtool check rules dist/prometheus/memdiag-rules.yml &&
	 promtool test rules selftests/fleet/rules-test.yml'
hstep kubernetes "Kubernetes manifests: every overlay renders, validates against the schemas, holds its privilege rules" \
	selftests/fleet/kubernetes.sh
hstep image "OCI image under podman with the vm and node overlays' settings: probe served, exact capabilities, read-only root, no restart" selftests/fleet/image.sh
hstep deb "Debian package: build, lintian, install with DKMS, purge" \
	selftests/fleet/deb.sh
hstep secureboot "Secure Boot in a Debian 12 guest (OVMF, shim, GRUB): make sign's module refused, its key enrolled at MokManager, then loaded" \
	selftests/debian/mok.sh
hstep bench-ratio "make bench pairs each trial's two sides for its ratio, over its quiet trials; its pair list follows the CPU's widths and socket 0's CPUs; bench-read reads every line it counts; scale-check reads calibrate's curve at a load" \
	sh -c '/usr/bin/python3 selftests/host/bench_ratio_test.py &&
	/usr/bin/python3 selftests/host/bench_quiet_test.py &&
	/usr/bin/python3 selftests/host/bench_plan_test.py &&
	sh selftests/host/bench_read_test.sh &&
	sh selftests/host/scale_curve_test.sh'
hstep dmesg-check "the VM dmesg check flags kernel problems, not the command line" \
	selftests/host/dmesg_check_test.sh
hstep vm-boot "the VM runner boots again, once, a kernel that crashed before init, never one that crashed after" \
	selftests/host/vm_boot_test.sh
hstep kcsan-instrumented "make check-kcsan's instrumentation check names an object built without KCSAN or code without its hooks" \
	selftests/host/kcsan_instrumented_test.sh
hstep uarch-oracle "uarch table agrees with perf's mapfile and the uncore driver" \
	/usr/bin/python3 selftests/host/uarch_oracle.py "$LINUX_SRC" \
	selftests/host/dump_uarch.bin
hstep amd-oracle "AMD rows and core PMUs agree with amd.c, perf's amdzen JSON and msr-index.h" \
	sh -c '/usr/bin/python3 selftests/host/amd_oracle.py "$1" \
	"$(scripts/linux-src.sh --amd)" selftests/host/dump_uarch.bin' _ "$LINUX_SRC"
hstep coverage-report "make coverage merges each boot's gcov counters with lcov and counts real-hardware-only functions apart" \
	selftests/host/coverage_report_test.sh
hstep df-rotate "Zen 2/3 DF channel rotation: per-channel and socket rates within 2 % across turns, a wrap, a reset" \
	selftests/host/df_rotate_test.bin
hstep df-map "Zen 2/3 DF3 DRAM address maps decoded into channel -> NUMA node for NPS1/2/4, refusing what is not one node's" \
	selftests/host/df_map_test.bin
hstep prefetch-oracle "prefetcher table agrees with intel-family.h, msr-index.h and resctrl" \
	/usr/bin/python3 selftests/host/prefetch_oracle.py "$LINUX_SRC" \
	selftests/host/dump_prefetch.bin

# vmtest ID NAME KVER CPU SMP TIMEOUT ENV SCRIPTS: one boot running SCRIPTS
# (NAME=VALUE words among them go to the environment)
vmtest() {
	local id=$1 name=$2 k=$3 cpu=$4 smp=$5 to=$6 env=$7 scripts= numa= w e
	for w in $8; do
		case $w in
		VM_NUMA=*) numa=${w#*=} ;;	# run.sh --numa, not the environment
		GUESTS=*) ;;			# which guests: the loop below
		*=*) env="$env $w" ;;
		*) scripts="$scripts $w" ;;
		esac
	done
	scripts=${scripts# }
	if is_built_kernel "$k"; then
		to=$((to * 4))
		scripts="kmemleak.sh $scripts kmemleak.sh"
	fi
	local args=(--kernel "${kdir[$k]}" --cpu "$cpu" --smp "$smp" --timeout "$to"
		--env "MEMDIAG_KO=build/$k/memdiag.ko"
		--env "MEMDIAG_SIM_KO=build/$k/memdiag_sim.ko"
		--env "LINUX_SRC=$LINUX_SRC")
	[ -z "$numa" ] || args+=(--numa "$numa")
	# a built kernel's reports (KASAN, lockdep, KCSAN) span many lines,
	# of which the dmesg check shows the first: the whole dmesg is kept
	if is_built_kernel "$k"; then
		mkdir -p "build/$k/dmesg"
		args+=(--keep-dmesg "build/$k/dmesg/$(printf %s "$name" | tr -c 'A-Za-z0-9._-' _).txt")
	fi
	# The kernel's own race, not memdiag's (Documentation/races.rst):
	# process_one_work() reads the worker's runtime, which
	# the scheduler's tick updates in code KCSAN does not instrument, so
	# KCSAN reports it alone, "at unknown origin"; a report that names a
	# second function still fails
	[ "$k" != kcsan ] ||
		args+=(--allow-dmesg 'BUG: KCSAN: data-race in process_one_work\+0x[0-9a-f]+/0x[0-9a-f]+$')
	# The device's, not the kernel's: vring_interrupt() reads the used
	# ring's index, which the virtio device (QEMU, outside the guest)
	# writes, so KCSAN reports it alone, "at unknown origin" (the same
	# section); again a report naming a second function fails
	[ "$k" != kcsan ] ||
		args+=(--allow-dmesg 'BUG: KCSAN: data-race in vring_interrupt\+0x[0-9a-f]+/0x[0-9a-f]+$')
	# The kernel's again: vmstat_shepherd's need_update() reads other CPUs'
	# per-CPU node counter deltas with memchr_inv() while those CPUs
	# change them with this_cpu operations, which KCSAN does not see
	[ "$k" != kcsan ] ||
		args+=(--allow-dmesg 'BUG: KCSAN: data-race in memchr_inv\+0x[0-9a-f]+/0x[0-9a-f]+$')
	# The kernel's poll: __pollwake() sets the poller's "triggered" flag
	# with a plain store after smp_wmb(), poll_schedule_timeout() tests
	# it with a plain load before it sleeps (fs/select.c; a missed set
	# costs nothing, the wake-up follows). memdiag's multicast is only
	# the waker's caller. Both functions named, in either order
	[ "$k" != kcsan ] ||
		args+=(--allow-dmesg 'BUG: KCSAN: data-race in (poll_schedule_timeout(\.constprop\.[0-9]+)? / pollwake|pollwake / poll_schedule_timeout(\.constprop\.[0-9]+)?)$')
	# The device's again: the used ring, read by virtqueue_get_buf_ctx()
	# under vring_interrupt(), written by QEMU; alone, "at unknown origin"
	[ "$k" != kcsan ] ||
		args+=(--allow-dmesg 'BUG: KCSAN: data-race in virtqueue_get_buf_ctx\+0x[0-9a-f]+/0x[0-9a-f]+$')
	# The kernel's, in a COW fault: this kernel's SPARSEMEM without
	# VMEMMAP reads a page's section out of page->flags (page_to_pfn())
	# with a plain load while lru_add() sets PG_lru in the same word; the
	# section bits never change. Both functions named, in either order
	[ "$k" != kcsan ] ||
		args+=(--allow-dmesg 'BUG: KCSAN: data-race in (lru_add / wp_page_copy|wp_page_copy / lru_add)$')
	# the canary's planted race (module/sim/kcsan_canary.c), in its own
	# boot only: both sides named, or the writer unseen
	[ "$k" != kcsan ] || [ "$id" != kcsan-canary ] ||
		args+=(--allow-dmesg 'BUG: KCSAN: data-race in mdsim_canary_rmw( \[memdiag_sim\] / mdsim_canary_rmw|\+0x[0-9a-f]+/0x[0-9a-f]+) \[memdiag_sim\]$')
	[ "$k" != coverage ] ||
		args+=(--gcov "build/coverage/gcda/$(printf %s "$name" | tr -c 'A-Za-z0-9._-' _)")
	for e in $env; do args+=(--env "$e"); done
	# one guest runs the scripts in order; it fails if any did
	vmstep "$id" "VM $k $name: $scripts, clean dmesg" \
		selftests/vm/run.sh "${args[@]}" -- bash -c \
		'rc=0; for t; do echo "# selftests/memdiag/$t"; s=$SECONDS; selftests/memdiag/$t || rc=1; echo "# $t: $((SECONDS - s)) s"; done; exit $rc' \
		_ $scripts
}

# kernel_in SET K: kernel K is in a vmtests row's kernel set, a comma
# list of: all; stock (not -rt-; the built kernels count as stock); rt;
# newest (the newest stock Debian kernel); kcsan; or a family of Debian's
# kernels, 6.1, 6.12, 6.1-rt, 6.12-rt (make check's rows: a built kernel
# is in none, so that make check-debug, check-kcsan and coverage run the
# full rows alone)
newest_k=$(printf '%s\n' "${built[@]}" | grep -v -- '-rt-' |
	grep -vxE 'debug|coverage|kcsan' | sort -V | tail -n1)
kernel_in() {
	local t
	for t in ${1//,/ }; do
		case $t in
		all) return 0 ;;
		stock) [[ $2 != *-rt-* ]] && return 0 ;;
		rt) [[ $2 == *-rt-* ]] && return 0 ;;
		newest) [ "$2" = "$newest_k" ] && return 0 ;;
		kcsan) [ "$2" = kcsan ] && return 0 ;;
		*-rt) [[ $2 == "${t%-rt}".*-rt-* ]] && return 0 ;;
		*) [[ $2 == "$t".* && $2 != *-rt-* ]] && return 0 ;;
		esac
	done
	return 1
}

# A selection of VM tests alone still needs the CLI and the test programs:
# a failed build counts (the boots would fail for want of them)
if { [ -n "$only" ] || [ -n "$vm_only" ]; } && [ -n "$need_modules" ]; then
	host build || make -s -C userspace > /dev/null ||
		{ fail=$((fail + 1)); failures+=("memdiagctl build"); }
	host selftests-build || make -s -C selftests > /dev/null ||
		{ fail=$((fail + 1)); failures+=("selftest programs build"); }
fi
while read -r name s kset smp to scripts; do
	in_suite "$s" && wanted "$name" || continue
	for k in "${built[@]}"; do
		kernel_in "$kset" "$k" || continue
		if [ "$smp" = guests ]; then
			# shellcheck disable=SC2086 # the row's words
			row_guests=$(printf '%s\n' $scripts | sed -n 's/^GUESTS=//p' | tr , ' ')
			while read -r g cpu gsmp env; do
				[ -z "${MEMDIAG_GUESTS:-}" ] ||
					[[ " $MEMDIAG_GUESTS " == *" $g "* ]] || continue
				[ -z "$row_guests" ] ||
					[[ " $row_guests " == *" $g "* ]] || continue
				vmtest "$name" "$name $g" "$k" "$cpu" "$gsmp" "$to" "$env" "$scripts"
			done < <(grep -v '^#' $guestsf | awk NF)
		else
			vmtest "$name" "$name" "$k" Skylake-Server-v1 "$smp" "$to" "" "$scripts"
		fi
	done
done < <(grep -v '^#' $vmtests | awk NF)
vm_run_all

echo
echo "step times (s):"
for i in "${!step_names[@]}"; do
	printf '%6s  %s\n' "${step_secs[$i]}" "${step_names[$i]}"
done
echo "total: $SECONDS s (VM boots $jobs at a time)"
[ "$suite" != check ] || [ -n "$only" ] ||
	echo "make check-full adds the host steps '$full_host_steps' and the VM rows: $(suite_rows full)"
for f in "${failures[@]}"; do
	echo "FAILED: $f"
done
if [ $skipped -gt 0 ]; then
	echo "$pass passed, $fail failed, $skipped skipped"
else
	echo "$pass passed, $fail failed"
fi
[ $fail = 0 ]
