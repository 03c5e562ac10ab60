# shellcheck shell=bash disable=SC2034 # sourced: the variables are for its callers
# SPDX-License-Identifier: GPL-2.0
# common.sh - what install.sh and service.sh share in the Debian guest:
# the TAP helpers, the versions the host put in /test, and the listing of
# every file a package or its maintainer scripts could leave behind.
# shellcheck source=selftests/memdiag/lib.sh
. /test/lib.sh
kver=$(uname -r)
ver=$(cat /test/version)
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

# The administrator's side of the simulated platform (the tests need
# numbers; the package ships no memdiag_sim.ko): the module the host
# built for this kernel, loaded before memdiag, which is told to use it.
admin_files="/etc/modules-load.d/memdiag.conf /etc/modprobe.d/memdiag-sim.conf
/usr/lib/modules/$kver/extra /usr/lib/modules/$kver/extra/memdiag_sim.ko"

unit=memdiag-exporter.service
scrape() { curl -sf --max-time 5 http://127.0.0.1:9473/metrics; }
main_pid() { systemctl show -p MainPID --value "$unit"; }
