# SPDX-License-Identifier: GPL-2.0
# run-plan.sh - sourced by run.sh and counter-free.sh (and their tests in
# userspace/tests/run.sh): what "make run" can do on this host, what it
# says it will do before it does anything, and its closing text on a host
# without counters. Functions only, so that the words are tested without
# installing, building or booting anything. The host is read under
# $MEMDIAG_TEST_HOST_ROOT when set (as memdiagctl's host_reach.c does).

# run_why: why this host cannot run the module natively ("" when it can)
run_why() {
	local r=${MEMDIAG_TEST_HOST_ROOT:-}
	if grep -qw nomodule "$r/proc/cmdline" 2> /dev/null; then
		echo "this host cannot load modules: the kernel was booted with 'nomodule'"
	elif [ ! -e "$r/proc/modules" ]; then
		echo "this host cannot load modules: the kernel has no /proc/modules"
	elif [ "$(cat "$r/proc/sys/kernel/modules_disabled" 2> /dev/null)" = 1 ]; then
		echo "this host cannot load modules: kernel.modules_disabled is 1"
	elif [ ! -d "$r/lib/modules/$(uname -r)/build" ]; then
		echo "there are no headers for the running kernel $(uname -r)"
	fi
}

# run_announce WHY ASKED [ARGS...]: the lines said before anything is
# installed, built or booted (WHY from run_why; ASKED: how many arguments
# the user gave; ARGS: the memdiagctl command that will run; MEMDIAG_SIM
# from the environment)
run_announce() {
	local why=$1 asked=$2
	shift 2
	echo "run: first: the Debian packages scripts/deps.sh names that are missing (apt-get, as root), then build memdiagctl"
	if [ -n "${MEMDIAG_SIM:-}" ]; then
		echo "run: then: boot a QEMU/TCG guest with Debian's newest kernel here and the simulated platform (MEMDIAG_SIM=$MEMDIAG_SIM)"
	elif [ -z "$why" ]; then
		echo "run: then: build module/memdiag.ko for $(uname -r), load it with insmod (stays loaded) and run memdiagctl $*"
	elif [ "$asked" = 0 ]; then
		echo "run: then: no module ($why): the counter-free view on this machine, calibrating once with 'memdiagctl calibrate --quick' (a minute or two) if no curve is stored"
	else
		echo "run: then: no module here ($why): boot a QEMU/TCG guest with Debian's newest kernel and run memdiagctl $* there"
	fi
}

# run_closing HW_STATUS_OUTPUT: the counter-free view's last words: what
# the module supports and this processor's place in it (the two lines of
# scripts/hw-status.sh), folded to 74 columns
run_closing() {
	local hw=$1
	echo "$hw" | sed -n 's/^supported: /On supported hardware (/p' | sed 's/$/)/' |
		fold -s -w 74 | sed "s/ *$//"
	cat <<'EOT'
with memdiag.ko loaded, memdiag adds what no chase can see: DRAM read and
write GB/s per socket and memory channel from the memory controllers, the
core's load latency counters, calibration against those true DRAM bytes,
the live verdict in 'watch' and 'snapshot', 'validate' and prefetcher
control.
EOT
	echo "$hw" | sed -n 's/^this processor: /This processor, /p' |
		fold -s -w 74 | sed "s/ *$//"
	cat <<'EOT'
'make run ARGS=info' runs memdiag in a QEMU/TCG guest here (no counters
there either); 'make run MEMDIAG_SIM=skx ARGS="watch --count 5"' shows
watch on the simulated platform (simulated numbers).
EOT
}
