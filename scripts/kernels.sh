#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kernels.sh - list the Debian kernels the tests use: every version with
# both an image in /boot and headers in /usr/src, newest last.
set -eu
for img in /boot/vmlinuz-*; do
	[ -e "$img" ] || continue
	k=${img#/boot/vmlinuz-}
	[ -d "/usr/src/linux-headers-$k" ] && echo "$k"
done | sort -V
