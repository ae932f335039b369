// SPDX-License-Identifier: GPL-2.0
/*
 * mseal-bench --meta and --meta-stamp: the one writer of a boot record's
 * meta.json (scripts/compare/record writes it on the machine measured,
 * scripts/compare/vm-record files a guest's record at the host's time).
 *
 *   mseal-bench --meta [KEY:s=STRING | KEY:n=NUMBER | KEY:j=JSON]... <RUNS
 *	The object {"format": ..., KEY: VALUE, ..., "runs": [...]}, one key a
 *	line in the order given: a string has its control bytes dropped, an
 *	empty number is null, JSON must be one valid value.  Consecutive keys
 *	OBJ.KEY make one object "OBJ": {"KEY": VALUE, ...}.  RUNS has a line
 *	per run, "WORKLOAD RUN without BENCH" or "WORKLOAD RUN with BENCH
 *	REPORT": the files of that run in the record's folder.
 *   mseal-bench --meta-stamp FILE EPOCH
 *	In the meta.json FILE, "epoch" becomes EPOCH with the old value kept
 *	as "guest_epoch", and "date" EPOCH's UTC date.
 * Exit 0; 2 with one line on stderr for a bad argument; 1 when FILE cannot
 * be read or written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/msjson.h"
#include "bench.h"

#define META_FORMAT "mseal-compare record 1"
#define META_MAX (1 << 20)	/* meta.json: a few KiB a hundred runs */

static void meta_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			continue;
		if (c == '"' || c == '\\')
			fputc('\\', out);
		fputc(c, out);
	}
	fputc('"', out);
}

static int meta_bad(const char *what, const char *arg)
{
	fprintf(stderr, "mseal-bench: --meta: %s: '%s'\n", what, arg);
	return 2;
}

/*
 * One [OBJ.]KEY:T=VALUE argument as ",\n KEY: VALUE", or inside OBJ's
 * object; *obj is the object open (its name's length; 0: none), closed
 * here when this field is not of it.  0, or 2 when it is not a field.
 */
static int meta_field(FILE *out, const char *arg, const char **obj, size_t *objlen)
{
	const char *colon = strchr(arg, ':'), *dot, *key = arg, *v;
	char *end;

	if (!colon || colon == arg || !colon[1] || colon[2] != '=' ||
	    strspn(arg, "abcdefghijklmnopqrstuvwxyz0123456789_.") != (size_t)(colon - arg))
		return meta_bad("want [OBJ.]KEY:s=STRING, KEY:n=NUMBER or KEY:j=JSON", arg);
	v = colon + 3;
	switch (colon[1]) {
	case 's':
		break;
	case 'n':
		if (*v)
			strtod(v, &end);
		if (*v && (*end || !msj_valid(v)))
			return meta_bad("not a number", arg);
		break;
	case 'j':
		if (!msj_valid(v))
			return meta_bad("not one JSON value", arg);
		break;
	default:
		return meta_bad("the type is s, n or j", arg);
	}
	dot = memchr(arg, '.', (size_t)(colon - arg));
	if (*objlen && (!dot || (size_t)(dot - arg) != *objlen || strncmp(arg, *obj, *objlen))) {
		fputc('}', out);
		*objlen = 0;
	}
	if (dot) {
		key = dot + 1;
		fprintf(out, "%s", *objlen ? ", " : "");
		if (!*objlen)
			fprintf(out, ",\n \"%.*s\": {", (int)(dot - arg), arg);
		*obj = arg;
		*objlen = (size_t)(dot - arg);
		fprintf(out, "\"%.*s\": ", (int)(colon - key), key);
	} else {
		fprintf(out, ",\n \"%.*s\": ", (int)(colon - key), key);
	}
	if (colon[1] == 's')
		meta_str(out, v);
	else
		fputs(*v ? v : "null", out);
	return 0;
}

/* RUNS from stdin as the "runs" array; 0, or 2 on a line that is not a run. */
static int meta_runs(FILE *out)
{
	char line[1024], wl[128], mode[16], bench[256], report[256];
	int run, n, first = 1;

	fprintf(out, ",\n \"runs\": [");
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		n = sscanf(line, "%127s %d %15s %255s %255s", wl, &run, mode, bench, report);
		if (n < 4 || (strcmp(mode, "with") && strcmp(mode, "without")) ||
		    (!strcmp(mode, "with")) != (n == 5))
			return meta_bad("a run is WORKLOAD RUN without BENCH or WORKLOAD RUN with BENCH REPORT", line);
		fprintf(out, "%s\n{\"workload\": ", first ? "" : ",");
		meta_str(out, wl);
		fprintf(out, ", \"run\": %d, \"module\": %s, \"bench\": ", run, n == 5 ? "true" : "false");
		meta_str(out, bench);
		if (n == 5) {
			fprintf(out, ", \"report\": ");
			meta_str(out, report);
		}
		fputc('}', out);
		first = 0;
	}
	fprintf(out, "]}\n");
	return 0;
}

int bench_meta(int argc, char **argv)
{
	const char *obj = NULL;
	size_t objlen = 0, len = 0;
	char *text = NULL;
	FILE *out = open_memstream(&text, &len);
	int i, rc = 0;

	/* Whole or nothing on stdout: a bad field leaves no half a file. */
	if (!out)
		return 1;
	fprintf(out, "{\"format\": \"%s\"", META_FORMAT);
	for (i = 0; i < argc && !rc; i++)
		rc = meta_field(out, argv[i], &obj, &objlen);
	if (!rc && objlen)
		fputc('}', out);
	if (!rc)
		rc = meta_runs(out);
	if (fclose(out))
		rc = 1;
	if (!rc && (fwrite(text, 1, len, stdout) != len || fflush(stdout)))
		rc = 1;
	free(text);
	return rc;
}

/* Where a top-level key's value starts and ends in TEXT; 0, or -1. */
static int meta_span(const char *text, const char *key, size_t *at, size_t *end)
{
	const char *p = msj_find(text, key), *e = p ? msj_skip(p) : NULL;

	if (!e)
		return -1;
	*at = (size_t)(p - text);
	*end = (size_t)(e - text);
	return 0;
}

int bench_meta_stamp(const char *file, const char *epoch_arg)
{
	size_t ea, ee, da, de;
	char *text = malloc(META_MAX), *end, date[32], tmp[4096];
	long long epoch;
	time_t t;
	FILE *f;
	int ok;

	epoch = strtoll(epoch_arg, &end, 10);
	if (!*epoch_arg || *end || epoch < 0) {
		fprintf(stderr, "mseal-bench: --meta-stamp wants seconds since the epoch, not '%s'\n", epoch_arg);
		return 2;
	}
	if (!text || msj_read_file(file, text, META_MAX) <= 0 || !msj_valid(text) ||
	    meta_span(text, "epoch", &ea, &ee) || meta_span(text, "date", &da, &de) ||
	    msj_find(text, "guest_epoch") || de > ea) {
		fprintf(stderr, "mseal-bench: %s is not a record's meta.json of a guest (date, then epoch)\n", file);
		free(text);
		return 1;
	}
	t = (time_t)epoch;
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	snprintf(tmp, sizeof(tmp), "%s.stamp", file);
	f = fopen(tmp, "w");
	if (!f) {
		perror(tmp);
		free(text);
		return 1;
	}
	/* ... "date": DATE ... "epoch": EPOCH, "guest_epoch": OLD ... */
	fprintf(f, "%.*s\"%s\"%.*s%lld, \"guest_epoch\": %.*s%s", (int)da, text, date, (int)(ea - de), text + de,
		epoch, (int)(ee - ea), text + ea, text + ee);
	ok = !ferror(f);
	ok &= !fclose(f);
	if (!ok || rename(tmp, file)) {
		perror(file);
		unlink(tmp);
		free(text);
		return 1;
	}
	free(text);
	return 0;
}
