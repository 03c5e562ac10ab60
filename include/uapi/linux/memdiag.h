/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/memdiag.yaml */
/* YNL-GEN uapi header */

#ifndef _UAPI_LINUX_MEMDIAG_H
#define _UAPI_LINUX_MEMDIAG_H

#define MEMDIAG_FAMILY_NAME	"memdiag"
#define MEMDIAG_FAMILY_VERSION	1

/**
 * enum memdiag_platform - Where the module's registers come from.
 * @MEMDIAG_PLATFORM_HW: The real processor (MSRs, PCI config space, MMIO).
 * @MEMDIAG_PLATFORM_SIM: The simulated platform of memdiag_sim.ko (for tests).
 */
enum memdiag_platform {
	MEMDIAG_PLATFORM_HW,
	MEMDIAG_PLATFORM_SIM,

	/* private: */
	__MEMDIAG_PLATFORM_MAX,
	MEMDIAG_PLATFORM_MAX = (__MEMDIAG_PLATFORM_MAX - 1)
};

/**
 * enum memdiag_capability - Things memdiag can measure or control, each
 *   reported separately.
 * @MEMDIAG_CAPABILITY_IMC_BANDWIDTH: DRAM read/write bytes from the memory
 *   controllers' CAS counters.
 * @MEMDIAG_CAPABILITY_CORE_LATENCY: L1D_PEND_MISS.PENDING, L1-miss and
 *   fill-buffer-hit loads and cycles from the core PMU (the load latency
 *   metrics).
 * @MEMDIAG_CAPABILITY_OFFCORE: OFFCORE_RESPONSE counts of reads served by
 *   local DRAM.
 * @MEMDIAG_CAPABILITY_PREFETCH_CONTROL: Switching the hardware prefetchers on
 *   and off.
 */
enum memdiag_capability {
	MEMDIAG_CAPABILITY_IMC_BANDWIDTH,
	MEMDIAG_CAPABILITY_CORE_LATENCY,
	MEMDIAG_CAPABILITY_OFFCORE,
	MEMDIAG_CAPABILITY_PREFETCH_CONTROL,

	/* private: */
	__MEMDIAG_CAPABILITY_MAX,
	MEMDIAG_CAPABILITY_MAX = (__MEMDIAG_CAPABILITY_MAX - 1)
};

enum {
	MEMDIAG_A_INFO_PROTO_VERSION = 1,
	MEMDIAG_A_INFO_VENDOR,
	MEMDIAG_A_INFO_FAMILY,
	MEMDIAG_A_INFO_MODEL,
	MEMDIAG_A_INFO_STEPPING,
	MEMDIAG_A_INFO_MODEL_NAME,
	MEMDIAG_A_INFO_UARCH,
	MEMDIAG_A_INFO_UARCH_REASON,
	MEMDIAG_A_INFO_PLATFORM,
	MEMDIAG_A_INFO_NR_SOCKETS,
	MEMDIAG_A_INFO_SOCKET,
	MEMDIAG_A_INFO_CAPABILITY,

	__MEMDIAG_A_INFO_MAX,
	MEMDIAG_A_INFO_MAX = (__MEMDIAG_A_INFO_MAX - 1)
};

enum {
	MEMDIAG_A_SOCKET_ID = 1,
	MEMDIAG_A_SOCKET_PACKAGE_ID,
	MEMDIAG_A_SOCKET_CPU,

	__MEMDIAG_A_SOCKET_MAX,
	MEMDIAG_A_SOCKET_MAX = (__MEMDIAG_A_SOCKET_MAX - 1)
};

enum {
	MEMDIAG_A_CAPABILITY_ID = 1,
	MEMDIAG_A_CAPABILITY_AVAILABLE,
	MEMDIAG_A_CAPABILITY_REASON,

	__MEMDIAG_A_CAPABILITY_MAX,
	MEMDIAG_A_CAPABILITY_MAX = (__MEMDIAG_A_CAPABILITY_MAX - 1)
};

enum {
	MEMDIAG_CMD_GET_INFO = 1,

	__MEMDIAG_CMD_MAX,
	MEMDIAG_CMD_MAX = (__MEMDIAG_CMD_MAX - 1)
};

#define MEMDIAG_MCGRP_MONITOR	"monitor"

#endif /* _UAPI_LINUX_MEMDIAG_H */
