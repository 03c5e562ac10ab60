# shellcheck shell=bash disable=SC2034 # sourced: the variables are for its callers
# SPDX-License-Identifier: GPL-2.0
# common.sh - what the Debian guest's steps share: the TAP helpers, the
# versions and the two kernels the host put in /test (the one the
# packages are installed on, the one the system is upgraded to), the
# listing of every file a package or its maintainer scripts could leave
# behind, and DKMS's signing key.
# shellcheck source=selftests/memdiag/lib.sh
. /test/lib.sh
kver=$(uname -r)
ver=$(cat /test/version)
# the version the system is upgraded from (built from an older commit)
pver=$(cat /test/prev-version)
kold=$(sed -n 1p /test/kernels)
knew=$(sed -n 2p /test/kernels)
out=/test/out
pkgs="memdiag-dkms memdiagctl"
# apt unattended, as configuration management runs it (no tty for debconf)
export DEBIAN_FRONTEND=noninteractive

# The system's files, less the package manager's own records and what the
# system changes by itself while it runs (random seed, timer stamps). The
# key DKMS makes to sign modules (/var/lib/dkms/mok.*) is DKMS's, shared by
# every DKMS package, and stays.
listing() {
	find /etc /var/lib /usr/lib/modules /usr/src /usr/sbin /usr/bin \
		/usr/lib/systemd /usr/share/man /usr/share/doc \
		/usr/share/bash-completion -xdev 2>/dev/null |
		grep -Ev '^/var/lib/(apt|dpkg)(/|$)|^/etc/ld\.so\.cache$' |
		grep -Ev '^/var/lib/systemd/(random-seed|timers|timesync|catalog|pstore|coredump)(/|$)' |
		grep -Ev '^/var/lib/dkms/mok\.(key|pub)$' | sort
}

# The system's users and groups (a package may add them: this one's unit
# has systemd make a transient user instead)
accounts() { getent passwd; getent group; }

# The exporter's configuration: a drop-in as "systemctl edit" writes it,
# with a setting the metrics show (a fixed saturation threshold)
dropin_dir=/etc/systemd/system/memdiag-exporter.service.d
dropin=$dropin_dir/override.conf
threshold=300

# The administrator's side of the simulated platform (the tests need
# numbers; the package ships no memdiag_sim.ko): the module the host
# built for each kernel, loaded before memdiag, which is told to use it.
admin_files="/etc/modules-load.d/memdiag.conf /etc/modprobe.d/memdiag-sim.conf
$dropin_dir $dropin
/usr/lib/modules/$kold/extra /usr/lib/modules/$kold/extra/memdiag_sim.ko
/usr/lib/modules/$knew/extra /usr/lib/modules/$knew/extra/memdiag_sim.ko"

# DKMS's own signing certificate (Debian 12's dkms makes it with the key
# on its first build: /usr/sbin/dkms, prepare_signing)
mok_cert=/var/lib/dkms/mok.pub
# signed_by_dkms KVER: memdiag.ko of KVER carries a signature made with
# DKMS's key: modinfo's signer is the certificate's CN and its key id
# the certificate's serial number
signed_by_dkms() {
	local cn serial signer key
	cn=$(openssl x509 -inform DER -in "$mok_cert" -noout -subject -nameopt multiline |
		sed -n 's/^ *commonName *= //p')
	serial=$(openssl x509 -inform DER -in "$mok_cert" -noout -serial | sed 's/^serial=//')
	signer=$(modinfo -k "$1" -F signer memdiag)
	key=$(modinfo -k "$1" -F sig_key memdiag | tr -d ':')
	echo "signer '$signer' key $key; $mok_cert: CN '$cn' serial $serial"
	# the same number: leading zero bytes aside
	key=${key#"${key%%[!0]*}"}
	serial=${serial#"${serial%%[!0]*}"}
	[ -n "$cn" ] && [ "$signer" = "$cn" ] && [ -n "$key" ] && [ "$key" = "$serial" ]
}

# dkms status as TAP comments. Its stderr is left out: dkms 3.0.10's
# check that /proc is mounted ("[ ! -e <(echo) ]") now and then prints
# "echo: write error: Broken pipe"; the checks judge dkms, not this.
dkms_listing() { dkms status -m memdiag 2>/dev/null | sed 's/^/# /'; }

unit=memdiag-exporter.service
scrape() { curl -sf --max-time 5 http://127.0.0.1:9473/metrics; }
# serves_as VERSION: the exporter serves, is memdiagctl VERSION, and runs
# with the drop-in's threshold
serves_as() {
	local m
	m=$(scrape) &&
	printf '%s\n' "$m" | grep -qx 'memdiag_up 1' &&
	printf '%s\n' "$m" | grep -q "^memdiag_info{.*exporter_version=\"$1\"" &&
	printf '%s\n' "$m" | grep -qx "memdiag_saturation_threshold_cycles $threshold"
}
main_pid() { systemctl show -p MainPID --value "$unit"; }

# apt_install_pair SRC VERSION LOG WHAT: as an administrator does, copy the
# .debs the host put in SRC to a folder of root's and "apt install" that
# version's memdiag-dkms and memdiagctl from it, offline; one TAP line
# ending in WHAT (and the seconds it took). When they do not install,
# nothing after can be checked: the log's tail, the plan's end, exit 2.
apt_install_pair() {
	local src=$1 v=$2 log=$3 what=$4 dir t0
	local debs="./memdiag-dkms_${v}_all.deb ./memdiagctl_${v}_amd64.deb"
	dir=/root/${src##*/}
	rm -rf "$dir" && mkdir "$dir" && cp "$src"/*.deb "$dir"/ && cd "$dir" || exit 2
	t0=$(date +%s)
	# shellcheck disable=SC2086 # $debs is the two file names
	if apt-get install -y --no-install-recommends -o Acquire::Languages=none \
			$debs > "$log" 2>&1; then
		ok "apt installs $debs $what ($(( $(date +%s) - t0 )) s)"
		return
	fi
	not_ok "apt installs $debs $what" "$(tail -n 30 "$log")"
	tap_end
	exit 2
}
