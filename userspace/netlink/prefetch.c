// SPDX-License-Identifier: GPL-2.0
/* prefetch.c - read and print the prefetcher state replies. */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/memdiag.h>

#include "cli.h"
#include "cpulist.h"
#include "names.h"
#include "prefetch.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const enum mnl_attr_data_type top_types[] = {
	[MEMDIAG_A_PREFETCH_CONTROL] = MNL_TYPE_NUL_STRING,
	[MEMDIAG_A_PREFETCH_MSR] = MNL_TYPE_U32,
	[MEMDIAG_A_PREFETCH_PREFETCHER] = MNL_TYPE_NESTED,
	[MEMDIAG_A_PREFETCH_CPU_STATE] = MNL_TYPE_NESTED,
};

static const enum mnl_attr_data_type pf_types[] = {
	[MEMDIAG_A_PREFETCHER_INDEX] = MNL_TYPE_U32,
	[MEMDIAG_A_PREFETCHER_NAME] = MNL_TYPE_NUL_STRING,
	[MEMDIAG_A_PREFETCHER_BIT] = MNL_TYPE_U32,
	[MEMDIAG_A_PREFETCHER_DESCRIPTION] = MNL_TYPE_NUL_STRING,
};

static const enum mnl_attr_data_type cpu_types[] = {
	[MEMDIAG_A_PREFETCH_CPU_CPU] = MNL_TYPE_U32,
	[MEMDIAG_A_PREFETCH_CPU_SOCKET] = MNL_TYPE_U32,
	[MEMDIAG_A_PREFETCH_CPU_CORE] = MNL_TYPE_U32,
	[MEMDIAG_A_PREFETCH_CPU_VALUE] = MNL_TYPE_U64,
	[MEMDIAG_A_PREFETCH_CPU_DISABLED] = MNL_TYPE_U32,
	[MEMDIAG_A_PREFETCH_CPU_ORIGINAL] = MNL_TYPE_U64,
	[MEMDIAG_A_PREFETCH_CPU_CHANGED] = MNL_TYPE_U8,
	[MEMDIAG_A_PREFETCH_CPU_RESTORE_FAILED] = MNL_TYPE_U8,
};

struct nlmsghdr *pf_request_new(struct nl *nl, uint16_t family, uint8_t op,
				const struct pf_scope *scope, uint32_t mask,
				bool disable)
{
	const size_t attr = MNL_ALIGN(MNL_ATTR_HDRLEN + sizeof(uint32_t));
	struct nlmsghdr *hdr, *req;
	size_t size, i;
	bool fits;

	hdr = nl_msg_start(nl, family, op, MEMDIAG_FAMILY_VERSION, 0);
	/* socket, prefetchers and disable (a u8 takes as much room) */
	size = hdr->nlmsg_len + (scope->nr_cpu + 3) * attr;
	req = malloc(size);
	if (!req)
		return NULL;
	memcpy(req, hdr, hdr->nlmsg_len);
	fits = !scope->have_socket ||
	       mnl_attr_put_u32_check(req, size, MEMDIAG_A_PREFETCH_SOCKET,
				      scope->socket);
	for (i = 0; fits && i < scope->nr_cpu; i++)
		fits = mnl_attr_put_u32_check(req, size, MEMDIAG_A_PREFETCH_CPU,
					      scope->cpu[i]);
	if (fits && op == MEMDIAG_CMD_PREFETCH_SET)
		fits = mnl_attr_put_u32_check(req, size,
					      MEMDIAG_A_PREFETCH_PREFETCHERS,
					      mask) &&
		       mnl_attr_put_u8_check(req, size,
					     MEMDIAG_A_PREFETCH_DISABLE, disable);
	if (!fits) {	/* cannot happen: the size counts every attribute */
		free(req);
		errno = EMSGSIZE;
		return NULL;
	}
	return req;
}

/* 1: known and well-formed, 0: unknown (skip), -1: malformed. */
static int check(const struct nlattr *attr,
		 const enum mnl_attr_data_type *types, size_t n)
{
	uint16_t type = mnl_attr_get_type(attr);

	if (type >= n || types[type] == MNL_TYPE_UNSPEC)
		return 0;
	return mnl_attr_validate(attr, types[type]) < 0 ? -1 : 1;
}

static int bad(const char *cmd, const char *what)
{
	cli_err(cmd, "malformed reply from the memdiag module", "%s", what);
	return MDC_EXIT_KERNEL;
}

static void copy_str(char *dst, size_t size, const struct nlattr *attr)
{
	snprintf(dst, size, "%s", mnl_attr_get_str(attr));
}

static int parse_pf(const char *cmd, const struct nlattr *nest,
		    struct pf_state *st)
{
	const struct nlattr *attr;
	struct pf_info *pf;
	bool have_name = false, have_index = false;

	if (st->nr_pf == PREFETCHERS_MAX)
		return bad(cmd, "more than 32 prefetchers");
	pf = &st->pf[st->nr_pf];
	mnl_attr_for_each_nested(attr, nest) {
		int ok = check(attr, pf_types, ARRAY_SIZE(pf_types));

		if (ok < 0)
			return bad(cmd, "a prefetcher attribute has the wrong size");
		if (!ok)
			continue;
		switch (mnl_attr_get_type(attr)) {
		case MEMDIAG_A_PREFETCHER_INDEX:
			pf->index = mnl_attr_get_u32(attr);
			have_index = true;
			break;
		case MEMDIAG_A_PREFETCHER_NAME:
			copy_str(pf->name, sizeof(pf->name), attr);
			have_name = true;
			break;
		case MEMDIAG_A_PREFETCHER_BIT:
			pf->bit = mnl_attr_get_u32(attr);
			break;
		case MEMDIAG_A_PREFETCHER_DESCRIPTION:
			copy_str(pf->desc, sizeof(pf->desc), attr);
			break;
		}
	}
	if (!have_index || !have_name || pf->index != st->nr_pf)
		return bad(cmd, "prefetchers must come with name and index, in index order");
	st->nr_pf++;
	return MDC_EXIT_OK;
}

static int parse_cpu(const char *cmd, const struct nlattr *nest,
		     struct pf_state *st)
{
	struct pf_cpu_state *c, *grown;
	const struct nlattr *attr;
	bool have_cpu = false;

	grown = realloc(st->cpu, (st->nr_cpu + 1) * sizeof(*st->cpu));
	if (!grown) {
		cli_err(cmd, "out of memory", "%s", strerror(ENOMEM));
		return MDC_EXIT_LOCAL;
	}
	st->cpu = grown;
	c = &st->cpu[st->nr_cpu];
	memset(c, 0, sizeof(*c));
	mnl_attr_for_each_nested(attr, nest) {
		int ok = check(attr, cpu_types, ARRAY_SIZE(cpu_types));

		if (ok < 0)
			return bad(cmd, "a cpu-state attribute has the wrong size");
		if (!ok)
			continue;
		switch (mnl_attr_get_type(attr)) {
		case MEMDIAG_A_PREFETCH_CPU_CPU:
			c->cpu = mnl_attr_get_u32(attr);
			have_cpu = true;
			break;
		case MEMDIAG_A_PREFETCH_CPU_SOCKET:
			c->socket = mnl_attr_get_u32(attr);
			break;
		case MEMDIAG_A_PREFETCH_CPU_CORE:
			c->core = mnl_attr_get_u32(attr);
			break;
		case MEMDIAG_A_PREFETCH_CPU_VALUE:
			c->value = mnl_attr_get_u64(attr);
			break;
		case MEMDIAG_A_PREFETCH_CPU_DISABLED:
			c->disabled = mnl_attr_get_u32(attr);
			break;
		case MEMDIAG_A_PREFETCH_CPU_ORIGINAL:
			c->original = mnl_attr_get_u64(attr);
			c->has_original = true;
			break;
		case MEMDIAG_A_PREFETCH_CPU_CHANGED:
			c->changed = mnl_attr_get_u8(attr);
			break;
		case MEMDIAG_A_PREFETCH_CPU_RESTORE_FAILED:
			c->restore_failed = mnl_attr_get_u8(attr);
			break;
		}
	}
	if (!have_cpu)
		return bad(cmd, "a cpu-state without its cpu");
	st->nr_cpu++;
	return MDC_EXIT_OK;
}

int pf_state_parse(const char *cmd, const struct nlmsghdr *nlh,
		   struct pf_state *st)
{
	const struct nlattr *attr;
	bool have_control = false, have_msr = false;
	int rc;

	memset(st, 0, sizeof(*st));
	if (!nlh || mnl_nlmsg_get_payload_len(nlh) < sizeof(struct genlmsghdr))
		return bad(cmd, "no reply");
	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		int ok = check(attr, top_types, ARRAY_SIZE(top_types));

		if (ok < 0)
			return bad(cmd, "an attribute has the wrong size");
		if (!ok)
			continue;
		rc = MDC_EXIT_OK;
		switch (mnl_attr_get_type(attr)) {
		case MEMDIAG_A_PREFETCH_CONTROL:
			copy_str(st->control, sizeof(st->control), attr);
			have_control = true;
			break;
		case MEMDIAG_A_PREFETCH_MSR:
			st->msr = mnl_attr_get_u32(attr);
			have_msr = true;
			break;
		case MEMDIAG_A_PREFETCH_PREFETCHER:
			rc = parse_pf(cmd, attr, st);
			break;
		case MEMDIAG_A_PREFETCH_CPU_STATE:
			rc = parse_cpu(cmd, attr, st);
			break;
		}
		if (rc != MDC_EXIT_OK)
			return rc;
	}
	if (!have_control || !have_msr || !st->nr_pf)
		return bad(cmd, "control, msr and the prefetcher list are required");
	return MDC_EXIT_OK;
}

void pf_state_free(struct pf_state *st)
{
	free(st->cpu);
	st->cpu = NULL;
	st->nr_cpu = 0;
}

const char *pf_state_summary(const struct pf_state *st)
{
	uint32_t all = st->nr_pf >= 32 ? UINT32_MAX :
		       (uint32_t)((1ull << st->nr_pf) - 1);
	size_t i, on = 0, off = 0;

	if (!st->nr_pf || !st->nr_cpu)
		return NULL;
	for (i = 0; i < st->nr_cpu; i++) {
		on += !(st->cpu[i].disabled & all);
		off += (st->cpu[i].disabled & all) == all;
	}
	if (on == st->nr_cpu)
		return "on";
	return off == st->nr_cpu ? "off" : "mixed";
}

int pf_state_find(const struct pf_state *st, const char *name)
{
	size_t i;

	for (i = 0; i < st->nr_pf; i++)
		if (!strcmp(st->pf[i].name, name))
			return (int)i;
	return -1;
}

/* CPUs in one state: same socket, value and original. */
static bool same_group(const struct pf_cpu_state *a,
		       const struct pf_cpu_state *b)
{
	return a->socket == b->socket && a->value == b->value &&
	       a->has_original == b->has_original &&
	       a->restore_failed == b->restore_failed &&
	       (!a->has_original || a->original == b->original);
}

static void names_array(struct printer *p, const char *key,
			const struct pf_state *st, uint32_t mask)
{
	size_t i;

	print_open_array(p, key);
	for (i = 0; i < st->nr_pf; i++)
		if (mask & (1u << i))
			print_string(p, PRINT_JSON, NULL, "%s", st->pf[i].name);
	print_close_array(p);
}

static void show_groups(struct printer *p, const struct pf_state *st)
{
	uint32_t *cpus = calloc(st->nr_cpu ? st->nr_cpu : 1, sizeof(*cpus));
	bool *done = calloc(st->nr_cpu ? st->nr_cpu : 1, sizeof(*done));
	char list[512], orig[64];
	size_t i, j, n, ncores, k;
	uint32_t all = st->nr_pf >= 32 ? UINT32_MAX :
		       (uint32_t)((1ull << st->nr_pf) - 1);

	if (!cpus || !done) {
		p->error = ENOMEM;
		goto out;
	}
	print_textf(p, "%-16s %6s %5s %10s", "CPUS", "SOCKET", "CORES",
		    "VALUE");
	for (k = 0; k < st->nr_pf; k++)
		print_textf(p, " %*s", (int)(strlen(st->pf[k].name) > 3 ?
					     strlen(st->pf[k].name) : 3),
			    st->pf[k].name);
	print_textf(p, "  CHANGED\n");
	print_open_array(p, "groups");
	for (i = 0; i < st->nr_cpu; i++) {
		if (done[i])
			continue;
		n = 0;
		ncores = 0;
		for (j = i; j < st->nr_cpu; j++) {
			if (done[j] || !same_group(&st->cpu[i], &st->cpu[j]))
				continue;
			done[j] = true;
			cpus[n++] = st->cpu[j].cpu;
			/* a core is counted at its first CPU */
			ncores += st->cpu[j].core == st->cpu[j].cpu;
		}
		cpulist_format(list, sizeof(list), cpus, n);
		print_open_object(p, NULL);
		print_string(p, PRINT_ANY, "cpulist", "%-16s", list);
		print_open_array(p, "cpus");
		for (j = 0; j < n; j++)
			print_uint(p, PRINT_JSON, NULL, "%u", cpus[j]);
		print_close_array(p);
		print_uint(p, PRINT_ANY, "socket", " %6u", st->cpu[i].socket);
		print_u64(p, PRINT_ANY, "cores", " %5" PRIu64, ncores);
		snprintf(orig, sizeof(orig), "0x%" PRIx64, st->cpu[i].value);
		print_textf(p, " %10s", orig);
		print_u64(p, PRINT_JSON, "value", "%" PRIu64, st->cpu[i].value);
		for (k = 0; k < st->nr_pf; k++)
			print_textf(p, " %*s", (int)(strlen(st->pf[k].name) > 3 ?
						     strlen(st->pf[k].name) : 3),
				    st->cpu[i].disabled & (1u << k) ? "off" : "on");
		names_array(p, "disabled", st, st->cpu[i].disabled);
		names_array(p, "enabled", st, ~st->cpu[i].disabled & all);
		print_bool(p, PRINT_JSON, "changed", "%s",
			   st->cpu[i].has_original &&
			   st->cpu[i].original != st->cpu[i].value);
		if (st->cpu[i].has_original) {
			print_u64(p, PRINT_JSON, "original", "%" PRIu64,
				  st->cpu[i].original);
			snprintf(orig, sizeof(orig), "%s (found 0x%" PRIx64 ")%s",
				 st->cpu[i].original != st->cpu[i].value ?
				 "yes" : "no", st->cpu[i].original,
				 st->cpu[i].restore_failed ?
				 ", restore failed" : "");
		} else {
			print_string(p, PRINT_JSON, "original", "%s", NULL);
			snprintf(orig, sizeof(orig), "no");
		}
		print_bool(p, PRINT_JSON, "restore_failed", "%s",
			   st->cpu[i].restore_failed);
		print_textf(p, "  %s\n", orig);
		print_close_object(p);
	}
	print_close_array(p);
out:
	free(done);
	free(cpus);
}

void pf_state_show(struct printer *p, const struct pf_state *st,
		   const char *action, uint32_t mask)
{
	uint32_t *cpus = calloc(st->nr_cpu ? st->nr_cpu : 1, sizeof(*cpus));
	char list[512];
	size_t i;

	if (!cpus) {
		p->error = ENOMEM;
		return;
	}
	for (i = 0; i < st->nr_cpu; i++)
		cpus[i] = st->cpu[i].cpu;
	cpulist_format(list, sizeof(list), cpus, st->nr_cpu);
	free(cpus);

	print_open_object(p, NULL);
	print_string(p, PRINT_JSON, "action", "%s", action);
	print_string(p, PRINT_ANY, "control", "prefetch control: %s", st->control);
	print_uint(p, PRINT_ANY, "msr", ", MSR %#x (a set bit switches a prefetcher off)\n",
		   st->msr);
	print_open_array(p, "prefetchers");
	for (i = 0; i < st->nr_pf; i++) {
		print_open_object(p, NULL);
		print_uint(p, PRINT_JSON, "index", "%u", st->pf[i].index);
		print_string(p, PRINT_JSON, "name", "%s", st->pf[i].name);
		print_uint(p, PRINT_JSON, "bit", "%u", st->pf[i].bit);
		print_string(p, PRINT_JSON, "description", "%s", st->pf[i].desc);
		print_close_object(p);
	}
	print_close_array(p);
	if (strcmp(action, "status")) {
		if (mask)
			names_array(p, "named", st, mask);
		print_textf(p, "%s", !strcmp(action, "restore") ? "restored" :
			    !strcmp(action, "disable") ? "disabled" : "enabled");
		for (i = 0; mask && i < st->nr_pf; i++)
			if (mask & (1u << i))
				print_textf(p, " %s", st->pf[i].name);
		print_string(p, PRINT_ANY, "touched", " on CPUs %s", list);
		print_textf(p, "%s\n", st->nr_cpu ? "" : "(none)");
	}
	show_groups(p, st);
	print_open_array(p, "cpu_states");
	for (i = 0; i < st->nr_cpu; i++) {
		const struct pf_cpu_state *c = &st->cpu[i];

		print_open_object(p, NULL);
		print_uint(p, PRINT_JSON, "cpu", "%u", c->cpu);
		print_uint(p, PRINT_JSON, "socket", "%u", c->socket);
		print_uint(p, PRINT_JSON, "core", "%u", c->core);
		print_u64(p, PRINT_JSON, "value", "%" PRIu64, c->value);
		names_array(p, "disabled", st, c->disabled);
		if (c->has_original)
			print_u64(p, PRINT_JSON, "original", "%" PRIu64,
				  c->original);
		else
			print_string(p, PRINT_JSON, "original", "%s", NULL);
		print_bool(p, PRINT_JSON, "changed", "%s", c->changed);
		print_bool(p, PRINT_JSON, "restore_failed", "%s",
			   c->restore_failed);
		print_close_object(p);
	}
	print_close_array(p);
	print_close_object(p);
}
