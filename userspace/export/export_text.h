/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export_text.h - writing the Prometheus text format (version 0.0.4): the
 * pieces export.c and export_estimate.c both write samples with.
 */

#ifndef MEMDIAGCTL_EXPORT_TEXT_H
#define MEMDIAGCTL_EXPORT_TEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* One metric family: HELP and TYPE before its first sample only. */
struct prom_family {
	const char *name, *type, *help;
	bool started;
};

#define PROM_FAMILY(n, t, h) { .name = (n), .type = (t), .help = (h) }

/* The family's name, after its HELP and TYPE when this is its first. */
void prom_sample_start(FILE *f, struct prom_family *fam);

/* A label value, escaped as the text format wants (\\, \", \n). */
void prom_label(FILE *f, bool first, const char *name, const char *v);

/* {socket="N" */
void prom_sock_label(FILE *f, uint32_t socket);

/* The end of the labels and the value: "} V\n". */
void prom_value(FILE *f, double v);
/* a counter's exact value */
void prom_value_u64(FILE *f, uint64_t v);

#endif /* MEMDIAGCTL_EXPORT_TEXT_H */
