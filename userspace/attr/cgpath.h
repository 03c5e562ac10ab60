/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgpath.h - who a cgroup path belongs to: a Kubernetes pod and its
 * container (the kubelet's systemd and cgroupfs layouts; containerd,
 * CRI-O, Docker, Podman), a systemd service, scope or user session, a
 * Slurm job, or none of them; and the group it falls in for
 * "top --by pod|service|cgroup".
 */

#ifndef MEMDIAGCTL_CGPATH_H
#define MEMDIAGCTL_CGPATH_H

#include <stddef.h>

/* How "top" groups cgroups (--by). */
enum cg_by {
	CG_BY_POD,	/* a pod; outside pods as CG_BY_SERVICE */
	CG_BY_SERVICE,	/* the systemd unit, Slurm job or first level */
	CG_BY_CGROUP,	/* each cgroup on its own */
};

/* What the group of a path is. */
enum cg_kind {
	CG_KIND_CGROUP,		/* none of the below: a plain cgroup */
	CG_KIND_POD,		/* a Kubernetes pod */
	CG_KIND_SERVICE,	/* a systemd .service */
	CG_KIND_SCOPE,		/* a systemd .scope (a session, a container) */
	CG_KIND_SLICE,		/* a systemd .slice with nothing more inside */
	CG_KIND_SLURM_JOB,	/* job_<id> of Slurm's cgroup plugin */
	CG_KIND_ROOT,		/* "/" itself */
};

#define CG_KEY_MAX 4096		/* a key is at most a whole path */

struct cg_ident {
	enum cg_kind kind;
	char pod_uid[40];	/* 8-4-4-4-12, dashes as the API has them */
	char qos[16];		/* guaranteed, burstable, besteffort; or "" */
	char container_id[72];	/* 64 hex digits, or "" */
	char runtime[16];	/* containerd, crio, docker, libpod; or "" */
	char unit[256];		/* the innermost systemd unit, or "" */
	char slurm_job[24];	/* the job id, or "" */
};

/*
 * Read @path (as /proc/PID/cgroup and the hierarchy have it: absolute,
 * relative to the hierarchy's root) into @id: the innermost pod (its UID
 * and QoS class), container (its id and runtime), systemd unit (.service,
 * .scope or .slice) and Slurm job on the path, and in @id->kind what its
 * innermost component is (a pod's slice or directory: POD; job_<id>:
 * SLURM_JOB; a unit by its suffix; "/": ROOT; else CGROUP, a cgroupfs
 * container's directory included). A container's bare 64-digit id is
 * only one in a pod or below Docker's "docker" (runtime "docker"; "" in
 * a cgroupfs pod, whose name does not say). Names are taken as they are:
 * any byte but '/' and NUL. 0, or -EINVAL when @path is not absolute or
 * holds an empty, ".", ".." or longer than NAME_MAX component (the
 * kernel writes none; ".." is a thread outside our cgroup namespace), or
 * -ENAMETOOLONG from PATH_MAX bytes; @id is then all empty.
 */
int cg_parse(const char *path, struct cg_ident *id);

/*
 * The group @path falls in for @by, into @key, and @id with what that
 * group is: cg_parse()'s @id, but @id->kind the group's kind (and
 * @id->unit the group's unit when the group is one).
 *
 * CG_BY_CGROUP: @path itself, its kind cg_parse()'s.
 * CG_BY_POD: "pod:<uid>" (POD) for a path in a pod, its container in @id
 * when the path is in one; any other path as CG_BY_SERVICE.
 * CG_BY_SERVICE: the deepest of these on the path starts the group:
 *  - Slurm's job_<id>: "job_<id>" (SLURM_JOB);
 *  - a .service or .scope (containers' scopes too): its name
 *    ("nginx.service", "session-3.scope", "cri-containerd-<id>.scope")
 *    when only slices are above it, so that systemd made the name unique;
 *    else the path up to it, since units inside another (a user manager's,
 *    a container's own systemd) repeat names: every user@.service has
 *    an init.scope;
 *  - a container's directory that is no scope (cgroupfs pods,
 *    "/docker/<id>", "<pod slice>:cri-containerd:<id>"): the path up to it
 *    (CGROUP);
 * and with none of them: "/" (ROOT); the innermost of the slices that
 * lead the path ("user-1000.slice", a pod's slice: SLICE); else the first
 * component as a path ("/kubepods" for a cgroupfs pod's own directory,
 * "/docker", "/lxc": CGROUP).
 * A key's cgroups are the subtree of its topmost one less the subtrees of
 * other keys, except for sibling containers of one pod in the
 * "<pod slice>:<prefix>:<id>" layout and Slurm jobs of one id under two
 * slurmds (cgscan.h copes).
 * 0, or cg_parse()'s error, -EINVAL for an unknown @by, or -ENOSPC when
 * @key is too small (it is "" then).
 */
int cg_key(const char *path, enum cg_by by, char *key, size_t size,
	   struct cg_ident *id);

/* "pod", "service", "cgroup"; and back (-1 when @s is none of them) */
const char *cg_by_name(enum cg_by by);
int cg_by_parse(const char *s);
/* "cgroup", "pod", "service", "scope", "slice", "slurm-job", "root" */
const char *cg_kind_name(enum cg_kind kind);

#endif /* MEMDIAGCTL_CGPATH_H */
