// SPDX-License-Identifier: GPL-2.0
/*
 * platform_hw_df.c - Data Fabric registers of a real AMD processor, read
 * the way the kernel's AMD address translation library reads them
 * (drivers/ras/amd/atl/access.c, core.c): through function 4 of the
 * socket's DF (amd_nb's "link" device), writing the Fabric Indirect
 * Configuration Access Address (FICAA: instance enable, register,
 * function, instance id) and reading the data (FICAD low dword).
 *
 * The FICAA/FICAD pair is shared: the atl serialises its own use with a
 * mutex of its own, which memdiag cannot take. memdiag reads only at load
 * (the DRAM address maps, df_nodes.c); an address translation of the atl
 * (a DRAM error being decoded) at that very moment could read the wrong
 * register, or make memdiag's read do so.
 */
#include <linux/bits.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/topology.h>
#include <asm/amd_nb.h>
#include <asm/processor.h>

#include "memdiag.h"
#include "platform.h"

#define FICAA_INST_EN		BIT(0)
#define FICAA_FUNC(f)		((u32)(f) << 11)
#define FICAA_INST(i)		((u32)(i) << 16)

/*
 * Where FICAA and FICAD are and how FICAA holds the register number:
 * core.c gives every family 0x17 and family 0x19 models 0x00-0x0f and
 * 0x20-0x5f the legacy offsets, every other model the current ones.
 */
static const struct ficaa_layout {
	u8 family, model_lo, model_hi;
	u8 ficaa, ficad;
	u8 reg_lsb;		/* the dword number (offset / 4) from this bit */
	u32 reg_field;		/* up to bit 10 */
} ficaa_layouts[] = {
	{ 0x17, 0x00, 0xff, 0x5c, 0x98, 2, GENMASK(10, 2) },
	{ 0x19, 0x00, 0x0f, 0x5c, 0x98, 2, GENMASK(10, 2) },
	{ 0x19, 0x20, 0x5f, 0x5c, 0x98, 2, GENMASK(10, 2) },
	{ 0x19, 0x00, 0xff, 0x8c, 0xb8, 1, GENMASK(10, 1) },
};

static DEFINE_MUTEX(ficaa_lock);

static const struct ficaa_layout *ficaa_layout(void)
{
	const struct cpuinfo_x86 *c = &boot_cpu_data;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ficaa_layouts); i++)
		if (ficaa_layouts[i].family == c->x86 &&
		    c->x86_model >= ficaa_layouts[i].model_lo &&
		    c->x86_model <= ficaa_layouts[i].model_hi)
			return &ficaa_layouts[i];
	return NULL;
}

/*
 * The DF (amd_nb node) of @socket: Zen 2/3 servers have one per socket,
 * numbered like the physical packages; anything else is not assumed.
 */
static struct pci_dev *socket_df_f4(unsigned int socket)
{
	unsigned int package = memdiag_socket_package(socket);
	struct amd_northbridge *nb;

	if (package == UINT_MAX || amd_nb_num() != topology_max_packages() ||
	    package >= amd_nb_num())
		return NULL;
	nb = node_to_amd_nb(package);
	return nb ? nb->link : NULL;
}

int memdiag_hw_df_read(unsigned int socket, unsigned int func,
		       unsigned int reg, unsigned int inst, u32 *val)
{
	const struct ficaa_layout *l = ficaa_layout();
	struct pci_dev *f4 = socket_df_f4(socket);
	u32 ficaa;
	int err;

	if (!l || !f4 || func > 7 || inst > 0xfe)
		return -ENODEV;
	ficaa = FICAA_INST_EN | FICAA_INST(inst) | FICAA_FUNC(func) |
		(((reg >> 2) << l->reg_lsb) & l->reg_field);
	mutex_lock(&ficaa_lock);
	err = pci_write_config_dword(f4, l->ficaa, ficaa);
	if (!err)
		err = pci_read_config_dword(f4, l->ficad, val);
	mutex_unlock(&ficaa_lock);
	return pcibios_err_to_errno(err);
}
