/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prefetch.h - the hardware prefetcher controls of a processor family.
 *
 * Plain data, like uarch.h, so that prefetch_table.c also builds in
 * userspace, where a test checks the numbers against the kernel sources.
 */
#ifndef _MEMDIAG_PREFETCH_H
#define _MEMDIAG_PREFETCH_H

#define MEMDIAG_PF_MAX		8	/* prefetchers one register controls */

/* One prefetcher: setting @bit of the register disables it. */
struct memdiag_pf_bit {
	u8 bit;
	const char *name;	/* what memdiagctl and the netlink API call it */
	const char *what;	/* the vendor's description */
};

/* A model the description applies to, with the kernel's name for it. */
struct memdiag_pf_model {
	u8 model;
	const char *kname;	/* intel-family.h, without INTEL_ */
};

struct memdiag_pf_desc {
	const char *name;		/* what get-info and the log say */
	const char *vendor;		/* CPUID vendor string */
	u8 family;
	/* 0-terminated list; NULL: every model of the family */
	const struct memdiag_pf_model *models;
	u32 msr;
	const struct memdiag_pf_bit *bits;
	u8 n_bits;
	const char *source;		/* where the bits are documented */
};

extern const struct memdiag_pf_desc memdiag_pf_table[];
extern const unsigned int memdiag_pf_table_len;

/* The socket argument of a scope that is not one socket. */
#define MEMDIAG_PF_ALL_SOCKETS	(-1)	/* every socket */
#define MEMDIAG_PF_CPU_LIST	(-2)	/* the CPUs listed, no socket */

#endif /* _MEMDIAG_PREFETCH_H */
