#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# image.sh - "make image": the exporter's OCI image, built from the
# project's own memdiagctl package. dpkg-buildpackage -B builds the
# arch-dependent packages of the working tree (memdiagctl and the marker
# library; memdiag-dkms is the node's, not the image's); mmdebstrap makes a
# Debian 12 root filesystem holding only memdiagctl and the libraries it
# links, with no shell, dpkg or apt; buildah makes the image of that tree, entrypoint
# "memdiagctl export", tagged dist/kubernetes/image.env's MEMDIAG_IMAGE in
# the host's container storage, and skopeo writes it as
# build/image/memdiag.oci.tar (oci-archive). Prints the image's size and
# digest, also written to build/image/manifest.
#
# Reproducible: every timestamp is SOURCE_DATE_EPOCH, by default
# debian/changelog's date (mmdebstrap and dpkg use it for the tree,
# buildah --timestamp for the layer and the configuration), so two builds
# from the same tree and the same Debian packages give the same digest.
# Needs root (container storage, and the tree's owners), the Debian mirror
# (MEMDIAG_DEBIAN_MIRROR, MEMDIAG_DEBIAN_SECURITY), and mmdebstrap,
# buildah, skopeo, dpkg-dev (scripts/deps.sh installs them).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/image
mirror=${MEMDIAG_DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${MEMDIAG_DEBIAN_SECURITY:-http://deb.debian.org/debian-security}
suite=bookworm
sources="deb $mirror $suite main
deb $mirror $suite-updates main
deb $security $suite-security main"

[ "$(id -u)" = 0 ] || { echo "image: needs root (container storage)" >&2; exit 1; }
for t in dpkg-buildpackage mmdebstrap buildah skopeo; do
	command -v "$t" > /dev/null ||
		{ echo "image: no $t: run scripts/deps.sh" >&2; exit 1; }
done
image=$(sed -n 's/^MEMDIAG_IMAGE=//p' "$top/dist/kubernetes/image.env")
ver=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
uver=${ver%-*}
: "${SOURCE_DATE_EPOCH:=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Timestamp)}"
export SOURCE_DATE_EPOCH

rm -rf "$out"
mkdir -p "$out/src"
log=$out/build.log
: > "$log"

# the source: the files git tracks or would, as selftests/fleet/deb.sh
# builds it (the working tree, not the selftests' binaries)
echo "image: dpkg-buildpackage -B (log $log)" >&2
# shellcheck disable=SC2016 # the inner sh's $f
(cd "$top" && git ls-files -z --cached --others --exclude-standard |
	xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' _ |
	tar --null -T - -cf -) | tar -C "$out/src" -xf -
if ! (cd "$out/src" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" \
		dpkg-buildpackage -us -uc -B) >> "$log" 2>&1; then
	tail -n 30 "$log" >&2
	echo "image: dpkg-buildpackage failed" >&2
	exit 1
fi
deb=$out/memdiagctl_${ver}_amd64.deb
[ -f "$deb" ] || { echo "image: no $deb" >&2; exit 1; }
rm -rf "$out/src"

# The tree: memdiagctl and the libraries it links, extracted (variant
# extract): no maintainer script runs, so no shell, dpkg or apt is needed
# in it, and shared libraries need none (ld.so searches the multiarch
# directories without a cache). /var/lib/dpkg/status lists what is there,
# "unpacked", for image scanners. Documentation, man pages, locales,
# glibc's iconv modules (memdiagctl converts no character set), the bash
# completion and the systemd unit are not used in a container: only the
# copyright files stay (and apt's directories, removed from the tarball
# below, since mmdebstrap cleans them after the hooks). apt reads the .deb at the same path inside the
# tree as outside.
echo "image: mmdebstrap $suite (log $log)" >&2
stage=$(mktemp -d /tmp/memdiag-image.XXXXXX)
trap 'rm -rf "$stage"' EXIT
cp "$deb" "$stage/"
sdeb=$stage/${deb##*/}
# shellcheck disable=SC2016 # $1 is the hook's, not this shell's
if ! mmdebstrap --mode=root --variant=extract --format=tar --include="$sdeb" \
		--setup-hook="mkdir -p \"\$1$stage\" && cp '$sdeb' \"\$1$stage/\"" \
		--extract-hook='for d in "$1"/var/cache/apt/archives/*.deb "$1"/tmp/memdiag-image.*/*.deb; do
			dpkg-deb -f "$d"; echo "Status: install ok unpacked"; echo
		done > "$1/var/lib/dpkg/status"' \
		--extract-hook='cd "$1" && find usr/share/doc -type f ! -name copyright -delete &&
			rm -rf usr/share/man usr/share/info usr/share/locale usr/share/lintian \
				usr/share/bash-completion lib/systemd usr/lib/x86_64-linux-gnu/gconv &&
			mkdir -p proc sys dev tmp run' \
		"$suite" "$out/rootfs.tar" "$sources" >> "$log" 2>&1; then
	tail -n 30 "$log" >&2
	echo "image: mmdebstrap failed" >&2
	exit 1
fi

# what mmdebstrap leaves for apt and dpkg to run, and the device nodes
# (the runtime mounts a /dev of its own)
tar --delete -f "$out/rootfs.tar" --wildcards './dev/?*' ./etc/apt \
	./var/cache/apt ./var/lib/apt ./var/log/apt

# The image. Kubernetes' command replaces the entrypoint and its args the
# command, so the DaemonSet's "memdiagctl" "export ..." and a bare
# "podman run IMAGE --probe" both run the exporter.
echo "image: buildah $image" >&2
ctr=$(buildah from --name "memdiag-image-$$" scratch)
trap 'buildah rm "$ctr" > /dev/null 2>&1 || :; rm -rf "$stage"' EXIT
buildah add --quiet "$ctr" "$out/rootfs.tar" / >> "$log"
buildah config --os linux --arch amd64 \
	--env PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	--entrypoint '["/usr/sbin/memdiagctl", "export"]' --cmd '' \
	--port 9473/tcp \
	--label org.opencontainers.image.title=memdiag \
	--label org.opencontainers.image.version="$ver" \
	--label org.opencontainers.image.licenses=GPL-2.0-only \
	--created-by "scripts/image.sh" "$ctr"
buildah rmi "$image" > /dev/null 2>&1 || :
buildah commit --quiet --format oci --timestamp "$SOURCE_DATE_EPOCH" \
	"$ctr" "$image" >> "$log"
skopeo copy --quiet "containers-storage:$image" \
	"oci-archive:$out/memdiag.oci.tar:$image"

digest=$(skopeo inspect --format '{{.Digest}}' "oci-archive:$out/memdiag.oci.tar")
layer=$(skopeo inspect --raw "oci-archive:$out/memdiag.oci.tar" |
	python3 -c 'import json, sys; print(sum(l["size"] for l in json.load(sys.stdin)["layers"]))')
tree=$(stat -c %s "$out/rootfs.tar")
printf 'image: %s\nversion: %s\nsource_date_epoch: %s\ndigest: %s\nlayer_gzip_bytes: %s\nrootfs_tar_bytes: %s\n' \
	"$image" "$uver" "$SOURCE_DATE_EPOCH" "$digest" "$layer" "$tree" > "$out/manifest"
rm -f "$out/rootfs.tar"
awk -v i="$image" -v d="$digest" -v t="$tree" -v l="$layer" \
	'BEGIN { printf "image: %s %s: %.1f MB, %.1f MB compressed\n", i, d, t / 1e6, l / 1e6 }' >&2
