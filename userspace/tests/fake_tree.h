/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fake_tree.h - a fake /proc and /sys under a temporary directory, for
 * the attribution tests (MEMDIAG_TEST_HOST_ROOT points there): files written
 * with their parents, resctrl and cgroup layouts, and removal.
 */

#ifndef MEMDIAGCTL_TEST_FAKE_TREE_H
#define MEMDIAGCTL_TEST_FAKE_TREE_H

#include <stdint.h>

/* A new empty tree; its path (malloc()ed), MEMDIAG_TEST_HOST_ROOT set to it. */
char *ft_make(void);
/* Remove it all, and unset MEMDIAG_TEST_HOST_ROOT. */
void ft_remove(char *root);
/* Write @root/@rel (parents made) with printf-style contents; 0 or -1. */
int ft_file(const char *root, const char *rel, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Make the directory @root/@rel and its parents; 0 or -1. */
int ft_dir(const char *root, const char *rel);

/*
 * resctrl mounted at /sys/fs/resctrl with mbm_total_bytes, @nr_dom L3
 * domains (id d on socket d / @per_socket), one CPU each, cgroup2 at
 * /sys/fs/cgroup; @snc sub-domains per domain when non-zero.
 */
void ft_resctrl(const char *root, unsigned int nr_dom,
		unsigned int per_socket, unsigned int snc);
/* A group's (dir "" for the root) counter in domain @dom (and @sub). */
void ft_mbm(const char *root, const char *dir, unsigned int dom, int sub,
	    const char *value);

/*
 * resctrl's side of memdiag's writes, over the fake tree: mkdir makes the
 * group with its tasks and counter files (every domain of @ft_kernel_root
 * at 0), rmdir removes it whole, a tasks write appends. Each fails with
 * the errno set in ft_fail_* (once, then it is cleared).
 */
struct rc_fsops;
extern const struct rc_fsops ft_fsops;
extern int ft_fail_mkdir, ft_fail_tasks, ft_fail_assign;
extern unsigned int ft_writes;	/* writes that went through */

#endif /* MEMDIAGCTL_TEST_FAKE_TREE_H */
