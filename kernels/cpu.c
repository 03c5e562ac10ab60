// SPDX-License-Identifier: GPL-2.0
/*
 * cpu.c - which SIMD instructions the CPU runs, asked at run time: the
 * binary is built for any x86-64, and a kernel that needs AVX or AVX-512
 * checks before it uses them.
 */

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "kernel.h"

const char *const kern_cpu_feature_name[KERN_CPU_NR_FEATURES] = {
	"sse2", "avx", "avx512f", "hypervisor"
};

bool kern_cpu_has(enum kern_cpu_feature f)
{
#if defined(__x86_64__)
	/* GCC's checks include XGETBV: the OS must save the wide registers */
	__builtin_cpu_init();
	switch (f) {
	case KERN_CPU_SSE2:
		return __builtin_cpu_supports("sse2");
	case KERN_CPU_AVX:
		return __builtin_cpu_supports("avx");
	case KERN_CPU_AVX512F:
		return __builtin_cpu_supports("avx512f");
	case KERN_CPU_HYPERVISOR: {
		unsigned int a, b, c, d;

		return __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 31));
	}
	default:
		return false;
	}
#else
	(void)f;
	return false;
#endif
}
