// SPDX-License-Identifier: GPL-2.0
/*
 * reconcile.c - one socket's interval as groups that add up to its own
 * count: the top k groups by bytes, "other" for every byte resctrl saw
 * outside them, and "unattributed" for what the memory controllers
 * counted beyond every group (IO and DMA, kernel threads, error). Each
 * part is printed, none is scaled.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "attr.h"

static int by_bytes(const void *pa, const void *pb)
{
	const struct recon_row *a = pa, *b = pb;

	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? 1 : -1;
	return strcmp(a->g->key, b->g->key);	/* a stable order for ties */
}

int reconcile(const struct attr *a, size_t sock, bool have_socket,
	      uint64_t socket_bytes, size_t k, struct recon *r)
{
	struct recon_row *all;
	size_t i, n = 0;

	*r = (struct recon){
		.socket = sock, .socket_id = a->rc.socket_id[sock],
		.have_socket = have_socket, .socket_bytes = socket_bytes,
		.groups_total = a->total_delta[sock],
	};
	all = calloc(a->nr ? a->nr : 1, sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (i = 0; i < a->nr; i++) {
		if (!a->g[i].delta[sock])
			continue;
		all[n].g = &a->g[i];
		all[n++].bytes = a->g[i].delta[sock];
	}
	qsort(all, n, sizeof(*all), by_bytes);
	r->nr_active = n;
	r->nr_rows = n < k ? n : k;
	for (i = 0; i < r->nr_rows; i++)
		r->shown += all[i].bytes;
	r->rows = all;
	r->other = (int64_t)(r->groups_total - r->shown);
	if (have_socket)
		r->unattributed = (int64_t)(socket_bytes - r->groups_total);
	return 0;
}

void recon_free(struct recon *r)
{
	free(r->rows);
	r->rows = NULL;
}
