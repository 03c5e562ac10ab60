// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - the sim's control surface in /sys/kernel/debug/memdiag_sim/.
 *
 * socketN/read_bw_mbps, write_bw_mbps
 *	CAS reads and writes of the socket, in 10^6 bytes/s, spread evenly
 *	over its channels (each CAS moves 64 bytes); on zen2 and zen3 channel
 *	i carries (i + 1) / 36 of them (uarch.c).
 * socketN/load_latency_cycles, l1_miss_per_sec, lfb_hit_per_sec,
 * socketN/offcore_read_mbps
 *	what each CPU of the socket counts: L1D_PEND_MISS.PENDING grows by
 *	latency * (misses + fill-buffer hits) per second, the offcore read
 *	event by offcore_read_mbps * 10^6 / 64 per second.
 *	Changing a rate first brings every counter up to date at the old one.
 * cpuN/offcore_read_mbps
 *	the offcore read event of CPU N alone, in place of its socket's
 *	(0, the default: the socket's), as if each CPU ran its own load.
 * socketN/inject
 *	"EVENT COUNT" adds COUNT events at once to every counter counting
 *	EVENT on the socket: cas_rd and cas_wr are spread over the channels,
 *	l1_miss, lfb_hit, l1d_pend, offcore_rd, instructions and cycles over
 *	the online CPUs, the remainder going to the lowest ones.
 * regs
 *	every register written since the sim was loaded, by software through
 *	the platform ops or by poke, with its current value, one per line:
 *	  msr CPU ADDR VALUE
 *	  pci DDDD:BB:DD.F OFFSET VALUE	  (a config dword)
 *	  mmio SOCKET:BOX OFFSET VALUE	  (BOX: channel box, or "table", the
 *					   spr discovery table, by qword)
 *	CPU, SOCKET and BOX in decimal, the rest in hex with 0x. Sorted by
 *	kind (mmio, msr, pci), then CPU/function/box, then offset. An MSR
 *	its CPUs share (AMD's L3 PMU of a CCX, UMCs or DF of a socket) is listed
 *	under the first possible CPU that shares it, whichever CPU wrote it.
 * poke
 *	one such line sets a register directly: read-only registers and
 *	counters included, without any side effect of a write (no reset, no
 *	sign extension), so tests can preset counters, take a counter away
 *	("in use by someone else") or change what discovery finds. A value
 *	with bits the register cannot hold is refused.
 * peek
 *	write such a line without its VALUE to choose a register; each read
 *	then returns its line with the current value, so a counter can be
 *	read repeatedly: echo "msr 0 0xc1" > peek; cat peek; cat peek
 * refs
 *	PCI function references and MMIO mappings currently handed out.
 * fail_*
 *	fault injection, see fault.c.
 * kcsan_canary
 *	a planted data race for make check-kcsan, see kcsan_canary.c.
 *
 * Bad input fails the write with EINVAL and a kernel message giving the
 * expected format.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/pci.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "sim.h"

#define LINE_MAX_LEN	128

struct knob_ref {
	unsigned int socket, knob;
};

static const char * const knob_names[MDSIM_KNOB_NR] = {
	[MDSIM_KNOB_READ_BW]	= "read_bw_mbps",
	[MDSIM_KNOB_WRITE_BW]	= "write_bw_mbps",
	[MDSIM_KNOB_LATENCY]	= "load_latency_cycles",
	[MDSIM_KNOB_L1_MISS]	= "l1_miss_per_sec",
	[MDSIM_KNOB_LFB_HIT]	= "lfb_hit_per_sec",
	[MDSIM_KNOB_OFFCORE]	= "offcore_read_mbps",
	[MDSIM_KNOB_L3_LATENCY]	= "l3_dram_latency_cycles",
	[MDSIM_KNOB_L3_NEAR]	= "l3_dram_near_per_sec",
	[MDSIM_KNOB_L3_FAR]	= "l3_dram_far_per_sec",
};

static const struct {
	const char *name;
	bool imc;
	unsigned int kind;
} inject_events[] = {
	{ "cas_rd",	  true,	 MDSIM_K_CAS_RD },
	{ "cas_wr",	  true,	 MDSIM_K_CAS_WR },
	{ "l1_miss",	  false, MDSIM_K_L1_MISS },
	{ "lfb_hit",	  false, MDSIM_K_LFB_HIT },
	{ "l1d_pend",	  false, MDSIM_K_PEND },
	{ "offcore_rd",	  false, MDSIM_K_OFFCORE },
	{ "instructions", false, MDSIM_K_INSTR },
	{ "cycles",	  false, MDSIM_K_CYCLES },
};

static struct dentry *root;
static struct knob_ref *knob_refs;
static struct mdsim_reg peek_reg;
static bool peek_set;

static int knob_get(void *data, u64 *val)
{
	struct knob_ref *k = data;

	mutex_lock(&mdsim.lock);
	*val = mdsim.sockets[k->socket].knob[k->knob];
	mutex_unlock(&mdsim.lock);
	return 0;
}

static int knob_set(void *data, u64 val)
{
	struct knob_ref *k = data;
	struct mdsim_socket *sock = &mdsim.sockets[k->socket];
	u64 knob[MDSIM_KNOB_NR], rate[MDSIM_CORE_NR];

	mutex_lock(&mdsim.lock);
	memcpy(knob, sock->knob, sizeof(knob));
	knob[k->knob] = val;
	if (mdsim_core_rates(knob, rate) || mdsim_l3_rates(knob)) {
		mutex_unlock(&mdsim.lock);
		pr_err("socket%u/%s: %llu makes a per-second count overflow 64 bits\n",
		       k->socket, knob_names[k->knob], val);
		return -EINVAL;
	}
	/* the clocks still hold the old rates: they bring counters up to date */
	sock->knob[k->knob] = val;
	if (k->knob == MDSIM_KNOB_READ_BW || k->knob == MDSIM_KNOB_WRITE_BW)
		mdsim_imc_knob_changed(k->socket);
	else if (k->knob >= MDSIM_KNOB_L3_LATENCY)
		mdsim_l3_knob_changed(k->socket);
	else
		mdsim_core_knob_changed(k->socket);
	mutex_unlock(&mdsim.lock);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(knob_fops, knob_get, knob_set, "%llu\n");

/* Copy a line written by the user, without surrounding white space. */
static char *line_from_user(char *buf, const char __user *ubuf, size_t len)
{
	if (len >= LINE_MAX_LEN)
		return ERR_PTR(-EINVAL);
	if (copy_from_user(buf, ubuf, len))
		return ERR_PTR(-EFAULT);
	buf[len] = '\0';
	return strim(buf);
}

/* The next white-space separated word of *@p, or NULL. */
static char *next_tok(char **p)
{
	char *t;

	do {
		t = strsep(p, " \t\n");
	} while (t && !*t);
	return t;
}

static ssize_t inject_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	struct mdsim_socket *sock = file->private_data;
	char buf[LINE_MAX_LEN], *line, *p, *name, *num;
	unsigned int i;
	u64 count;
	int err;

	line = line_from_user(buf, ubuf, len);
	if (IS_ERR(line))
		return PTR_ERR(line);
	p = line;
	name = next_tok(&p);
	num = next_tok(&p);
	for (i = 0; name && i < ARRAY_SIZE(inject_events); i++)
		if (!strcmp(name, inject_events[i].name))
			break;
	if (!name || i == ARRAY_SIZE(inject_events) || !num ||
	    kstrtou64(num, 0, &count) || next_tok(&p)) {
		pr_err("socket%u/inject: expected 'EVENT COUNT', EVENT one of cas_rd, cas_wr, l1_miss, lfb_hit, l1d_pend, offcore_rd, instructions, cycles\n",
		       sock->id);
		return -EINVAL;
	}
	mutex_lock(&mdsim.lock);
	if (inject_events[i].imc)
		err = mdsim_imc_inject(sock->id, inject_events[i].kind, count);
	else
		err = mdsim_core_inject(sock->id, inject_events[i].kind, count);
	mutex_unlock(&mdsim.lock);
	if (err) {
		pr_err("socket%u/inject: the socket has no online CPU\n",
		       sock->id);
		return err;
	}
	return len;
}

static const struct file_operations inject_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= inject_write,
	.llseek	= noop_llseek,
};

static void bad_line(const char *op, const char *line, const char *v)
{
	pr_err("%s: cannot parse '%s': expected 'msr CPU ADDR%s', 'pci DDDD:BB:DD.F OFFSET%s' or 'mmio SOCKET:BOX OFFSET%s' (BOX a number or 'table'; CPU, SOCKET and BOX decimal, the rest hex)\n",
	       op, line, v, v, v);
}

static int parse_u32(const char *s, unsigned int base, u32 *val)
{
	return s ? kstrtou32(s, base, val) : -EINVAL;
}

static int parse_bdf(const char *s, struct mdsim_reg *r)
{
	unsigned int dom, bus, dev, fn;
	int n = 0;

	if (!s || sscanf(s, "%x:%x:%x.%x%n", &dom, &bus, &dev, &fn, &n) != 4 ||
	    s[n] || dom > 0xffff || bus > 0xff || dev > 0x1f || fn > 7)
		return -EINVAL;
	r->domain = dom;
	r->bus = bus;
	r->devfn = PCI_DEVFN(dev, fn);
	return 0;
}

static int parse_box(char *s, struct mdsim_reg *r)
{
	char *sock = s ? strsep(&s, ":") : NULL;
	u32 box;

	if (!sock || !s || kstrtou32(sock, 10, &r->socket))
		return -EINVAL;
	if (!strcmp(s, "table")) {
		r->box = MDSIM_TABLE_BOX;
		return 0;
	}
	if (kstrtou32(s, 10, &box) || box > INT_MAX)
		return -EINVAL;
	r->box = box;
	return 0;
}

/* "SPACE WHERE ADDR [VALUE]": @val NULL for a line without value. */
static int parse_reg(char *line, struct mdsim_reg *r, u64 *val)
{
	char *p = line, *space = next_tok(&p);
	int err;

	memset(r, 0, sizeof(*r));
	if (!space)
		return -EINVAL;
	if (!strcmp(space, "msr")) {
		r->space = MDSIM_MSR;
		err = parse_u32(next_tok(&p), 10, &r->cpu);
	} else if (!strcmp(space, "pci")) {
		r->space = MDSIM_PCI;
		err = parse_bdf(next_tok(&p), r);
	} else if (!strcmp(space, "mmio")) {
		r->space = MDSIM_MMIO;
		err = parse_box(next_tok(&p), r);
	} else {
		return -EINVAL;
	}
	if (err || parse_u32(next_tok(&p), 16, &r->addr))
		return -EINVAL;
	if (val) {
		char *v = next_tok(&p);

		if (!v || kstrtou64(v, 16, val))
			return -EINVAL;
	}
	return next_tok(&p) ? -EINVAL : 0;
}

static int reg_poke(const struct mdsim_reg *r, u64 val)
{
	switch (r->space) {
	case MDSIM_MSR:
		return mdsim_core_poke(r->cpu, r->addr, val);
	case MDSIM_PCI:
		return mdsim_pci_poke(r, val);
	default:
		return mdsim_mmio_poke(r, val);
	}
}

static int reg_peek(const struct mdsim_reg *r, u64 *val)
{
	switch (r->space) {
	case MDSIM_MSR:
		return mdsim_core_peek(r->cpu, r->addr, val);
	case MDSIM_PCI:
		return mdsim_pci_peek(r, val);
	default:
		return mdsim_mmio_peek(r, val);
	}
}

static void reg_print(struct seq_file *m, const struct mdsim_reg *r, u64 val)
{
	switch (r->space) {
	case MDSIM_MSR:
		seq_printf(m, "msr %u 0x%x 0x%llx\n", r->cpu, r->addr, val);
		break;
	case MDSIM_PCI:
		seq_printf(m, "pci %04x:%02x:%02x.%x 0x%x 0x%llx\n", r->domain,
			   r->bus, PCI_SLOT(r->devfn), PCI_FUNC(r->devfn),
			   r->addr, val);
		break;
	default:
		if (r->box == MDSIM_TABLE_BOX)
			seq_printf(m, "mmio %u:table 0x%x 0x%llx\n", r->socket,
				   r->addr, val);
		else
			seq_printf(m, "mmio %u:%d 0x%x 0x%llx\n", r->socket,
				   r->box, r->addr, val);
	}
}

static ssize_t poke_write(struct file *file, const char __user *ubuf,
			  size_t len, loff_t *ppos)
{
	char buf[LINE_MAX_LEN], copy[LINE_MAX_LEN], *line;
	struct mdsim_reg r;
	u64 val;
	int err;

	line = line_from_user(buf, ubuf, len);
	if (IS_ERR(line))
		return PTR_ERR(line);
	strscpy(copy, line, sizeof(copy));
	if (parse_reg(line, &r, &val)) {
		bad_line("poke", copy, " VALUE");
		return -EINVAL;
	}
	mutex_lock(&mdsim.lock);
	err = reg_poke(&r, val);
	mutex_unlock(&mdsim.lock);
	return err ? err : len;
}

static const struct file_operations poke_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= poke_write,
	.llseek	= noop_llseek,
};

static int peek_show(struct seq_file *m, void *v)
{
	u64 val;
	int err = -ENODATA;

	mutex_lock(&mdsim.lock);
	if (peek_set) {
		err = reg_peek(&peek_reg, &val);
		if (!err)
			reg_print(m, &peek_reg, val);
	}
	mutex_unlock(&mdsim.lock);
	return err;
}

static int peek_open(struct inode *inode, struct file *file)
{
	return single_open(file, peek_show, NULL);
}

static ssize_t peek_write(struct file *file, const char __user *ubuf,
			  size_t len, loff_t *ppos)
{
	char buf[LINE_MAX_LEN], copy[LINE_MAX_LEN], *line;
	struct mdsim_reg r;
	u64 val;
	int err;

	line = line_from_user(buf, ubuf, len);
	if (IS_ERR(line))
		return PTR_ERR(line);
	strscpy(copy, line, sizeof(copy));
	if (parse_reg(line, &r, NULL)) {
		bad_line("peek", copy, "");
		return -EINVAL;
	}
	mutex_lock(&mdsim.lock);
	/* refuse a register that is not there now, not at the next read */
	err = reg_peek(&r, &val);
	if (!err) {
		peek_reg = r;
		peek_set = true;
	}
	mutex_unlock(&mdsim.lock);
	return err ? err : len;
}

static const struct file_operations peek_fops = {
	.owner		= THIS_MODULE,
	.open		= peek_open,
	.read		= seq_read,
	.write		= peek_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int regs_show(struct seq_file *m, void *v)
{
	mutex_lock(&mdsim.lock);
	mdsim_mmio_show(m);
	mdsim_core_show(m);
	mdsim_pci_show(m);
	mutex_unlock(&mdsim.lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(regs);

static int refs_show(struct seq_file *m, void *v)
{
	mutex_lock(&mdsim.lock);
	seq_printf(m, "pci %u\nmmio %u\n", mdsim.pci_refs, mdsim_mmio_maps());
	mutex_unlock(&mdsim.lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(refs);

static int cpu_offcore_get(void *data, u64 *val)
{
	struct mdsim_cpu *c = data;

	mutex_lock(&mdsim.lock);
	*val = c->offcore_mbps;
	mutex_unlock(&mdsim.lock);
	return 0;
}

static int cpu_offcore_set(void *data, u64 val)
{
	struct mdsim_cpu *c = data;

	if (val > U64_MAX / (1000000ULL / 64)) {
		pr_err("cpu%ld/offcore_read_mbps: %llu does not fit a 64-bit rate\n",
		       (long)(c - mdsim.cpus), val);
		return -EOVERFLOW;
	}
	mutex_lock(&mdsim.lock);
	mdsim_core_set_cpu_offcore(c - mdsim.cpus, val);
	mutex_unlock(&mdsim.lock);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(cpu_offcore_fops, cpu_offcore_get, cpu_offcore_set,
			 "%llu\n");

int mdsim_debugfs_init(void)
{
	unsigned int s, k;
	struct dentry *dir;
	char name[24];

	knob_refs = kcalloc(mdsim.n_sockets * MDSIM_KNOB_NR, sizeof(*knob_refs),
			    GFP_KERNEL);
	if (!knob_refs)
		return -ENOMEM;
	root = debugfs_create_dir(KBUILD_MODNAME, NULL);
	for (s = 0; s < mdsim.n_sockets; s++) {
		snprintf(name, sizeof(name), "socket%u", s);
		dir = debugfs_create_dir(name, root);
		for (k = 0; k < MDSIM_KNOB_NR; k++) {
			struct knob_ref *ref = &knob_refs[s * MDSIM_KNOB_NR + k];

			/* only AMD has the L3 PMU */
			if (k >= MDSIM_KNOB_L3_LATENCY && !mdsim.ua->amd)
				continue;

			ref->socket = s;
			ref->knob = k;
			debugfs_create_file_unsafe(knob_names[k], 0600, dir, ref,
						   &knob_fops);
		}
		debugfs_create_file("inject", 0200, dir, &mdsim.sockets[s],
				    &inject_fops);
	}
	for_each_possible_cpu(s) {
		snprintf(name, sizeof(name), "cpu%u", s);
		dir = debugfs_create_dir(name, root);
		debugfs_create_file_unsafe("offcore_read_mbps", 0600, dir,
					   &mdsim.cpus[s], &cpu_offcore_fops);
	}
	debugfs_create_file("regs", 0400, root, NULL, &regs_fops);
	debugfs_create_file("poke", 0200, root, NULL, &poke_fops);
	debugfs_create_file("peek", 0600, root, NULL, &peek_fops);
	debugfs_create_file("refs", 0400, root, NULL, &refs_fops);
	mdsim_fault_debugfs(root);
	mdsim_canary_debugfs(root);
	return 0;
}

void mdsim_debugfs_exit(void)
{
	debugfs_remove_recursive(root);
	kfree(knob_refs);
	knob_refs = NULL;
}
