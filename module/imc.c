// SPDX-License-Identifier: GPL-2.0
/*
 * imc.c - the memory controllers' CAS counters: find every channel's PMON
 * box, tell which socket it belongs to, and count CAS reads and writes in
 * two of its counters while a session runs.
 *
 * Boxes are found once at load (read-only). Counters are programmed only
 * between memdiag_imc_start() and memdiag_imc_stop(), both under
 * memdiag_lock, and stop() writes back every control value start() found.
 *
 * The uncore has no arbitration: perf's intel_uncore driver, PCM or likwid
 * may reset or reprogram a box at any time. Each sample therefore reads the
 * controls back; a changed control or a counter step no wrap can explain
 * bumps the socket's epoch (that interval is invalid) and counting resumes
 * from a new baseline. A control someone else enabled is left alone.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/pci.h>
#include <linux/math64.h>

#include "memdiag.h"

#define EXT_CAP_START		0x100
#define DVSEC_CAP_ID		0x23	/* uncore_discovery.h */
#define DVSEC_ID_REG		0x8
#define DVSEC_ID_PMON		0x1
#define DVSEC_BIR_REG		0xc
#define DISCOVERY_BAR0		0x10
#define DISCOVERY_ACCESS_MMIO	1

/* No channel moves 10^10 CAS (640 GB) a second: a bigger step is a reset. */
#define IMC_MAX_CAS_PER_SEC	10000000000ULL

enum { RD, WR };

struct imc_box {
	unsigned int socket, chan;
	struct memdiag_pci pci;
	bool has_pci;
	void *map;
	u16 ctl0, ctr0;			/* from the discovery table or desc */
	int ctr[2];			/* counter used for RD and WR */
	u32 saved[2], prog[2];
	struct memdiag_ext64 ext[2];
	bool programmed, lost;
};

static const struct memdiag_imc_desc *desc;
static struct imc_box *boxes;
static unsigned int n_boxes, max_boxes;
static u32 imc_epoch[MEMDIAG_MAX_SOCKETS];

/* PCI bus -> socket of domain 0..N; -1 unknown */
struct bus_map {
	u16 domain;
	s16 socket[256];
};

static struct bus_map *bus_maps;
static unsigned int n_bus_maps;

static const struct memdiag_platform_ops *plat(void)
{
	return memdiag.plat;
}

static struct bus_map *bus_map_of(u16 domain, bool create)
{
	struct bus_map *m;
	unsigned int i;

	for (i = 0; i < n_bus_maps; i++)
		if (bus_maps[i].domain == domain)
			return &bus_maps[i];
	if (!create)
		return NULL;
	m = krealloc(bus_maps, (n_bus_maps + 1) * sizeof(*m), GFP_KERNEL);
	if (!m)
		return NULL;
	bus_maps = m;
	m = &bus_maps[n_bus_maps++];
	m->domain = domain;
	for (i = 0; i < 256; i++)
		m->socket[i] = -1;
	return m;
}

static int bus_socket(const struct memdiag_pci *pci)
{
	struct bus_map *m = bus_map_of(pci->domain, false);

	return m ? m->socket[pci->bus] : -1;
}

/*
 * Map buses to sockets as the kernel's uncore driver does: each socket's
 * UBOX holds its node id, and GIDNIDMAP lists the node id of every
 * package, so the index holding our node id is the physical package id.
 * Buses without a UBOX take the mapping of the nearest UBOX bus above
 * (ubox_reverse) or below. PCI bus order says nothing about sockets.
 */
static int ubox_map(void)
{
	struct memdiag_pci pci;
	unsigned int idx, i;
	struct bus_map *m;
	u32 node, map;
	int s;

	for (idx = 0; !plat()->pci_get(desc->ubox_device, idx, &pci); idx++) {
		s = -1;
		if (!plat()->pci_read(&pci, desc->ubox_nodeid, &node) &&
		    !plat()->pci_read(&pci, desc->ubox_gidnidmap, &map)) {
			node &= 0x7;
			for (i = 0; i < 8; i++)
				if (((map >> (3 * i)) & 0x7) == node) {
					s = memdiag_package_to_socket(i);
					break;
				}
		}
		m = bus_map_of(pci.domain, true);
		if (m)
			m->socket[pci.bus] = s;
		plat()->pci_put(&pci);
		if (!m)
			return -ENOMEM;
	}
	if (!idx)
		return -ENODEV;

	for (i = 0; i < n_bus_maps; i++) {
		int b, cur = -1;

		m = &bus_maps[i];
		for (b = 0; b < 256; b++) {
			int bus = desc->ubox_reverse ? 255 - b : b;

			if (m->socket[bus] >= 0)
				cur = m->socket[bus];
			else
				m->socket[bus] = cur;
		}
	}
	return 0;
}

static struct imc_box *box_add(int socket, unsigned int chan)
{
	struct imc_box *b;

	if (socket < 0 || socket >= MEMDIAG_MAX_SOCKETS)
		return NULL;
	if (n_boxes == max_boxes) {
		unsigned int n = max_boxes ? 2 * max_boxes : 16;

		b = krealloc(boxes, n * sizeof(*b), GFP_KERNEL);
		if (!b)
			return NULL;
		boxes = b;
		max_boxes = n;
	}
	b = &boxes[n_boxes++];
	memset(b, 0, sizeof(*b));
	b->socket = socket;
	b->chan = chan;
	b->ctl0 = desc->ctl0;
	b->ctr0 = desc->ctr0;
	return b;
}

static void find_pci_boxes(void)
{
	struct memdiag_pci pci;
	unsigned int c, idx;
	struct imc_box *b;

	for (c = 0; c < desc->n_chans; c++) {
		const struct memdiag_imc_chan *ch = &desc->chans[c];

		for (idx = 0; !plat()->pci_get(ch->device, idx, &pci); idx++) {
			b = NULL;
			if (PCI_SLOT(pci.devfn) == ch->dev &&
			    PCI_FUNC(pci.devfn) == ch->fn)
				b = box_add(bus_socket(&pci), c);
			if (!b) {
				plat()->pci_put(&pci);
				continue;
			}
			b->pci = pci;
			b->has_pci = true;
		}
	}
}

/* Ice Lake-SP: each MC's MMIO base is spread over two config registers. */
static void find_mmio_boxes(void)
{
	struct memdiag_pci pci;
	unsigned int idx, mc, ch;
	struct imc_box *b;
	u32 base, off;
	void *map;

	for (idx = 0; !plat()->pci_get(desc->mc_device, idx, &pci); idx++) {
		int socket = bus_socket(&pci);

		if (plat()->pci_read(&pci, desc->mc_base_reg, &base))
			goto next;
		for (mc = 0; mc < desc->n_mc; mc++) {
			u64 phys;

			if (plat()->pci_read(&pci, desc->mc_off_reg + 4 * mc, &off))
				continue;
			phys = ((u64)(base & 0x1fffffff) << 23) |
			       ((u64)(off & 0x7ff) << 12);
			if (!phys)
				continue;
			for (ch = 0; ch < desc->chans_per_mc; ch++) {
				map = plat()->mmio_map(phys + desc->chan_base +
						       ch * desc->chan_stride,
						       desc->box_size);
				if (!map)
					continue;
				b = box_add(socket, mc * desc->chans_per_mc + ch);
				if (!b) {
					plat()->mmio_unmap(map);
					continue;
				}
				b->map = map;
			}
		}
next:
		plat()->pci_put(&pci);
	}
}

static u64 read_q(void *map, unsigned int off)
{
	return plat()->mmio_read(map, off, 8);
}

/* Parse one PMON discovery table and add its IMC units of @socket. */
static void parse_discovery(u64 phys, int socket)
{
	unsigned int stride, units, i, chan = 0;
	void *map;
	u64 q0;

	map = plat()->mmio_map(phys, 3 * sizeof(u64));
	if (!map)
		return;
	q0 = read_q(map, 0);
	plat()->mmio_unmap(map);
	stride = ((q0 >> 8) & 0xff) * 8;
	units = (q0 >> 16) & 0x3ff;
	if (!stride || !units)
		return;

	map = plat()->mmio_map(phys, (units + 1) * stride);
	if (!map)
		return;
	for (i = 1; i <= units; i++) {
		u64 u0 = read_q(map, i * stride);
		u64 addr = read_q(map, i * stride + 8);
		u64 u2 = read_q(map, i * stride + 16);
		struct imc_box *b;
		void *box;

		if ((u2 & 0xffff) != desc->discovery_type ||
		    (u0 >> 62) != DISCOVERY_ACCESS_MMIO || !addr ||
		    ((u0 >> 16) & 0xff) != desc->ctr_bits)
			continue;
		box = plat()->mmio_map(addr, desc->box_size);
		if (!box)
			continue;
		b = box_add(socket, chan++);
		if (!b) {
			plat()->mmio_unmap(box);
			continue;
		}
		b->map = box;
		b->ctl0 = (u0 >> 8) & 0xff;
		b->ctr0 = (u0 >> 24) & 0xff;
	}
	plat()->mmio_unmap(map);
}

/* Sapphire/Emerald Rapids: PMON discovery tables behind a DVSEC capability. */
static void find_discovery_boxes(void)
{
	struct memdiag_pci pci;
	unsigned int idx, ttl;
	u32 hdr, id, bir, lo, hi;
	int pos;

	for (idx = 0; !plat()->pci_get(0xffff, idx, &pci); idx++) {
		pos = EXT_CAP_START;
		for (ttl = 0; ttl < 64 && pos >= EXT_CAP_START; ttl++) {
			if (plat()->pci_read(&pci, pos, &hdr) || !hdr || hdr == ~0u)
				break;
			if ((hdr & 0xffff) == DVSEC_CAP_ID &&
			    !plat()->pci_read(&pci, pos + DVSEC_ID_REG, &id) &&
			    (id & 0xffff) == DVSEC_ID_PMON &&
			    !plat()->pci_read(&pci, pos + DVSEC_BIR_REG, &bir) &&
			    !plat()->pci_read(&pci, DISCOVERY_BAR0 + 4 * (bir & 7), &lo) &&
			    !plat()->pci_read(&pci, DISCOVERY_BAR0 + 4 * (bir & 7) + 4, &hi))
				parse_discovery(((u64)hi << 32 | lo) & ~0xfULL,
						bus_socket(&pci));
			pos = hdr >> 20;
		}
		plat()->pci_put(&pci);
	}
}

/**
 * memdiag_imc_discover() - find the IMC channel boxes of every socket
 * @st: the module state (uarch and platform set)
 * @reason: why none was found, when the return value is negative
 * @len: size of @reason
 */
int memdiag_imc_discover(struct memdiag_state *st, char *reason, size_t len)
{
	const struct memdiag_uarch *u = st->uarch;
	const char *vm = st->ident.hypervisor ?
		" (this is a virtual machine; the hypervisor does not expose it)" : "";
	int err;

	desc = u->imc;
	err = ubox_map();
	if (err) {
		snprintf(reason, len,
			 "no %s UBOX PCI device (8086:%04x) found to map memory controllers to sockets%s",
			 u->name, desc->ubox_device, vm);
		return err;
	}
	if (desc->access == MEMDIAG_IMC_PCI)
		find_pci_boxes();
	else if (desc->access == MEMDIAG_IMC_MMIO)
		find_mmio_boxes();
	else
		find_discovery_boxes();
	if (!n_boxes) {
		snprintf(reason, len,
			 "no %s memory controller PMON box found%s", u->name, vm);
		return -ENODEV;
	}
	return 0;
}

void memdiag_imc_free(void)
{
	unsigned int i;

	for (i = 0; i < n_boxes; i++) {
		if (boxes[i].map)
			plat()->mmio_unmap(boxes[i].map);
		if (boxes[i].has_pci)
			plat()->pci_put(&boxes[i].pci);
	}
	kfree(boxes);
	kfree(bus_maps);
	boxes = NULL;
	bus_maps = NULL;
	n_boxes = 0;
	max_boxes = 0;
	n_bus_maps = 0;
}

static u32 box_rd(struct imc_box *b, unsigned int off)
{
	u32 v = 0;

	if (b->map)
		return plat()->mmio_read(b->map, off, 4);
	if (plat()->pci_read(&b->pci, off, &v))
		return ~0u;
	return v;
}

static void box_wr(struct imc_box *b, unsigned int off, u32 v)
{
	if (b->map)
		plat()->mmio_write(b->map, off, 4, v);
	else
		plat()->pci_write(&b->pci, off, v);
}

static unsigned int ctl_off(struct imc_box *b, int i)
{
	return b->ctl0 + i * desc->ctl_stride;
}

static u64 box_ctr(struct imc_box *b, int i)
{
	unsigned int off = b->ctr0 + i * desc->ctr_stride;
	u64 v;

	u32 hi, lo;

	if (b->map) {
		v = plat()->mmio_read(b->map, off, 8);
	} else {
		/*
		 * Two config reads can straddle a carry into the high dword:
		 * read high, low, high, and take low again if high moved.
		 */
		hi = box_rd(b, off + 4);
		lo = box_rd(b, off);
		v = box_rd(b, off + 4);
		if (v != hi)
			lo = box_rd(b, off);
		v = v << 32 | lo;
	}
	return v & GENMASK_ULL(desc->ctr_bits - 1, 0);
}

/* A control someone is using: enabled, or (no enable bit) set at all. */
static bool ctl_in_use(u32 ctl)
{
	return desc->ctl_en ? ctl & desc->ctl_en : ctl != 0;
}

/* Pick two free counters of @b; false if it has fewer. */
static bool pick_counters(struct imc_box *b, char *msg, size_t len)
{
	int i, n = 0;
	u32 box = box_rd(b, desc->box_ctl);

	if (box == ~0u || box & desc->box_frz) {
		snprintf(msg, len,
			 "IMC channel %u of socket %u is frozen or unreadable (box control 0x%x): another tool (perf's uncore_imc, PCM, likwid) controls it; stop it and retry",
			 b->chan, b->socket, box);
		return false;
	}
	for (i = 0; i < desc->n_ctrs && n < 2; i++) {
		u32 ctl = box_rd(b, ctl_off(b, i));

		if (!ctl_in_use(ctl)) {
			b->ctr[n] = i;
			b->saved[n++] = ctl;
		}
	}
	if (n < 2) {
		snprintf(msg, len,
			 "IMC channel %u of socket %u has no two free counters: another tool (perf's uncore_imc, PCM, likwid) is using them; stop it and retry",
			 b->chan, b->socket);
		return false;
	}
	return true;
}

static void box_restore(struct imc_box *b)
{
	box_wr(b, ctl_off(b, b->ctr[RD]), b->saved[RD]);
	box_wr(b, ctl_off(b, b->ctr[WR]), b->saved[WR]);
	b->programmed = false;
}

static void box_baseline(struct imc_box *b)
{
	memdiag_ext64_start(&b->ext[RD], box_ctr(b, b->ctr[RD]), desc->ctr_bits);
	memdiag_ext64_start(&b->ext[WR], box_ctr(b, b->ctr[WR]), desc->ctr_bits);
}

/**
 * memdiag_imc_start() - program CAS read and write counts on every box
 * @msg: why not, when the return value is negative
 * @len: size of @msg
 *
 * Either every box is programmed or none is.
 */
int memdiag_imc_start(char *msg, size_t len)
{
	unsigned int i;

	for (i = 0; i < n_boxes; i++)
		if (!pick_counters(&boxes[i], msg, len))
			return -EBUSY;

	for (i = 0; i < n_boxes; i++) {
		struct imc_box *b = &boxes[i];

		b->prog[RD] = desc->rd_event | desc->rd_umask << 8 | desc->ctl_en;
		b->prog[WR] = desc->wr_event | desc->wr_umask << 8 | desc->ctl_en;
		box_wr(b, ctl_off(b, b->ctr[RD]), b->prog[RD]);
		box_wr(b, ctl_off(b, b->ctr[WR]), b->prog[WR]);
		b->programmed = true;
		b->lost = false;
		if (box_rd(b, ctl_off(b, b->ctr[RD])) != b->prog[RD] ||
		    box_rd(b, ctl_off(b, b->ctr[WR])) != b->prog[WR]) {
			snprintf(msg, len,
				 "IMC counter control writes on channel %u of socket %u did not stick",
				 b->chan, b->socket);
			while (1) {
				box_restore(&boxes[i]);
				if (!i--)
					break;
			}
			return -EIO;
		}
		box_baseline(b);
	}
	return 0;
}

void memdiag_imc_stop(void)
{
	unsigned int i;

	/* a box another agent took over keeps that agent's values */
	for (i = 0; i < n_boxes; i++) {
		if (boxes[i].programmed && !boxes[i].lost)
			box_restore(&boxes[i]);
		boxes[i].programmed = false;
	}
}

/* Re-check a box's controls; false if the interval is not to be trusted. */
static bool box_check(struct imc_box *b)
{
	bool ok = true;
	int k;

	for (k = RD; k <= WR; k++) {
		u32 ctl = box_rd(b, ctl_off(b, b->ctr[k]));

		if (ctl == b->prog[k])
			continue;
		ok = false;
		if (ctl_in_use(ctl)) {
			/* someone else's now: never clobber it */
			pr_warn_ratelimited("memdiag: IMC channel %u of socket %u was reprogrammed by another agent (0x%x); no longer counting it\n",
					    b->chan, b->socket, ctl);
			b->lost = true;
			return false;
		}
		box_wr(b, ctl_off(b, b->ctr[k]), b->prog[k]);
	}
	if (!ok)
		box_baseline(b);
	return ok;
}

/**
 * memdiag_imc_sample() - add every box's counts into the snapshots
 * @snap: one per socket, indexed by socket
 * @n: number of entries in @snap
 * @dt_ns: time since the last sample, bounding a plausible step
 */
void memdiag_imc_sample(struct memdiag_snap *snap, unsigned int n, u64 dt_ns)
{
	u64 max = div_u64(IMC_MAX_CAS_PER_SEC, 1000) * div_u64(dt_ns, 1000000) +
		  (1ULL << 24);
	unsigned int i;
	int k;

	for (i = 0; i < n_boxes; i++) {
		struct imc_box *b = &boxes[i];
		struct memdiag_snap *s;

		if (b->socket >= n)
			continue;
		s = &snap[b->socket];
		if (b->programmed && !b->lost) {
			if (!box_check(b))
				imc_epoch[b->socket]++;
			else
				for (k = RD; k <= WR; k++)
					if (!memdiag_ext64_update(&b->ext[k],
								  box_ctr(b, b->ctr[k]),
								  desc->ctr_bits, max))
						imc_epoch[b->socket]++;
		}
		s->has_imc = true;
		s->rd_bytes += b->ext[RD].total * 64;
		s->wr_bytes += b->ext[WR].total * 64;
		/* per channel from the same reading as the totals */
		if (s->nr_chan < MEMDIAG_MAX_CHANNELS) {
			s->chan[s->nr_chan].id = b->chan;
			s->chan[s->nr_chan].rd_bytes = b->ext[RD].total * 64;
			s->chan[s->nr_chan].wr_bytes = b->ext[WR].total * 64;
			s->nr_chan++;
		}
	}
	for (i = 0; i < n && i < MEMDIAG_MAX_SOCKETS; i++)
		snap[i].imc_epoch = imc_epoch[i];
}
