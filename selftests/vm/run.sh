#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh - boot a Debian kernel under QEMU/TCG with the host's / shared
# read-only over 9p, run one command in it and check the guest's dmesg.
set -eu -o pipefail

usage() {
	cat <<'EOF'
usage: run.sh [options] -- COMMAND [ARGS...]
  --kernel KVER       guest kernel /boot/vmlinuz-KVER with /lib/modules/KVER
                      (default 6.12.117+deb12-amd64, else the newest in /boot),
                      or a kernel build tree DIR: its arch/x86/boot/bzImage,
                      with virtio and 9p built in (scripts/debug-kernel.sh)
  --cpu MODEL         QEMU -cpu value, passed unchanged (default Skylake-Server-v1)
  --smp SPEC          QEMU -smp value (default 4,sockets=2,cores=2)
  --mem MB            guest memory (default 1024)
  --numa N            N NUMA nodes, each with an equal share of the CPUs
                      (in order) and of the memory (-numa node,memdev=...)
  --timeout SEC       kill the guest after SEC seconds, exit 124 (default 300)
  --env NAME=VAL      add to the command's environment (repeatable); it
                      otherwise holds only PATH and HOME=/tmp
  --cwd DIR           directory to run COMMAND in (default: the repository)
  --keep-dmesg FILE   save the guest's dmesg to FILE
  --allow-dmesg ERE   exempt dmesg lines matching ERE from the check (repeatable)
  --append ARGS       extra kernel command line arguments
  --gcov DIR          copy the gcov counters (.gcda) the guest's debugfs holds
                      when COMMAND has ended into DIR, under their build paths
                      (a kernel with CONFIG_GCOV_KERNEL: make coverage)
  --verbose           show the kernel console and all QEMU warnings
Environment: MEMDIAG_CACHE (cache dir), MEMDIAG_VM_QEMU (QEMU binary),
MEMDIAG_VM_TCG_OPTS (-accel tcg,... options; default thread=single),
MEMDIAG_VM_BOOTS (boots allowed when the kernel crashes in its own start-up,
before init runs the command; default 2, both within --timeout).
Exit status: COMMAND's; 124 on timeout; 1 if the guest never reported an exit
status (crash, panic) or COMMAND succeeded but the dmesg check failed or
--gcov's counters did not arrive.
EOF
	exit "${1:-2}"
}

here=$(cd "$(dirname "$0")" && pwd -P)
repo=$(cd "$here/../.." && pwd -P)
cache=${MEMDIAG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/memdiag}/vm
qemu=${MEMDIAG_VM_QEMU:-qemu-system-x86_64}

kver=
cpu=Skylake-Server-v1
smp=4,sockets=2,cores=2
mem=1024
numa=
timeout=300
cwd=$repo
keep_dmesg=
append=
verbose=
gcov_out=
envs=()
allow=()

need() { [ "$2" -ge 2 ] || { echo "run.sh: $1 needs an argument" >&2; usage; }; }
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) need "$1" $#; kver=$2; shift 2 ;;
	--cpu) need "$1" $#; cpu=$2; shift 2 ;;
	--smp) need "$1" $#; smp=$2; shift 2 ;;
	--mem) need "$1" $#; mem=$2; shift 2 ;;
	--numa) need "$1" $#; numa=$2; shift 2 ;;
	--timeout) need "$1" $#; timeout=$2; shift 2 ;;
	--env) need "$1" $#; envs+=("$2"); shift 2 ;;
	--cwd) need "$1" $#; cwd=$2; shift 2 ;;
	--keep-dmesg) need "$1" $#; keep_dmesg=$2; shift 2 ;;
	--allow-dmesg) need "$1" $#; allow+=("$2"); shift 2 ;;
	--append) need "$1" $#; append="$append $2"; shift 2 ;;
	--gcov) need "$1" $#; gcov_out=$2; shift 2 ;;
	--verbose) verbose=1; shift ;;
	-h|--help) usage 0 ;;
	--) shift; break ;;
	*) echo "run.sh: unknown option $1" >&2; usage ;;
	esac
done
[ $# -gt 0 ] || { echo "run.sh: no command given" >&2; usage; }

die() { echo "run.sh: $*" >&2; exit 1; }

if [ -z "$kver" ]; then
	kver=6.12.117+deb12-amd64
	if [ ! -e "/boot/vmlinuz-$kver" ]; then
		kver=$(printf '%s\n' /boot/vmlinuz-* | sed 's|^/boot/vmlinuz-||' |
			sort -V | tail -n1)
	fi
fi
if [ -d "$kver" ]; then
	kernel=$kver/arch/x86/boot/bzImage
else
	kernel=/boot/vmlinuz-$kver
fi
[ -r "$kernel" ] || die "no readable kernel $kernel"
[[ $timeout =~ ^[0-9]+$ ]] || die "--timeout wants whole seconds"
[[ $mem =~ ^[0-9]+$ ]] || die "--mem wants megabytes"
# --numa N: QEMU 7.2's syntax, a RAM backend per node; each node's CPUs
# and megabytes must come out whole
numa_args=()
if [ -n "$numa" ]; then
	ncpu=${smp%%,*}
	[[ $numa =~ ^[1-9][0-9]*$ && $ncpu =~ ^[0-9]+$ ]] ||
		die "--numa wants a node count and --smp a CPU count first"
	[ $((ncpu % numa)) = 0 ] && [ $((mem % numa)) = 0 ] ||
		die "--numa $numa: the $ncpu CPUs and $mem MB must split evenly"
	for ((i = 0; i < numa; i++)); do
		lo=$((i * ncpu / numa))
		numa_args+=(-object "memory-backend-ram,id=m$i,size=$((mem / numa))M"
			-numa "node,nodeid=$i,cpus=$lo-$((lo + ncpu / numa - 1)),memdev=m$i")
	done
fi
cwd=$(cd "$cwd" && pwd -P) || die "--cwd: no such directory"
for e in "${envs[@]}"; do
	[[ $e =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] || die "--env wants NAME=VALUE, got '$e'"
done
command -v "$qemu" >/dev/null || die "$qemu not found (apt-get install qemu-system-x86)"

if [ -d "$kver" ]; then
	# a build tree has its drivers built in: an initramfs without modules
	img=$(MEMDIAG_VM_MODULES= "$here/mkinitramfs.sh" builtin)
else
	img=$("$here/mkinitramfs.sh" "$kver")
fi || die "cannot build the initramfs"

# The run files live in the cache, not in /tmp: the guest sees the host's /
# but covers /tmp with its own tmpfs.
mkdir -p "$cache"
run=$(mktemp -d "$cache/run.XXXXXX")
# The path travels on the kernel command line and in QEMU's comma-separated
# options, neither of which can quote.
case "$run" in
*[[:space:],]*) rmdir "$run"; die "the cache path '$cache' must not contain blanks or commas" ;;
esac
qpid=
# shellcheck disable=SC2317 # only ever called from the trap
cleanup() {
	if [ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null; then
		kill "$qpid" 2>/dev/null || true
		wait "$qpid" 2>/dev/null || true
	fi
	rm -rf "$run"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A per-run nonce keeps the markers unique, so output that happens to quote
# a marker (or this script) cannot end the run early.
nonce=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
sq() { printf "'%s'" "${1//\'/\'\\\'\'}"; }
{
	echo "nonce=$nonce"
	echo "cwd=$(sq "$cwd")"
} > "$run/params"
{
	printf 'cd -- %q || exit 1\n' "$cwd"
	printf 'exec env -i -- PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp'
	for e in "${envs[@]}"; do printf ' %q' "$e"; done
	for a in "$@"; do printf ' %q' "$a"; done
	printf '\n'
} > "$run/cmd.sh"

# no_timer_check: on a loaded host TCG can be too slow for the kernel's
# check that the IO-APIC timer ticks, which then panics the boot ("IO-APIC +
# timer doesn't work!", seen with 2 cores shared by several guests)
cmdline="console=ttyS0 panic=-1 no_timer_check memdiag_vm.run=$run"
[ -n "$verbose" ] || cmdline="$cmdline quiet loglevel=3"
[ -z "$gcov_out" ] || cmdline="$cmdline memdiag_vm.gcov=1"
cmdline="$cmdline$append"

# Multi-threaded TCG now and then runs stale code on one vCPU while another
# live-patches kernel text (static keys; seen as "Oops: int3" or a RIP in the
# middle of a patched jump, ~1 boot in 15 on a busy host).  Single-threaded
# TCG boots as fast, since a boot is mostly serial anyway.
tcg_opts=${MEMDIAG_VM_TCG_OPTS:-thread=single}

# ttyS0 (kernel console, init's own messages) goes to a file and is shown
# only when something went wrong; ttyS1 carries the command's output.
# shellcheck disable=SC2054 # the commas belong to QEMU's option syntax
qargs=(
	-accel "tcg,$tcg_opts" -machine q35 -cpu "$cpu" -smp "$smp" -m "$mem"
	"${numa_args[@]}"
	-nographic -nodefaults -no-reboot
	-kernel "$kernel" -initrd "$img" -append "$cmdline"
	# multidevs=remap: the host's / spans several filesystems (proc,
	# sysfs, and maybe more), whose inode numbers would collide in 9p.
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap
	-serial "file:$run/console.log"
	-serial file:/dev/stdout
)
[ -z "$verbose" ] || echo "run.sh: $qemu ${qargs[*]}" >&2

exit_mark="MEMDIAG-VM-$nonce-EXIT "
begin_mark="MEMDIAG-VM-$nonce-DMESG-BEGIN"
end_mark="MEMDIAG-VM-$nonce-DMESG-END"
gcov_begin="MEMDIAG-VM-$nonce-GCOV-BEGIN"
gcov_end="MEMDIAG-VM-$nonce-GCOV-END"
handle() {
	case "$state" in
	output)
		if [[ $1 == *"$exit_mark"* ]]; then
			# The command's last line may lack its newline.
			[ -z "${1%%"$exit_mark"*}" ] || printf '%s\n' "${1%%"$exit_mark"*}"
			rc=${1##*"$exit_mark"}
			state=exited
		else
			printf '%s\n' "$1"
		fi
		;;
	exited) [ "$1" != "$begin_mark" ] || state=dmesg ;;
	dmesg)
		if [ "$1" = "$end_mark" ]; then
			state=complete
		else
			printf '%s\n' "$1" >> "$run/dmesg"
		fi
		;;
	complete) [ "$1" != "$gcov_begin" ] || state=gcov ;;
	gcov)
		if [ "$1" = "$gcov_end" ]; then
			state=gcov_complete
		else
			printf '%s\n' "$1" >> "$run/gcov.b64"
		fi
		;;
	esac
}

# One boot: starts QEMU, passes the command's output on and collects the
# exit status, dmesg and gcov counters until the guest ends or the deadline
# (shared by all boots) passes. Sets state, rc, timed_out and qrc.
boot() {
	state=output
	rc=
	timed_out=
	: > "$run/dmesg"
	: > "$run/gcov.b64"
	exec {qfd}< <(exec "$qemu" "${qargs[@]}" </dev/null 2>"$run/qemu.err")
	qpid=$!
	while :; do
		left=$((deadline - SECONDS))
		if [ "$left" -le 0 ]; then
			timed_out=1
			break
		fi
		line=
		if IFS= read -r -t "$left" -u "$qfd" line; then
			handle "$line"
		else
			st=$?
			[ -z "$line" ] || handle "$line"
			[ "$st" -le 128 ] || timed_out=1
			break
		fi
	done
	exec {qfd}<&-
	[ -z "$timed_out" ] || kill "$qpid" 2>/dev/null || true
	qrc=0
	wait "$qpid" || qrc=$?
	qpid=
}

# a crash on the console (console_tail also starts at a WARNING's report)
crash_re='BUG:|Oops|Kernel panic'

# init says "started" on the console first thing; a kernel that crashed
# before that had run none of the test's code, nor memdiag's
crashed_before_init() {
	[ -z "$rc" ] && [ -z "$timed_out" ] &&
		! grep -q "memdiag-vm: init: started" "$run/console.log" &&
		grep -q -E "$crash_re" "$run/console.log"
}

# Shows the first oops/panic report if there is one (its head names the
# cause), else the last lines.
console_tail() {
	local first
	[ -z "$verbose" ] || return 0
	echo "run.sh: ---- guest console (--verbose shows all) ----" >&2
	first=$(grep -n -m1 -E "cut here|$crash_re|WARNING:" \
		"$run/console.log" | cut -d: -f1) || true
	if [ -n "$first" ]; then
		tail -n "+$first" "$run/console.log" | head -n 120
	else
		tail -n 40 "$run/console.log"
	fi | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g' | awk 1 >&2
}

# A boot that crashes in the kernel's own start-up, before init, is
# booted once more: under TCG the stock kernel has now and then oopsed
# there (a NULL down_write in PID 1 before exec, no module loaded, seen
# once in CI). The crash is shown either way, and a second one fails.
deadline=$((SECONDS + timeout))
boots=${MEMDIAG_VM_BOOTS:-2}
[[ $boots =~ ^[1-9][0-9]*$ ]] || die "MEMDIAG_VM_BOOTS wants a whole number of boots, 1 or more"
for ((n = 1; ; n++)); do
	boot
	if [ "$n" -ge "$boots" ] || ! crashed_before_init; then
		break
	fi
	echo "run.sh: the guest kernel crashed while booting, before init ran" \
		"(no test or memdiag code had run); booting it again" >&2
	console_tail
	[ -z "$verbose" ] || cat "$run/console.log" >&2
done

# TCG drops CPU features it does not emulate and says so once per feature;
# that is expected for the server models and only clutters test logs.
if [ -n "$verbose" ]; then
	cat "$run/qemu.err" >&2
	echo "run.sh: ---- guest console ----" >&2
	cat "$run/console.log" >&2
else
	grep -v -e "TCG doesn't support requested feature" \
		-e "terminating on signal" "$run/qemu.err" >&2 || true
fi

if [ -n "$timed_out" ]; then
	echo "run.sh: FAIL: timeout: the guest did not finish within ${timeout}s (killed)" >&2
	console_tail
	exit 124
fi
if [ -z "$rc" ]; then
	echo "run.sh: FAIL: guest crashed: it reported no exit status (qemu exited with $qrc)" >&2
	console_tail
	exit 1
fi
[ -z "$keep_dmesg" ] || cp "$run/dmesg" "$keep_dmesg"

fail=
if [ -n "$gcov_out" ]; then
	if [ "$state" != gcov_complete ]; then
		echo "run.sh: FAIL: --gcov: the guest's gcov counters arrived incomplete" >&2
		fail=1
	else
		state=complete	# the whole dmesg came before the counters
		# an earlier boot's counters there are not this boot's
		rm -rf "$gcov_out"
		if ! mkdir -p "$gcov_out" ||
			! base64 -d "$run/gcov.b64" | tar -C "$gcov_out" -xzf -; then
			echo "run.sh: FAIL: --gcov: cannot unpack the counters into $gcov_out" >&2
			fail=1
		fi
	fi
fi
if [ "$state" != complete ]; then
	echo "run.sh: FAIL: dmesg check: the guest's dmesg arrived incomplete" >&2
	fail=1
fi
if ! "$here/dmesg-check.sh" "$run/dmesg" "$cmdline" "${allow[@]}" > "$run/bad"; then
	echo "run.sh: FAIL: dmesg check: $(wc -l < "$run/bad") line(s) show a kernel problem" >&2
	sed 's/^/dmesg: /' "$run/bad" >&2
	fail=1
fi

if [ "$rc" != 0 ]; then
	echo "run.sh: FAIL: command exited with status $rc" >&2
	exit "$rc"
fi
[ -z "$fail" ] || exit 1
exit 0
