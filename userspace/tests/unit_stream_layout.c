// SPDX-License-Identifier: GPL-2.0
/*
 * unit_stream_layout.c - where stream's three arrays lie (kernels/
 * stream.c, stream_array_span()): one array to the next is a whole
 * number of pages, so that the arrays start at the same offset in their
 * pages (a load then matches in its low 12 bits only its own
 * iteration's store or one a page back: no 4K aliasing with a store in
 * flight), and never a power of two (the streams would share cache sets
 * and DRAM banks in lockstep), for sizes a page, a power of two or
 * neither.
 */

#include "../../kernels/kernel.h"
#include "units.h"

/* the unit: "unit.bin -f stream_layout" runs its tests alone */
FIXTURE(stream_layout) {};
FIXTURE_SETUP(stream_layout) {}
FIXTURE_TEARDOWN(stream_layout) {}

TEST_F(stream_layout, same_page_offset_never_a_power_of_two)
{
	/* doubles per array: a few, a page, 64 MiB, the L2 row of the bench */
	static const size_t n[] = { 1, 512, 513, 8u << 20, 27264, 1000000 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(n); i++) {
		size_t span = stream_array_span(n[i]);

		EXPECT_EQ(span % 4096, 0) TH_LOG("n %zu: span %zu", n[i], span);
		EXPECT_NE(span & (span - 1), 0) TH_LOG("n %zu: span %zu", n[i], span);
		EXPECT_GE(span, n[i] * sizeof(double));
	}
}
