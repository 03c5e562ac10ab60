# SPDX-License-Identifier: GPL-2.0
# memdiag-kmod.Dockerfile - the image KMM builds for one kernel
# (KERNEL_FULL_VERSION, which KMM passes as a build argument): memdiag.ko
# built by DKMS in a builder stage, then alone in a small image under
# /opt/lib/modules/KVER, where KMM's modprobe looks. KMM signs it
# afterwards (module.yaml, sign:).
#
# The source is the DKMS tree /usr/src/memdiag-VERSION that the
# memdiag-dkms package installs; MEMDIAG_SOURCE_IMAGE names an image that
# carries it (the exporter's image, once "make image" exists, is meant
# to). The builder must be able to install linux-headers-KVER for the
# nodes' kernel: Debian's kernels here; another distribution's nodes need
# its own builder image and header package name.

ARG MEMDIAG_SOURCE_IMAGE=localhost/memdiag:0.1
FROM ${MEMDIAG_SOURCE_IMAGE} AS source

FROM debian:bookworm AS builder
ARG KERNEL_FULL_VERSION
ARG MEMDIAG_VERSION=0.1
RUN apt-get update && \
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        dkms make gcc "linux-headers-${KERNEL_FULL_VERSION}" && \
    rm -rf /var/lib/apt/lists/*
COPY --from=source /usr/src/memdiag-${MEMDIAG_VERSION} /usr/src/memdiag-${MEMDIAG_VERSION}
RUN dkms add "memdiag/${MEMDIAG_VERSION}" && \
    dkms build "memdiag/${MEMDIAG_VERSION}" -k "${KERNEL_FULL_VERSION}" && \
    mkdir -p /out && \
    find "/var/lib/dkms/memdiag/${MEMDIAG_VERSION}/${KERNEL_FULL_VERSION}" \
        -name memdiag.ko -exec cp {} /out/ \; && \
    test -f /out/memdiag.ko

FROM debian:bookworm-slim
ARG KERNEL_FULL_VERSION
RUN apt-get update && \
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends kmod && \
    rm -rf /var/lib/apt/lists/*
COPY --from=builder /out/memdiag.ko /opt/lib/modules/${KERNEL_FULL_VERSION}/memdiag.ko
RUN depmod -b /opt "${KERNEL_FULL_VERSION}"
