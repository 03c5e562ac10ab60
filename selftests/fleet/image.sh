#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# image.sh - the image "make image" built (dist/kubernetes/image.env's
# MEMDIAG_IMAGE), run by podman on this host with the exporter container's
# settings of two rendered overlays (pod-args.py maps them to podman
# options): "vm" as it is (uid 65534, no capability, its own network), and
# "node" (uid 0, exactly PERFMON and SYS_ADMIN, the host's network and
# PIDs, /sys/fs/cgroup read-only) running "export --probe", since no module
# loads here. For each: /metrics answers with memdiag_probe_mode 1; PID 1's
# effective, permitted and bounding capabilities and its uid are the
# overlay's; writing to / fails (read-only); after 10 s the same process
# still runs (no restart loop). The image holds no shell or cat, so
# /proc/PID/status and the root are read from the host, through the
# container's PID and /proc/PID/root (the container's own mounts). Root
# only; needs podman, kubectl and the image, which it builds if it is not
# in podman's storage (scripts/image.sh: the Debian mirror). TAP.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/tap.sh"
k8s=$top/dist/kubernetes
image=$(sed -n 's/^MEMDIAG_IMAGE=//p' "$k8s/image.env")

if [ "$(id -u)" != 0 ]; then
	skip "the image under podman" "needs root (podman's storage is root's)"
	tap_end
	exit
fi
for t in podman kubectl python3 curl nsenter; do
	command -v "$t" > /dev/null || { echo "image: $t missing" >&2; exit 1; }
done
# built once: "make check-image" builds it again first
if ! podman image exists "$image"; then
	echo "# no $image: scripts/image.sh builds it"
	"$top/scripts/image.sh" || { not_ok "scripts/image.sh builds $image"; tap_end; exit; }
fi
echo "# $image $(podman image inspect --format '{{.Digest}}, {{.Size}} bytes, made {{.Created}}' "$image")"

work=$(mktemp -d)
ctrs=
cleanup() {
	# shellcheck disable=SC2086 # one word per container
	[ -n "$ctrs" ] && podman rm -f -t 0 $ctrs > /dev/null 2>&1
	rm -rf "$work"
}
trap cleanup EXIT
mkdir "$work/curves"

# This host's quirks, not the pod's: crun refuses cgroup v1 with a
# controller on the v2 hierarchy ("hybrid"), runc takes it; root here lacks
# CAP_SYS_RESOURCE, so podman's default rlimits (the host's own hard
# limits) are refused by the runtime and lower ones are set. The kubelet
# sets no rlimit.
host=(--ulimit nofile=1024:1024 --ulimit nproc=4096:4096)
v2=$(cat /sys/fs/cgroup/unified/cgroup.controllers 2>/dev/null)
if [ -n "$v2" ]; then
	host+=(--runtime runc)
	echo "# cgroup v1 with $v2 on the v2 hierarchy: runc, not crun"
fi

# capability names of the bits that may be set here, the rest by number
capnames() {
	local mask=$((16#$1)) bit names=
	for ((bit = 0; bit < 64; bit++)); do
		((mask >> bit & 1)) || continue
		case $bit in
		21) names="$names CAP_SYS_ADMIN" ;;
		38) names="$names CAP_PERFMON" ;;
		*) names="$names cap$bit" ;;
		esac
	done
	echo "${names# }"
}

# metrics PID PORT HOSTNET: /metrics from the container's network
metrics() {
	if [ "$3" = 1 ]; then
		curl -sf --max-time 5 "http://127.0.0.1:$2/metrics"
	else
		nsenter -t "$1" -n curl -sf --max-time 5 "http://127.0.0.1:$2/metrics"
	fi
}

# one OVERLAY PORT WANT_UID WANT_CAPS [--probe]
one() {
	local o=$1 port=$2 uid=$3 caps=$4 extra=${5:-} name=memdiag-image-test-$1-$$
	local pid pid2 hostnet=0 m i st field got bad
	kubectl kustomize "$k8s/overlays/$o" > "$work/$o.yaml" || {
		not_ok "$o: overlay renders"; return; }
	if ! python3 "$top/selftests/fleet/pod-args.py" "$work/$o.yaml" "$port" \
			"$work/curves" ${extra:+"$extra"} > "$work/$o.args" 2> "$work/$o.note"; then
		not_ok "$o: the pod spec maps to podman options" "$(cat "$work/$o.note")"
		return
	fi
	sed "s/^/# $o: /" "$work/$o.note"
	grep -qx host "$work/$o.args" && hostnet=1
	echo "# $o: podman run $(tr '\n' ' ' < "$work/$o.args")"
	mapfile -t args < "$work/$o.args"
	# a run the runtime refuses leaves its container made: removed too
	ctrs="$ctrs $name"
	if ! podman run -d --name "$name" "${host[@]}" "${args[@]}" \
			> "$work/$o.run" 2>&1; then
		not_ok "$o: podman run starts the container" "$(cat "$work/$o.run")"
		return
	fi
	ok "$o: podman run starts the container"
	pid=$(podman inspect --format '{{.State.Pid}}' "$name")

	# the probe's first interval takes a few seconds on two vCPUs
	for ((i = 0; i < 60; i++)); do
		m=$(metrics "$pid" "$port" "$hostnet") && grep -q '^memdiag_probe_mode ' <<< "$m" && break
		sleep 0.5
	done
	echo "# $o: $(grep -c '^memdiag_' <<< "$m") series, $(grep '^memdiag_' <<< "$m" |
		cut -d'{' -f1 | cut -d' ' -f1 | sort -u | tr '\n' ' ')"
	grep -qx 'memdiag_probe_mode 1' <<< "$m"
	ok "$o: /metrics answers with memdiag_probe_mode 1" $? \
		"$(grep -m3 '^memdiag_' <<< "$m")" "$(podman logs "$name" 2>&1 | tail -5)"

	st=$(cat "/proc/$pid/status")
	bad=
	for field in CapEff CapPrm CapBnd; do
		got=$(capnames "$(sed -n "s/^$field:\t*//p" <<< "$st")")
		echo "# $o: $field: ${got:-none}"
		[ "$got" = "$caps" ] || bad="$bad$field: ${got:-none}, want ${caps:-none}
"
	done
	[ -z "$bad" ]
	ok "$o: PID 1's capabilities are exactly ${caps:-none}" $? "$bad"
	got=$(sed -n 's/^Uid:\t*//p' <<< "$st" | tr -s '\t ' ' ')
	[ "$got" = "$uid $uid $uid $uid" ]
	ok "$o: PID 1 runs as uid $uid" $? "Uid: $got"

	# through the container's root: its mounts, its read-only flag
	got=$(: 2>&1 > "/proc/$pid/root/memdiag-image-test")
	if [ -e "/proc/$pid/root/memdiag-image-test" ]; then
		rm -f "/proc/$pid/root/memdiag-image-test"
		not_ok "$o: writing to / fails: read-only root" "the file was made"
	else
		grep -q 'Read-only file system' <<< "$got"
		ok "$o: writing to / fails: read-only root" $? "$got"
	fi

	sleep 10
	pid2=$(podman inspect --format '{{.State.Pid}} {{.State.Status}} {{.RestartCount}}' "$name")
	m=$(metrics "$pid" "$port" "$hostnet")
	[ "$pid2" = "$pid running 0" ] && grep -qx 'memdiag_probe_mode 1' <<< "$m"
	ok "$o: 10 s later the same process runs and serves" $? \
		"pid, state, restarts: $pid2 (first pid $pid)" "$(podman logs "$name" 2>&1 | tail -5)"
}

one vm 19473 65534 ""
one node 19474 0 "CAP_SYS_ADMIN CAP_PERFMON" --probe
tap_end
