// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - what both reports share (the netting of each check, which rows
 * are shown, the missed total) and the JSON report (schema: docs/json-schema.md).
 * The text report is report_text.c.
 *
 * Checks are listed per row: each syscall, "other" (a task in no listed
 * syscall) and "worker" (io_uring io-wq workers and kernel threads).
 *
 * "net" times subtract the probes' own cost measured by calibration, each
 * probe's with its own backend's figures: from each check the handlers'
 * share inside a timed call (inner); from a syscall the whole cost (outer)
 * of every check probe that fired inside it, and its own probe's share
 * when the syscalls are on a backend that wraps calls (a tracepoint's sits
 * outside the time it measures, but for the clock read itself).  A check
 * with no figures (its backend not calibrated, or its symbols on two
 * backends) is said to be uncalibrated.
 */
#include "report.h"

static const struct ms_cell *ms_cell(const struct ms_report *r, unsigned int i)
{
	return &r->t->cell[i];
}

static u64 ms_sub0(u64 a, u64 b)
{
	return a > b ? a - b : 0;
}

u64 ms_missed_total(const struct ms_report *r)
{
	unsigned int i;
	u64 sum = 0;

	for (i = 0; i < r->nprobes; i++)
		sum += r->probes[i].missed;
	return sum;
}

u64 ms_check_net(const struct ms_report *r, unsigned int k, const struct ms_cell *c)
{
	return ms_sub0(c->total_ns, c->count * r->chk_inner[k]);
}

u64 ms_sys_net(const struct ms_report *r, unsigned int s)
{
	const struct ms_cell *c = ms_cell(r, MS_CELL_SYS(s));
	u64 probes_ns = 0;
	unsigned int k;

	for (k = 0; k < MS_NCHK; k++)
		probes_ns += ms_cell(r, MS_CELL_CHK(s, k))->count * r->chk_outer[k];
	return ms_sub0(c->total_ns, c->count * r->sys_inner + probes_ns);
}

bool ms_sys_row_shown(const struct ms_report *r, unsigned int s)
{
	unsigned int k;

	if (r->sys_shown[s] || ms_cell(r, MS_CELL_SYS(s))->count)
		return true;
	for (k = 0; k < MS_NCHK; k++)
		if (ms_cell(r, MS_CELL_CHK(s, k))->count)
			return true;
	return false;
}

/* --- JSON ---------------------------------------------------------------- */

static void ms_json_ns(struct ms_buf *b, const struct ms_cell *c)
{
	unsigned int i, n = 0;

	for (i = 0; i < MS_HIST_BUCKETS; i++)
		if (c->hist[i])
			n = i + 1;
	ms_buf_printf(b, "\"ns\": {\"total\": %llu, \"min\": %llu, \"max\": %llu, \"hist\": [",
		      c->total_ns, c->count ? c->min_ns : 0, c->max_ns);
	for (i = 0; i < n; i++)
		ms_buf_printf(b, "%s%llu", i ? ", " : "", c->hist[i]);
	ms_buf_puts(b, "]}");
}

/* {"CHECK": {count, refused, ns}, ...} for row S (a syscall, other, worker). */
static void ms_json_checks(struct ms_buf *b, const struct ms_report *r,
			   unsigned int s, const char *indent, const char *close)
{
	unsigned int k, n = 0;

	ms_buf_puts(b, "{");
	for (k = 0; k < MS_NCHK; k++) {
		const struct ms_cell *c = ms_cell(r, MS_CELL_CHK(s, k));

		if (!r->chk_shown[k] && !c->count)
			continue;
		ms_buf_printf(b, "%s\n%s\"%s\": {\"count\": %llu, \"refused\": %llu, ",
			      n++ ? "," : "", indent, ms_chk_names[k], c->count, c->bad);
		ms_json_ns(b, c);
		ms_buf_puts(b, "}");
	}
	ms_buf_printf(b, "%s%s}", n ? "\n" : "", n ? close : "");
}

void ms_report_json(struct ms_buf *b, const struct ms_report *r)
{
	unsigned int i, s, n = 0;

	ms_buf_puts(b, "{\n  \"version\": ");
	ms_buf_json_string(b, r->version);
	ms_buf_printf(b, ",\n  \"schema\": %d,\n  \"since_reset_ns\": %llu,\n  \"kernel\": ",
		      MS_REPORT_SCHEMA, r->since_reset_ns);
	ms_buf_json_string(b, r->kernel);
	ms_buf_puts(b, ",\n  \"clocksource\": ");
	ms_buf_json_string(b, r->clocksource);
	ms_buf_puts(b, ",\n  \"clock\": ");
	ms_buf_json_string(b, r->clock);
	ms_buf_printf(b, ",\n  \"clock_backwards\": %llu", r->clock_backwards);
	ms_buf_printf(b, ",\n  \"mseal_supported\": %s,\n  \"backend\": ",
		      r->mseal_supported ? "true" : "false");
	ms_buf_json_string(b, r->backend);
	ms_buf_puts(b, ",\n  \"syscall_backend\": ");
	ms_buf_json_string(b, r->syscalls_probed ? r->syscall_backend : "off");
	ms_buf_printf(b, ",\n  \"syscalls_probed\": %s",
		      r->syscalls_probed ? "true" : "false");
	ms_buf_puts(b, ",\n  \"syscall_span\": ");
	ms_buf_json_string(b, r->syscalls_probed && r->syscall_span ? r->syscall_span : "");
	ms_buf_printf(b, ",\n  \"syscalls_in_flight\": %llu", r->sys_in_flight);
	ms_buf_printf(b, ",\n  \"kprobes_enabled\": %s",
		      r->kprobes_enabled ? "true" : "false");
	ms_buf_printf(b, ",\n  \"locked_down\": %s",
		      r->locked_down ? "true" : "false");
	ms_buf_printf(b, ",\n  \"filter\": {\"tgid\": %d, \"comm\": ", r->filter_tgid);
	ms_buf_json_string(b, r->filter_comm);
	ms_buf_printf(b, "},\n  \"calibration_ns\": %llu,\n  \"calibration_outer_ns\": %llu,\n  \"calibration\": {",
		      r->calibration_ns, r->calibration_outer_ns);
	for (i = 0; i < r->ncalib; i++) {
		ms_buf_printf(b, "%s\"%s\": {\"ns\": %llu, \"outer_ns\": %llu, \"cpu\": %d, \"clock\": ",
			      i ? ", " : "", r->calib[i].backend, r->calib[i].inner_ns,
			      r->calib[i].outer_ns, r->calib[i].cpu);
		ms_buf_json_string(b, r->calib[i].clock);
		ms_buf_puts(b, "}");
	}
	ms_buf_puts(b, "},\n  \"probes\": [");
	for (i = 0; i < r->nprobes; i++) {
		const struct ms_report_probe *p = &r->probes[i];

		ms_buf_printf(b, "%s\n    {\"name\": \"%s\", \"kind\": \"%s\", \"state\": \"%s\", \"backend\": \"%s\", \"symbol\": ",
			      i ? "," : "", p->name, p->kind, p->state, p->backend);
		ms_buf_json_string(b, p->symbol);
		ms_buf_printf(b, ", \"missed\": %llu}", p->missed);
	}
	ms_buf_printf(b, "\n  ],\n  \"missed_total\": %llu,\n  \"syscalls\": {",
		      ms_missed_total(r));
	for (s = 0; s < MS_NSYS; s++) {
		const struct ms_cell *c = ms_cell(r, MS_CELL_SYS(s));

		if (!ms_sys_row_shown(r, s))
			continue;
		ms_buf_printf(b, "%s\n    \"%s\": {\"count\": %llu, \"eperm\": %llu, \"errors\": %llu, ",
			      n++ ? "," : "", ms_sys_names[s], c->count, c->bad, c->errors);
		ms_json_ns(b, c);
		ms_buf_puts(b, ", \"checks\": ");
		ms_json_checks(b, r, s, "      ", "    ");
		ms_buf_puts(b, "}");
	}
	ms_buf_printf(b, "%s},\n  \"other\": ", n ? "\n  " : "");
	ms_json_checks(b, r, MS_OTHER, "    ", "  ");
	ms_buf_puts(b, ",\n  \"worker\": ");
	ms_json_checks(b, r, MS_WORKER, "    ", "  ");
	ms_buf_puts(b, "\n}\n");
}
