// SPDX-License-Identifier: GPL-2.0
/* host_reach.c - can this host load the memdiag module at all? Read once. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "host_reach.h"

static const char *root(void)
{
	const char *r = getenv("MEMDIAG_TEST_HOST_ROOT");

	return r ? r : "";
}

/* The first line of ROOT/@rel into @buf ("" when unreadable). */
static void read_line(const char *rel, char *buf, size_t size)
{
	char path[4096];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", root(), rel);
	f = fopen(path, "re");
	if (!f)
		return;
	if (!fgets(buf, (int)size, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

static bool exists(const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", root(), rel);
	return access(path, F_OK) == 0;
}

/* Whether the kernel command line holds the word @word. */
static bool cmdline_has(const char *word)
{
	char line[4096], *tok, *save;

	read_line("proc/cmdline", line, sizeof(line));
	for (tok = strtok_r(line, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (!strcmp(tok, "--"))
			break;	/* the rest is init's */
		if (!strcmp(tok, word))
			return true;
	}
	return false;
}

static bool cpuinfo_has_hypervisor(void)
{
	char path[4096], line[8192];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root());
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, "flags", 5) &&
			strstr(line, " hypervisor") != NULL;
	fclose(f);
	return found;
}

static void detect(struct host_reach *h)
{
	char val[64], rel[300];
	struct utsname u;

	memset(h, 0, sizeof(*h));
	/* "nomodule" leaves the kernel without /proc/modules as well */
	if (cmdline_has("nomodule")) {
		h->no_modules = true;
		snprintf(h->no_modules_why, sizeof(h->no_modules_why),
			 "this kernel was booted with 'nomodule'");
	} else if (!exists("proc/modules")) {
		h->no_modules = true;
		snprintf(h->no_modules_why, sizeof(h->no_modules_why),
			 "this kernel cannot load modules (no /proc/modules)");
	} else {
		read_line("proc/sys/kernel/modules_disabled", val, sizeof(val));
		if (!strcmp(val, "1")) {
			h->no_modules = true;
			snprintf(h->no_modules_why, sizeof(h->no_modules_why),
				 "module loading is switched off (kernel.modules_disabled=1)");
		}
	}
	if (uname(&u) == 0)
		snprintf(h->kernel, sizeof(h->kernel), "%s", u.release);
	snprintf(rel, sizeof(rel), "lib/modules/%s/build", h->kernel);
	h->no_headers = !exists(rel);
	h->hypervisor = cpuinfo_has_hypervisor();
}

static const char *counter_free = "the commands marked '*' in its help";

void host_reach_set_counter_free(const char *cmds)
{
	counter_free = cmds;
}

const char *host_reach_counter_free(void)
{
	return counter_free;
}

const struct host_reach *host_reach(void)
{
	static struct host_reach h;
	static bool done;

	if (!done) {
		detect(&h);
		done = true;
	}
	return &h;
}

void host_reach_why(const struct host_reach *h, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!h->no_modules)
		return;
	snprintf(buf, size,
		 "%s, so the counters are out of reach on this host; %s work without them%s%s%s%s",
		 h->no_modules_why, counter_free,
		 h->hypervisor || h->no_headers ? " (" : "",
		 h->hypervisor ? "a virtual machine, whose hypervisor hides the uncore counters anyway" : "",
		 h->hypervisor && h->no_headers ? "; " : "",
		 h->no_headers ? "no kernel headers here to build the module)" : h->hypervisor ? ")" : "");
}
