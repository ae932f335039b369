// SPDX-License-Identifier: GPL-2.0
/*
 * summary.json: the same figures as summary.txt, as data (NaN as null),
 * and the records each warning's condition holds for.
 */
#include <math.h>

#include "report_state.h"

/* JSON: numbers (NaN as null) and strings. */
static void json_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fprintf(f, "null");
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* ", "key": number" (sep "" for the first of an object). */
static void json_field(FILE *f, const char *sep, const char *key, double v)
{
	fprintf(f, "%s\"%s\": ", sep, key);
	json_num(f, v);
}

static void json_ci(FILE *f, double lo, double hi)
{
	fprintf(f, ", \"ci95\": [");
	json_num(f, lo);
	fprintf(f, ", ");
	json_num(f, hi);
	fprintf(f, "]");
}

static void json_pair(FILE *f, const char *key, double a, double b)
{
	fprintf(f, "\"%s\": {", key);
	json_field(f, "", "a", a);
	json_field(f, ", ", "b", b);
	fprintf(f, "}");
}

static void json_ab(FILE *f, const struct cmp_ab *s)
{
	fprintf(f, "\"boots\": {\"a\": %zu, \"b\": %zu}", s->na, s->nb);
	json_field(f, ", ", "a_ops", s->a);
	json_field(f, ", ", "b_ops", s->b);
	json_field(f, ", ", "delta_pct", s->delta_pct);
	json_ci(f, s->lo, s->hi);
	json_field(f, ", ", "p", s->p);
}

static void json_account(FILE *f, const struct acct *a)
{
	int s, first = 1;

	fprintf(f, "{");
	for (s = 0; s < REC_NSYS; s++) {
		if (!a->calls[s])
			continue;
		fprintf(f, "%s\"%s\": {\"calls\": %.0f, \"mean_ns\": ", first ? "" : ", ",
			rec_syscalls[s], a->calls[s]);
		json_num(f, a->ns[s] / a->calls[s]);
		fprintf(f, ", \"checks_per_call\": ");
		json_num(f, a->checks[s] / a->calls[s]);
		fprintf(f, ", \"check_ns_raw\": ");
		json_num(f, a->checks[s] ? a->check_ns[s] / a->checks[s] : 0);
		fprintf(f, ", \"check_ns_net\": ");
		json_num(f, a->checks[s] ? a->check_net_ns[s] / a->checks[s] : 0);
		fprintf(f, "}");
		first = 0;
	}
	fprintf(f, "}");
}

/* "spread": the stop rule of a workload; unknown figures null. */
static void json_spread(FILE *f, const struct spread *sp)
{
	fprintf(f, "\"spread\": {");
	json_pair(f, "cv_pct", sp->cv[0], sp->cv[1]);
	fprintf(f, ", \"boots_needed\": {");
	json_field(f, "", "pm1", sp->need[0] ? (double)sp->need[0] : NAN);
	json_field(f, ", ", "pm2", sp->need[1] ? (double)sp->need[1] : NAN);
	fprintf(f, "}");
	json_field(f, ", ", "halfwidth_now_pct", sp->now);
	fprintf(f, ", \"paired_by_seed\": ");
	if (sp->pair_need[0]) {
		json_field(f, "{", "delta_sd_points", sp->pair_sd);
		json_field(f, ", \"pairs_needed\": {", "pm1", (double)sp->pair_need[0]);
		json_field(f, ", ", "pm2", (double)sp->pair_need[1]);
		fprintf(f, "}}");
	} else {
		fprintf(f, "null");
	}
	fprintf(f, "}");
}

static void json_by_seed(FILE *f, const struct cmp_ab *s)
{
	fprintf(f, "\"paired_by_seed\": ");
	if (!s->na) {
		fprintf(f, "null");
		return;
	}
	fprintf(f, "{\"seeds\": %zu", s->na);
	json_field(f, ", ", "a_ops", s->a);
	json_field(f, ", ", "b_ops", s->b);
	json_field(f, ", ", "delta_pct", s->delta_pct);
	json_ci(f, s->lo, s->hi);
	fprintf(f, "}");
}

/* The records of A and B that meet cond, by name (the warnings' conditions). */
static void json_names(const struct report *rp, FILE *f, const char *key,
		       int (*cond)(const struct record *first, const struct record *r))
{
	const int *sets[2] = { rp->ia, rp->ib };
	int ns[2] = { rp->na, rp->nb }, s, i, first = 1;
	const struct record *r0 = &rp->recs[rp->ia[0] < rp->ib[0] ? rp->ia[0] : rp->ib[0]];

	fprintf(f, "\"%s\": [", key);
	for (s = 0; s < 2; s++)
		for (i = 0; i < ns[s]; i++)
			if (cond(r0, &rp->recs[sets[s][i]])) {
				fprintf(f, "%s", first ? "" : ", ");
				json_str(f, rp->recs[sets[s][i]].name);
				first = 0;
			}
	fprintf(f, "]");
}

/* The warnings' conditions in json_names' shape: FIRST is the first record of A and B. */
static int json_busy(const struct record *first, const struct record *r)
{
	(void)first;
	return warn_busy(r);
}

static int json_governor_other(const struct record *first, const struct record *r)
{
	(void)first;
	return warn_governor_other(r);
}

static int json_turbo_on(const struct record *first, const struct record *r)
{
	(void)first;
	return warn_turbo_on(r);
}

static int json_settings_refused(const struct record *first, const struct record *r)
{
	(void)first;
	return warn_settings_refused(r);
}

/* What the warnings look at, as data: lists of the records concerned. */
static void json_conditions(const struct report *rp, FILE *f)
{
	const struct record *first = &rp->recs[rp->ia[0] < rp->ib[0] ? rp->ia[0] : rp->ib[0]];

	/* meta.json's own value (valid JSON: its file was), or null where it had none. */
	fprintf(f, "\"conditions\": {\"options\": %s", first->options[0] ? first->options : "null");
	fprintf(f, ", ");
	json_names(rp, f, "options_differ", warn_options_differ);
	fprintf(f, ", \"busy_start_per_cpu\": %g, ", WARN_BUSY_PER_CPU);
	json_names(rp, f, "busy_start", json_busy);
	fprintf(f, ", ");
	json_names(rp, f, "governor_not_performance", json_governor_other);
	fprintf(f, ", ");
	json_names(rp, f, "turbo_on", json_turbo_on);
	fprintf(f, ", ");
	json_names(rp, f, "cpu_settings_refused", json_settings_refused);
	fprintf(f, "}");
}

static const char *const how_names[] = {
	[AB_GIVEN] = "given", [AB_NAMED] = "release name", [AB_FIRST] = "first boot",
};

static void json_head(const struct report *rp, FILE *f)
{
	const struct ab_choice *c = &rp->c;

	fprintf(f, "{\"a\": ");
	json_str(f, c->a);
	fprintf(f, ", \"b\": ");
	json_str(f, c->b);
	fprintf(f, ", \"a_chosen_by\": ");
	json_str(f, how_names[c->how]);
	fprintf(f, ", \"records\": {\"a\": %d, \"b\": %d},\n \"clock\": ", rp->na, rp->nb);
	json_str(f, rp->clk->clock);
	fprintf(f, ", \"unit\": ");
	json_str(f, rp->clk->unit);
	fprintf(f, ", \"unit_is_not\": ");
	if (rp->clk->not_time)
		json_str(f, rp->clk->not_time);
	else
		fprintf(f, "null");
	fprintf(f, ",\n \"seeds\": {\"a\": %d, \"b\": %d, \"paired\": %d},\n ", rp->nseeds_a, rp->nseeds_b, rp->nseeds);
}

/* A ratio's interval: "q", "ci95" and how it was had. */
static void json_lay_ci(FILE *f, const char *key, const struct lay_ci *c, double scale, double shift)
{
	fprintf(f, "\"%s\": {", key);
	json_field(f, "", "value", scale * (c->q - shift));
	json_ci(f, scale * (c->lo - shift), scale * (c->hi - shift));
	json_field(f, ", ", "se", scale * c->se);
	json_field(f, ", ", "df", c->df);
	fprintf(f, ", \"n\": %zu, \"boots\": %d, \"boot_fixed\": %s}", c->n, c->boots,
		c->boot_fixed ? "true" : "false");
}

/* The headline over layouts (headline.h). */
static void json_layouts(FILE *f, const struct headline *h)
{
	fprintf(f, "{\"paired\": %s, \"runs\": {\"a\": %zu, \"b\": %zu}, \"boots\": {\"a\": %d, \"b\": %d}, ",
		h->paired ? "true" : "false", h->runs[0], h->runs[1], h->boots[0], h->boots[1]);
	json_pair(f, "mean_ops", h->a, h->b);
	fprintf(f, ", ");
	json_pair(f, "cv_pct", h->cv[0], h->cv[1]);
	json_field(f, ", ", "pair_sd_points", h->pair_sd);
	fprintf(f, ",\n    ");
	json_lay_ci(f, "delta_pct", &h->delta, 100, 1);
	fprintf(f, ",\n    \"explained\": ");
	if (h->acct.n) {
		fprintf(f, "{");
		json_field(f, "", "measured_ns_per_op", h->gap_ns);
		fprintf(f, ", ");
		json_pair(f, "check_ns_per_op", h->check[0], h->check[1]);
		fprintf(f, ", ");
		json_lay_ci(f, "ratio", &h->acct, 1, 0);
		fprintf(f, "}");
	} else {
		fprintf(f, "null");
	}
	fprintf(f, "}");
}

void rep_json(const struct report *rp)
{
	FILE *f = rep_open(rp->dir, "summary.json");
	int i;

	json_head(rp, f);
	json_conditions(rp, f);
	fprintf(f, ",\n \"warnings\": [");
	for (i = 0; i < rp->nwarn; i++) {
		fprintf(f, "%s", i ? ", " : "");
		json_str(f, rp->warn[i]);
	}
	fprintf(f, "],\n \"workloads\": {");
	for (i = 0; i < rp->nres; i++) {
		const struct wl_result *r = &rp->res[i];
		const struct explained *e = &r->ex;

		fprintf(f, "%s\n  ", i ? "," : "");
		json_str(f, r->name);
		fprintf(f, ": {\"boots\": {\"a\": %zu, \"b\": %zu},\n   \"over_layouts\": ", r->wo.na, r->wo.nb);
		json_layouts(f, &r->hl);
		fprintf(f, ",\n   \"over_matched_layouts\": ");
		if (rp->mna && rp->mnb)
			json_layouts(f, &r->hl_matched);
		else
			fprintf(f, "null");
		fprintf(f, ",\n   \"without_module\": {");
		json_ab(f, &r->wo);
		fprintf(f, "},\n   ");
		json_by_seed(f, &r->wo_seed);
		fprintf(f, ",\n   ");
		json_spread(f, &r->sp);
		fprintf(f, ",\n   \"with_module\": ");
		if (r->w.na || r->w.nb) {
			fprintf(f, "{");
			json_ab(f, &r->w);
			fprintf(f, ", ");
			json_pair(f, "watch_cost_ns_per_op", r->watch_ns[0], r->watch_ns[1]);
			fprintf(f, ", ");
			json_pair(f, "watch_cost_pct", r->watch_pct[0], r->watch_pct[1]);
			fprintf(f, "}");
		} else {
			fprintf(f, "null");
		}
		fprintf(f, ",\n   \"explained\": ");
		if (e->na && e->nb) {
			fprintf(f, "{\"operation\": ");
			json_str(f, e->op->what);
			fprintf(f, ", \"boots\": {\"a\": %d, \"b\": %d}", e->na, e->nb);
			json_field(f, ", ", "measured_ns_per_op", e->measured_ns);
			fprintf(f, ", ");
			json_pair(f, "check_ns_per_op", e->check_a, e->check_b);
			json_field(f, ", ", "ratio", e->ratio);
			json_ci(f, e->lo, e->hi);
			fprintf(f, ", \"too_wide\": %s, \"paired_by_seed\": ", e->too_wide ? "true" : "false");
			if (e->by_seed.n) {
				fprintf(f, "{\"seeds\": %d", e->by_seed.n);
				json_field(f, ", ", "ratio", e->by_seed.ratio);
				json_ci(f, e->by_seed.lo, e->by_seed.hi);
				fprintf(f, "}}");
			} else {
				fprintf(f, "null}");
			}
		} else {
			fprintf(f, "null");
		}
		fprintf(f, "}");
	}
	fprintf(f, "},\n \"account\": {\"a\": ");
	json_account(f, &rp->acc[0]);
	fprintf(f, ", \"b\": ");
	json_account(f, &rp->acc[1]);
	fprintf(f, "}}\n");
	fclose(f);
}
