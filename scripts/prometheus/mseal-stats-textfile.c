// SPDX-License-Identifier: GPL-2.0
/*
 * mseal-stats-textfile: mseal_stats.ko's JSON report as Prometheus metrics,
 * for node_exporter's textfile collector (a systemd timer runs it: see
 * mseal-stats-textfile.service and .timer beside this file).
 *
 *   mseal-stats-textfile [-i REPORT] [-o FILE]
 *
 * Counters: calls, EPERMs and other errors per syscall; checks and refusals
 * per [syscall, check]; missed hits per probe.  The log2 histograms become
 * Prometheus histograms in seconds (bucket i of the module holds
 * 2^i..2^(i+1)-1 ns, so its `le` is (2^(i+1)-1) ns; the last one is open
 * and only in +Inf).  The calibration is a gauge per backend.  Labels:
 * syscall (a syscall, or the rows "other" and "worker"), check, backend.
 * The counters restart at a module reset or reload, which rate() expects.
 * No module loaded (no report at the default path): mseal_stats_loaded 0,
 * so node_exporter does not keep serving the last counters.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include "../lib/msjson.h"

#define DEFAULT_REPORT "/sys/kernel/debug/mseal_stats.json"
/*
 * The buckets written: 39 finite bounds, up to 2^39 - 1 ns (9 minutes), and
 * +Inf, which holds every bucket from 39 up, however many the report has
 * (module/cell.h's count may grow: the exposition keeps its series, and a
 * longer histogram never makes the collector refuse the whole report).
 */
#define HIST_OUT 40

/* dkms.conf's PACKAGE_VERSION, passed by the Makefile. */
#ifndef MSEAL_STATS_VERSION
#define MSEAL_STATS_VERSION "unknown"
#endif /* !MSEAL_STATS_VERSION */

static const char *prog = "mseal-stats-textfile";
static FILE *out;
static const char *doc;		/* the whole report */

static void usage(FILE *f)
{
	fprintf(f, "usage: %s [-i REPORT] [-o FILE]\n", prog);
}

static void help(void)
{
	usage(stdout);
	printf("\nmseal_stats.ko's JSON report as Prometheus text, for node_exporter's\n"
	       "textfile collector.\n\n"
	       "  -i, --input=REPORT   the report to read (default %s;\n"
	       "                       - for stdin)\n"
	       "  -o, --output=FILE    write FILE atomically (FILE.tmp, then rename) instead of\n"
	       "                       stdout; FILE ends in .prom, in node_exporter's textfile\n"
	       "                       directory (Debian: /var/lib/prometheus/node-exporter)\n"
	       "  --help, --version\n\n"
	       "Without -i, a missing report (module not loaded, debugfs not mounted) gives\n"
	       "mseal_stats_loaded 0 and exit 0.  Exit 1: unreadable or malformed report,\n"
	       "or FILE not written; exit 2: usage.\n", DEFAULT_REPORT);
}

/* The next member of an object: its value, KEY filled; NULL at the end. */
static const char *member(const char **it, char *key, size_t size)
{
	const char *p = msj_ws(*it), *e, *v;
	size_t n;

	if (*p == '{')
		p = msj_ws(p + 1);
	if (*p != '"' || !(e = msj_skip_string(p)))
		return NULL;
	n = (size_t)(e - p - 2) < size - 1 ? (size_t)(e - p - 2) : size - 1;
	memcpy(key, p + 1, n);
	key[n] = '\0';
	p = msj_ws(e);
	if (*p++ != ':')
		return NULL;
	v = msj_ws(p);
	p = msj_ws(msj_skip(v));
	*it = *p == ',' ? p + 1 : p;
	return v;
}

/* A label value, escaped as the text format wants (\\, \", \n). */
static void label(const char *name, const char *value, int first)
{
	fprintf(out, "%s%s=\"", first ? "" : ",", name);
	for (; *value; value++) {
		if (*value == '\\' || *value == '"')
			fputc('\\', out);
		if (*value == '\n')
			fputs("\\n", out);
		else
			fputc(*value, out);
	}
	fputc('"', out);
}

/* NS nanoseconds as seconds, exact: no float rounding in `le` or _sum. */
static void seconds(unsigned long long ns)
{
	char frac[16];
	int n;

	n = snprintf(frac, sizeof(frac), "%09llu", ns % 1000000000ULL);
	while (n > 0 && frac[n - 1] == '0')
		frac[--n] = '\0';
	fprintf(out, "%llu%s%s", ns / 1000000000ULL, n ? "." : "", frac);
}

static void family(const char *name, const char *type, const char *helptext)
{
	fprintf(out, "# HELP mseal_stats_%s %s\n# TYPE mseal_stats_%s %s\n", name, helptext, name, type);
}

/* The backend of probe NAME of KIND ("check", "syscall"), "-" if none. */
static const char *backend_of(const char *name, const char *kind, char *buf, size_t size)
{
	char path[64], v[64];

	for (int i = 0;; i++) {
		const char *p;

		snprintf(path, sizeof(path), "probes.%d", i);
		if (!(p = msj_find(doc, path)))
			break;
		if (!strcmp(msj_str(p, "name", v, sizeof(v)) ? v : "", name) &&
		    !strcmp(msj_str(p, "kind", v, sizeof(v)) ? v : "", kind))
			return msj_str(p, "backend", buf, size) ? buf : "-";
	}
	snprintf(buf, size, "-");
	return buf;
}

/* {syscall="S"[,check="C"],backend="B" */
static void labels(const char *sys, const char *chk)
{
	char b[64];

	fputc('{', out);
	label("syscall", sys, 1);
	if (chk)
		label("check", chk, 0);
	label("backend", chk ? backend_of(chk, "check", b, sizeof(b)) : backend_of(sys, "syscall", b, sizeof(b)), 0);
}

/* One series of a counter family: FIELD of the object at CELL. */
static void counter(const char *fam, const char *sys, const char *chk, const char *cell, const char *field)
{
	fprintf(out, "mseal_stats_%s", fam);
	labels(sys, chk);
	fprintf(out, "} %lld\n", msj_int(cell, field, 0));
}

/* Bucket I of the "ns" object of CELL into *N; false past its last. */
static bool hist_at(const char *cell, int i, unsigned long long *n)
{
	char path[32];

	snprintf(path, sizeof(path), "ns.hist.%d", i);
	if (!msj_find(cell, path))
		return false;
	*n = (unsigned long long)msj_int(cell, path, 0);
	return true;
}

/* One histogram of FAM from the "ns" object of CELL. */
static void histogram(const char *fam, const char *sys, const char *chk, const char *cell)
{
	unsigned long long cum = 0, n;
	int i, j;

	for (i = 0; i < HIST_OUT; i++) {
		if (hist_at(cell, i, &n))
			cum += n;
		/* +Inf: every bucket the report has from here on. */
		for (j = HIST_OUT; i == HIST_OUT - 1 && hist_at(cell, j, &n); j++)
			cum += n;
		fprintf(out, "mseal_stats_%s_bucket", fam);
		labels(sys, chk);
		if (i == HIST_OUT - 1) {
			fputs(",le=\"+Inf\"", out);
		} else {
			fputs(",le=\"", out);
			seconds((2ULL << i) - 1);
			fputc('"', out);
		}
		fprintf(out, "} %llu\n", cum);
	}
	fprintf(out, "mseal_stats_%s_sum", fam);
	labels(sys, chk);
	fputs("} ", out);
	seconds((unsigned long long)msj_int(cell, "ns.total", 0));
	fprintf(out, "\nmseal_stats_%s_count", fam);
	labels(sys, chk);
	fprintf(out, "} %llu\n", cum);
}

/*
 * Each check cell, row by row (the syscalls, then "other" and "worker"),
 * through FN; -1 as soon as FN fails.
 */
static void each_check(void (*fn)(const char *sys, const char *chk, const char *cell, const void *arg),
		       const void *arg)
{
	static const char *const rows[] = { "other", "worker" };
	const char *it = msj_find(doc, "syscalls"), *row, *cit, *cell;
	char sys[64], chk[64];

	while (it && (row = member(&it, sys, sizeof(sys))))
		for (cit = msj_find(row, "checks"); cit && (cell = member(&cit, chk, sizeof(chk)));)
			fn(sys, chk, cell, arg);
	for (int r = 0; r < 2; r++)
		for (cit = msj_find(doc, rows[r]); cit && (cell = member(&cit, chk, sizeof(chk)));)
			fn(rows[r], chk, cell, arg);
}

static void check_counter(const char *sys, const char *chk, const char *cell, const void *field)
{
	counter(strcmp(field, "count") ? "check_refused_total" : "check_calls_total", sys, chk, cell, field);
}

static void check_hist(const char *sys, const char *chk, const char *cell, const void *arg)
{
	(void)arg;
	histogram("check_duration_seconds", sys, chk, cell);
}

static void syscall_metrics(void)
{
	static const char *const fields[] = { "count", "eperm", "errors" };
	static const char *const fams[] = { "syscall_calls_total", "syscall_eperm_total", "syscall_errors_total" };
	static const char *const helps[] = {
		"Calls of the syscall.",
		"Calls that returned EPERM (what a sealed VMA answers).",
		"Calls that returned another error.",
	};
	const char *it, *row;
	char sys[64];

	for (int f = 0; f < 3; f++) {
		family(fams[f], "counter", helps[f]);
		for (it = msj_find(doc, "syscalls"); it && (row = member(&it, sys, sizeof(sys)));)
			counter(fams[f], sys, NULL, row, fields[f]);
	}
	family("syscall_duration_seconds", "histogram", "Time in the syscall, log2 buckets.");
	for (it = msj_find(doc, "syscalls"); it && (row = member(&it, sys, sizeof(sys)));)
		histogram("syscall_duration_seconds", sys, NULL, row);
}

static void check_metrics(void)
{
	family("check_calls_total", "counter", "Seal checks made, by the syscall (or other, worker) they were made in.");
	each_check(check_counter, "count");
	family("check_refused_total", "counter", "Seal checks that refused the change.");
	each_check(check_counter, "refused");
	family("check_duration_seconds", "histogram", "Time in the seal check, log2 buckets.");
	each_check(check_hist, NULL);
}

/* Missed hits of every probe the kernel has (absent ones cannot miss). */
static void missed_metrics(void)
{
	static const char *const kinds[] = { "syscall", "check" };
	char path[64], name[64], kind[16], state[16], b[64];

	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s_missed_total", kinds[k]);
		family(path, "counter", "Hits the probe missed (not counted anywhere else).");
		for (int i = 0;; i++) {
			const char *p;

			snprintf(path, sizeof(path), "probes.%d", i);
			if (!(p = msj_find(doc, path)))
				break;
			if (!msj_str(p, "name", name, sizeof(name)) || !msj_str(p, "kind", kind, sizeof(kind)) ||
			    strcmp(kind, kinds[k]) || !msj_str(p, "state", state, sizeof(state)) ||
			    !strcmp(state, "absent"))
				continue;
			fprintf(out, "mseal_stats_%s_missed_total{", kinds[k]);
			label(kinds[k], name, 1);
			label("backend", msj_str(p, "backend", b, sizeof(b)) ? b : "-", 0);
			fprintf(out, "} %lld\n", msj_int(p, "missed", 0));
		}
	}
}

/* Per backend in use (schema 2); schema 1 had one pair, for "backend". */
static void calibration_metrics(void)
{
	static const char *const fields[] = { "ns", "outer_ns" };
	static const char *const names[] = { "calibration_seconds", "calibration_outer_seconds" };
	static const char *const helps[] = {
		"A probe's own cost inside a timed call, subtracted from the net times.",
		"The whole cost of one probed call.",
	};
	const char *it, *v;
	char b[64];

	for (int f = 0; f < 2; f++) {
		family(names[f], "gauge", helps[f]);
		if ((it = msj_find(doc, "calibration")) && *it == '{') {
			while ((v = member(&it, b, sizeof(b)))) {
				fprintf(out, "mseal_stats_%s{", names[f]);
				label("backend", b, 1);
				fputs("} ", out);
				seconds((unsigned long long)msj_int(v, fields[f], 0));
				fputc('\n', out);
			}
		} else {
			fprintf(out, "mseal_stats_%s{", names[f]);
			label("backend", msj_str(doc, "backend", b, sizeof(b)) ? b : "-", 1);
			fputs("} ", out);
			seconds((unsigned long long)msj_int(doc, f ? "calibration_outer_ns" : "calibration_ns", 0));
			fputc('\n', out);
		}
	}
}

static void info_metrics(void)
{
	static const char *const keys[] = { "version", "kernel", "backend", "syscall_backend", "clocksource" };
	char v[128];

	family("info", "gauge", "The module's version, kernel and backends (value 1).");
	fputs("mseal_stats_info{", out);
	for (int i = 0; i < 5; i++)
		label(keys[i], msj_str(doc, keys[i], v, sizeof(v)) ? v : "", !i);
	fputs("} 1\n", out);
	family("mseal_supported", "gauge", "Whether the kernel has the mseal syscall.");
	fprintf(out, "mseal_stats_mseal_supported %d\n", msj_bool(doc, "mseal_supported") == 1);
}

static void loaded(int yes)
{
	family("loaded", "gauge", "Whether mseal_stats.ko's report was read (0: not loaded).");
	fprintf(out, "mseal_stats_loaded %d\n", yes);
}

/* The whole of F, NUL-terminated, or NULL. */
static char *slurp(FILE *f)
{
	size_t n = 0, cap = 1 << 16;
	char *buf = malloc(cap), *nb;

	while (buf) {
		n += fread(buf + n, 1, cap - 1 - n, f);
		if (ferror(f))
			break;
		if (feof(f)) {
			buf[n] = '\0';
			return buf;
		}
		if (n + 1 == cap) {
			if (!(nb = realloc(buf, cap *= 2)))
				break;
			buf = nb;
		}
	}
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *in = NULL, *dst = NULL;
	char tmp[4096];
	FILE *f;
	int i;

	opterr = 0;
	while ((i = getopt_long(argc, argv, ":i:o:h", lopts, NULL)) != -1) {
		switch (i) {
		case 'i': in = optarg[0] == '=' ? optarg + 1 : optarg; break;
		case 'o': dst = optarg[0] == '=' ? optarg + 1 : optarg; break;
		case 'h': help(); return 0;
		case 'V': printf("%s %s\n", prog, MSEAL_STATS_VERSION); return 0;
		case ':':
			fprintf(stderr, "%s: %s wants a value (see --help)\n", prog, argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr, "%s: unknown option %s (see --help)\n", prog, argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s' (see --help)\n", prog, argv[optind]);
		return 2;
	}
	f = !in ? fopen(DEFAULT_REPORT, "r") : strcmp(in, "-") ? fopen(in, "r") : stdin;
	if (!f && (in || errno != ENOENT)) {
		fprintf(stderr, "%s: %s: %s\n", prog, in ? in : DEFAULT_REPORT, strerror(errno));
		return 1;
	}
	if (f) {
		doc = slurp(f);
		if (!doc || !msj_valid(doc) || !msj_find(doc, "syscalls")) {
			fprintf(stderr, "%s: %s: not an mseal_stats JSON report\n", prog, in ? in : DEFAULT_REPORT);
			return 1;
		}
	}
	out = stdout;
	if (dst) {
		if (snprintf(tmp, sizeof(tmp), "%s.tmp", dst) >= (int)sizeof(tmp) || !(out = fopen(tmp, "w"))) {
			fprintf(stderr, "%s: %s.tmp: %s\n", prog, dst, strerror(errno));
			return 1;
		}
	}
	loaded(doc != NULL);
	if (doc) {
		info_metrics();
		syscall_metrics();
		check_metrics();
		missed_metrics();
		calibration_metrics();
	}
	/* The old file stays until the new one is whole: node_exporter never reads half. */
	if (fflush(out) || ferror(out) || (dst && (fsync(fileno(out)) || fclose(out) || rename(tmp, dst)))) {
		fprintf(stderr, "%s: %s: %s\n", prog, dst ? dst : "stdout", strerror(errno));
		if (dst)
			unlink(tmp);
		return 1;
	}
	return 0;
}
