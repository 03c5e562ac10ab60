// SPDX-License-Identifier: GPL-2.0
/*
 * imc_find.c - find every memory controller channel's PMON box at load and
 * tell which socket it belongs to: PCI devices (Haswell-EP to Cascade
 * Lake-SP), MMIO imc_boxes behind a PCI BAR (Ice Lake-SP) or the PMON
 * discovery tables (Sapphire/Emerald Rapids with the UBOX's bus map,
 * Granite Rapids and Sierra Forest by the table device's locality).
 * Firmware tables are input: every read is bounded by its mapping.
 */
#include <linux/kernel.h>
#include <linux/bitfield.h>
#include <linux/slab.h>
#include <linux/pci.h>

#include "memdiag.h"
#include "imc.h"

/* PCI extended capabilities: the next one's offset is all 12 bits */
#define EXT_CAP_START		0x100
#define EXT_CAP_NEXT		GENMASK(31, 20)

/*
 * The PMON discovery table (uncore_discovery.h): a DVSEC capability names
 * the BAR holding it. The table is a global entry and one entry per unit,
 * each a stride apart, both at least three qwords: the fields memdiag
 * reads are below, by qword.
 */
#define DVSEC_CAP_ID		0x23	/* uncore_discovery.h */
#define DVSEC_ID_REG		0x8
#define DVSEC_ID_MASK		GENMASK(15, 0)
#define DVSEC_ID_PMON		0x1
#define DVSEC_BIR_REG		0xc
#define DVSEC_BIR_MASK		GENMASK(2, 0)
#define DISCOVERY_BAR0		0x10
#define DISCOVERY_ENTRY_SIZE	(3 * sizeof(u64))
/* the global entry's qword 0 */
#define DISC_GLOBAL_STRIDE	GENMASK_ULL(15, 8)	/* in qwords */
#define DISC_GLOBAL_MAX_UNITS	GENMASK_ULL(25, 16)
/* a unit's qword 0 */
#define DISC_UNIT_CTL_OFFSET	GENMASK_ULL(15, 8)	/* counter control 0 */
#define DISC_UNIT_CTR_BITS	GENMASK_ULL(23, 16)
#define DISC_UNIT_CTR_OFFSET	GENMASK_ULL(31, 24)	/* counter 0 */
#define DISC_UNIT_ACCESS	GENMASK_ULL(63, 62)
#define DISC_ACCESS_MMIO	1
/* a unit's qword 1 is its box's address; qword 2: */
#define DISC_UNIT_BOX_TYPE	GENMASK_ULL(15, 0)

/*
 * Ice Lake-SP: a memory controller's MMIO base is the socket's base
 * (address bits 51:23) plus the controller's offset (address bits 22:12),
 * each in a config register of the MC device (uncore_snbep.c
 * SNR_IMC_MMIO_BASE_MASK, SNR_IMC_MMIO_MEM0_MASK).
 */
#define ICX_MMIO_BASE		GENMASK(28, 0)
#define ICX_MMIO_BASE_SHIFT	23
#define ICX_MMIO_MEM		GENMASK(10, 0)
#define ICX_MMIO_MEM_SHIFT	12

const struct memdiag_imc_desc *imc_desc;
const struct memdiag_imc_box_type *imc_type;
struct imc_box *imc_boxes;
unsigned int imc_n_boxes;
static unsigned int max_boxes;

/* PCI bus -> socket of domain 0..N; -1 unknown */
struct bus_map {
	u16 domain;
	s16 socket[256];
};

static struct bus_map *bus_maps;
static unsigned int n_bus_maps;

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
 * The socket of the UBOX @pci. A config read that fails or returns
 * all-ones (the device is gone, or the read was dropped) is no node id:
 * taking its low bits as node 7 would find 7 in an all-ones GIDNIDMAP
 * too and put every bus on socket 0, so the whole mapping fails instead.
 */
static int ubox_socket(const struct memdiag_pci *pci, int *socket,
		       char *reason, size_t len)
{
	u32 node, map;
	unsigned int i;

	if (plat()->pci_read(pci, imc_desc->ubox_nodeid, &node) || node == ~0u ||
	    plat()->pci_read(pci, imc_desc->ubox_gidnidmap, &map) || map == ~0u) {
		snprintf(reason, len,
			 "UBOX node id unreadable (PCI %04x:%02x:%02x.%x reads all-ones or fails)",
			 pci->domain, pci->bus, PCI_SLOT(pci->devfn),
			 PCI_FUNC(pci->devfn));
		return -EIO;
	}
	node &= 0x7;
	*socket = -1;
	for (i = 0; i < 8; i++)
		if (((map >> (3 * i)) & 0x7) == node) {
			*socket = memdiag_package_to_socket(i);
			break;
		}
	return 0;
}

/*
 * Map buses to sockets as the kernel's uncore driver does: each socket's
 * UBOX holds its node id, and GIDNIDMAP lists the node id of every
 * package, so the index holding our node id is the physical package id.
 * Buses without a UBOX take the mapping of the nearest UBOX bus above
 * (ubox_reverse) or below. PCI bus order says nothing about sockets.
 * Returns -ENODEV when there is no UBOX, -EIO (with @reason) when one
 * cannot be read.
 */
static int ubox_map(char *reason, size_t len)
{
	struct memdiag_pci pci;
	unsigned int idx, i;
	struct bus_map *m;
	int s, err;

	for (idx = 0; !plat()->pci_get(imc_desc->ubox_device, idx, &pci); idx++) {
		err = ubox_socket(&pci, &s, reason, len);
		m = err ? NULL : bus_map_of(pci.domain, true);
		if (m)
			m->socket[pci.bus] = s;
		plat()->pci_put(&pci);
		if (err)
			return err;
		if (!m)
			return -ENOMEM;
	}
	if (!idx)
		return -ENODEV;

	for (i = 0; i < n_bus_maps; i++) {
		int b, cur = -1;

		m = &bus_maps[i];
		for (b = 0; b < 256; b++) {
			int bus = imc_desc->ubox_reverse ? 255 - b : b;

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
	if (imc_n_boxes == max_boxes) {
		unsigned int n = max_boxes ? 2 * max_boxes : 16;

		b = krealloc(imc_boxes, n * sizeof(*b), GFP_KERNEL);
		if (!b)
			return NULL;
		imc_boxes = b;
		max_boxes = n;
	}
	b = &imc_boxes[imc_n_boxes++];
	memset(b, 0, sizeof(*b));
	b->socket = socket;
	b->chan = chan;
	b->ctl0 = imc_type->ctl0;
	b->ctr0 = imc_type->ctr0;
	b->n_ctrs = imc_type->n_ctrs;
	return b;
}

/*
 * AMD UMC: CPUID 0x80000022 gives the UMC counters (EBX[21:16]) and the
 * active UMCs (ECX); the i-th active UMC owns counters i*n .. i*n+n-1 of
 * every socket's MSR range (amd/uncore.c amd_uncore_umc_ctx_init()).
 */
static void find_msr_boxes(const struct memdiag_cpu_ident *id)
{
	unsigned int n_umc = hweight32(id->cpuid_ext22_ecx);
	unsigned int per = n_umc ? ((id->cpuid_ext22_ebx >> 16) & 0x3f) / n_umc : 0;
	unsigned int s, i, k = 0;
	struct imc_box *b;

	for (i = 0; per && i < 32; i++) {
		if (!(id->cpuid_ext22_ecx & BIT(i)))
			continue;
		/* every socket, online or not: hotplug claims it (imc.c) */
		for (s = 0; s < memdiag_max_sockets(); s++) {
			b = box_add(s, i);
			if (!b)
				return;
			b->ctl0 = imc_type->ctl0 + k * per * imc_type->ctl_stride;
			b->ctr0 = imc_type->ctr0 + k * per * imc_type->ctr_stride;
			b->n_ctrs = min_t(unsigned int, per, MEMDIAG_IMC_MAX_EVENTS);
		}
		k++;
	}
}

/*
 * AMD's Data Fabric (Zen 2/3): CPUID 0x80000001 ECX bit 24 (PerfCtrExtNB)
 * says the counters exist; one node per socket, a box standing for it.
 */
static int find_df_nodes(struct memdiag_state *st, char *reason, size_t len)
{
	unsigned int s;

	if (!st->ident.perfctr_nb) {
		snprintf(reason, len,
			 "CPUID leaf 0x80000001 reports no %s Data Fabric counters (PerfCtrExtNB)%s",
			 st->uarch->name, st->ident.hypervisor ?
			 " (this is a virtual machine; the hypervisor does not expose them)" : "");
		return -ENODEV;
	}
	/* a node for every socket: one with no CPU online waits for one */
	for (s = 0; s < memdiag_max_sockets(); s++) {
		if (!box_add(s, 0))
			return -ENOMEM;
		memdiag_df_nodes_init(s, st->uarch->imc->n_events);
	}
	return 0;
}

static void find_pci_boxes(void)
{
	struct memdiag_pci pci;
	unsigned int c, idx;
	struct imc_box *b;

	for (c = 0; c < imc_desc->n_chans; c++) {
		const struct memdiag_imc_chan *ch = &imc_desc->chans[c];

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

	for (idx = 0; !plat()->pci_get(imc_desc->mc_device, idx, &pci); idx++) {
		int socket = bus_socket(&pci);

		if (plat()->pci_read(&pci, imc_desc->mc_base_reg, &base))
			goto next;
		for (mc = 0; mc < imc_desc->n_mc; mc++) {
			u64 phys;

			if (plat()->pci_read(&pci, imc_desc->mc_off_reg + 4 * mc, &off))
				continue;
			phys = (u64)FIELD_GET(ICX_MMIO_BASE, base) << ICX_MMIO_BASE_SHIFT |
			       (u64)FIELD_GET(ICX_MMIO_MEM, off) << ICX_MMIO_MEM_SHIFT;
			if (!phys)
				continue;
			for (ch = 0; ch < imc_desc->chans_per_mc; ch++) {
				map = plat()->mmio_map(phys + imc_desc->chan_base +
						       ch * imc_desc->chan_stride,
						       imc_type->box_size);
				if (!map)
					continue;
				b = box_add(socket, mc * imc_desc->chans_per_mc + ch);
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

/* Do the controls at @ctl0 and counters at @ctr0 lie inside a box? */
static bool regs_fit(unsigned int ctl0, unsigned int ctr0)
{
	unsigned int last = imc_type->n_ctrs - 1;

	return ctl0 + last * imc_type->ctl_stride + sizeof(u32) <= imc_type->box_size &&
	       ctr0 + last * imc_type->ctr_stride + sizeof(u64) <= imc_type->box_size;
}

/* Boxes of @socket found so far: a socket may have a table per die. */
static unsigned int socket_boxes(int socket)
{
	unsigned int i, n = 0;

	for (i = 0; i < imc_n_boxes; i++)
		n += imc_boxes[i].socket == socket;
	return n;
}

/* Parse one PMON discovery table and add its IMC units of @socket. */
static void parse_discovery(u64 phys, int socket)
{
	unsigned int stride, units, i, chan = socket_boxes(socket);
	void *map;
	u64 q0;

	map = plat()->mmio_map(phys, DISCOVERY_ENTRY_SIZE);
	if (!map)
		return;
	q0 = read_q(map, 0);
	plat()->mmio_unmap(map);
	/*
	 * Firmware input: every read below stays inside the mapping. Each
	 * unit's entry is three qwords, so a shorter stride is refused; the
	 * field widths bound the mapping to 2 MiB.
	 */
	stride = FIELD_GET(DISC_GLOBAL_STRIDE, q0) * sizeof(u64);
	units = FIELD_GET(DISC_GLOBAL_MAX_UNITS, q0);
	if (stride < DISCOVERY_ENTRY_SIZE || !units)
		return;

	map = plat()->mmio_map(phys, (units + 1) * stride);
	if (!map)
		return;
	for (i = 1; i <= units; i++) {
		u64 u0 = read_q(map, i * stride);
		u64 addr = read_q(map, i * stride + sizeof(u64));
		u64 u2 = read_q(map, i * stride + 2 * sizeof(u64));
		unsigned int ctl0 = FIELD_GET(DISC_UNIT_CTL_OFFSET, u0);
		unsigned int ctr0 = FIELD_GET(DISC_UNIT_CTR_OFFSET, u0);
		struct imc_box *b;
		void *box;

		if (FIELD_GET(DISC_UNIT_BOX_TYPE, u2) != imc_desc->discovery_type ||
		    FIELD_GET(DISC_UNIT_ACCESS, u0) != DISC_ACCESS_MMIO || !addr ||
		    FIELD_GET(DISC_UNIT_CTR_BITS, u0) != imc_type->ctr_bits ||
		    !regs_fit(ctl0, ctr0))
			continue;
		box = plat()->mmio_map(addr, imc_type->box_size);
		if (!box)
			continue;
		b = box_add(socket, chan++);
		if (!b) {
			plat()->mmio_unmap(box);
			continue;
		}
		b->map = box;
		b->ctl0 = ctl0;
		b->ctr0 = ctr0;
	}
	plat()->mmio_unmap(map);
}

/*
 * The memory address in BAR @bir; firmware input: only BARs 0-5, memory
 * BARs, and a 64-bit BAR only where its upper half is a BAR too.
 */
static int bar_address(const struct memdiag_pci *pci, unsigned int bir,
		       u64 *phys)
{
	unsigned int off = DISCOVERY_BAR0 + 4 * bir;
	u32 lo, hi = 0;

	if (bir > 5 || plat()->pci_read(pci, off, &lo) ||
	    (lo & PCI_BASE_ADDRESS_SPACE_IO))
		return -EINVAL;
	if ((lo & PCI_BASE_ADDRESS_MEM_TYPE_MASK) == PCI_BASE_ADDRESS_MEM_TYPE_64 &&
	    (bir == 5 || plat()->pci_read(pci, off + 4, &hi)))
		return -EINVAL;
	*phys = ((u64)hi << 32 | lo) & PCI_BASE_ADDRESS_MEM_MASK;
	return *phys ? 0 : -EINVAL;
}

/*
 * The socket of a discovery table's device: by the UBOX's bus map
 * (Sapphire/Emerald Rapids), or (Granite Rapids on, which has no such
 * UBOX) by the CPUs local to the device; where the platform cannot tell,
 * the kernel's fallback: tables belong to sockets in the order found
 * (uncore_discovery.c get_device_die_id()), counted in @order.
 */
static int table_socket(const struct memdiag_pci *pci, int *order)
{
	int s = -1;

	if (imc_desc->socket_map == MEMDIAG_IMC_MAP_UBOX)
		return bus_socket(pci);
	if (plat()->pci_socket)
		s = plat()->pci_socket(pci);
	return s >= 0 ? s : (*order)++;
}

/* Sapphire Rapids on: PMON discovery tables behind a DVSEC capability. */
static void find_discovery_boxes(void)
{
	struct memdiag_pci pci;
	unsigned int idx, ttl;
	u32 hdr, id, bir;
	int pos, order = 0;
	u64 phys;

	for (idx = 0; !plat()->pci_get(0xffff, idx, &pci); idx++) {
		pos = EXT_CAP_START;
		for (ttl = 0; ttl < 64 && pos >= EXT_CAP_START; ttl++) {
			if (plat()->pci_read(&pci, pos, &hdr) || !hdr || hdr == ~0u)
				break;
			if (PCI_EXT_CAP_ID(hdr) == DVSEC_CAP_ID &&
			    !plat()->pci_read(&pci, pos + DVSEC_ID_REG, &id) &&
			    FIELD_GET(DVSEC_ID_MASK, id) == DVSEC_ID_PMON &&
			    !plat()->pci_read(&pci, pos + DVSEC_BIR_REG, &bir) &&
			    !bar_address(&pci, FIELD_GET(DVSEC_BIR_MASK, bir), &phys))
				parse_discovery(phys, table_socket(&pci, &order));
			pos = FIELD_GET(EXT_CAP_NEXT, hdr);
		}
		plat()->pci_put(&pci);
	}
}

/**
 * memdiag_imc_discover() - find the IMC channel imc_boxes of every socket
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

	imc_desc = u->imc;
	imc_type = imc_desc->box;
	if (imc_type->access == MEMDIAG_IMC_DF)
		return find_df_nodes(st, reason, len);
	if (imc_type->access == MEMDIAG_IMC_MSR) {
		find_msr_boxes(&st->ident);
		if (imc_n_boxes)
			return 0;
		snprintf(reason, len,
			 "CPUID leaf 0x80000022 reports no %s UMC counters (EBX 0x%x, active UMCs 0x%x)%s",
			 u->name, st->ident.cpuid_ext22_ebx,
			 st->ident.cpuid_ext22_ecx, vm);
		return -ENODEV;
	}
	err = imc_desc->socket_map == MEMDIAG_IMC_MAP_UBOX ? ubox_map(reason, len) : 0;
	if (err == -EIO)
		return err;
	if (err) {
		snprintf(reason, len,
			 "no %s UBOX PCI device (8086:%04x) found to map memory controllers to sockets%s",
			 u->name, imc_desc->ubox_device, vm);
		return err;
	}
	if (imc_type->access == MEMDIAG_IMC_PCI)
		find_pci_boxes();
	else if (imc_type->access == MEMDIAG_IMC_MMIO)
		find_mmio_boxes();
	else
		find_discovery_boxes();
	if (!imc_n_boxes) {
		snprintf(reason, len,
			 "no %s memory controller PMON box found%s", u->name, vm);
		return -ENODEV;
	}
	return 0;
}

void memdiag_imc_free(void)
{
	unsigned int i;

	for (i = 0; i < imc_n_boxes; i++) {
		if (imc_boxes[i].map)
			plat()->mmio_unmap(imc_boxes[i].map);
		if (imc_boxes[i].has_pci)
			plat()->pci_put(&imc_boxes[i].pci);
	}
	kfree(imc_boxes);
	kfree(bus_maps);
	imc_boxes = NULL;
	bus_maps = NULL;
	imc_n_boxes = 0;
	max_boxes = 0;
	n_bus_maps = 0;
}
