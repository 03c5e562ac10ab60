// SPDX-License-Identifier: GPL-2.0
/*
 * marker_out.c - libmemdiag-marker's results: one JSON line (json-c) per
 * process appended to $MEMDIAG_MARKER_FILE, which "memdiagctl stat
 * --marker" reads (stat_marker.c). Deltas are keyed by the netlink spec's
 * attribute names; each socket says where an epoch changed inside a call.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "marker_int.h"
#include "names.h"

static const char *const group_key[NR_GROUPS][2] = {
	[GROUP_IMC] = { "imc_epoch_from", "imc_epoch_to" },
	[GROUP_CORE] = { "core_epoch_from", "core_epoch_to" },
};

static struct json_object *socket_json(const struct mk_sum *s)
{
	struct json_object *o = json_object_new_object();
	struct json_object *d = json_object_new_object();
	unsigned int at, g;

	json_object_object_add(o, "socket", json_object_new_int64(s->id));
	for (g = 0; g < NR_GROUPS; g++) {
		if (!s->broke[g])
			continue;
		json_object_object_add(o, group_key[g][0],
				       json_object_new_uint64(s->from[g]));
		json_object_object_add(o, group_key[g][1],
				       json_object_new_uint64(s->to[g]));
	}
	for (at = 0; s->started && at < SNAP_ATTRS; at++)
		if ((s->have & (1u << at)) && name_snapshot_attr(at))
			json_object_object_add(d, name_snapshot_attr(at),
					       json_object_new_uint64(s->v[at]));
	json_object_object_add(o, "deltas", d);
	return o;
}

static struct json_object *region_json(const struct mk_region *r)
{
	struct json_object *o = json_object_new_object();
	struct json_object *socks = json_object_new_array();
	size_t i;

	json_object_object_add(o, "name", json_object_new_string(r->name));
	json_object_object_add(o, "calls", json_object_new_uint64(r->calls));
	json_object_object_add(o, "time_ns", json_object_new_uint64(r->time_ns));
	json_object_object_add(o, "counted_calls",
			       json_object_new_uint64(r->counted));
	/* one call without counters leaves the sums short: none then */
	json_object_object_add(o, "counters_reason", r->why[0] ?
			       json_object_new_string(r->why) : NULL);
	for (i = 0; !r->why[0] && i < mk.nr_sock; i++)
		json_object_array_add(socks, socket_json(&r->sock[i]));
	json_object_object_add(o, "sockets", socks);
	return o;
}

int mk_write(const char *path)
{
	struct json_object *doc = json_object_new_object();
	struct json_object *regs = json_object_new_array();
	const char *text;
	size_t i, len;
	ssize_t n;
	int fd, err = 0;

	json_object_object_add(doc, "memdiag_marker", json_object_new_int(1));
	json_object_object_add(doc, "pid", json_object_new_int64(getpid()));
	json_object_object_add(doc, "counters_reason", mk.reason[0] ?
			       json_object_new_string(mk.reason) : NULL);
	for (i = 0; i < mk.nr_reg; i++)
		json_object_array_add(regs, region_json(&mk.reg[i]));
	json_object_object_add(doc, "regions", regs);
	text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN);
	len = strlen(text);
	/* one write of the line: processes sharing the file do not mix */
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = errno;
	} else {
		char *line = malloc(len + 1);

		if (!line) {
			err = ENOMEM;
		} else {
			memcpy(line, text, len);
			line[len] = '\n';
			n = write(fd, line, len + 1);
			if (n < 0)
				err = errno;
			else if ((size_t)n != len + 1)
				err = EIO;
			free(line);
		}
		if (close(fd) < 0 && !err)
			err = errno;
	}
	json_object_put(doc);
	errno = err;
	return err ? -1 : 0;
}
