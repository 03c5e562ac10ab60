#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guest.sh - memdiag's selftests inside a test VM: load the module, talk to
# it over netlink with the kselftest program, memdiagctl, the kernel's YNL
# CLI and iproute2's genl, unload it, and print TAP.
#
# Environment: MEMDIAG_KO (the module built for the running kernel),
# LINUX_SRC (unpacked linux-source-6.12), and the MEMDIAG_EXPECT_* values
# described in genl_info.c.
set -u
cd "$(dirname "$0")/../.."
. selftests/memdiag/lib.sh

ko=${MEMDIAG_KO:?MEMDIAG_KO must name memdiag.ko}
# nostick: what "prefetch disable" writes, and the prefetchers status lists
pf_mask=${MEMDIAG_EXPECT_PF_MASK:-0xf}
pf_names=${MEMDIAG_EXPECT_PF_NAMES:-l2-stream.*l1-ip}
spec=$PWD/Documentation/netlink/specs/memdiag.yaml
ynl=(/usr/bin/python3 "$LINUX_SRC/tools/net/ynl/cli.py" --spec "$spec"
     --schema "$LINUX_SRC/Documentation/netlink/genetlink-legacy.yaml")

echo "# guest: $(uname -r), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"

# the guests file cannot hold a space: "_" stands for one (genl_info reads it too)
[ -z "${MEMDIAG_EXPECT_UARCH:-}" ] || export MEMDIAG_EXPECT_UARCH=${MEMDIAG_EXPECT_UARCH//_/ }

# Refusals at load time leave nothing behind.
expect_rc "insmod platform=bogus is refused" 1 "" insmod "$ko" platform=bogus
check "a refused load leaves no module" sh -c '! grep -q "^memdiag " /proc/modules'
check "the refusal says what platform accepts" sh -c \
	'dmesg | grep -q "platform=bogus is not valid: use platform=auto"'

if ! insmod "$ko"; then
	not_ok "insmod memdiag.ko"
	tap_end
	exit 1
fi
ok "insmod memdiag.ko"

# The kselftest program's TAP, nested as a subtest.
subtest "genl_info (kselftest harness)" selftests/memdiag/genl_info

# iproute2 lists the family, its operation and its multicast group.
genl ctrl list 2>&1 | awk '/^Name: / { on = ($2 == "memdiag") } on' > /tmp/genl.out
check "genl ctrl lists the memdiag family" grep -q "Name: memdiag" /tmp/genl.out
check "genl ctrl lists get-info (op 0x1)" grep -q "ID-0x1 " /tmp/genl.out
check "genl ctrl lists the monitor group" grep -q "name: monitor" /tmp/genl.out

# memdiagctl, text and JSON.
if "$ctl" -j info > /tmp/info.json 2>/tmp/info.err; then
	ok "memdiagctl -j info succeeds"
else
	not_ok "memdiagctl -j info succeeds" "$(cat /tmp/info.err)"
fi
jqcheck() { # NAME FILTER: the filter must yield true
	check "$1" jqt "$2" /tmp/info.json
}
[ -n "${MEMDIAG_EXPECT_UARCH:-}" ] &&
	jqcheck "memdiagctl reports uarch $MEMDIAG_EXPECT_UARCH" \
		".uarch == \"$MEMDIAG_EXPECT_UARCH\""
[ -n "${MEMDIAG_EXPECT_VENDOR:-}" ] &&
	jqcheck "memdiagctl reports vendor $MEMDIAG_EXPECT_VENDOR" \
		".vendor == \"$MEMDIAG_EXPECT_VENDOR\""
[ -n "${MEMDIAG_EXPECT_SOCKETS:-}" ] &&
	jqcheck "memdiagctl reports $MEMDIAG_EXPECT_SOCKETS sockets" \
		".nr_sockets == $MEMDIAG_EXPECT_SOCKETS and (.sockets | length) == $MEMDIAG_EXPECT_SOCKETS"
[ -n "${MEMDIAG_EXPECT_CPUS_PER_SOCKET:-}" ] &&
	jqcheck "memdiagctl reports $MEMDIAG_EXPECT_CPUS_PER_SOCKET CPUs per socket" \
		"[.sockets[].cpus | length] | all(. == $MEMDIAG_EXPECT_CPUS_PER_SOCKET)"
jqcheck "memdiagctl reports platform hw" '.platform == "hw"'
jqcheck "memdiagctl reports the five capabilities by name" \
	'[.capabilities[].id] | sort == ["core-latency","imc-bandwidth","l3-dram-latency","offcore","prefetch-control"]'
jqcheck "every unavailable capability has a reason" \
	'[.capabilities[] | select(.available == false) | (.reason | length) > 0] | all'
[ -n "${MEMDIAG_EXPECT_NO_CAPS:-}" ] &&
	jqcheck "no counter capability is available in this guest" \
		'[.capabilities[] | select(.id != "prefetch-control") | .available] | all(. == false)'
# a processor without the events gives its own reason, PMU or not: the
# reason names what is missing (MEMDIAG_EXPECT_NO_LATENCY, a regex)
echo "# core-latency: $(jq -r '.capabilities[] | select(.id == "core-latency") | .reason // "available"' /tmp/info.json 2>/dev/null)"
[ -n "${MEMDIAG_EXPECT_NO_LATENCY:-}" ] &&
	jqcheck "core-latency unavailable, its reason naming $MEMDIAG_EXPECT_NO_LATENCY" \
		".capabilities[] | select(.id == \"core-latency\") | .available == false and (.reason | test(\"$MEMDIAG_EXPECT_NO_LATENCY\"))"
if [ "${MEMDIAG_EXPECT_UARCH:-}" = unsupported ]; then
	jqcheck "an unsupported uarch comes with its reason" \
		'(.uarch_reason | length) > 0'
fi
"$ctl" info > /tmp/info.txt 2>&1
check "memdiagctl info prints the uarch line" \
	grep -Eq "^uarch +${MEMDIAG_EXPECT_UARCH:-.}" /tmp/info.txt
expect_rc "memdiagctl info as nobody: exit 3 naming CAP_PERFMON" 3 \
	"CAP_PERFMON" "${nobody[@]}" "$ctl" info

# Prefetchers: TCG reads MSR 0x1A4 as 0 and drops writes, so a change must
# fail as "did not stick" and leave nothing changed; AMD family 0x17 has
# no documented control.
case ${MEMDIAG_EXPECT_PREFETCH:-} in
nostick)
	jqcheck "prefetch-control is available (the MSR reads)" \
		'.capabilities[] | select(.id == "prefetch-control") | .available'
	expect_rc "prefetch status: exit 0, every prefetcher on" 0 \
		"$pf_names" "$ctl" prefetch status
	expect_rc "prefetch disable: exit 5, did not stick, nothing changed" 5 \
		"did not stick: wrote $pf_mask, read back 0x0.*nothing was changed" \
		"$ctl" prefetch disable
	"$ctl" -j prefetch status > /tmp/pf.json 2>&1
	check "prefetch status after the failure: no CPU changed, no original held" \
		jqt 'all(.cpu_states[]; .changed == false and .original == null and .value == 0)' /tmp/pf.json
	# a write that never stuck shows nothing: still untested
	"$ctl" -j info > /tmp/info.json
	jqcheck "prefetch-control after a dropped write: verified false" \
		'.capabilities[] | select(.id == "prefetch-control") | .available and .verified == false'
	expect_rc "info (text): prefetch-control untested, not yes" 0 \
		"prefetch-control  untested   the MSR reads, but no write" "$ctl" info
	check "the failed change logged no change" sh -c "! dmesg | grep -q 'prefetch: disabled by'"
	expect_rc "prefetch disable as nobody: exit 3" 3 "permission denied" \
		"${nobody[@]}" "$ctl" prefetch disable
	;;
absent)
	# a model no source confirms the 0x1A4 layout of (Documentation/prefetch.rst)
	jqcheck "prefetch-control unavailable: no documented control for this model" \
		".capabilities[] | select(.id == \"prefetch-control\") | .available == false and (.reason | test(\"no documented prefetcher control for $MEMDIAG_EXPECT_VENDOR family 0x6 model 0x\"))"
	expect_rc "prefetch status: exit 7, with the reason" 7 \
		"no documented prefetcher control" "$ctl" prefetch status
	;;
unsupported)
	jqcheck "prefetch-control unavailable with the reason" \
		'.capabilities[] | select(.id == "prefetch-control") | .available == false and (.reason | test("no documented prefetcher control for AuthenticAMD family 0x17"))'
	expect_rc "prefetch status: exit 7, not supported, with the reason" 7 \
		"cannot be switched on this machine: memdiag knows no documented prefetcher control for AuthenticAMD family 0x17" \
		"$ctl" prefetch status
	expect_rc "prefetch disable: exit 7" 7 "cannot be switched" "$ctl" prefetch disable
	;;
esac

# Without any counter (a VM hides the IMC and the PMU) watch says why and
# gives up without starting a session.
if [ -n "${MEMDIAG_EXPECT_NO_CAPS:-}" ]; then
	# the IMC's reason: no device found or not supported on Intel; on AMD
	# the CPUID leaf that lists no UMC counters (guests: MEMDIAG_EXPECT_IMC_REASON)
	expect_rc "memdiagctl watch with no counter available: exit 7 with the reasons" 7 \
		"imc-bandwidth.*${MEMDIAG_EXPECT_IMC_REASON:-(found|supported)}" \
		"$ctl" watch --count 1
	expect_rc "memdiagctl snapshot with no counter available: exit 7" 7 \
		"" "$ctl" snapshot
	# run does not need the counters: it runs and says why there are none
	"$ctl" -j run read-delay --size 4M --reps 1 --min-time 0 > /tmp/run.json 2> /tmp/run.err
	rc=$?
	# stderr: at most run's warnings (4M may fit in the guest's L3)
	check "memdiagctl run with no counter available: exit 0, nothing but warnings on stderr" \
		sh -c "[ $rc = 0 ] && [ -s /tmp/run.json ] && ! grep -qv '^memdiagctl: run: warning: ' /tmp/run.err || { cat /tmp/run.err; false; }"
	check "memdiagctl run with no counter available: counters null, the module's reasons" \
		sh -c "[ -s /tmp/run.json ] && jq -e '.results[0].counters == null and
			(.results[0].counters_reason | test(\"^no counter can be read on this machine.*imc-bandwidth: .*core-latency: \"))' /tmp/run.json"
	"${nobody[@]}" "$ctl" run stream --size 1M --reps 1 --min-time 0 > /tmp/run.txt 2>&1
	rc=$?
	check "memdiagctl run as nobody: exit 0, the text says permission denied" \
		sh -c "[ $rc = 0 ] && grep -q '^counters: unavailable: permission denied: ' /tmp/run.txt || { cat /tmp/run.txt; false; }"
fi

# core=perf counts through perf, which has no core PMU here: the session
# is refused with perf's reason; a bad core= value refuses the load. (Not
# where the processor lacks the events: its own reason comes before perf's.)
if [ -n "${MEMDIAG_EXPECT_NO_CAPS:-}" ] && [ "${MEMDIAG_EXPECT_UARCH:-}" != unsupported ] &&
   [ -z "${MEMDIAG_EXPECT_NO_LATENCY:-}" ]; then
	rmmod memdiag
	expect_rc "insmod core=bogus is refused" 1 "" insmod "$ko" core=bogus
	check "the refusal says what core accepts" sh -c \
		'dmesg | grep -q "core=bogus is not valid: use core=auto, core=msr or core=perf"'
	if insmod "$ko" core=perf; then
		ok "insmod memdiag.ko core=perf"
		"$ctl" -j info > /tmp/perf.json
		check "core=perf is reported as the core mode" jqt '.core_mode == "perf"' /tmp/perf.json
		expect_rc "core=perf without a core PMU: watch exits 7 with perf's refusal" 7 \
			"perf could not count" "$ctl" watch --count 1
		"$ctl" run read-delay --size 4M --reps 1 --min-time 0 > /tmp/run.txt 2>&1
		rc=$?
		check "core=perf without a core PMU: run exits 0, the text gives perf's refusal" \
			sh -c "[ $rc = 0 ] && grep -q '^counters: unavailable: .*perf could not count' /tmp/run.txt || { cat /tmp/run.txt; false; }"
		rmmod memdiag
	else
		not_ok "insmod memdiag.ko core=perf"
	fi
	insmod "$ko"
fi

# The kernel's own YNL CLI drives the family from the spec alone.
"${ynl[@]}" --do get-info --json '{}' --output-json > /tmp/ynl.json 2>/tmp/ynl.err
check "YNL cli.py get-info succeeds" sh -c "[ -s /tmp/ynl.json ] || { cat /tmp/ynl.err; false; }"
check "YNL and memdiagctl agree on uarch, vendor, model and sockets" \
	jqt --slurpfile c /tmp/info.json \
	'.uarch == $c[0].uarch and .vendor == $c[0].vendor and .model == $c[0].model and ."nr-sockets" == $c[0].nr_sockets and ."proto-version" == 1' \
	/tmp/ynl.json
expect_rc "YNL get-info with another proto-version is refused" 1 \
	"proto-version" "${ynl[@]}" --do get-info --json '{"proto-version": 2}'

check "rmmod memdiag" rmmod memdiag
expect_rc "memdiagctl info without the module: exit 2, says to load it" 2 \
	"insmod" "$ctl" info
expect_rc "memdiagctl run without the module: exit 0, says it is not loaded" 0 \
	"^counters: unavailable: the memdiag module is not loaded" "$ctl" run read-delay --size 4M --reps 1 --min-time 0

# platform=sim needs the simulated platform module loaded first.
if ! grep -q '^memdiag_sim ' /proc/modules; then
	expect_rc "insmod platform=sim without memdiag_sim.ko is refused" 1 "" \
		insmod "$ko" platform=sim
	check "the refusal says to load memdiag_sim.ko" sh -c \
		'dmesg | grep -q "platform=sim needs memdiag_sim.ko"'
fi

tap_end
