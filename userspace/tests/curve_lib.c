// SPDX-License-Identifier: GPL-2.0
/*
 * curve_lib.c - what the curve tests share (curve_lib.h): the canned curve
 * file of Documentation/curves.rst, edited copies of it, and a temporary
 * directory to write them into.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "curve_lib.h"

/* The example of curves.rst, plus a 1:1 curve and a prefetch-off one. */
const char good[] =
"{\"format\": \"memdiag-curve\", \"version\": 1,\n"
" \"created\": \"2026-11-23T23:10:00Z\", \"tool_version\": \"0.1\",\n"
" \"bandwidth_source\": \"imc\",\n"
" \"fingerprint\": {\"cpu_vendor\": \"GenuineIntel\", \"cpu_model\": \"6/85/4\",\n"
"  \"cpu_model_name\": \"Xeon\", \"microcode\": \"0x2007006\", \"sockets\": \"2\",\n"
"  \"cores\": \"40\", \"cpus\": \"80\", \"memory_bytes\": \"201863462912\",\n"
"  \"dimms\": null, \"numa\": \"0:0-19;1:20-39\", \"kernel\": \"6.12.0\",\n"
"  \"thp\": \"madvise\", \"prefetch\": \"on\", \"uncore_khz\": null},\n"
" \"sockets\": [{\"socket\": 0, \"cpus\": \"0-19\", \"chase_cpu\": 0,\n"
"  \"idle_latency_ns\": 90.0, \"curves\": [\n"
"  {\"read_fraction\": 1.0, \"prefetch\": \"on\", \"peak_index\": 2, \"points\": [\n"
"   {\"threads\": 19, \"delay\": 2000, \"bandwidth_gbps\": 20.0, \"read_gbps\": 20.0,\n"
"    \"write_gbps\": 0.0, \"latency_ns\": 95.0, \"cov\": 0.01, \"repeats\": 3},\n"
"   {\"threads\": 19, \"delay\": 200, \"bandwidth_gbps\": 70.0, \"read_gbps\": 70.0,\n"
"    \"write_gbps\": 0.0, \"latency_ns\": 140.0, \"cov\": 0.02, \"repeats\": 3},\n"
"   {\"threads\": 19, \"delay\": 0, \"bandwidth_gbps\": 100.0, \"read_gbps\": 100.0,\n"
"    \"write_gbps\": 0.0, \"latency_ns\": 250.0, \"cov\": 0.03, \"repeats\": 3},\n"
"   {\"threads\": 38, \"delay\": 0, \"bandwidth_gbps\": 95.0, \"read_gbps\": 95.0,\n"
"    \"write_gbps\": 0.0, \"latency_ns\": 400.0, \"cov\": 0.05, \"repeats\": 3}]},\n"
"  {\"read_fraction\": 0.5, \"prefetch\": \"on\", \"peak_index\": 1, \"points\": [\n"
"   {\"threads\": 19, \"delay\": 200, \"bandwidth_gbps\": 30.0, \"read_gbps\": 15.0,\n"
"    \"write_gbps\": 15.0, \"latency_ns\": 110.0, \"latency_p50_ns\": 110.0,\n"
"    \"latency_p90_ns\": 130.0, \"latency_p99_ns\": 180.0, \"cov\": 0.02,\n"
"    \"repeats\": 3},\n"
"   {\"threads\": 19, \"delay\": 0, \"bandwidth_gbps\": 60.0, \"read_gbps\": 30.0,\n"
"    \"write_gbps\": 30.0, \"latency_ns\": 190.0, \"cov\": 0.03, \"repeats\": 3}]},\n"
"  {\"read_fraction\": 1, \"prefetch\": \"off\", \"peak_index\": 1, \"points\": [\n"
"   {\"threads\": 19, \"delay\": 200, \"bandwidth_gbps\": 40.0, \"read_gbps\": 40.0,\n"
"    \"write_gbps\": 0, \"latency_ns\": 120.0, \"cov\": 0.02, \"repeats\": 3},\n"
"   {\"threads\": 19, \"delay\": 0, \"bandwidth_gbps\": 80.0, \"read_gbps\": 80.0,\n"
"    \"write_gbps\": 0, \"latency_ns\": 200.0, \"cov\": 0.03, \"repeats\": 3}]}\n"
"  ]}]}\n";

char tmpdir[] = "/tmp/curve_test.XXXXXX";
static pid_t parent;

/* One directory for every test (each runs in a child of this process). */
static void __attribute__((constructor)) make_tmpdir(void)
{
	parent = getpid();
	if (!mkdtemp(tmpdir))
		tmpdir[0] = '\0';
}

static void __attribute__((destructor)) remove_tmpdir(void)
{
	char cmd[64];

	if (getpid() == parent && tmpdir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		if (system(cmd))
			fprintf(stderr, "curve_test: could not remove %s\n", tmpdir);
	}
}

/* Write @text (first @len bytes) to a file in tmpdir; its path. */
const char *put(const char *text, size_t len)
{
	static char path[64];
	FILE *f;

	if (!tmpdir[0])
		return NULL;
	snprintf(path, sizeof(path), "%s/c.json", tmpdir);
	f = fopen(path, "w");
	if (!f)
		return NULL;
	fwrite(text, 1, len, f);
	fclose(f);
	return path;
}

/* @good with the first @from replaced by @to, malloc()ed. */
char *edit(const char *from, const char *to)
{
	const char *at = strstr(good, from);
	char *s;

	if (!at)
		return NULL;
	s = malloc(sizeof(good) + strlen(to));
	sprintf(s, "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
	return s;
}

int load_text(const char *text, struct curve *c, char *why)
{
	const char *path = put(text, strlen(text));

	return path ? curve_load(path, c, why, CURVE_WHY_SIZE) : -2;
}
