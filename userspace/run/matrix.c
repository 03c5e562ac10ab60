// SPDX-License-Identifier: GPL-2.0
/*
 * matrix.c - "memdiagctl run latency --matrix": MLC's --latency_matrix, an
 * idle pointer-chase latency from one CPU of every NUMA node to memory
 * bound to every node with memory, one thread at a time. Text: the table
 * of cells, then the node x node matrix; -j and --csv: one result per
 * cell, with cpu_node and memory_node.
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../kernels/cache.h"
#include "run/latency.h"
#include "run/place.h"
#include "run/progress.h"
#include "run/run.h"
#include "run/warn.h"

#define MATRIX_MAX_NODES 64
/*
 * A DRAM working set as bench's: four times the last-level cache sysfs
 * gives (no constant), so that the chase misses it.
 */
#define MATRIX_LLC_TIMES 4

struct matrix {
	unsigned int cnode[MATRIX_MAX_NODES], mnode[MATRIX_MAX_NODES];
	int cpu[MATRIX_MAX_NODES];	/* the CPU measured for cnode[i] */
	size_t nc, nm, done;		/* cells done, row-major */
	uint64_t size;
	struct latency_result *r;	/* nc * nm */
	int *cpu_node, *mem_node;	/* where each cell's thread and memory were */
	size_t *slot;
};

/* The nodes with CPUs this process may use, one CPU each; the nodes with memory. */
static int matrix_nodes(const char *cmd, struct matrix *m)
{
	cpu_set_t nodes, mem, cpus, allowed;
	char err[300];
	unsigned int n;

	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0 ||
	    run_nodes("online", &nodes) < 0 || !CPU_COUNT(&nodes))
		return cli_usage(cmd, "option '--matrix': this kernel shows no NUMA nodes (no /sys/devices/system/node)");
	if (run_nodes("has_memory", &mem) < 0)
		mem = nodes;
	for (n = 0; n < CPU_SETSIZE; n++) {
		if (CPU_ISSET(n, &mem) && m->nm < MATRIX_MAX_NODES)
			m->mnode[m->nm++] = n;
		if (!CPU_ISSET(n, &nodes) || m->nc == MATRIX_MAX_NODES ||
		    run_node_cpus(n, &cpus, err, sizeof(err)) < 0)
			continue;	/* no CPUs: memory only */
		CPU_AND(&cpus, &cpus, &allowed);
		for (m->cpu[m->nc] = 0; m->cpu[m->nc] < CPU_SETSIZE &&
		     !CPU_ISSET(m->cpu[m->nc], &cpus); m->cpu[m->nc]++)
			;
		if (m->cpu[m->nc] < CPU_SETSIZE)
			m->cnode[m->nc++] = n;
	}
	if (!m->nc || !m->nm)
		return cli_usage(cmd, "option '--matrix': no node has %s",
				 m->nc ? "memory" : "a CPU this process may use");
	return MDC_EXIT_OK;
}

/* --matrix chooses the CPUs and memory itself, one size. */
static int matrix_args(const char *cmd, const struct run_args *a,
		       struct matrix *m)
{
	uint64_t llc;

	if (a->cpus_opt[0])
		return cli_usage(cmd, "options '--matrix' and '%s' exclude each other: the matrix runs one thread on each node in turn",
				 a->cpus_opt);
	if (a->membind >= 0)
		return cli_usage(cmd, "options '--matrix' and '--membind' exclude each other: the matrix binds the memory to each node in turn");
	if (a->size_given && a->nr_size > 1)
		return cli_usage(cmd, "option '--size': --matrix takes one size");
	if (a->size_given) {
		m->size = a->size[0];
		run_check_llc(m->size, "the matrix's latency size");
		return MDC_EXIT_OK;
	}
	llc = kern_llc_bytes_cpu0();
	m->size = llc * MATRIX_LLC_TIMES;
	if (!llc) {
		m->size = 256ull << 20;
		run_warn("--matrix: sysfs gives no last-level cache size for CPU 0, so 256M per cell - give --size well above the LLC");
	}
	return MDC_EXIT_OK;
}

/* Each cell in turn until done or Ctrl-C; an exit code. */
static int matrix_measure(const char *cmd, const struct run_args *a,
			  const struct kern_cfg *cfg, struct matrix *m)
{
	struct kern_cfg c = *cfg;
	char err[200], label[32];
	const char *lab[] = { label };
	bool tty = isatty(STDOUT_FILENO) && isatty(STDERR_FILENO);
	size_t i, j, k;
	int node, mem;

	c.nthreads = 1;
	c.node = &node;
	c.mem_node = &mem;
	c.bind = true;
	/* every cell the same size */
	run_progress_plan(&c, (unsigned int)(m->nc * m->nm), NULL);
	for (k = 0; k < m->nc * m->nm; k++) {
		i = k / m->nm;
		j = k % m->nm;
		c.cpu = &m->cpu[i];
		c.bind_node = m->mnode[j];
		snprintf(label, sizeof(label), "%u->%u", m->cnode[i],
			 m->mnode[j]);
		/* a line per cell; the repetitions' progress goes under it */
		if (tty)
			fprintf(stderr, "latency matrix: cell %zu/%zu: CPU node %u (CPU %d), memory node %u\n",
				k + 1, m->nc * m->nm, m->cnode[i], m->cpu[i],
				m->mnode[j]);
		m->slot[k] = counters_next(a->counters, 1, lab);
		run_progress_what(&c, label);
		node = -1;
		mem = -1;
		c.hugepages = run_latency_huge(a, m->size);
		if (latency_run(&c, m->size, &m->r[k], err, sizeof(err))) {
			if (run_interrupted)
				return MDC_EXIT_OK;	/* the cells done are printed */
			cli_err(cmd, "latency failed", "CPU node %u, memory node %u: %s",
				m->cnode[i], m->mnode[j], err);
			return MDC_EXIT_LOCAL;
		}
		m->cpu_node[k] = node;
		m->mem_node[k] = mem;
		m->done = k + 1;
	}
	return MDC_EXIT_OK;
}

/* The head: one thread, on the first CPU of each node measured. */
static void matrix_head(struct printer *p, const struct run_args *a,
			const struct matrix *m)
{
	struct run_args h = *a;
	int node[MATRIX_MAX_NODES], mem[MATRIX_MAX_NODES];
	size_t i;

	h.threads = 1;
	h.nr_cpu = m->nc;
	h.cpu = (int *)m->cpu;
	h.node = node;
	h.mem_node = mem;
	for (i = 0; i < m->nc; i++) {
		node[i] = (int)m->cnode[i];
		mem[i] = -1;	/* every node in turn */
	}
	run_print_head(p, &h);
}

/* MLC's layout: a row per CPU node, a column per memory node; "-" not done. */
static void matrix_text(struct printer *p, const struct matrix *m)
{
	size_t i, j;

	print_textf(p, "\nidle latency, ns per load (rows: CPU node, columns: memory node)\n%8s",
		    "node");
	for (j = 0; j < m->nm; j++)
		print_textf(p, " %9u", m->mnode[j]);
	for (i = 0; i < m->nc; i++) {
		print_textf(p, "\n%8u", m->cnode[i]);
		for (j = 0; j < m->nm; j++) {
			if (i * m->nm + j < m->done)
				print_textf(p, " %9.1f",
					    m->r[i * m->nm + j].ns.median);
			else
				print_textf(p, " %9s", "-");
		}
	}
	print_textf(p, "\n");
}

static void matrix_print(struct printer *p, const struct run_args *a,
			 const struct matrix *m, double ghz)
{
	struct run_args c = *a;
	char row[64];
	size_t k;
	int cpu;

	matrix_head(p, a, m);
	print_textf(p, "%-4s %-4s %10s %10s %10s %8s %12s %8s %6s %6s %6s\n",
		    "cpu", "mem", "ns/load", "min", "max", "cov", "cycles/load",
		    "pages", "asked", "walks", "reps");
	print_open_array(p, "results");
	c.threads = 1;
	c.nr_cpu = 1;
	c.cpu = &cpu;
	for (k = 0; k < m->done; k++) {
		int cn = (int)m->cnode[k / m->nm];

		cpu = m->cpu[k / m->nm];
		/* measured (getcpu, move_pages), not what sysfs promised */
		c.node = &m->cpu_node[k];
		c.mem_node = &m->mem_node[k];
		c.membind = (int)m->mnode[k % m->nm];
		snprintf(row, sizeof(row), "latency matrix %d->%d", cn,
			 c.membind);
		run_check_membind(&c, row);
		run_result_open(p, &c, m->size, &m->r[k].timed);
		/* the node asked for; memory_node is where the pages are */
		print_uint(p, PRINT_JSON, "membind", "%u",
			   (unsigned int)c.membind);
		print_textf(p, "%-4d %-4d", cn, c.membind);
		run_latency_values(p, &m->r[k], run_latency_huge(a, m->size),
				   ghz, row);
		run_result_close(p, &c, m->slot[k]);
	}
	print_close_array(p);
	matrix_text(p, m);
	print_double(p, PRINT_ANY, "tsc_ghz", "cycles: TSC cycles at %.3f GHz\n",
		     ghz > 0 ? ghz : NAN);
	counters_text(p, a->counters, "cell");
}

int run_latency_matrix(const char *cmd, struct printer *p,
		       const struct run_args *a, const struct kern_cfg *cfg,
		       bool *printed)
{
	struct matrix m;
	size_t cells;
	int rc;

	memset(&m, 0, sizeof(m));
	rc = matrix_args(cmd, a, &m);
	if (rc == MDC_EXIT_OK)
		rc = matrix_nodes(cmd, &m);
	if (rc != MDC_EXIT_OK)
		return rc;
	cells = m.nc * m.nm;
	m.r = calloc(cells, sizeof(*m.r));
	m.cpu_node = calloc(cells, sizeof(*m.cpu_node));
	m.mem_node = calloc(cells, sizeof(*m.mem_node));
	m.slot = calloc(cells, sizeof(*m.slot));
	if (!m.r || !m.cpu_node || !m.mem_node || !m.slot) {
		cli_err(cmd, "out of memory", "%s", "the matrix's cells");
		rc = MDC_EXIT_LOCAL;
	} else {
		rc = matrix_measure(cmd, a, cfg, &m);
	}
	if (rc == MDC_EXIT_OK) {
		matrix_print(p, a, &m, kern_tsc_ghz());
		*printed = true;
	}
	free(m.r);
	free(m.cpu_node);
	free(m.mem_node);
	free(m.slot);
	return rc;
}
