// SPDX-License-Identifier: GPL-2.0
/*
 * pci.c - the uncore PCI functions of every socket: the UBOX that maps
 * buses to packages, skx's IMC channel functions, icx's MC base registers
 * and spr's discovery-table capability.
 *
 * Each socket's functions sit on its own bus, and the buses are not in
 * socket order. The UBOX gives node ids that are not the package ids, so
 * only code that reads GIDNIDMAP finds the right package. Config reads of
 * anything not modelled return 0, and writes to read-only or unmodelled
 * registers are ignored, as PCI does not fault.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/seq_file.h>

#include "sim.h"

#define CFG_ID			0x00	/* vendor | device << 16 */
#define CFG_CLASS_REV		0x08
#define CLASS_REV		0x08800000	/* system peripheral, rev 0 */

/* UBOX, SKX and later (uncore_snbep.c SKX_CPUNODEID, SKX_GIDNIDMAP) */
#define UBOX_CPUNODEID		0xc0
#define UBOX_GIDNIDMAP		0xd4

/* icx MC function: MMIO base bits 51:23, and bits 22:12 per MC */
#define MC_BASE			0xd0
#define MC_OFF			0xd8

/* spr discovery function (uncore_discovery.h) */
#define DISC_BAR		0x10
#define DISC_CAP		0x100
#define DVSEC_CAP_ID		0x23
#define DVSEC_HDR1		0x104	/* vendor 15:0, length 31:20 */
#define DVSEC_ID		0x108	/* 1: PMON discovery */
#define DVSEC_BIR		0x10c	/* BAR holding the table: 0 */

/*
 * The node id the sim gives a package: not the identity, and one-to-one
 * over the eight GIDNIDMAP fields, so every field is meaningful.
 */
static u32 node_of(u32 package)
{
	return (package + 5) & 7;
}

static void cfg_add(struct mdsim_fn *fn, u16 off, u32 val)
{
	if (WARN_ON(fn->n_cfg == MDSIM_FN_REGS))
		return;
	fn->cfg[fn->n_cfg++] = (struct mdsim_cfg){ .off = off, .val = val };
}

/* The registers of a function; added in offset order. */
static void fn_fill(struct mdsim_fn *fn, const struct mdsim_fn_desc *d,
		    struct mdsim_socket *sock)
{
	unsigned int i;
	u32 map = 0;
	u64 table;

	switch (d->kind) {
	case MDSIM_FN_UBOX:
		for (i = 0; i < 8; i++)
			map |= node_of(i) << (3 * i);
		cfg_add(fn, UBOX_CPUNODEID, node_of(sock->package));
		cfg_add(fn, UBOX_GIDNIDMAP, map);
		break;
	case MDSIM_FN_CHAN:
		fn->box = &sock->box[d->chan];
		break;
	case MDSIM_FN_MC:
		cfg_add(fn, MC_BASE, sock->base >> 23);
		for (i = 0; i < mdsim.ua->n_chans / MDSIM_CHANS_PER_MC; i++)
			cfg_add(fn, MC_OFF + 4 * i, (i * MDSIM_MC_STRIDE) >> 12);
		break;
	case MDSIM_FN_DISC:
		/* a 64-bit memory BAR: type bits 2:1 = 10b */
		table = sock->base;
		cfg_add(fn, DISC_BAR, lower_32_bits(table) |
			PCI_BASE_ADDRESS_MEM_TYPE_64);
		cfg_add(fn, DISC_BAR + 4, upper_32_bits(table));
		cfg_add(fn, DISC_CAP, DVSEC_CAP_ID | 1 << 16);	/* last capability */
		cfg_add(fn, DVSEC_HDR1, PCI_VENDOR_ID_INTEL | 0x10 << 20);
		cfg_add(fn, DVSEC_ID, 1);
		cfg_add(fn, DVSEC_BIR, 0);
		break;
	}
}

static u32 fn_key(const struct mdsim_fn *fn)
{
	return (u32)fn->domain << 16 | fn->bus << 8 | fn->devfn;
}

static int fn_cmp(const void *a, const void *b)
{
	u32 ka = fn_key(a), kb = fn_key(b);

	return ka < kb ? -1 : ka > kb;
}

int mdsim_pci_init(void)
{
	const struct mdsim_uarch *ua = mdsim.ua;
	unsigned int s, i;

	mdsim.fns = kcalloc(mdsim.n_sockets * ua->n_fns, sizeof(*mdsim.fns),
			    GFP_KERNEL);
	if (!mdsim.fns)
		return -ENOMEM;
	for (s = 0; s < mdsim.n_sockets; s++) {
		struct mdsim_socket *sock = &mdsim.sockets[s];

		for (i = 0; i < ua->n_fns; i++) {
			struct mdsim_fn *fn = &mdsim.fns[mdsim.n_fns++];

			fn->domain = 0;
			fn->bus = sock->bus;
			fn->devfn = PCI_DEVFN(ua->fns[i].dev, ua->fns[i].fn);
			fn->device = ua->fns[i].device;
			fn->socket = s;
			fn_fill(fn, &ua->fns[i], sock);
		}
	}
	sort(mdsim.fns, mdsim.n_fns, sizeof(*mdsim.fns), fn_cmp, NULL);
	return 0;
}

void mdsim_pci_exit(void)
{
	if (mdsim.pci_refs)
		pr_info("%u PCI function references were never put\n",
			mdsim.pci_refs);
	kfree(mdsim.fns);
	mdsim.fns = NULL;
	mdsim.n_fns = 0;
}

int mdsim_pci_get(u16 device, unsigned int index, struct memdiag_pci *pci)
{
	unsigned int i;

	for (i = 0; i < mdsim.n_fns; i++) {
		struct mdsim_fn *fn = &mdsim.fns[i];

		if ((device != 0xffff && fn->device != device) || index--)
			continue;
		pci->domain = fn->domain;
		pci->bus = fn->bus;
		pci->devfn = fn->devfn;
		pci->vendor = PCI_VENDOR_ID_INTEL;
		pci->device = fn->device;
		pci->priv = fn;
		mutex_lock(&mdsim.lock);
		mdsim.pci_refs++;
		mutex_unlock(&mdsim.lock);
		return 0;
	}
	return -ENODEV;
}

void mdsim_pci_put(struct memdiag_pci *pci)
{
	if (!pci->priv)
		return;
	mutex_lock(&mdsim.lock);
	mdsim.pci_refs--;
	mutex_unlock(&mdsim.lock);
	pci->priv = NULL;
}

/*
 * The socket of the CPUs local to a function: the socket the sim put it
 * on, as a real platform tells by the device's NUMA node.
 */
int mdsim_pci_socket(const struct memdiag_pci *pci)
{
	const struct mdsim_fn *fn = pci->priv;

	if (!fn || mdsim_fault(MDSIM_FAULT_PCI_NODE, 0))
		return -1;
	return fn->socket;
}

static struct mdsim_cfg *fn_cfg(struct mdsim_fn *fn, unsigned int off)
{
	unsigned int i;

	for (i = 0; i < fn->n_cfg; i++)
		if (fn->cfg[i].off == off)
			return &fn->cfg[i];
	return NULL;
}

static u32 fn_read(struct mdsim_fn *fn, unsigned int off)
{
	struct mdsim_cfg *cfg;

	if (off == CFG_ID)
		return PCI_VENDOR_ID_INTEL | (u32)fn->device << 16;
	if (off == CFG_CLASS_REV)
		return CLASS_REV;
	cfg = fn_cfg(fn, off);
	if (cfg)
		return cfg->val;
	return fn->box ? mdsim_box_read32(fn->box, off) : 0;
}

static struct mdsim_fn *fn_of(const struct memdiag_pci *pci,
			      unsigned int off)
{
	struct mdsim_fn *fn = pci->priv;

	if (!fn || off % 4 || off >= MDSIM_CFG_SIZE)
		return NULL;
	return fn;
}

int mdsim_pci_read(const struct memdiag_pci *pci, unsigned int off, u32 *val)
{
	struct mdsim_fn *fn = fn_of(pci, off);

	if (!fn)
		return -EINVAL;
	/* a device that went away reads all-ones, without an error */
	if (mdsim_fault(MDSIM_FAULT_PCI_READ, 0)) {
		*val = U32_MAX;
		return 0;
	}
	mutex_lock(&mdsim.lock);
	if (fn->box)
		mdsim_box_advance(fn->box);
	*val = fn_read(fn, off);
	mutex_unlock(&mdsim.lock);
	return 0;
}

int mdsim_pci_write(const struct memdiag_pci *pci, unsigned int off, u32 val)
{
	struct mdsim_fn *fn = fn_of(pci, off);

	if (!fn)
		return -EINVAL;
	mutex_lock(&mdsim.lock);
	/* every other modelled register is read-only */
	if (fn->box) {
		mdsim_box_advance(fn->box);
		mdsim_box_write32(fn->box, off, val);
	}
	mutex_unlock(&mdsim.lock);
	return 0;
}

static struct mdsim_fn *fn_find(const struct mdsim_reg *r, const char *op)
{
	unsigned int i;

	for (i = 0; i < mdsim.n_fns; i++)
		if (mdsim.fns[i].domain == r->domain &&
		    mdsim.fns[i].bus == r->bus && mdsim.fns[i].devfn == r->devfn)
			return &mdsim.fns[i];
	pr_err("%s: there is no PCI function %04x:%02x:%02x.%x\n", op,
	       r->domain, r->bus, PCI_SLOT(r->devfn), PCI_FUNC(r->devfn));
	return NULL;
}

/* debugfs "poke": set a config register, read-only ones included. */
int mdsim_pci_poke(const struct mdsim_reg *r, u64 val)
{
	struct mdsim_fn *fn = fn_find(r, "poke");
	struct mdsim_cfg *cfg;

	if (!fn)
		return -EINVAL;
	cfg = fn_cfg(fn, r->addr);
	if (cfg) {
		if (val > U32_MAX) {
			pr_err("poke: config register 0x%x cannot hold 0x%llx\n",
			       r->addr, val);
			return -EINVAL;
		}
		cfg->val = val;
		cfg->written = true;
		return 0;
	}
	if (fn->box && r->addr != CFG_ID && r->addr != CFG_CLASS_REV)
		return mdsim_box_poke(fn->box, r->addr, val);
	pr_err("poke: config offset 0x%x is not a register the sim lets you set\n",
	       r->addr);
	return -EINVAL;
}

int mdsim_pci_peek(const struct mdsim_reg *r, u64 *val)
{
	struct mdsim_fn *fn = fn_find(r, "peek");

	if (!fn)
		return -EINVAL;
	if (r->addr == CFG_ID || r->addr == CFG_CLASS_REV || fn_cfg(fn, r->addr)) {
		*val = fn_read(fn, r->addr);
		return 0;
	}
	if (fn->box)
		return mdsim_box_peek(fn->box, r->addr, val);
	pr_err("peek: config offset 0x%x is not modelled\n", r->addr);
	return -EINVAL;
}

/* Every config register written since load, by function then offset. */
void mdsim_pci_show(struct seq_file *m)
{
	char bdf[32];
	unsigned int i, k;

	for (i = 0; i < mdsim.n_fns; i++) {
		struct mdsim_fn *fn = &mdsim.fns[i];

		snprintf(bdf, sizeof(bdf), "pci %04x:%02x:%02x.%x", fn->domain,
			 fn->bus, PCI_SLOT(fn->devfn), PCI_FUNC(fn->devfn));
		/* a function has either plain registers or a box, not both */
		for (k = 0; k < fn->n_cfg; k++)
			if (fn->cfg[k].written)
				seq_printf(m, "%s 0x%x 0x%x\n", bdf, fn->cfg[k].off,
					   fn->cfg[k].val);
		if (fn->box)
			mdsim_box_show(m, fn->box, bdf);
	}
}
