/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim.h - the few kernel types module/uarch*.h use, so the tables can be
 * compiled into host test programs unchanged.
 */
#ifndef _MEMDIAG_KSHIM_H
#define _MEMDIAG_KSHIM_H
#include <stdbool.h>
#include <linux/types.h>
typedef __s8 s8;
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BIT(n) (1UL << (n))
#define BIT_ULL(n) (1ULL << (n))
#define GENMASK_ULL(h, l) ((~0ULL >> (63 - (h))) & (~0ULL << (l)))

static inline u64 div64_u64(u64 a, u64 b)
{
	return a / b;
}

static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
	return (unsigned __int128)a * b / c;
}
#endif
