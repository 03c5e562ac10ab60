// SPDX-License-Identifier: GPL-2.0
/*
 * imc_df.c - AMD Zen 2/3's DRAM channels through the Data Fabric PMU:
 * per node four counters for eight dram_channel_data_controller_N
 * events, so the channels take turns (df_rotate.c). Each sample ends the
 * turn (reads the counters), plans the next and, if its channels differ,
 * rewrites the controls and reads the counters again as the new
 * baseline; the counts between the two reads are lost and the turn's
 * counted time starts after them. memdiag takes the node to be the
 * socket (NPS1 and the DF context of amd/uncore.c, one per node id).
 *
 * Like the other boxes, a control another agent enabled is left alone;
 * a control found changed bumps the socket's epoch. Every control is put
 * back to what start() found by stop(), or earlier by the socket's last
 * CPU going offline (hotplug, at the end of this file).
 */
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>

#include "memdiag.h"
#include "imc.h"
#include "df_rotate.h"

/* No channel moves 10^10 requests (640 GB) a second: more is a reset. */
#define DF_MAX_REQ_PER_SEC	10000000000ULL

struct df_node {
	struct memdiag_df_rot rot;
	u64 saved[MEMDIAG_DF_MAX_CTRS], prog[MEMDIAG_DF_MAX_CTRS];
	bool programmed, lost;
	bool inited;		/* rot holds the counts since load */
	/*
	 * no CPU of the socket online (memdiag_imc_df_cpu_offline()): its
	 * controls are back, it is not counted until a CPU returns
	 */
	bool offline;
};

static struct df_node df_nodes[MEMDIAG_MAX_SOCKETS];
static u32 df_epoch[MEMDIAG_MAX_SOCKETS];
static bool df_running;		/* between start() and stop() */
/* channels counted all the time (bit i: channel i), 0: in turns */
static u32 df_fixed;

static u32 df_ctl_msr(unsigned int i)
{
	return imc_type->ctl0 + i * imc_type->ctl_stride;
}

static u32 df_ctr_msr(unsigned int i)
{
	return imc_type->ctr0 + i * imc_type->ctr_stride;
}

/* The control counting channel @chan, or 0 (disabled) for -1. */
static u64 df_chan_ctl(int chan)
{
	const struct memdiag_imc_event *e;

	if (chan < 0)
		return 0;
	e = &imc_desc->events[chan];
	return memdiag_df_ctl(e->event, e->umask, imc_type->ctl_en);
}

/* Run @ops on a CPU of @socket in one batch; -ENXIO if none is online. */
static int df_batch(unsigned int socket, struct memdiag_msr_op *ops,
		    unsigned int n)
{
	unsigned int cpu = memdiag_socket_cpu(socket, nr_cpu_ids), i;

	if (cpu >= nr_cpu_ids || memdiag.plat->msr_batch(cpu, ops, n))
		return -ENXIO;
	for (i = 0; i < n; i++)
		if (ops[i].err)
			return -EIO;
	return 0;
}

/*
 * Read the controls (@ctl, may be NULL) and counters (@ctr) of @socket's
 * node, and the clock just before and after the counters (@clk[0],
 * @clk[1]; @clk may be NULL), taken in the same batch on the CPU that
 * reads them: a reader paused between a read and a clock reading of its
 * own would time the counts wrongly.
 */
static int df_read(unsigned int socket, u64 *ctl, u64 *ctr, u64 *clk)
{
	struct memdiag_msr_op op[2 * MEMDIAG_DF_MAX_CTRS + 2] = {};
	unsigned int n = imc_type->n_ctrs, i;
	int err;

	for (i = 0; i < n; i++) {
		op[i].msr = df_ctl_msr(i);
		op[n + 1 + i].msr = df_ctr_msr(i);
	}
	op[n].clock = true;
	op[2 * n + 1].clock = true;
	err = df_batch(socket, op, 2 * n + 2);
	for (i = 0; !err && i < n; i++) {
		if (ctl)
			ctl[i] = op[i].val;
		ctr[i] = op[n + 1 + i].val;
	}
	if (clk) {
		clk[0] = op[n].val;
		clk[1] = op[2 * n + 1].val;
	}
	return err;
}

/*
 * Write the planned channels' controls, read them back and the counters
 * after them, and begin the turn; false if a write did not stick.
 */
static bool df_program(unsigned int socket, struct df_node *d)
{
	struct memdiag_msr_op op[MEMDIAG_DF_MAX_CTRS];
	u64 ctl[MEMDIAG_DF_MAX_CTRS], ctr[MEMDIAG_DF_MAX_CTRS], clk[2];
	unsigned int n = imc_type->n_ctrs, i;
	bool ok = true;

	for (i = 0; i < n; i++) {
		d->prog[i] = df_chan_ctl(d->rot.chan_of[i]);
		op[i] = (struct memdiag_msr_op){ df_ctl_msr(i), true,
						 d->prog[i] };
	}
	d->programmed = true;
	d->lost = false;
	if (df_batch(socket, op, n) || df_read(socket, ctl, ctr, clk))
		return false;
	for (i = 0; i < n; i++)
		ok &= ctl[i] == d->prog[i];
	if (ok)
		memdiag_df_rot_begin(&d->rot, clk[0], clk[1], ctr);
	return ok;
}

static void df_restore(unsigned int socket, struct df_node *d)
{
	struct memdiag_msr_op op[MEMDIAG_DF_MAX_CTRS];
	unsigned int n = imc_type->n_ctrs, i;
	int err;

	for (i = 0; i < n; i++)
		op[i] = (struct memdiag_msr_op){ df_ctl_msr(i), true,
						 d->saved[i] };
	err = df_batch(socket, op, n);
	if (err)
		pr_err("memdiag: putting back the Data Fabric controls of socket %u failed (%d): write 0x%llx 0x%llx 0x%llx 0x%llx to MSR 0x%x + 2i by hand\n",
		       socket, err, d->saved[0], d->saved[1], d->saved[2],
		       d->saved[3], df_ctl_msr(0));
	d->programmed = false;
}

/* Take the node's counters if all are free; false (and @msg) if not. */
static bool df_claim(unsigned int socket, struct df_node *d, char *msg,
		     size_t len)
{
	u64 ctr[MEMDIAG_DF_MAX_CTRS];
	unsigned int i;

	if (df_read(socket, d->saved, ctr, NULL)) {
		snprintf(msg, len,
			 "the Data Fabric counters of socket %u could not be read",
			 socket);
		return false;
	}
	for (i = 0; i < imc_type->n_ctrs; i++) {
		if (!(d->saved[i] & imc_type->ctl_en))
			continue;
		snprintf(msg, len,
			 "Data Fabric counter %u of socket %u is in use (control 0x%llx): another tool (perf's amd_df uncore, likwid) is using it; memdiag needs all %u; stop it and retry",
			 i, socket, d->saved[i], imc_type->n_ctrs);
		return false;
	}
	return true;
}

/*
 * A session's turns: the counts since load are kept (snapshots carry
 * totals since load), the controls are written afresh and the rates of
 * the last session are forgotten.
 */
static int df_rot_start(struct df_node *d)
{
	unsigned int i;
	int err;

	if (!d->inited) {
		err = memdiag_df_rot_init(&d->rot, imc_desc->n_events,
					  imc_type->n_ctrs, imc_type->ctr_bits,
					  df_fixed);
		d->inited = !err;
		return err;
	}
	d->rot.fixed = df_fixed;	/* checked by channels_check() */
	for (i = 0; i < MEMDIAG_DF_MAX_CTRS; i++)
		d->rot.chan_of[i] = -1;
	d->rot.counting = false;
	d->rot.end_ns = 0;
	memset(d->rot.rate_ns, 0, sizeof(d->rot.rate_ns));
	return 0;
}

/* Claim and program @socket's node for a session; 0 or -errno (@msg). */
static int df_node_start(unsigned int socket, char *msg, size_t len)
{
	struct df_node *d = &df_nodes[socket];
	int err;

	if (!df_claim(socket, d, msg, len))
		return -EBUSY;
	err = df_rot_start(d);
	memdiag_df_rot_plan(&d->rot);
	if (err || !df_program(socket, d)) {
		snprintf(msg, len,
			 "Data Fabric counter control writes on socket %u did not stick",
			 socket);
		df_restore(socket, d);
		return -EIO;
	}
	return 0;
}

/**
 * memdiag_imc_df_start() - claim and program every node's DF counters
 * @msg: why not, when the return value is negative
 * @len: size of @msg
 *
 * Either every node is programmed or none is. A socket with no CPU
 * online is not: memdiag_imc_df_cpu_online() claims it when one returns.
 */
int memdiag_imc_df_start(char *msg, size_t len)
{
	unsigned int i, s;
	int err;

	for (i = 0; i < imc_n_boxes; i++) {
		s = imc_boxes[i].socket;
		df_nodes[s].offline =
			memdiag_socket_cpu(s, nr_cpu_ids) >= nr_cpu_ids;
		if (!df_nodes[s].offline &&
		    !df_claim(s, &df_nodes[s], msg, len))
			return -EBUSY;
	}
	for (i = 0; i < imc_n_boxes; i++) {
		s = imc_boxes[i].socket;
		err = df_nodes[s].offline ? 0 : df_node_start(s, msg, len);
		if (!err)
			continue;
		while (i--) {
			s = imc_boxes[i].socket;
			if (df_nodes[s].programmed)
				df_restore(s, &df_nodes[s]);
		}
		return err;
	}
	df_running = true;
	return 0;
}

void memdiag_imc_df_stop(void)
{
	unsigned int i, s;

	/* a node another agent took over keeps that agent's values */
	for (i = 0; i < imc_n_boxes; i++) {
		s = imc_boxes[i].socket;
		if (df_nodes[s].programmed && !df_nodes[s].lost)
			df_restore(s, &df_nodes[s]);
		df_nodes[s].programmed = false;
	}
	df_running = false;
}

/*
 * End the node's turn and begin the next; false if the interval is not
 * to be trusted (a control changed, a counter reset, a read failed).
 */
static bool df_update(unsigned int socket, struct df_node *d, u64 max)
{
	u64 ctl[MEMDIAG_DF_MAX_CTRS], ctr[MEMDIAG_DF_MAX_CTRS], clk[2];
	unsigned int i;
	bool ok = true;

	if (df_read(socket, ctl, ctr, clk))
		return false;
	for (i = 0; i < imc_type->n_ctrs; i++) {
		if (ctl[i] == d->prog[i])
			continue;
		if (ctl[i] & imc_type->ctl_en) {
			/* someone else's now: never clobber it */
			pr_warn_ratelimited("memdiag: Data Fabric counter %u of socket %u was reprogrammed by another agent (0x%llx); no longer counting DRAM channels there\n",
					    i, socket, ctl[i]);
			d->lost = true;
			return false;
		}
		ok = false;
	}
	if (ok)
		ok = memdiag_df_rot_end(&d->rot, clk[0], clk[1], ctr, max);
	else
		d->rot.counting = false;	/* the interval is dropped */
	/* a changed control is written again with the next turn */
	if (memdiag_df_rot_plan(&d->rot) || !ok)
		return df_program(socket, d) && ok;
	memdiag_df_rot_begin(&d->rot, clk[0], clk[1], ctr);
	return ok;
}

/* What @d counted so far into @s: the socket estimate and each channel. */
static void df_snap(const struct df_node *d, struct memdiag_snap *s)
{
	const struct memdiag_df_rot *r = &d->rot;
	unsigned int c;

	s->has_imc = true;
	s->imc_rdwr = true;
	/* the channels not in a fixed set are not estimated: no total */
	s->no_total = r->fixed;
	for (c = 0; c < r->n_chans; c++) {
		s->rdwr_bytes += r->est[c] * imc_desc->events[c].bytes;
		if (s->nr_chan >= MEMDIAG_MAX_CHANNELS)
			continue;
		s->chan[s->nr_chan].id = c;
		s->chan[s->nr_chan].rdwr_bytes =
			r->counts[c] * imc_desc->events[c].bytes;
		s->chan[s->nr_chan].counted_ns = r->counted_ns[c];
		s->nr_chan++;
	}
}

/**
 * memdiag_imc_df_sample() - turn every node's channels, add the counts
 * @snap: one per socket, indexed by socket
 * @n: number of entries in @snap
 * @dt_ns: time since the last sample, bounding a plausible step
 */
void memdiag_imc_df_sample(struct memdiag_snap *snap, unsigned int n,
			   u64 dt_ns)
{
	u64 max = div_u64(DF_MAX_REQ_PER_SEC, 1000) * div_u64(dt_ns, 1000000) +
		  (1ULL << 24);
	unsigned int i, s;

	for (i = 0; i < imc_n_boxes; i++) {
		struct df_node *d;

		s = imc_boxes[i].socket;
		if (s >= n)
			continue;
		d = &df_nodes[s];
		/*
		 * an offline socket is in no snapshot: its totals wait. The
		 * estimate runs to the moment the counters were read, which
		 * is the snapshot's time: a pause between the sample's start
		 * and this socket's reads would put its bytes into the wrong
		 * interval.
		 */
		if (d->programmed && !d->lost) {
			if (df_update(s, d, max))
				snap[s].time_ns = d->rot.end_ns;
			else
				df_epoch[s]++;
		}
		df_snap(d, &snap[s]);
		memdiag_df_nodes_snap(s, &d->rot, &snap[s]);
		snap[s].imc_epoch = df_epoch[s];
	}
}

/**
 * memdiag_imc_df_channels_check() - can the DF count @set all the time?
 * @set: bit i for channel i, not 0
 * @msg: why not, when the return value is negative
 * @len: size of @msg
 *
 * Return: 0; -EOPNOTSUPP if DRAM bandwidth is not counted through the
 * Data Fabric here; -EINVAL for a channel the node does not have or more
 * channels than it has counters.
 */
int memdiag_imc_df_channels_check(u32 set, char *msg, size_t len)
{
	if (!memdiag.caps[MEMDIAG_CAPABILITY_IMC_BANDWIDTH].available ||
	    !imc_type || imc_type->access != MEMDIAG_IMC_DF) {
		snprintf(msg, len,
			 "df-channels applies to AMD Zen 2/3's Data Fabric counters, and this machine's DRAM bandwidth is not counted through them (see get-info)");
		return -EOPNOTSUPP;
	}
	if (set >> imc_desc->n_events) {
		snprintf(msg, len,
			 "df-channels 0x%x: the Data Fabric has channels 0-%u only",
			 set, imc_desc->n_events - 1);
		return -EINVAL;
	}
	if (hweight32(set) > imc_type->n_ctrs) {
		snprintf(msg, len,
			 "df-channels 0x%x: %u channels, but a node has %u counters",
			 set, hweight32(set), imc_type->n_ctrs);
		return -EINVAL;
	}
	return 0;
}

/* The channel set the counters use (0: in turns). */
u32 memdiag_imc_df_channels(void)
{
	lockdep_assert_held(&memdiag_lock);
	return df_fixed;
}

/* Before the first session's start: the set it asked for, or 0. */
void memdiag_imc_df_set_channels(u32 set)
{
	df_fixed = set;
}

/* The DF node of @cpu's socket, if memdiag counts it in this session. */
static struct df_node *df_node_of(unsigned int cpu, unsigned int *socket)
{
	unsigned int i;

	if (!df_running)
		return NULL;
	*socket = memdiag_socket_of(cpu);
	for (i = 0; i < imc_n_boxes; i++)
		if (imc_boxes[i].socket == *socket)
			return &df_nodes[*socket];
	return NULL;
}

/**
 * memdiag_imc_df_cpu_offline() - hotplug: @cpu is about to go offline
 * @cpu: the CPU, still online (the callback runs on it)
 *
 * Another online CPU of the socket reaches the same node, so only the
 * socket's last CPU matters: the turn is ended (its counts kept) and the
 * controls are put back while the node can still be reached. The socket
 * is not counted, and is in no snapshot, until a CPU of it returns; its
 * epoch changes, as the traffic in between is not counted.
 */
void memdiag_imc_df_cpu_offline(unsigned int cpu)
{
	unsigned int s;
	struct df_node *d;

	lockdep_assert_held(&memdiag_lock);
	d = df_node_of(cpu, &s);
	if (!d || d->offline || memdiag_socket_cpu(s, cpu) < nr_cpu_ids)
		return;
	if (d->programmed && !d->lost) {
		df_update(s, d, U64_MAX);
		if (!d->lost)
			df_restore(s, d);
	}
	d->programmed = false;
	d->rot.counting = false;
	d->offline = true;
	df_epoch[s]++;
}

/**
 * memdiag_imc_df_cpu_online() - hotplug: @cpu is online
 * @cpu: the CPU
 *
 * The first CPU of a socket back online claims and programs its node
 * again, as a session start does; if the counters are someone else's by
 * now, the socket stays uncounted (as if lost) and the log says why.
 */
void memdiag_imc_df_cpu_online(unsigned int cpu)
{
	char msg[MEMDIAG_REASON_LEN];
	unsigned int s;
	struct df_node *d;

	lockdep_assert_held(&memdiag_lock);
	d = df_node_of(cpu, &s);
	if (!d || !d->offline)
		return;
	d->offline = false;
	df_epoch[s]++;
	if (df_node_start(s, msg, sizeof(msg))) {
		pr_warn("memdiag: socket %u is back online, its DRAM channels not counted: %s\n",
			s, msg);
		d->lost = true;
	}
}
