// SPDX-License-Identifier: GPL-2.0
/*
 * dump_uarch.c - print memdiag's uarch table as JSON, one row per line,
 * for the oracle test to compare against perf's and the kernel's data.
 */
#include <stdio.h>
#include <inttypes.h>
#include "kshim.h"
#include "../../module/uarch.h"

static const char *const access_names[] = {
	[MEMDIAG_IMC_PCI] = "pci",
	[MEMDIAG_IMC_MMIO] = "mmio",
	[MEMDIAG_IMC_DISCOVERY] = "discovery",
	[MEMDIAG_IMC_MSR] = "msr",
	[MEMDIAG_IMC_DF] = "df",
};

static const char *const ev_names[MEMDIAG_EV_NR] = {
	[MEMDIAG_EV_PENDING] = "pending",
	[MEMDIAG_EV_L1_MISS] = "l1_miss",
	[MEMDIAG_EV_LFB_HIT] = "lfb_hit",
	[MEMDIAG_EV_L1_MISS_ANY] = "l1_miss_any",
	[MEMDIAG_EV_OFFCORE] = "offcore",
	[MEMDIAG_EV_MAB_OCC] = "mab_occ",
	[MEMDIAG_EV_MAB_ALLOC] = "mab_alloc",
};

static const char *const meaning_names[MEMDIAG_IMC_MEANINGS] = {
	[MEMDIAG_IMC_READ] = "read",
	[MEMDIAG_IMC_WRITE] = "write",
	[MEMDIAG_IMC_RDWR] = "rdwr",
};

static void dump_box(const struct memdiag_imc_box_type *t)
{
	printf("\"box\":{\"access\":\"%s\",\"box_size\":%u,\"box_ctl\":%u,"
	       "\"ctl0\":%u,\"ctr0\":%u,\"ctl_stride\":%u,\"ctr_stride\":%u,"
	       "\"n_ctrs\":%u,\"ctr_bits\":%u,\"ctl_en\":%u,\"box_frz\":%u,"
	       "\"saturates\":%s}",
	       access_names[t->access], t->box_size, t->box_ctl, t->ctl0,
	       t->ctr0, t->ctl_stride, t->ctr_stride, t->n_ctrs, t->ctr_bits,
	       t->ctl_en, t->box_frz, t->saturates ? "true" : "false");
}

static const char *const fix_names[MEMDIAG_GPFIX_NR] = {
	[MEMDIAG_GPFIX_INSTR] = "instructions",
	[MEMDIAG_GPFIX_CYCLES] = "cycles",
	[MEMDIAG_GPFIX_REF] = "ref_cycles",
};

/* "key":{role:{perf, event, umask, counters, offcore_rsp, merge}, ...} */
static void dump_events(const char *key, const struct memdiag_core_event *ev,
			const char *const *roles, int n)
{
	int e, first = 1;

	printf(",\"%s\":{", key);
	for (e = 0; ev && e < n; e++) {
		const struct memdiag_core_event *c = &ev[e];

		if (!c->perf)
			continue;
		printf("%s\"%s\":{\"perf\":\"%s\",\"event\":%u,"
		       "\"umask\":%u,\"counters\":%u,\"offcore_rsp\":%" PRIu64
		       ",\"merge\":%s}",
		       first ? "" : ",", roles[e], c->perf, c->event,
		       c->umask, c->counters, (uint64_t)c->offcore_rsp,
		       c->merge ? "true" : "false");
		first = 0;
	}
	printf("}");
}

static void dump_pmu(const struct memdiag_core_pmu *p)
{
	printf(",\"pmu\":{\"name\":\"%s\",\"evtsel\":%u,\"ctr\":%u,"
	       "\"stride\":%u,\"global_ctrl\":%u,\"fixed_ctrl\":%u,"
	       "\"fixed_ctr\":%u,\"offcore_rsp\":%u,\"ctr_bits\":%u,"
	       "\"n_ctrs\":%u,\"merge_evtsel\":%" PRIu64 "}",
	       p->name, p->evtsel, p->ctr, p->stride, p->global_ctrl,
	       p->fixed_ctrl, p->fixed_ctr, p->offcore_rsp, p->ctr_bits,
	       p->n_ctrs, (uint64_t)p->merge_evtsel);
}

static void dump_imc(const struct memdiag_imc_desc *d)
{
	unsigned int i;

	printf("\"imc\":{");
	dump_box(d->box);
	printf(",\"events\":[");
	for (i = 0; i < d->n_events; i++) {
		const struct memdiag_imc_event *e = &d->events[i];

		printf("%s{\"perf\":\"%s\",\"event\":%u,\"umask\":%u,"
		       "\"extra\":%u,\"meaning\":\"%s\",\"bytes\":%u",
		       i ? "," : "", e->perf, e->event, e->umask, e->extra,
		       meaning_names[e->meaning], e->bytes);
		/* the control the module writes, for the event14 check */
		if (d->box->access == MEMDIAG_IMC_DF)
			printf(",\"ctl\":%" PRIu64,
			       (uint64_t)memdiag_df_ctl(e->event, e->umask,
							d->box->ctl_en));
		printf("}");
	}
	printf("]");
	/* every event bit once, for a check of the whole event14 layout */
	if (d->box->access == MEMDIAG_IMC_DF)
		for (i = 0; i < 14; i++)
			printf("%s[%u,%" PRIu64 "]", i ? "," : ",\"df_ctl_bits\":[",
			       1u << i, (uint64_t)memdiag_df_ctl(1u << i, 0, 0));
	if (d->box->access == MEMDIAG_IMC_DF)
		printf("]");
	printf(",\"socket_map\":\"%s\",\"ubox_device\":%u,\"ubox_nodeid\":%u,"
	       "\"ubox_gidnidmap\":%u,\"ubox_reverse\":%s,\"chans\":[",
	       d->socket_map == MEMDIAG_IMC_MAP_UBOX ? "ubox" : "local",
	       d->ubox_device, d->ubox_nodeid, d->ubox_gidnidmap,
	       d->ubox_reverse ? "true" : "false");
	for (i = 0; i < d->n_chans; i++)
		printf("%s[%u,%u,%u]", i ? "," : "", d->chans[i].device,
		       d->chans[i].dev, d->chans[i].fn);
	printf("],\"mc_device\":%u,\"mc_base_reg\":%u,\"mc_off_reg\":%u,"
	       "\"n_mc\":%u,\"chans_per_mc\":%u,\"chan_base\":%u,"
	       "\"chan_stride\":%u,\"discovery_type\":%u}",
	       d->mc_device, d->mc_base_reg, d->mc_off_reg, d->n_mc,
	       d->chans_per_mc, d->chan_base, d->chan_stride,
	       d->discovery_type);
}

/* AMD's L3 PMU: its registers and events, as "l3" (null: none) */
static void dump_l3(const struct memdiag_l3_pmu *l)
{
	unsigned int i;

	if (!l) {
		printf(",\"l3\":null");
		return;
	}
	printf(",\"l3\":{\"ctl0\":%u,\"ctr0\":%u,\"stride\":%u,\"n_ctrs\":%u,"
	       "\"ctr_bits\":%u,\"ctl_en\":%llu,\"ctl_extra\":%llu,\"events\":[",
	       l->ctl0, l->ctr0, l->stride, l->n_ctrs, l->ctr_bits,
	       (unsigned long long)l->ctl_en, (unsigned long long)l->ctl_extra);
	for (i = 0; i < l->n_events; i++)
		printf("%s{\"perf\":\"%s\",\"event\":%u,\"umask\":%u,"
		       "\"meaning\":\"%s\",\"scale\":%u}", i ? "," : "",
		       l->events[i].perf, l->events[i].event, l->events[i].umask,
		       l->events[i].meaning == MEMDIAG_L3_LATENCY ? "latency" :
		       "requests", l->events[i].scale);
	printf("]}");
}

/* a reason the row leaves out prints as "" (none of them has quotes) */
static const char *str(const char *s)
{
	return s ? s : "";
}

int main(void)
{
	unsigned int i;

	for (i = 0; i < memdiag_uarch_table_len; i++) {
		const struct memdiag_uarch *u = &memdiag_uarch_table[i];

		printf("{\"name\":\"%s\",\"vendor\":\"%s\",\"family\":%u,"
		       "\"model\":%u,\"model_max\":%u,\"stepping\":[%u,%u],"
		       "\"pmu_events\":\"%s\",\"unsupported\":%s,"
		       "\"gp_counters_min\":%u,",
		       u->name, u->vendor, u->family, u->model,
		       u->model_max > u->model ? u->model_max : u->model,
		       u->stepping_min, u->stepping_max, u->pmu_events,
		       u->unsupported ? "true" : "false", u->gp_counters_min);
		if (u->imc)
			dump_imc(u->imc);
		else
			printf("\"imc\":null");
		printf(",\"imc_reason\":\"%s\",\"latency_reason\":\"%s\","
		       "\"offcore_reason\":\"%s\"", str(u->imc_reason),
		       str(u->latency_reason), str(u->offcore_reason));
		if (u->pmu)
			dump_pmu(u->pmu);
		dump_events("core", u->core, ev_names, MEMDIAG_EV_NR);
		dump_events("core_fix", u->core_fix, fix_names, MEMDIAG_GPFIX_NR);
		dump_l3(u->l3);
		printf("}\n");
	}
	return 0;
}
