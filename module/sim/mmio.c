// SPDX-License-Identifier: GPL-2.0
/*
 * mmio.c - the sim's MMIO: icx and spr channel boxes and spr's PMON
 * discovery tables, mapped only where something is modelled.
 *
 * A mapping must lie inside one region (a channel box, or a discovery
 * table's page), as an ioremap of the real ranges would only make sense
 * there. Within a region, reads of what is not modelled return 0 and
 * writes there are ignored.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/seq_file.h>

#include "sim.h"

/*
 * Discovery table layout (uncore_discovery.h): a global entry, then one
 * entry per unit, each MDSIM_DISC_STRIDE qwords apart.
 */
#define MDSIM_DISC_STRIDE	4		/* in qwords, as the table says */
#define DISC_GLOBAL_CTL		0x2ff0ULL	/* sim's choice: an MSR */
#define DISC_STATUS		(0x08 | 1 << 8)	/* offset 0x8, one status */
#define DISC_ACCESS_SHIFT	62

struct mdsim_map {
	struct list_head node;
	const struct mdsim_region *r;
	u64 off;		/* of the mapping in the region */
	size_t len;
};

static void table_fill(struct mdsim_socket *sock)
{
	const struct mdsim_uarch *ua = mdsim.ua;
	unsigned int i;
	u64 *e;

	sock->table[0] = MDSIM_DISC_STRIDE << 8 | (u64)ua->n_units << 16;
	sock->table[1] = DISC_GLOBAL_CTL;
	sock->table[2] = DISC_STATUS;
	for (i = 0; i < ua->n_units; i++) {
		const struct mdsim_disc_unit *u = &ua->units[i];

		e = &sock->table[(i + 1) * MDSIM_DISC_STRIDE];
		e[0] = MDSIM_BOX_CTRS | u->ctl_off << 8 | MDSIM_CTR_BITS << 16 |
		       u->ctr_off << 24 | (u64)u->status_off << 32 |
		       (u64)u->access << DISC_ACCESS_SHIFT;
		e[1] = u->ctl ? u->ctl : mdsim_box_phys(sock, u->id);
		e[2] = u->type | (u32)u->id << 16;
	}
}

int mdsim_mmio_init(void)
{
	const struct mdsim_uarch *ua = mdsim.ua;
	unsigned int s, i, n = 0;

	if (ua->imc == MDSIM_IMC_PCI)
		return 0;
	if ((ua->n_units + 1) * MDSIM_DISC_STRIDE > MDSIM_TABLE_QWORDS)
		return -EINVAL;
	mdsim.regions = kcalloc(mdsim.n_sockets * (ua->n_chans + 1),
				sizeof(*mdsim.regions), GFP_KERNEL);
	if (!mdsim.regions)
		return -ENOMEM;
	for (s = 0; s < mdsim.n_sockets; s++) {
		struct mdsim_socket *sock = &mdsim.sockets[s];

		for (i = 0; i < ua->n_chans; i++) {
			sock->box[i].phys = mdsim_box_phys(sock, i);
			mdsim.regions[n++] = (struct mdsim_region){
				sock->box[i].phys, MDSIM_BOX_SIZE, s, &sock->box[i] };
		}
		if (ua->imc != MDSIM_IMC_DISCOVERY)
			continue;
		table_fill(sock);
		mdsim.regions[n++] = (struct mdsim_region){
			sock->base, MDSIM_TABLE_SIZE, s, NULL };
	}
	mdsim.n_regions = n;
	return 0;
}

void mdsim_mmio_exit(void)
{
	struct mdsim_map *m, *tmp;
	unsigned int n = 0;

	list_for_each_entry_safe(m, tmp, &mdsim.maps, node) {
		list_del(&m->node);
		kfree(m);
		n++;
	}
	if (n)
		pr_info("%u MMIO mappings were never unmapped\n", n);
	kfree(mdsim.regions);
	mdsim.regions = NULL;
	mdsim.n_regions = 0;
}

void *mdsim_mmio_map(u64 phys, size_t len)
{
	unsigned int i;

	if (mdsim_fault(MDSIM_FAULT_MMIO_MAP, 0))
		return NULL;
	for (i = 0; i < mdsim.n_regions; i++) {
		const struct mdsim_region *r = &mdsim.regions[i];
		struct mdsim_map *m;

		if (!len || len > r->size || phys < r->phys ||
		    phys - r->phys > r->size - len)
			continue;
		m = kzalloc(sizeof(*m), GFP_KERNEL);
		if (!m)
			return NULL;
		m->r = r;
		m->off = phys - r->phys;
		m->len = len;
		mutex_lock(&mdsim.lock);
		list_add_tail(&m->node, &mdsim.maps);
		mutex_unlock(&mdsim.lock);
		return m;
	}
	return NULL;
}

void mdsim_mmio_unmap(void *map)
{
	struct mdsim_map *m = map;

	if (!m)
		return;
	mutex_lock(&mdsim.lock);
	list_del(&m->node);
	mutex_unlock(&mdsim.lock);
	kfree(m);
}

unsigned int mdsim_mmio_maps(void)
{
	struct mdsim_map *m;
	unsigned int n = 0;

	lockdep_assert_held(&mdsim.lock);
	list_for_each_entry(m, &mdsim.maps, node)
		n++;
	return n;
}

/* A naturally aligned access of 4 or 8 bytes inside the mapping. */
static bool access_ok_in(const struct mdsim_map *m, unsigned int off,
			 unsigned int width)
{
	if ((width == 4 || width == 8) && !(off % width) &&
	    off <= m->len - width && width <= m->len)
		return true;
	pr_err_ratelimited("MMIO access of %u bytes at offset 0x%x of a %zu-byte mapping refused\n",
			   width, off, m->len);
	return false;
}

static u64 table_read(const struct mdsim_socket *sock, u64 off,
		      unsigned int width)
{
	u64 q = off / 8 < MDSIM_TABLE_QWORDS ? sock->table[off / 8] : 0;

	return width == 8 ? q : (q >> (off % 8 * 8)) & U32_MAX;
}

u64 mdsim_mmio_read(void *map, unsigned int off, unsigned int width)
{
	struct mdsim_map *m = map;
	const struct mdsim_region *r = m->r;
	u64 ro = m->off + off, v;

	if (!access_ok_in(m, off, width))
		return 0;
	mutex_lock(&mdsim.lock);
	if (r->box) {
		/* one advance, so both halves are of the same moment */
		mdsim_box_advance(r->box);
		v = mdsim_box_read32(r->box, ro);
		if (width == 8)
			v |= (u64)mdsim_box_read32(r->box, ro + 4) << 32;
	} else {
		v = table_read(&mdsim.sockets[r->socket], ro, width);
	}
	mutex_unlock(&mdsim.lock);
	return v;
}

void mdsim_mmio_write(void *map, unsigned int off, unsigned int width, u64 val)
{
	struct mdsim_map *m = map;
	const struct mdsim_region *r = m->r;
	u64 ro = m->off + off;

	/* the discovery table is read-only */
	if (!access_ok_in(m, off, width) || !r->box)
		return;
	mutex_lock(&mdsim.lock);
	mdsim_box_advance(r->box);
	mdsim_box_write32(r->box, ro, lower_32_bits(val));
	if (width == 8)
		mdsim_box_write32(r->box, ro + 4, upper_32_bits(val));
	mutex_unlock(&mdsim.lock);
}

/* The box a debugfs line names; *@box is NULL for the discovery table. */
static int reg_find(const struct mdsim_reg *r, const char *op,
		    struct mdsim_box **box)
{
	const struct mdsim_uarch *ua = mdsim.ua;

	if (r->socket >= mdsim.n_sockets) {
		pr_err("%s: there is no socket %u\n", op, r->socket);
		return -EINVAL;
	}
	if (r->box == MDSIM_TABLE_BOX) {
		if (ua->imc != MDSIM_IMC_DISCOVERY) {
			pr_err("%s: %s has no discovery table\n", op, ua->name);
			return -EINVAL;
		}
		if (r->addr % 8 || r->addr >= MDSIM_TABLE_QWORDS * 8) {
			pr_err("%s: the discovery table has no qword at 0x%x\n",
			       op, r->addr);
			return -EINVAL;
		}
		*box = NULL;
		return 0;
	}
	if (ua->imc == MDSIM_IMC_PCI || r->box < 0 || r->box >= ua->n_chans) {
		pr_err("%s: %s has no MMIO box %d on a socket\n", op, ua->name,
		       r->box);
		return -EINVAL;
	}
	*box = &mdsim.sockets[r->socket].box[r->box];
	return 0;
}

/* debugfs "poke": set a box register or a discovery table qword. */
int mdsim_mmio_poke(const struct mdsim_reg *r, u64 val)
{
	struct mdsim_socket *sock;
	struct mdsim_box *box;
	int err;

	err = reg_find(r, "poke", &box);
	if (err)
		return err;
	if (box)
		return mdsim_box_poke(box, r->addr, val);
	sock = &mdsim.sockets[r->socket];
	sock->table[r->addr / 8] = val;
	sock->table_written |= BIT_ULL(r->addr / 8);
	return 0;
}

int mdsim_mmio_peek(const struct mdsim_reg *r, u64 *val)
{
	struct mdsim_box *box;
	int err;

	err = reg_find(r, "peek", &box);
	if (err)
		return err;
	if (box)
		return mdsim_box_peek(box, r->addr, val);
	*val = mdsim.sockets[r->socket].table[r->addr / 8];
	return 0;
}

/* Every MMIO register written since load: by socket, box, then offset. */
void mdsim_mmio_show(struct seq_file *m)
{
	const struct mdsim_uarch *ua = mdsim.ua;
	unsigned int s, i;
	char name[32];

	if (ua->imc == MDSIM_IMC_PCI)
		return;
	for (s = 0; s < mdsim.n_sockets; s++) {
		struct mdsim_socket *sock = &mdsim.sockets[s];

		for (i = 0; i < ua->n_chans; i++) {
			snprintf(name, sizeof(name), "mmio %u:%u", s, i);
			mdsim_box_show(m, &sock->box[i], name);
		}
		for (i = 0; i < MDSIM_TABLE_QWORDS; i++)
			if (sock->table_written & BIT_ULL(i))
				seq_printf(m, "mmio %u:table 0x%x 0x%llx\n", s,
					   i * 8, sock->table[i]);
	}
}
