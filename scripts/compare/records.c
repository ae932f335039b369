// SPDX-License-Identifier: GPL-2.0
/* Reading boot records: see records.h. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cmpstats.h"
#include "../lib/msjson.h"
#include "records.h"

const char *const rec_syscalls[REC_NSYS] = {
	"mmap", "munmap", "mremap", "mprotect", "pkey_mprotect", "madvise",
	"process_madvise", "brk", "mseal", "shmdt",
};
const char *const rec_checks[REC_NCHK] = {
	"can_modify_mm", "can_modify_mm_madv", "can_modify_vma", "can_modify_vma_madv",
};

/* The module's JSON can be large (a histogram per cell); meta.json is small. */
static char text[4 << 20];

int rec_syscall_index(const char *name)
{
	int i;

	for (i = 0; i < REC_NSYS; i++)
		if (!strcmp(rec_syscalls[i], name))
			return i;
	return -1;
}

double rec_check_ns_per_op(const struct msw_workload *w, const struct acct *a)
{
	int c = rec_syscall_index(w->counted_by), i, s;
	double n, net = 0;

	if (c < 0 || !a->reports)
		return NAN;
	n = a->calls[c] / w->calls_per_op;
	if (n <= 0)
		return NAN;
	for (i = 0; i < 3 && w->sys[i]; i++) {
		s = rec_syscall_index(w->sys[i]);
		if (s >= 0)
			net += a->check_net_ns[s];
	}
	return net / n;
}

const struct boot_wl *rec_wl(const struct record *r, const char *name)
{
	int i;

	for (i = 0; i < r->nwl; i++)
		if (!strcmp(r->wl[i].name, name))
			return &r->wl[i];
	return NULL;
}

/* Read FILE of record folder RDIR into text; 0 when it is valid JSON. */
static int read_json(const char *rdir, const char *file)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", rdir, file);
	if (msj_read_file(path, text, sizeof(text)) <= 0 || !msj_valid(text))
		return -1;
	return 0;
}

/*
 * One run's ops/s from its mseal-bench JSON: the median of its seconds, or
 * for munmap-vmas (one VMA count a run) 1e9 / the median munmap ns, so the
 * same statistics apply.  NaN when there is none.
 */
static double bench_ops(const char *rdir, const char *file, long long *layout, long long *rnd)
{
	double ns;

	*layout = *rnd = 0;
	if (read_json(rdir, file))
		return NAN;
	/* mseal-bench --layout N (absent before it existed: the kernel's own). */
	*layout = msj_int(text, "layout", 0);
	*rnd = msj_int(text, "layout_rnd_pages", 0);
	ns = msj_num(text, "points.0.munmap_ns_median", -1);
	if (ns > 0)
		return 1e9 / ns;
	ns = msj_num(text, "median", -1);
	return ns > 0 ? ns : NAN;
}

static void str_at(const char *path, char *buf, size_t size)
{
	if (!msj_str(text, path, buf, size))
		buf[0] = '\0';
}

/*
 * The probe cost inside each timed call of check CHK, as the module nets
 * it: a report of schema 2 calibrates each backend ("calibration":
 * {BACKEND: {"ns": ...}}) and nets a check with the figure of the backend
 * its probes are attached on (module/debugfs.c, ms_fill_calibration); on
 * two backends at once, or one not calibrated, it nets nothing (0).
 * Schema 1 had one figure, calibration_ns, for every check.
 */
static double check_calibration(const char *chk)
{
	char key[64], name[64], kind[16], state[16], backend[32], used[32] = "";
	int i;

	if (msj_int(text, "schema", 1) < 2)
		return msj_num(text, "calibration_ns", 0);
	for (i = 0;; i++) {
		snprintf(key, sizeof(key), "probes.%d.name", i);
		if (!msj_str(text, key, name, sizeof(name)))
			break;
		snprintf(key, sizeof(key), "probes.%d.kind", i);
		str_at(key, kind, sizeof(kind));
		snprintf(key, sizeof(key), "probes.%d.state", i);
		str_at(key, state, sizeof(state));
		snprintf(key, sizeof(key), "probes.%d.backend", i);
		str_at(key, backend, sizeof(backend));
		if (strcmp(name, chk) || strcmp(kind, "check") || strcmp(state, "attached"))
			continue;
		if (used[0] && strcmp(used, backend))
			return 0;
		snprintf(used, sizeof(used), "%s", backend);
	}
	if (!used[0])
		return 0;
	snprintf(key, sizeof(key), "calibration.%s.ns", used);
	return msj_num(text, key, 0);
}

/*
 * Add one module report to acct (and to run, alone); unknown fields are
 * ignored, missing ones are 0.
 */
static int add_report(const char *rdir, const char *file, struct acct *a, struct acct *run)
{
	char key[160];
	double calib[REC_NCHK];
	int s, c;

	if (read_json(rdir, file))
		return -1;
	for (c = 0; c < REC_NCHK; c++)
		calib[c] = check_calibration(rec_checks[c]);
	for (s = 0; s < REC_NSYS; s++) {
		snprintf(key, sizeof(key), "syscalls.%s.count", rec_syscalls[s]);
		a->calls[s] += msj_num(text, key, 0);
		snprintf(key, sizeof(key), "syscalls.%s.ns.total", rec_syscalls[s]);
		a->ns[s] += msj_num(text, key, 0);
		for (c = 0; c < REC_NCHK; c++) {
			double n, t;

			snprintf(key, sizeof(key), "syscalls.%s.checks.%s.count", rec_syscalls[s], rec_checks[c]);
			n = msj_num(text, key, 0);
			snprintf(key, sizeof(key), "syscalls.%s.checks.%s.ns.total", rec_syscalls[s], rec_checks[c]);
			t = msj_num(text, key, 0);
			a->checks[s] += n;
			a->check_ns[s] += t;
			/* Net of the probe's own share, floored at zero. */
			a->check_net_ns[s] += t - n * calib[c] > 0 ? t - n * calib[c] : 0;
			run->check_net_ns[s] += t - n * calib[c] > 0 ? t - n * calib[c] : 0;
		}
		snprintf(key, sizeof(key), "syscalls.%s.count", rec_syscalls[s]);
		run->calls[s] += msj_num(text, key, 0);
	}
	a->reports++;
	run->reports++;
	return 0;
}


/*
 * The JSON value at PATH, copied without the whitespace outside its
 * strings, so that two records' "options" compare as text whatever wrote
 * them; "" when missing or longer than BUF.
 */
static void raw_at(const char *path, char *buf, size_t size)
{
	const char *p = msj_find(text, path), *e = p ? msj_skip(p) : NULL;
	size_t n = 0;
	int in_str = 0, esc = 0;

	for (; e && p < e && n + 1 < size; p++) {
		if (!in_str && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
			continue;
		if (esc)
			esc = 0;
		else if (*p == '\\')
			esc = 1;
		else if (*p == '"')
			in_str = !in_str;
		buf[n++] = *p;
	}
	buf[p == e ? n : 0] = '\0';
}

/* The boot's clock and seed; absent: the wall clock, no seed. */
static void clock_and_seed(struct record *r)
{
	str_at("clock", r->clock, sizeof(r->clock));
	if (!r->clock[0])
		snprintf(r->clock, sizeof(r->clock), "wall");
	r->seed = msj_int(text, "seed", REC_NO_SEED);
	if (r->seed < 0)
		r->seed = REC_NO_SEED;
}

/* ASLR as record saw it; older records: off where the command line says norandmaps. */
static void aslr(struct record *r)
{
	char cmdline[4096];

	r->aslr = (int)msj_int(text, "aslr", -1);
	if (r->aslr < 0 && msj_str(text, "cmdline", cmdline, sizeof(cmdline)))
		r->aslr = strstr(cmdline, "norandmaps") ? 0 : -1;
}

/* The load average at the record's start ("0.52 0.30 0.12": its first figure), and the CPUs. */
static void load_at_start(struct record *r)
{
	char load[64], *end;

	r->cpus = (int)msj_int(text, "cpus", 0);
	r->load1 = NAN;
	if (!msj_str(text, "loadavg_start", load, sizeof(load)))
		return;
	r->load1 = strtod(load, &end);
	if (end == load)
		r->load1 = NAN;
}

/* A record's run list, read from meta.json before the runs' files (one buffer). */
static struct run {
	char wl[48], bench[128], report[128];
	int with;
} runs[REC_MAX_WL * REC_MAX_RUNS];

/* The values of one phase of one workload, before their median is taken. */
struct samples {
	double v[REC_MAX_WL][2][REC_MAX_RUNS];
	int n[REC_MAX_WL][2];
};

static struct boot_wl *wl_slot(struct record *r, const char *name)
{
	struct boot_wl *w;
	int i;

	for (i = 0; i < r->nwl; i++)
		if (!strcmp(r->wl[i].name, name))
			return &r->wl[i];
	if (r->nwl == REC_MAX_WL)
		return NULL;
	w = &r->wl[r->nwl++];
	memset(w, 0, sizeof(*w));
	snprintf(w->name, sizeof(w->name), "%s", name);
	return w;
}

/* Load one record folder; 0, or -1 with a reason. */
static int load_one(const char *dir, const char *name, struct record *r, char *err, size_t errlen)
{
	static struct samples s;
	char rdir[4096], key[64];
	int i, k, nruns = 0;

	memset(r, 0, sizeof(*r));
	memset(&s, 0, sizeof(s));
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(rdir, sizeof(rdir), "%s/%s", dir, name);
	if (read_json(rdir, "meta.json")) {
		snprintf(err, errlen, "%s: meta.json is not valid JSON", name);
		return -1;
	}
	str_at("release", r->release, sizeof(r->release));
	str_at("arch", r->arch, sizeof(r->arch));
	str_at("cpu_model", r->cpu, sizeof(r->cpu));
	str_at("machine_id_sha256", r->machine, sizeof(r->machine));
	str_at("governor", r->governor, sizeof(r->governor));
	str_at("turbo", r->turbo, sizeof(r->turbo));
	str_at("cpu_settings", r->cpu_settings, sizeof(r->cpu_settings));
	r->epoch = msj_int(text, "epoch", 0);
	raw_at("options", r->options, sizeof(r->options));
	clock_and_seed(r);
	load_at_start(r);
	aslr(r);
	if (!r->release[0]) {
		snprintf(err, errlen, "%s: meta.json names no release", name);
		return -1;
	}
	for (; nruns < (int)(sizeof(runs) / sizeof(runs[0])); nruns++) {
		struct run *u = &runs[nruns];

		snprintf(key, sizeof(key), "runs.%d.workload", nruns);
		if (!msj_str(text, key, u->wl, sizeof(u->wl)))
			break;
		snprintf(key, sizeof(key), "runs.%d.bench", nruns);
		str_at(key, u->bench, sizeof(u->bench));
		snprintf(key, sizeof(key), "runs.%d.report", nruns);
		str_at(key, u->report, sizeof(u->report));
		snprintf(key, sizeof(key), "runs.%d.module", nruns);
		u->with = msj_bool(text, key) == 1;
	}
	for (i = 0; i < nruns; i++) {
		struct boot_wl *w = wl_slot(r, runs[i].wl);
		int ph = runs[i].with, wi;
		struct run_val *rv;
		struct acct one;
		long long layout, rnd;
		double ops;

		if (!w)
			continue;
		wi = (int)(w - r->wl);
		ops = bench_ops(rdir, runs[i].bench, &layout, &rnd);
		if (isnan(ops)) {
			snprintf(err, errlen, "%s: %s has no mseal-bench result", name, runs[i].bench);
			return -1;
		}
		if (s.n[wi][ph] < REC_MAX_RUNS)
			s.v[wi][ph][s.n[wi][ph]++] = ops;
		rv = w->nrun[ph] < REC_MAX_RUNS ? &w->run[ph][w->nrun[ph]++] : NULL;
		if (rv)
			*rv = (struct run_val){ .ops = ops, .chk = NAN, .layout = layout, .rnd = rnd };
		if (ph) {
			r->with_module = 1;
			memset(&one, 0, sizeof(one));
			if (add_report(rdir, runs[i].report, &w->acct, &one)) {
				snprintf(err, errlen, "%s: %s is not a valid module report", name, runs[i].report);
				return -1;
			}
			if (rv && msw_counted(w->name))
				rv->chk = rec_check_ns_per_op(msw_counted(w->name), &one);
		}
	}
	for (i = 0; i < r->nwl; i++)
		for (k = 0; k < 2; k++)
			r->wl[i].ops[k] = s.n[i][k] ? cmp_median(s.v[i][k], (size_t)s.n[i][k]) : NAN;
	return 0;
}

static int by_time(const void *x, const void *y)
{
	const struct record *a = x, *b = y;

	if (a->epoch != b->epoch)
		return a->epoch < b->epoch ? -1 : 1;
	return strcmp(a->name, b->name);
}

int rec_load(const char *dir, struct record *recs, int max, char *err, size_t errlen)
{
	struct dirent *e;
	int n = 0;
	DIR *d = opendir(dir);

	if (!d) {
		snprintf(err, errlen, "cannot open %s", dir);
		return -1;
	}
	while ((e = readdir(d))) {
		char meta[4096];
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(meta, sizeof(meta), "%s/%s/meta.json", dir, e->d_name);
		f = fopen(meta, "r");
		if (!f)
			continue;
		fclose(f);
		if (n == max) {
			snprintf(err, errlen, "more than %d records in %s", max, dir);
			closedir(d);
			return -1;
		}
		if (load_one(dir, e->d_name, &recs[n], err, errlen)) {
			closedir(d);
			return -1;
		}
		n++;
	}
	closedir(d);
	qsort(recs, (size_t)n, sizeof(*recs), by_time);
	return n;
}
