#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# service.sh - last boot of the Debian guest, on the newer kernel (the
# kernel upgrade of kernel.sh): memdiag, as DKMS built it for this kernel,
# was loaded at boot by systemd-modules-load (the administrator's
# modules-load.d file), the exporter was started at boot by systemd and
# runs under its unit's hardening (each setting seen on the running
# process, not only in the unit), Prometheus's rate() of its DRAM read
# counter is what the simulated platform was told, a SIGKILL is restarted
# by systemd, restart works, the journal has the exporter's messages, and
# "apt purge" leaves nothing of the packages behind, for either kernel.
# TAP.
set -u
# shellcheck source=selftests/debian/guest/common.sh
. /test/common.sh

check "booted the newer kernel, $knew" test "$kver" = "$knew"
# by its identifier: it runs before journald, so its lines come in
# through the kernel log, without the unit's name
check "systemd-modules-load inserted memdiag at boot" sh -c \
	"journalctl -b -t systemd-modules-load | grep -q \"Inserted module 'memdiag'\""
check "the memdiag loaded is DKMS's build for $knew ($(modinfo -n memdiag))" sh -c \
	"modinfo -n memdiag | grep -q '^/lib/modules/$knew/updates/dkms/memdiag.ko' &&
	 [ \"\$(cat /sys/module/memdiag/srcversion)\" = \"\$(modinfo -F srcversion memdiag)\" ]"
check "memdiag is on the simulated platform (modprobe.d)" \
	grep -qx sim /sys/module/memdiag/parameters/platform
check "systemd started the exporter at boot (enabled)" sh -c \
	"[ \"\$(systemctl is-enabled $unit)\" = enabled ] && systemctl is-active -q $unit"
check "it serves memdiag_up 1" wait_for 300 sh -c \
	"curl -sf --max-time 5 http://127.0.0.1:9473/metrics | grep -qx 'memdiag_up 1'"

# The hardening, on the running process. CAP_SYS_ADMIN is 21 and
# CAP_PERFMON 38: the two bits of 0x4000200000.
pid=$(main_pid)
st=/proc/$pid/status
systemctl show -p DynamicUser -p ProtectSystem -p ProtectHome -p PrivateTmp \
	-p PrivateDevices -p NoNewPrivileges -p CapabilityBoundingSet \
	-p AmbientCapabilities "$unit" | sed 's/^/# /'
check "DynamicUser: it runs as a uid of systemd's dynamic range ($(awk '/^Uid:/ { print $2 }' "$st"))" \
	awk '/^Uid:/ { exit !($2 >= 61184 && $2 <= 65519 && $2 == $3 && $2 == $4) }' "$st"
check "capabilities: effective, permitted and bounding are CAP_PERFMON and CAP_SYS_ADMIN only" \
	awk '/^Cap(Eff|Prm|Bnd|Amb):/ { n++; if ($2 != "0000004000200000") bad = 1 }
	     END { exit bad || n != 4 }' "$st"
check "NoNewPrivileges and a seccomp filter (SystemCallFilter)" sh -c \
	"grep -qx 'NoNewPrivs:	1' $st && grep -qx 'Seccomp:	2' $st"
# its mount namespace, entered as root: read-only binds hold even for root
check "ProtectSystem=strict: /usr and /etc are read-only in its namespace" sh -c \
	"! nsenter -t $pid -m -- touch /usr/memdiag-w 2>/dev/null &&
	 ! nsenter -t $pid -m -- touch /etc/memdiag-w 2>/dev/null && touch /etc/memdiag-w && rm /etc/memdiag-w"
check "ProtectHome: /root is empty to it" sh -c \
	"test -e /root/memdiag-guest-step && ! nsenter -t $pid -m -- test -e /root/memdiag-guest-step"
check "PrivateDevices: no /dev/vda in its /dev" sh -c \
	"test -b /dev/vda && ! nsenter -t $pid -m -- test -e /dev/vda"
touch /tmp/memdiag-outside
check "PrivateTmp: its /tmp is its own" sh -c \
	"! nsenter -t $pid -m -- test -e /tmp/memdiag-outside"
rm -f /tmp/memdiag-outside

# the rate: socket 0 reads 10 GB/s (the guest has one socket, so the sim
# has one); Prometheus (Debian's, as a plain process with its data in
# /tmp) scrapes every 2 s; rate() over 60 s averaged over 15 windows 2 s
# apart (the snapshot a scrape gets is up to a second old, and TCG delays
# it further; see selftests/fleet/prometheus-sim.sh)
echo 10000 > $dbg/socket0/read_bw_mbps
prom=$(mktemp -d)
cat > "$prom/prometheus.yml" <<EOC
global: { scrape_interval: 2s, scrape_timeout: 2s }
scrape_configs:
  - job_name: memdiag
    static_configs: [ { targets: [ "127.0.0.1:9473" ] } ]
EOC
prometheus --config.file="$prom/prometheus.yml" --storage.tsdb.path="$prom/tsdb" \
	--web.listen-address=127.0.0.1:9090 > "$prom/log" 2>&1 &
ppid_=$!
promql() {
	curl -sf --max-time 5 http://127.0.0.1:9090/api/v1/query \
		--data-urlencode "query=$1" | jq -r '.data.result[0].value[1] // "none"'
}
# by the clock: under TCG each curl takes long enough that a count of
# tries says little about the time waited
prom_ready() {
	local by=$(($(date +%s) + 600))
	until curl -sf --max-time 5 -o /dev/null http://127.0.0.1:9090/-/ready; do
		[ "$(date +%s)" -lt "$by" ] || return 1
		sleep 1
	done
}
if prom_ready; then
	sleep 96
	r=$(promql 'avg_over_time(rate(memdiag_dram_read_bytes_total{socket="0"}[60s])[30s:2s])')
	check "Prometheus: rate() of socket 0's DRAM reads is the sim's 10 GB/s within 2 % ($r B/s)" \
		within 2 "$r" 10000000000
else
	not_ok "Prometheus is ready" "$(tail -n 20 "$prom/log")"
fi
kill "$ppid_"; wait "$ppid_" 2>/dev/null
rm -rf "$prom"

# a crash: systemd restarts it (Restart=on-failure, RestartSec=5s)
old=$(main_pid)
kill -KILL "$old"
restarted() {
	local p
	p=$(main_pid)
	[ "$p" != 0 ] && [ "$p" != "$old" ] && systemctl is-active -q "$unit"
}
if wait_for 300 restarted &&
   [ "$(systemctl show -p NRestarts --value "$unit")" = 1 ]; then
	ok "SIGKILL: systemd restarts it (pid $old -> $(main_pid), NRestarts 1)"
else
	not_ok "SIGKILL: systemd restarts it" "$(systemctl status --no-pager "$unit" 2>&1)"
fi
check "and it serves again" wait_for 300 sh -c \
	"curl -sf --max-time 5 http://127.0.0.1:9473/metrics | grep -qx 'memdiag_up 1'"
old=$(main_pid)
check "systemctl restart gives a new process that serves" sh -c \
	"systemctl restart $unit && [ \"\$(systemctl show -p MainPID --value $unit)\" != $old ]"
check "it serves after the restart" wait_for 300 sh -c \
	"curl -sf --max-time 5 http://127.0.0.1:9473/metrics | grep -qx 'memdiag_up 1'"
# the exporter's own note once per process this boot started (at boot,
# after the kill, at the restart): each one's stderr reaches the journal
j=$(journalctl -b -u "$unit" --no-pager)
notes=$(printf '%s\n' "$j" | grep -c "memdiagctl\[[0-9]*\]: memdiagctl: export: note: serving http://127.0.0.1:9473/metrics")
check "journalctl -u: the exporter's note from each of its 3 starts ($notes), the kill, the scheduled restart" sh -c '
	[ "$2" = 3 ] &&
	printf "%s\n" "$1" | grep -q "Main process exited, code=killed, status=9/KILL" &&
	printf "%s\n" "$1" | grep -q "Scheduled restart job"' - "$j" "$notes"

# purge: the packages take everything of theirs; what is left over from
# before the install is exactly the administrator's own files
# shellcheck disable=SC2086 # one word per package
if apt-get purge -y $pkgs > "$out/apt-purge.log" 2>&1; then
	ok "apt purge $pkgs"
else
	not_ok "apt purge $pkgs" "$(tail -n 30 "$out/apt-purge.log")"
fi
check "the exporter is stopped and its unit gone" sh -c \
	"! pgrep -x memdiagctl && ! systemctl cat $unit >/dev/null 2>&1"
check "dkms knows no memdiag" sh -c "[ -z \"\$(dkms status -m memdiag)\" ]"
for m in /usr/lib/modules/*/; do
	k=$(basename "$m")
	check "no memdiag.ko for $k (modinfo, updates/dkms)" sh -c \
		"! modinfo -k $k memdiag >/dev/null 2>&1 &&
		 [ -z \"\$(find $m -name 'memdiag.ko*')\" ]"
done
# (the administrator's drop-in stays, as any file dpkg does not own)
check "no unit file, no enablement link" sh -c \
	"[ -z \"\$(find /etc/systemd /lib/systemd /usr/lib/systemd -name 'memdiag*' \
		! -name 'memdiag-guest-test*' ! -path '$dropin_dir' ! -path '$dropin')\" ]"
check "the users and groups are those of before the install" \
	cmp -s "$out/accounts.before" <(accounts)
check "no state directory (/var/lib/memdiag*, /var/lib/private/memdiag*)" sh -c \
	"! ls -d /var/lib/memdiag* /var/lib/private/memdiag* 2>/dev/null"
listing > "$out/after"
left=$(comm -13 "$out/before" "$out/after")
# shellcheck disable=SC2086 # one path per word
want=$(printf '%s\n' $admin_files | sort)
if [ "$left" = "$want" ]; then
	ok "nothing of the packages is left: only the administrator's files are new"
else
	not_ok "nothing of the packages is left: only the administrator's files are new" \
		"new since before the install:" "$left"
fi
gone=$(comm -23 "$out/before" "$out/after")
no_problems "nothing that was there before is gone" "$gone"
tap_end
