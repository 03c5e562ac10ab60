#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sim.sh - memdiag's counters against the simulated platform, inside a test
# VM: for each simulated generation, what memdiagctl reports must match
# what memdiag_sim was told (within 1 %), counts must be exact across
# injections and counter wraps, and every register memdiag wrote must be
# back to the value it found after a killed client and after rmmod.
#
# Environment: MEMDIAG_KO, MEMDIAG_SIM_KO, LINUX_SRC, and MEMDIAG_SIM_UARCHS
# (default "skx icx spr gnr").
set -u
cd "$(dirname "$0")/../.."
. selftests/memdiag/lib.sh

ncpus=$(nproc)

declare -A UARCH=([skx]=Skylake-SP [icx]="Ice Lake-SP" [spr]="Sapphire Rapids"
	[gnr]="Granite Rapids")


# lines_at_least FILE N: FILE has N lines or more
lines_at_least() { [ "$(wc -l < "$1")" -ge "$2" ]; }

check_restored() { # NAME
	local cpu bad=
	for cpu in $(seq 0 $((ncpus - 1))); do
		[ "$(reg msr $cpu 0x186)" = 0x3c ] || bad="$bad cpu$cpu:0x186=$(reg msr $cpu 0x186)"
		[ "$(reg msr $cpu 0x187)" = 0x2e ] || bad="$bad cpu$cpu:0x187=$(reg msr $cpu 0x187)"
		[ "$(reg msr $cpu 0x188)" = unset ] || [ "$(reg msr $cpu 0x188)" = 0x0 ] ||
			bad="$bad cpu$cpu:0x188=$(reg msr $cpu 0x188)"
		[ "$(reg msr $cpu 0x38f)" = 0x8 ] || bad="$bad cpu$cpu:0x38f=$(reg msr $cpu 0x38f)"
		[ "$(reg msr $cpu 0x38d)" = unset ] || [ "$(reg msr $cpu 0x38d)" = 0x0 ] ||
			bad="$bad cpu$cpu:0x38d=$(reg msr $cpu 0x38d)"
		[ "$(reg msr $cpu 0x1a6)" = 0x10001 ] || bad="$bad cpu$cpu:0x1a6=$(reg msr $cpu 0x1a6)"
	done
	# no IMC counter control is left enabled (bit 22) or holding an event
	local imc
	imc=$(awk '$1 != "msr" && ($3 ~ /^0x(d8|dc|e0|e4|40|44|48|4c)$/) && $4 != "0x0"' $dbg/regs)
	[ -z "$imc" ] || bad="$bad imc:[$imc]"
	no_problems "$1" "$bad"
}

for u in ${MEMDIAG_SIM_UARCHS:-skx icx spr gnr}; do
	echo "# simulated $u"
	# gnr's core side is spr's (sim-xeon6.sh checks it): its IMC only,
	# to keep the one boot short
	imc_only=
	[ $u = gnr ] && imc_only=1
	sim_load "$u: " "$u" sim_preset || continue
	check "$u: info reports platform sim and ${UARCH[$u]}" jqt \
		".platform == \"sim\" and .uarch == \"${UARCH[$u]}\"" /tmp/info.json
	check "$u: IMC, core latency and offcore counters are available" jqt \
		'[.capabilities[] | select(.id != "prefetch-control" and .id != "l3-dram-latency") | .available] | all' /tmp/info.json
	check "$u: no L3-sampled DRAM latency (AMD's L3 PMU), with the reason" jqt \
		'.capabilities[] | select(.id == "l3-dram-latency") | (.available | not) and (.reason | test("AMD Zen 2 to Zen 5 have one"))' /tmp/info.json

	# rates: socket 0 busy, every other socket idle
	sim_busy 10000 4000 200 1000000 500000 3000
	w=/tmp/watch.json
	sim_watch "$u: watch --count 3 exits 0" $w --all --interval 500ms --count 3
	check_rate "$u: socket 0 read 10.0 GB/s" $w 0 read_gbps 10.0
	check_rate "$u: socket 0 write 4.0 GB/s" $w 0 write_gbps 4.0
	check_rate "$u: socket 0 offcore reads $cps x 3.0 GB/s" $w 0 offcore_read_gbps "$((cps * 3))"
	check_rate "$u: load miss real latency 200 cycles" $w 0 load_miss_real_latency_cycles 200
	check_rate "$u: L1 miss latency 300 cycles" $w 0 l1_miss_latency_cycles 300
	check_rate "$u: load miss real latency 100 ns at 2 GHz" $w 0 load_miss_real_latency_ns 100
	if [ "$nsock" -gt 1 ]; then
		check "$u: idle socket 1 reads 0 GB/s" jq -s -e \
			'[.[] | select(.socket == 1) | .read_gbps == 0 and .write_gbps == 0] | all and length > 0' \
			/tmp/watch.json
	fi
	check "$u: no interval is invalid" jq -s -e '[.[].valid] | all' /tmp/watch.json

	# exact counts: injections, also across a counter wrap
	set_rates 0 0 0 0 0 0 0
	"$ctl" -j watch --socket 0 --interval 1s > /dev/null 2>&1 &
	W_PID=$!
	sleep 1.5
	check_inject "$u: 6000 injected CAS reads are exactly 384000 bytes" read_bytes cas_rd 6000 384000

	if [ -z "$imc_only" ]; then
		# The kernel's YNL CLI reads snapshots and subscribes to the monitor
		# group from the spec alone (the running watch keeps a session open).
		ynl=(/usr/bin/python3 "$LINUX_SRC/tools/net/ynl/cli.py" --spec "$PWD/Documentation/netlink/specs/memdiag.yaml"
		     --schema "$LINUX_SRC/Documentation/netlink/genetlink-legacy.yaml" --output-json)
		"${ynl[@]}" --dump snapshot > /tmp/ynl-dump.json 2>&1
		check "$u: YNL --dump snapshot lists every socket" jqt \
			"length == $nsock and all(has(\"dram-read-bytes\") and has(\"l1d-pend-miss\"))" /tmp/ynl-dump.json
		"${ynl[@]}" --do session-start --json '{"interval-ms": 100}' > /tmp/ynl-ss.json 2>&1
		check "$u: YNL --do session-start answers id, interval and core mode" jqt \
			'.id > 0 and ."interval-ms" == 100 and ."core-mode" == "msr"' /tmp/ynl-ss.json
		expect_rc "$u: YNL --do session-stop of a session of another socket is refused" 1 \
			"no session with this id" "${ynl[@]}" --do session-stop --json "{\"id\": $(jq .id /tmp/ynl-ss.json)}"
		"${ynl[@]}" --subscribe monitor --sleep 2 > /tmp/ynl-ntf.json 2>&1
		check "$u: YNL --subscribe monitor prints snapshot-ntf messages" jqt \
			'length > 0 and all(.name == "snapshot-ntf" and (.msg | has("time-ns")))' /tmp/ynl-ntf.json
	fi

	# Another agent resets an IMC counter control under us (as the
	# intel_uncore driver does on probe): the interval is reported
	# invalid, then counting resumes.
	sim_busy 10000 4000 200 1000000 500000 3000
	"$ctl" -j watch --all --interval 500ms > /tmp/reset.json 2>/tmp/reset.err &
	R_PID=$!
	# reset after two samples, then six more samples before watch is
	# stopped: counted in samples, not in seconds, as a loaded host can
	# stall this shell past a fixed --count (the reset then fell after
	# watch's last sample: no invalid interval to see)
	wait_for 300 lines_at_least /tmp/reset.json $((2 * nsock))
	ctl0=$(awk '$1 != "msr" && ($3 == "0xd8" || $3 == "0x40") && $4 != "0x0" { print $1, $2, $3; exit }' $dbg/regs)
	poke "$ctl0 0x0"
	wait_for 600 lines_at_least /tmp/reset.json $(($(wc -l < /tmp/reset.json) + 6 * nsock))
	kill -INT "$R_PID"
	wait "$R_PID"
	check "$u: a reset IMC control invalidates one interval ($ctl0)" jq -s -e \
		'[.[] | select(.valid == false)] | length >= 1' /tmp/reset.json
	# the median of socket 0's valid intervals after the invalid one: one
	# sample delayed on a loaded host skews a 500 ms interval, not three
	v=$(jq -s -r '[.[] | select(.socket == 0)] as $s |
		([$s | to_entries[] | select(.value.valid == false) | .key] | first) as $bad |
		[$s[($bad + 1):][] | select(.valid) | .read_gbps] | sort |
		if length == 0 then "none" else .[length / 2 | floor] end' /tmp/reset.json)
	check "$u: counting resumes at 10.0 GB/s after the reset (median $v)" near "$v" 10.0
	check "$u: memdiag took its control back ($ctl0)" test "$(reg $ctl0)" != 0x0
	set_rates 0 0 0 0 0 0 0

	if [ -z "$imc_only" ]; then
		# CPU hotplug: an offlined CPU gets its registers back, and its
		# counts stay in the socket's total
		last_cpu=$((ncpus - 1))
		if [ -w /sys/devices/system/cpu/cpu$last_cpu/online ]; then
			ls=$((nsock - 1))
			c0=$(snap $ls cycles)
			echo 0 > /sys/devices/system/cpu/cpu$last_cpu/online
			ok_regs=$( [ "$(reg msr $last_cpu 0x186)" = 0x3c ] && [ "$(reg msr $last_cpu 0x38f)" = 0x8 ] && echo y)
			check "$u: an offlined CPU gets its registers back" test "$ok_regs" = y
			c1=$(snap $ls cycles)
			check "$u: socket $ls's cycles do not go backwards across hotplug ($c0 -> $c1)" \
				test "$c1" -ge "$c0"
			echo 1 > /sys/devices/system/cpu/cpu$last_cpu/online
			sleep 0.3
			check "$u: an onlined CPU is counted again" test \
				"$(snap $ls nr_cpus)" = "$cps"
		fi
	fi

	# SIGKILL: the session must end and every register come back
	kill -9 "$W_PID"
	wait "$W_PID" 2>/dev/null
	sleep 0.5
	check_restored "$u: a SIGKILLed watch leaves every written register restored"

	if [ -z "$imc_only" ]; then
		# counters preset near their 48-bit wrap count on exactly
		for cpu in $(seq 0 $((ncpus - 1))); do poke "msr $cpu 0xc1 0xffffffffff00"; done
		"$ctl" -j watch --socket 0 --interval 1s > /dev/null 2>&1 &
		W2_PID=$!
		sleep 1.5
		check_inject "$u: 10^6 pending cycles counted exactly across a wrap" \
			l1d_pend_miss l1d_pend 1000000 1000000
		kill "$W2_PID"
		wait "$W2_PID" 2>/dev/null

		# someone else's counter: refused, and nothing changed
		poke "msr 1 0x186 0x43003c"
		sim_controls > /tmp/regs.before
		expect_rc "$u: a counter in use elsewhere refuses the session with EBUSY" 5 \
			"in use" "$ctl" watch --count 1
		sim_controls > /tmp/regs.after
		check "$u: the refusal changed no control register" \
			cmp /tmp/regs.before /tmp/regs.after
		poke "msr 1 0x186 0x3c"

		expect_rc "$u: watch as nobody is refused naming CAP_PERFMON" 3 "CAP_PERFMON" \
			"${nobody[@]}" "$ctl" watch --count 1
	fi

	check "$u: rmmod memdiag" rmmod memdiag
	check_restored "$u: rmmod leaves every written register restored"
	check "$u: rmmod memdiag_sim" rmmod memdiag_sim
done

tap_end
