#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# deps.sh - install the Debian packages memdiag's build, tests (the stock
# and PREEMPT_RT kernels of 6.1 and 6.12 the VM tests boot; what "make
# check-debug" needs to build a kernel; lcov for "make coverage";
# mmdebstrap, qemu-utils, ovmf, mtools and dosfstools for "make
# check-debian"'s guest image and its UEFI boots; buildah, skopeo, podman
# and runc for "make image" and its test, runc for hosts with cgroup v1
# where crun refuses to run) and
# benchmark (likwid, for "make bench") need, if any is missing. Needs root
# (or sudo) only when something is missing.
set -eu

pkgs="make gcc libc6-dev pkg-config libmnl-dev libjson-c-dev jq iproute2 kmod util-linux
xz-utils cpio python3 python3-yaml python3-jsonschema
linux-headers-amd64 linux-headers-6.12-amd64
linux-image-amd64 linux-image-6.12-amd64
linux-headers-rt-amd64 linux-headers-6.12-rt-amd64
linux-image-rt-amd64 linux-image-6.12-rt-amd64
flex bison bc libelf-dev libssl-dev
linux-source-6.12 qemu-system-x86 busybox-static likwid gnuplot-nox
libmicrohttpd-dev bash-completion curl openssl systemd prometheus
prometheus-node-exporter dkms dh-dkms debhelper dpkg-dev fakeroot lintian lcov
pyflakes3 mmdebstrap qemu-utils ovmf mtools dosfstools
buildah skopeo podman runc"

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null; then
	echo "deps: missing packages:$missing (memdiag's scripts expect Debian 12 or Ubuntu)" >&2
	exit 1
fi
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
echo "deps: installing$missing"
$sudo apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
	--no-install-recommends $missing >/dev/null
