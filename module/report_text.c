// SPDX-License-Identifier: GPL-2.0
/*
 * report_text.c - the text report, for people: at most MS_REPORT_COLS (100)
 * columns a line, tables in the manner of `perf trace -s`, histograms in
 * bcc funclatency's.  In order:
 *
 *   header      kernel, version, the time since load or the last reset (to
 *               turn counts into rates), backends, filter, clocksource,
 *               calibration, warnings
 *   probes      a row per probe attached, failed or partial; the absent and
 *               the off ones named on one line per state
 *   syscalls    count, eperm, errors; mean, p50, p90, p99, max (ns)
 *   checks      per syscall (or other, worker) and check: count, refused;
 *               mean, p50, p90, p99, max (ns, raw)
 *   totals      total and net ns of each syscall and check under it, and
 *               the checks' share of the syscall's net time
 *   histograms  per cell with calls, its first to its last non-empty
 *               bucket, closed by "avg = X ns, total = Y ns, count = Z"
 *   "end of report"
 *
 * A row with no calls is left out (the JSON keeps it).  "-" stands where
 * there is nothing to show: never a 0 or a mean that was not measured.  A
 * column has one name in every table (count, mean, p50, ..., total, net).
 * Percentiles are estimates from the log2 histogram (cell.h says how).
 * All of it is read-side formatting: nothing here runs in a probe.
 */
#include "report.h"

/* The percentiles beside the mean. */
static const unsigned int ms_pcts[] = { 50, 90, 99 };

/* Rows name a syscall (process_madvise), "other" or "worker"; and a check. */
#define MS_W_ROW	15
#define MS_W_CHECK	19

static const struct ms_cell *ms_txt_cell(const struct ms_report *r, unsigned int i)
{
	return &r->t->cell[i];
}

/* V right-aligned in WIDTH after a space, or "-" where there is none. */
static void ms_col(struct ms_buf *b, int width, bool has, u64 v)
{
	if (has)
		ms_buf_printf(b, " %*llu", width, v);
	else
		ms_buf_printf(b, " %*s", width, "-");
}

/* NET as a share of OF, in percent with one decimal: "-" when OF is 0. */
static void ms_col_share(struct ms_buf *b, u64 net, u64 of)
{
	u32 tenth;
	u64 pct;

	if (!of) {
		ms_buf_printf(b, " %8s", "-");
		return;
	}
	/* x86's divq traps on a quotient past 64 bits: keep it far below. */
	if (div64_u64(net, of) >= 10000) {
		ms_buf_printf(b, " %8s", ">999999%");
		return;
	}
	pct = div_u64_rem(mul_u64_u64_div_u64(net, 1000, of), 10, &tenth);
	ms_buf_printf(b, " %5llu.%u%%", pct, tenth);
}

/* The time columns' heads: mean, p50, p90, p99 in W, max in WMAX. */
static void ms_time_heads(struct ms_buf *b, int w, int wmax)
{
	unsigned int i;

	ms_buf_printf(b, " %*s", w, "mean");
	for (i = 0; i < ARRAY_SIZE(ms_pcts); i++)
		ms_buf_printf(b, " %*s%-2u", w - 2, "p", ms_pcts[i]);
	ms_buf_printf(b, " %*s\n", wmax, "max");
}

static void ms_time_cols(struct ms_buf *b, const struct ms_cell *c, int w, int wmax)
{
	unsigned int i;

	ms_col(b, w, c->count, ms_cell_mean(c));
	for (i = 0; i < ARRAY_SIZE(ms_pcts); i++)
		ms_col(b, w, c->count, ms_cell_percentile(c, ms_pcts[i]));
	ms_col(b, wmax, c->count, c->max_ns);
	ms_buf_puts(b, "\n");
}

void ms_report_hist(struct ms_buf *b, const struct ms_cell *c)
{
	unsigned int i, first = MS_HIST_BUCKETS, last = 0, width, stars;
	u64 max = 0;

	for (i = 0; i < MS_HIST_BUCKETS; i++) {
		if (!c->hist[i])
			continue;
		if (first == MS_HIST_BUCKETS)
			first = i;
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
	for (i = first; i <= last; i++) {
		unsigned int n = (unsigned int)mul_u64_u64_div_u64(c->hist[i], stars, max);

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
	ms_buf_printf(b, "avg = %llu ns, total = %llu ns, count = %llu\n",
		      ms_cell_mean(c), c->total_ns, c->count);
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
		return "a slow device read (in a VM, an exit) that dominates every figure";
	return NULL;
}

static void ms_text_calibration(struct ms_buf *b, const struct ms_report *r)
{
	const char *why = ms_clocksource_warning(r->clocksource);
	unsigned int i, k;

	ms_buf_printf(b, "clocksource: %s\n", r->clocksource);
	if (why)
		ms_buf_printf(b, "warning: clocksource %s: %s\n", r->clocksource, why);
	ms_buf_printf(b, "calibration: %llu ns inside each timed call (subtracted for net), %llu ns per probed call in all\n",
		      r->calibration_ns, r->calibration_outer_ns);
	for (i = 0; i < r->ncalib; i++)
		ms_buf_printf(b, "calibration of %s (CPU %d): %llu ns inside, %llu ns in all\n",
			      r->calib[i].backend, r->calib[i].cpu, r->calib[i].inner_ns,
			      r->calib[i].outer_ns);
	if (!r->calibration_ns)
		ms_buf_puts(b, "warning: the clock did not advance inside a probed call: a coarse clocksource\n"
			    "  (jiffies?) or no calibration; times are not meaningful\n");
	for (k = 0; k < MS_NCHK; k++)
		if (r->chk_uncalibrated[k])
			ms_buf_printf(b, "warning: %s has no calibration of its own backend (not calibrated, or\n"
				      "  its symbols on two backends): its net times are not net\n",
				      ms_chk_names[k]);
}

/* The time the figures span, in seconds and as h:mm:ss. */
static void ms_text_since(struct ms_buf *b, u64 ns)
{
	u32 frac, s;
	u64 sec = div_u64_rem(ns, 1000000000, &frac);
	u64 h = div_u64_rem(sec, 3600, &s);

	ms_buf_printf(b, "since load or reset: %llu.%03u s (%llu:%02u:%02u)\n",
		      sec, frac / 1000000, h, s / 60, s % 60);
}

/* The filter; WRAP puts the comm on a line of its own. */
static void ms_text_filter(struct ms_buf *b, const struct ms_report *r, bool wrap)
{
	ms_buf_printf(b, "filter: tgid %d%s,%scomm ", r->filter_tgid,
		      r->filter_tgid ? "" : " (all)", wrap ? "\n  " : " ");
	ms_buf_json_string(b, r->filter_comm);
	ms_buf_printf(b, "%s\n", r->filter_comm[0] ? "" : " (all)");
}

static void ms_text_header(struct ms_buf *b, const struct ms_report *r)
{
	struct ms_buf filter = { NULL, 0, 0 };
	unsigned int k;

	ms_buf_printf(b, "mseal_stats: kernel %s\n", r->kernel);
	ms_buf_printf(b, "version: %s (JSON schema %d)\n", r->version, MS_REPORT_SCHEMA);
	ms_text_since(b, r->since_reset_ns);
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
		      "checks only (syscalls=0)");
	if (r->syscalls_probed)
		ms_buf_printf(b, "syscall backend: %s%s\n", r->syscall_backend,
			      strcmp(r->syscall_backend, "tracepoint") ? "" :
			      " (raw_syscalls sys_enter to sys_exit)");
	if (r->kprobes_enabled)
		ms_buf_puts(b, "kprobes: enabled\n");
	else
		ms_buf_printf(b, "warning: " MS_KPROBES_OFF_MSG ":\n  %s\n",
			      ms_kprobes_off_effect(r->chk_need_kprobes, r->sys_need_kprobes,
						    r->syscalls_probed));
	ms_buf_puts(b, "commands: reset, calibrate into " MS_COMMAND_PARAM "\n");
	if (r->locked_down)
		ms_buf_puts(b, "lockdown: debugfs is read-only here, the command parameter is not\n");
	/* A comm of escapes (up to 92 columns) goes on a line of its own. */
	ms_text_filter(&filter, r, false);
	ms_text_filter(b, r, filter.len > MS_REPORT_COLS + 1);
	ms_text_calibration(b, r);
}

/* "STATE: name name ..." for the probes in STATE, wrapped: none, no line. */
static void ms_text_names(struct ms_buf *b, const struct ms_report *r, const char *state)
{
	size_t col = 0, n;
	unsigned int i;

	for (i = 0; i < r->nprobes; i++) {
		const char *name = r->probes[i].name;

		if (strcmp(r->probes[i].state, state))
			continue;
		if (!col) {
			ms_buf_printf(b, "%s:", state);
			col = strlen(state) + 1;
		}
		n = strlen(name) + 1;
		if (col + n > MS_REPORT_COLS) {
			ms_buf_puts(b, "\n ");
			col = 1;
		}
		ms_buf_printf(b, " %s", name);
		col += n;
	}
	if (col)
		ms_buf_puts(b, "\n");
}

static bool ms_probe_listed(const struct ms_report_probe *p)
{
	return strcmp(p->state, "absent") && strcmp(p->state, "off");
}

static void ms_text_probes(struct ms_buf *b, const struct ms_report *r)
{
	unsigned int i;

	ms_buf_printf(b, "\nprobes:\n  %-*s %-7s %-8s %-10s %8s  %s\n", MS_W_CHECK,
		      "name", "kind", "state", "backend", "missed", "symbol");
	for (i = 0; i < r->nprobes; i++) {
		const struct ms_report_probe *p = &r->probes[i];
		bool on = !strcmp(p->state, "attached");

		if (!ms_probe_listed(p))
			continue;
		ms_buf_printf(b, "  %-*s %-7s %-8s %-10s", MS_W_CHECK, p->name, p->kind,
			      p->state, p->backend);
		ms_col(b, 8, on, p->missed);
		ms_buf_printf(b, "  %s", p->symbol);
		if (p->err)
			ms_buf_printf(b, " (error %d)", p->err);
		ms_buf_puts(b, "\n");
	}
	ms_text_names(b, r, "absent");
	ms_text_names(b, r, "off");
	ms_buf_printf(b, "missed in all: %llu\n", ms_missed_total(r));
}

static void ms_text_syscalls(struct ms_buf *b, const struct ms_report *r)
{
	unsigned int s, rows = 0;

	ms_buf_printf(b, "\nsyscalls (ns):\n  %-*s %8s %6s %6s", MS_W_ROW,
		      "syscall", "count", "eperm", "errors");
	ms_time_heads(b, 9, 10);
	for (s = 0; s < MS_NSYS; s++) {
		const struct ms_cell *c = ms_txt_cell(r, MS_CELL_SYS(s));

		if (!c->count)
			continue;
		ms_buf_printf(b, "  %-*s %8llu %6llu %6llu", MS_W_ROW, ms_sys_names[s],
			      c->count, c->bad, c->errors);
		ms_time_cols(b, c, 9, 10);
		rows++;
	}
	if (!r->syscalls_probed)
		ms_buf_puts(b, "  (not probed: syscalls=0; each check is charged to the syscall it ran in)\n");
	else if (!rows)
		ms_buf_puts(b, "  (none counted)\n");
}

static void ms_text_checks(struct ms_buf *b, const struct ms_report *r)
{
	unsigned int s, k, rows = 0;

	ms_buf_printf(b, "\nchecks (ns, raw):\n  %-*s %-*s %8s %7s", MS_W_ROW, "syscall",
		      MS_W_CHECK, "check", "count", "refused");
	ms_time_heads(b, 8, 9);
	for (s = 0; s < MS_NROWS; s++) {
		for (k = 0; k < MS_NCHK; k++) {
			const struct ms_cell *c = ms_txt_cell(r, MS_CELL_CHK(s, k));

			if (!c->count)
				continue;
			ms_buf_printf(b, "  %-*s %-*s %8llu %7llu", MS_W_ROW, ms_row_name(s),
				      MS_W_CHECK, ms_chk_names[k], c->count, c->bad);
			ms_time_cols(b, c, 8, 9);
			rows++;
		}
	}
	if (!rows)
		ms_buf_puts(b, "  (none counted)\n");
}

static void ms_total_row(struct ms_buf *b, const char *row, const char *check,
			 const struct ms_cell *c, u64 net, u64 share, u64 of)
{
	ms_buf_printf(b, "  %-*s %-*s %8llu %13llu %13llu", MS_W_ROW, row, MS_W_CHECK,
		      check, c->count, c->total_ns, net);
	ms_col_share(b, share, of);
	ms_buf_puts(b, "\n");
}

/*
 * Each syscall's row, its share the net of all its checks; under it each
 * check's, its share its own.  Other and worker have no syscall: no share.
 */
static void ms_text_totals(struct ms_buf *b, const struct ms_report *r)
{
	unsigned int s, k, rows = 0;

	ms_buf_printf(b, "\ntotals (ns; net: less the probes' own cost, from the calibration):\n"
		      "  %-*s %-*s %8s %13s %13s %8s\n", MS_W_ROW, "syscall", MS_W_CHECK,
		      "check", "count", "total", "net", "share");
	for (s = 0; s < MS_NROWS; s++) {
		const struct ms_cell *c = s < MS_NSYS ? ms_txt_cell(r, MS_CELL_SYS(s)) : NULL;
		u64 sys_net = c && c->count ? ms_sys_net(r, s) : 0, checks_net = 0;

		for (k = 0; k < MS_NCHK; k++)
			checks_net += ms_check_net(r, k, ms_txt_cell(r, MS_CELL_CHK(s, k)));
		if (c && c->count) {
			ms_total_row(b, ms_row_name(s), "(syscall)", c, sys_net, checks_net, sys_net);
			rows++;
		}
		for (k = 0; k < MS_NCHK; k++) {
			const struct ms_cell *kc = ms_txt_cell(r, MS_CELL_CHK(s, k));
			u64 net = ms_check_net(r, k, kc);

			if (!kc->count)
				continue;
			ms_total_row(b, ms_row_name(s), ms_chk_names[k], kc, net, net, sys_net);
			rows++;
		}
	}
	if (!rows)
		ms_buf_puts(b, "  (none counted)\n");
}

static void ms_text_hists(struct ms_buf *b, const struct ms_report *r)
{
	unsigned int s, k;

	for (s = 0; s < MS_NROWS; s++) {
		const char *sys = ms_row_name(s);

		if (s < MS_NSYS && ms_txt_cell(r, MS_CELL_SYS(s))->count) {
			ms_buf_printf(b, "\n%s: syscall time\n", sys);
			ms_report_hist(b, ms_txt_cell(r, MS_CELL_SYS(s)));
		}
		for (k = 0; k < MS_NCHK; k++) {
			const struct ms_cell *c = ms_txt_cell(r, MS_CELL_CHK(s, k));

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
	ms_text_totals(b, r);
	ms_text_hists(b, r);
	/* A reader that has this line has the whole report. */
	ms_buf_puts(b, "\nend of report\n");
}
