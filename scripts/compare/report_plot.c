// SPDX-License-Identifier: GPL-2.0
/* The plots' data, DIR/plot-data/, which scripts/compare/plots.gp draws. */
#include <sys/stat.h>

#include "report_state.h"

/* A gnuplot string: double quotes, with " and \\ escaped. */
static void gpstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/*
 * The plots' data (scripts/compare/plots.gp): every boot's value spread a
 * little around its kernel's x (0 for A, 1 for B), the medians, and the
 * deltas with their intervals; workload i is column 1 = i.
 */
void rep_plot(const struct report *rp)
{
	const int *sets[2] = { rp->ia, rp->ib };
	int ns[2] = { rp->na, rp->nb }, i, s, k;
	char sub[4096];
	FILE *fb, *fm, *fd, *fw;
	int with_module = 0;

	for (i = 0; i < rp->nres; i++)
		with_module |= rp->res[i].w.na && rp->res[i].w.nb;

	snprintf(sub, sizeof(sub), "%s/plot-data", rp->dir);
	mkdir(sub, 0755);
	fb = rep_open(sub, "boots.dat");
	fm = rep_open(sub, "medians.dat");
	fd = rep_open(sub, "deltas.dat");
	for (i = 0; i < rp->nres; i++) {
		const struct wl_result *r = &rp->res[i];

		for (s = 0; s < 2; s++) {
			for (k = 0; k < ns[s]; k++) {
				const struct boot_wl *w = rec_wl(&rp->recs[sets[s][k]], r->name);
				double x = s + (ns[s] > 1 ? 0.3 * ((double)k / (ns[s] - 1) - 0.5) : 0);

				if (w)
					fprintf(fb, "%d %d %.3f %.1f %.1f\n", i + 1, s, x, w->ops[0], w->ops[1]);
			}
			fprintf(fm, "%d %d %.1f %.1f\n", i + 1, s, s ? r->wo.b : r->wo.a, s ? r->w.b : r->w.a);
		}
		fprintf(fd, "%d %s %.3f %.3f %.3f %.3f %.3f %.3f\n", rp->nres - i, r->name,
			r->wo.delta_pct, r->wo.lo, r->wo.hi, r->w.delta_pct, r->w.lo, r->w.hi);
	}
	fw = rep_open(sub, "vars.gp");
	fprintf(fw, "a = ");
	gpstr(fw, rp->c.a);
	fprintf(fw, "\nb = ");
	gpstr(fw, rp->c.b);
	fprintf(fw, "\nna = %d\nnb = %d\nn = %d\nwith_module = %d\nnames = \"", rp->na, rp->nb, rp->nres, with_module);
	for (i = 0; i < rp->nres; i++)
		fprintf(fw, "%s%s", i ? " " : "", rp->res[i].name);
	fprintf(fw, "\"\n");
	fclose(fb);
	fclose(fm);
	fclose(fd);
	fclose(fw);
}
