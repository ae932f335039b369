// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - format the statistics as text and as JSON (schema: README).
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

/* Missed hits over every probe: the figure a load test checks for 0. */
static u64 ms_missed_total(const struct ms_report *r)
{
	unsigned int i;
	u64 sum = 0;

	for (i = 0; i < r->nprobes; i++)
		sum += r->probes[i].missed;
	return sum;
}

/* Check K's cell C, less K's backend's share inside each call. */
static u64 ms_check_net(const struct ms_report *r, unsigned int k, const struct ms_cell *c)
{
	return ms_sub0(c->total_ns, c->count * r->chk_inner[k]);
}

/*
 * A syscall's row is shown when its probe exists, or, with syscalls=0 (no
 * syscall probed), when checks were charged to it.
 */
static bool ms_sys_row_shown(const struct ms_report *r, unsigned int s)
{
	unsigned int k;

	if (r->sys_shown[s] || ms_cell(r, MS_CELL_SYS(s))->count)
		return true;
	for (k = 0; k < MS_NCHK; k++)
		if (ms_cell(r, MS_CELL_CHK(s, k))->count)
			return true;
	return false;
}

/* --- text ---------------------------------------------------------------- */

void ms_report_hist(struct ms_buf *b, const struct ms_cell *c)
{
	unsigned int i, last = 0, width, stars;
	u64 max = 0;

	for (i = 0; i < MS_HIST_BUCKETS; i++) {
		if (c->hist[i])
			last = i;
		if (c->hist[i] > max)
			max = c->hist[i];
	}
	if (max == 0)
		return;
	width = last < 32 ? 10 : 20;
	stars = last < 32 ? 40 : 20;
	ms_buf_printf(b, "%*s%-*s : count     distribution\n",
		      width - 5, "", width + 9, "nsecs");
	for (i = 0; i <= last; i++) {
		unsigned int n = (unsigned int)(c->hist[i] * stars / max);

		if (ms_hist_high(i) == U64_MAX)
			ms_buf_printf(b, "%*llu -> %-*s : %-8llu |", width,
				      ms_hist_low(i), width, "inf", c->hist[i]);
		else
			ms_buf_printf(b, "%*llu -> %-*llu : %-8llu |", width,
				      ms_hist_low(i), width, ms_hist_high(i),
				      c->hist[i]);
		ms_buf_printf(b, "%.*s%*s|\n", n,
			      "****************************************", stars - n, "");
	}
}

const char *ms_kprobes_off_effect(bool chk, bool sys, bool syscalls_probed)
{
	sys = sys && syscalls_probed;
	if (chk && (sys || !syscalls_probed))
		return "no probe fires, nothing is counted until 1 is written there";
	if (chk)
		return "the checks are not counted until 1 is written there (the syscalls are)";
	if (sys)
		return "the syscalls are not counted until 1 is written there (the checks are)";
	return "kretprobes would not fire (these backends do not need them)";
}

/* A clocksource that makes every figure slow or coarse, and why. */
static const char *ms_clocksource_warning(const char *cs)
{
	if (!strcmp(cs, "jiffies"))
		return "ticks, not nanoseconds";
	if (!strcmp(cs, "hpet") || !strcmp(cs, "acpi_pm"))
		return "a read is a slow device access (in a VM, an exit), which dominates every figure";
	return NULL;
}

static void ms_text_calibration(struct ms_buf *b, const struct ms_report *r)
{
	const char *why = ms_clocksource_warning(r->clocksource);
	unsigned int i, k;

	ms_buf_printf(b, "clocksource: %s\n", r->clocksource);
	if (why)
		ms_buf_printf(b, "warning: clocksource %s: %s\n", r->clocksource, why);
	ms_buf_printf(b, "calibration: %llu ns of probe cost inside each timed call (subtracted for net), %llu ns per probed call in all\n",
		      r->calibration_ns, r->calibration_outer_ns);
	for (i = 0; i < r->ncalib; i++)
		ms_buf_printf(b, "calibration of %s (CPU %d): %llu ns inside, %llu ns in all\n",
			      r->calib[i].backend, r->calib[i].cpu, r->calib[i].inner_ns,
			      r->calib[i].outer_ns);
	if (!r->calibration_ns)
		ms_buf_puts(b, "warning: the clock did not advance inside a probed call: a coarse clocksource (jiffies?) or no calibration; times are not meaningful\n");
	for (k = 0; k < MS_NCHK; k++)
		if (r->chk_uncalibrated[k])
			ms_buf_printf(b, "warning: %s has no calibration of its own backend (not calibrated, or its symbols on two backends): its net times are not net\n",
				      ms_chk_names[k]);
}

static void ms_text_header(struct ms_buf *b, const struct ms_report *r)
{
	unsigned int k;

	ms_buf_printf(b, "mseal_stats: kernel %s\n", r->kernel);
	ms_buf_printf(b, "version: %s (JSON schema %d)\n", r->version, MS_REPORT_SCHEMA);
	ms_buf_printf(b, "mseal supported: %s\n",
		      r->mseal_supported ? "yes" : "no (mseal not supported)");
	ms_buf_printf(b, "backend: %s", r->backend);
	/* maxactive only means something where a kretprobe holds instances. */
	for (k = 0; k < r->nprobes; k++) {
		if (!strcmp(r->probes[k].backend, "kretprobe")) {
			ms_buf_printf(b, " (maxactive %d)", r->maxactive);
			break;
		}
	}
	ms_buf_printf(b, ", %s\n", r->syscalls_probed ? "syscalls and checks probed" :
		      "checks only (syscalls=0: syscalls not probed, checks charged to them)");
	if (r->syscalls_probed)
		ms_buf_printf(b, "syscall backend: %s%s\n", r->syscall_backend,
			      strcmp(r->syscall_backend, "tracepoint") ? "" :
			      " (raw_syscalls sys_enter to sys_exit)");
	if (r->kprobes_enabled)
		ms_buf_puts(b, "kprobes: enabled\n");
	else
		ms_buf_printf(b, "warning: " MS_KPROBES_OFF_MSG ": %s\n",
			      ms_kprobes_off_effect(r->chk_need_kprobes, r->sys_need_kprobes,
						    r->syscalls_probed));
	ms_buf_printf(b, "commands: reset, calibrate into " MS_COMMAND_PARAM "%s\n",
		      r->locked_down ? " (lockdown: debugfs is read-only here, the parameter is not)" : "");
	ms_buf_printf(b, "filter: tgid %d%s, comm ", r->filter_tgid,
		      r->filter_tgid ? "" : " (all)");
	ms_buf_json_string(b, r->filter_comm);
	ms_buf_printf(b, "%s\n", r->filter_comm[0] ? "" : " (all)");
	ms_text_calibration(b, r);
}

static void ms_text_probes(struct ms_buf *b, const struct ms_report *r)
{
	unsigned int i;

	ms_buf_printf(b, "\nprobes:\n  %-20s %-8s %-9s %-10s %8s  %s\n",
		      "name", "kind", "state", "backend", "missed", "symbol");
	for (i = 0; i < r->nprobes; i++) {
		const struct ms_report_probe *p = &r->probes[i];

		ms_buf_printf(b, "  %-20s %-8s %-9s %-10s %8llu  %s", p->name, p->kind,
			      p->state, p->backend, p->missed, p->symbol);
		if (p->err)
			ms_buf_printf(b, " (error %d)", p->err);
		ms_buf_puts(b, "\n");
	}
	ms_buf_printf(b, "missed in all: %llu\n", ms_missed_total(r));
}

static void ms_text_syscalls(struct ms_buf *b, const struct ms_report *r)
{
	unsigned int s, k;

	ms_buf_printf(b, "\nsyscalls:\n  %-16s %9s %7s %7s %9s %9s %11s %9s %11s %11s %7s\n",
		      "syscall", "count", "eperm", "errors", "mean_ns", "min_ns",
		      "max_ns", "checks", "check_ns", "check_net", "share");
	for (s = 0; s < MS_NSYS; s++) {
		const struct ms_cell *c = ms_cell(r, MS_CELL_SYS(s));
		u64 checks = 0, check_ns = 0, check_net = 0, probes_ns = 0, sys_net, permille;

		if (!ms_sys_row_shown(r, s))
			continue;
		for (k = 0; k < MS_NCHK; k++) {
			const struct ms_cell *kc = ms_cell(r, MS_CELL_CHK(s, k));

			checks += kc->count;
			check_ns += kc->total_ns;
			check_net += ms_check_net(r, k, kc);
			probes_ns += kc->count * r->chk_outer[k];
		}
		sys_net = ms_sub0(c->total_ns, c->count * r->sys_inner + probes_ns);
		permille = sys_net ? check_net * 1000 / sys_net : 0;
		ms_buf_printf(b, "  %-16s %9llu %7llu %7llu %9llu %9llu %11llu %9llu %11llu %11llu %5llu.%llu%%\n",
			      ms_sys_names[s], c->count, c->bad, c->errors,
			      ms_cell_mean(c), c->count ? c->min_ns : 0, c->max_ns,
			      checks, check_ns, check_net, permille / 10, permille % 10);
	}
}

static void ms_text_check_row(struct ms_buf *b, const struct ms_report *r,
			      const char *sys, unsigned int k, const struct ms_cell *c)
{
	ms_buf_printf(b, "  %-16s %-20s %9llu %7llu %9llu %9llu %11llu %11llu %11llu\n",
		      sys, ms_chk_names[k], c->count, c->bad, ms_cell_mean(c),
		      c->min_ns, c->max_ns, c->total_ns, ms_check_net(r, k, c));
}

static void ms_text_checks(struct ms_buf *b, const struct ms_report *r)
{
	unsigned int s, k, rows = 0;

	ms_buf_printf(b, "\nchecks by syscall:\n  %-16s %-20s %9s %7s %9s %9s %11s %11s %11s\n",
		      "syscall", "check", "count", "refused", "mean_ns", "min_ns",
		      "max_ns", "total_ns", "net_ns");
	for (s = 0; s < MS_NROWS; s++) {
		for (k = 0; k < MS_NCHK; k++) {
			const struct ms_cell *c = ms_cell(r, MS_CELL_CHK(s, k));

			if (!c->count)
				continue;
			ms_text_check_row(b, r, ms_row_name(s), k, c);
			rows++;
		}
	}
	if (!rows)
		ms_buf_puts(b, "  (no checks made)\n");
}

static void ms_text_hists(struct ms_buf *b, const struct ms_report *r)
{
	unsigned int s, k;

	for (s = 0; s < MS_NROWS; s++) {
		const char *sys = ms_row_name(s);

		if (s < MS_NSYS && ms_cell(r, MS_CELL_SYS(s))->count) {
			ms_buf_printf(b, "\n%s: syscall time\n", sys);
			ms_report_hist(b, ms_cell(r, MS_CELL_SYS(s)));
		}
		for (k = 0; k < MS_NCHK; k++) {
			const struct ms_cell *c = ms_cell(r, MS_CELL_CHK(s, k));

			if (!c->count)
				continue;
			ms_buf_printf(b, "\n%s: %s time (raw)\n", sys, ms_chk_names[k]);
			ms_report_hist(b, c);
		}
	}
}

void ms_report_text(struct ms_buf *b, const struct ms_report *r)
{
	ms_text_header(b, r);
	ms_text_probes(b, r);
	ms_text_syscalls(b, r);
	ms_text_checks(b, r);
	ms_text_hists(b, r);
	/* A reader that has this line has the whole report. */
	ms_buf_puts(b, "\nend of report\n");
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
	ms_buf_printf(b, ",\n  \"schema\": %d,\n  \"kernel\": ", MS_REPORT_SCHEMA);
	ms_buf_json_string(b, r->kernel);
	ms_buf_puts(b, ",\n  \"clocksource\": ");
	ms_buf_json_string(b, r->clocksource);
	ms_buf_printf(b, ",\n  \"mseal_supported\": %s,\n  \"backend\": ",
		      r->mseal_supported ? "true" : "false");
	ms_buf_json_string(b, r->backend);
	ms_buf_puts(b, ",\n  \"syscall_backend\": ");
	ms_buf_json_string(b, r->syscalls_probed ? r->syscall_backend : "off");
	ms_buf_printf(b, ",\n  \"syscalls_probed\": %s",
		      r->syscalls_probed ? "true" : "false");
	ms_buf_printf(b, ",\n  \"kprobes_enabled\": %s",
		      r->kprobes_enabled ? "true" : "false");
	ms_buf_printf(b, ",\n  \"locked_down\": %s",
		      r->locked_down ? "true" : "false");
	ms_buf_printf(b, ",\n  \"filter\": {\"tgid\": %d, \"comm\": ", r->filter_tgid);
	ms_buf_json_string(b, r->filter_comm);
	ms_buf_printf(b, "},\n  \"calibration_ns\": %llu,\n  \"calibration_outer_ns\": %llu,\n  \"calibration\": {",
		      r->calibration_ns, r->calibration_outer_ns);
	for (i = 0; i < r->ncalib; i++)
		ms_buf_printf(b, "%s\"%s\": {\"ns\": %llu, \"outer_ns\": %llu, \"cpu\": %d}",
			      i ? ", " : "", r->calib[i].backend, r->calib[i].inner_ns,
			      r->calib[i].outer_ns, r->calib[i].cpu);
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
