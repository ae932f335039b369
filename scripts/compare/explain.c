// SPDX-License-Identifier: GPL-2.0
/*
 * mseal-compare-explain: does the module's account of the checks explain
 * the measured difference between two kernels?
 *
 *   mseal-compare-explain DIR KERNEL_A KERNEL_B
 *
 * For mmap1 (one operation: mmap + munmap, counted by munmap), pagemove
 * (one operation: one mremap) and munmap-vmas-N (one munmap of N VMAs) it
 * sets, per operation,
 *   measured  = 1e9 / median ops/s on A  -  1e9 / median ops/s on B
 *               (with the module loaded, from DIR/runs.tsv; and without it,
 *               from DIR/nomodule.tsv, one boot each)
 * next to what the module saw in the same runs (DIR/raw/K-N.WORKLOAD.module.json,
 * the report of each workload run alone):
 *   checks per operation on A and on B, net check ns per operation on A
 *   and on B (raw time less calibration_ns per check), and
 *   predicted = (net A - net B) + (checks A - checks B) * calibration_outer_ns,
 * the second term being what the probes on the extra checks themselves
 * cost while the module is loaded.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmpstats.h"
#include "../../tests/guest/msjson.h"

static const char *const checks[] = {
	"can_modify_mm", "can_modify_mm_madv", "can_modify_vma", "can_modify_vma_madv",
};

struct side {
	double ops, checks, net_ns, outer_ns;	/* sums over boots */
	int boots;
};

/* Median ops/s of WL on KERNEL in a runs file (kernel boot workload ops). */
static double median_ops(const char *file, const char *kernel, const char *wl)
{
	static double v[4096];
	char k[128], w[128], line[512];
	size_t n = 0;
	double ops;
	FILE *f = fopen(file, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f) && n < 4096)
		if (sscanf(line, "%127s %*s %127s %lf", k, w, &ops) == 3 &&
		    !strcmp(k, kernel) && !strcmp(w, wl))
			v[n++] = ops;
	fclose(f);
	return n ? cmp_median(v, n) : 0;
}

/* Sum the module's reports of WL on KERNEL; the op is counted by OPSYS. */
static void account(const char *dir, const char *kernel, const char *wl,
		    const char *opsys, const char *const *sys, struct side *s)
{
	static char text[4 << 20];
	char rawdir[4096], suffix[160], path[4352];
	struct dirent *e;
	DIR *d;

	memset(s, 0, sizeof(*s));
	snprintf(rawdir, sizeof(rawdir), "%s/raw", dir);
	snprintf(suffix, sizeof(suffix), ".%s.module.json", wl);
	d = opendir(rawdir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t ln = strlen(e->d_name), lk = strlen(kernel), ls = strlen(suffix);
		double calib;
		unsigned int c;
		char key[160];
		unsigned int i;

		/* KERNEL-N.WL.module.json, N a boot number */
		if (ln <= lk + ls || strncmp(e->d_name, kernel, lk) || e->d_name[lk] != '-' ||
		    e->d_name[lk + 1] < '0' || e->d_name[lk + 1] > '9' ||
		    strcmp(e->d_name + ln - ls, suffix))
			continue;
		snprintf(path, sizeof(path), "%s/%s", rawdir, e->d_name);
		if (msj_read_file(path, text, sizeof(text)) <= 0 || !msj_valid(text))
			continue;
		s->boots++;
		calib = (double)msj_int(text, "calibration_ns", 0);
		s->outer_ns += (double)msj_int(text, "calibration_outer_ns", 0);
		snprintf(key, sizeof(key), "syscalls.%s.count", opsys);
		s->ops += (double)msj_int(text, key, 0);
		/* The checks made in the syscalls that make up the operation. */
		for (i = 0; sys[i]; i++) {
			for (c = 0; c < sizeof(checks) / sizeof(checks[0]); c++) {
				double n, t;

				snprintf(key, sizeof(key), "syscalls.%s.checks.%s.count", sys[i], checks[c]);
				n = (double)msj_int(text, key, 0);
				snprintf(key, sizeof(key), "syscalls.%s.checks.%s.ns.total", sys[i], checks[c]);
				t = (double)msj_int(text, key, 0);
				s->checks += n;
				s->net_ns += t - n * calib > 0 ? t - n * calib : 0;
			}
		}
	}
	closedir(d);
}

/* One row: workload WL, operation counted by OPSYS, checks of SYS. */
static void row(const char *dir, const char *runs, const char *nomod, const char *ka,
		const char *kb, const char *wl, const char *opsys, const char *const *sys)
{
	double ma = median_ops(runs, ka, wl), mb = median_ops(runs, kb, wl);
	double na = median_ops(nomod, ka, wl), nb = median_ops(nomod, kb, wl);
	double meas, meas0, ca, cb, neta, netb, outer, probes, pred;
	struct side a, b;

	if (ma <= 0 || mb <= 0)
		return;
	account(dir, ka, wl, opsys, sys, &a);
	account(dir, kb, wl, opsys, sys, &b);
	if (!a.ops || !b.ops) {
		printf("  %-16s no per-workload module reports\n", wl);
		return;
	}
	meas = 1e9 / ma - 1e9 / mb;
	meas0 = na > 0 && nb > 0 ? 1e9 / na - 1e9 / nb : 0;
	ca = a.checks / a.ops;
	cb = b.checks / b.ops;
	neta = a.net_ns / a.ops;
	netb = b.net_ns / b.ops;
	outer = (a.outer_ns / a.boots + b.outer_ns / b.boots) / 2;
	probes = (ca - cb) * outer;
	pred = (neta - netb) + probes;
	printf("  %-16s %9.0f %9.0f %9.0f %10.0f %9.2f %9.2f %9.1f %9.1f %9.1f %10.1f %6.2f\n",
	       wl, 1e9 / ma, 1e9 / mb, meas, meas0, ca, cb, neta, netb, probes, pred,
	       meas != 0 ? pred / meas : 0);
}

int main(int argc, char **argv)
{
	static const char *const mmap1_sys[] = { "mmap", "munmap", NULL };
	static const char *const mremap_sys[] = { "mremap", NULL };
	static const char *const munmap_sys[] = { "munmap", NULL };
	char runs[4096], nomod[4096], line[512], wl[128], seen[64][128];
	unsigned int nseen = 0, i;
	FILE *f;

	if (argc != 4) {
		fprintf(stderr, "usage: mseal-compare-explain DIR KERNEL_A KERNEL_B\n");
		return 2;
	}
	snprintf(runs, sizeof(runs), "%s/runs.tsv", argv[1]);
	snprintf(nomod, sizeof(nomod), "%s/nomodule.tsv", argv[1]);
	printf("Per operation, A = %s, B = %s (ns; module loaded unless said):\n", argv[2], argv[3]);
	printf("  %-16s %9s %9s %9s %10s %9s %9s %9s %9s %9s %10s %6s\n", "workload", "A ns/op",
	       "B ns/op", "A-B", "A-B nomod", "chk/op A", "chk/op B", "net A", "net B",
	       "probes", "predicted", "pred/meas");
	row(argv[1], runs, nomod, argv[2], argv[3], "mmap1", "munmap", mmap1_sys);
	row(argv[1], runs, nomod, argv[2], argv[3], "pagemove", "mremap", mremap_sys);
	/* munmap-vmas-NNN, in the order runs.tsv has them (sorted by N). */
	f = fopen(runs, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %127s", wl) != 1 || strncmp(wl, "munmap-vmas-", 12))
			continue;
		for (i = 0; i < nseen && strcmp(seen[i], wl); i++)
			;
		if (i == nseen && nseen < 64)
			snprintf(seen[nseen++], sizeof(seen[0]), "%s", wl);
	}
	if (f)
		fclose(f);
	for (i = 0; i < nseen; i++)
		row(argv[1], runs, nomod, argv[2], argv[3], seen[i], "munmap", munmap_sys);
	printf("  (one operation: mmap1 = mmap + munmap, pagemove = one mremap,\n"
	       "   munmap-vmas-N = one munmap of N VMAs; net = check time less calibration_ns\n"
	       "   per check; probes = extra checks x calibration_outer_ns, what watching\n"
	       "   them costs; predicted = net A - net B + probes; A-B nomod: no module)\n");
	return 0;
}
