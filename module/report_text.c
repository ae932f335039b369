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
 * Each table's figure columns are as wide as their widest figure, or a
 * table that would pass 100 columns shows its big figures scaled (5.0G):
 * see ms_tab below.  A row with no calls is left out (the JSON keeps it).  "-" stands where
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

/*
 * The tables are sized as perf trace -s sizes its own: each figure column
 * as wide as its widest figure, at least its usual width (which its head
 * fits), found in a first pass over the rows that writes nothing; then the
 * head and the rows are written.  A table that would pass MS_REPORT_COLS
 * that way (a module loaded for days: 10^8 checks, a max of seconds) keeps
 * every column at its usual width instead, and a figure too wide for its
 * column is shown scaled, rounded down, with an SI suffix: 5000000000 as
 * 5.0G, 123456789 as 123.4M (6 characters at most, no wider than any
 * column).  Scaled rather than the names cut: can_modify_vma~ could be
 * either of two checks, and a column whose figures only lose digits stays
 * lined up and readable.  A name longer than its column (not one of ours
 * is) is cut to it, ending in "~"; so is a probe's symbol (up to 63
 * characters, an error after it) to what the line has left.  Both passes
 * read the same snapshot, so they agree, as do the report's counting and
 * writing passes (report.h).
 */
#define MS_TAB_COLS	8

struct ms_tab {
	struct ms_buf *b;		/* the rows go here; sizing: only counted */
	bool sizing;
	const int *usual;		/* each figure column's usual width */
	int w[MS_TAB_COLS];		/* and its width in this table */
	unsigned int ncols, col;	/* figure columns; the row's next one */
	size_t line;			/* where the row began in b */
	size_t text;			/* sizing: the widest row less its figures */
};

/* A sizing pass over NCOLS figure columns of USUAL widths; COUNT: counts only. */
static void ms_tab_init(struct ms_tab *tb, struct ms_buf *count, const int *usual,
			unsigned int ncols)
{
	memset(tb, 0, sizeof(*tb));
	tb->b = count;
	tb->sizing = true;
	tb->usual = usual;
	tb->ncols = ncols;
	memcpy(tb->w, usual, ncols * sizeof(*usual));
}

/* After the sizing pass: the widths, and the rows from now on go to B. */
static void ms_tab_fit(struct ms_tab *tb, struct ms_buf *b)
{
	size_t width = tb->text;
	unsigned int i;

	for (i = 0; i < tb->ncols; i++)
		width += tb->w[i];
	if (width > MS_REPORT_COLS)
		memcpy(tb->w, tb->usual, tb->ncols * sizeof(*tb->usual));
	tb->b = b;
	tb->sizing = false;
}

/* Call before a table's first row (after its head). */
static void ms_tab_rows(struct ms_tab *tb)
{
	tb->line = tb->b->len;
	tb->col = 0;
}

static void ms_tab_end(struct ms_tab *tb)
{
	if (tb->sizing && tb->b->len - tb->line > tb->text)
		tb->text = tb->b->len - tb->line;
	ms_buf_puts(tb->b, "\n");
	ms_tab_rows(tb);
}

static int ms_digits(u64 v)
{
	u64 p = 10;
	int n = 1;

	while (n < 20 && v >= p) {
		n++;
		p *= 10;
	}
	return n;
}

/* V, of more than WIDTH >= 6 digits, in WIDTH after a space: "5.0G". */
static void ms_col_scaled(struct ms_buf *b, int width, u64 v)
{
	static const char units[] = "kMGTPE";
	unsigned int i = 0;
	u32 rest = 0;

	/* Only for figures wider than a column (>= 6 digits, so >= 1000). */
	if (WARN_ON_ONCE(v < 1000 || width < 6)) {
		ms_buf_printf(b, " %*llu", width, v);
		return;
	}
	/* At most 6 times: a u64 is below 18.5E. */
	while (v >= 1000) {
		v = div_u64_rem(v, 1000, &rest);
		i++;
	}
	ms_buf_printf(b, " %*llu.%u%c", width - 3, v, rest / 100, units[i - 1]);
}

/* The row's next figure V after a space, or "-" where there is none. */
static void ms_tab_num(struct ms_tab *tb, bool has, u64 v)
{
	int w = tb->w[tb->col];

	if (tb->sizing) {
		ms_buf_puts(tb->b, " ");
		if (has && ms_digits(v) > w)
			tb->w[tb->col] = ms_digits(v);
	} else if (!has) {
		ms_buf_printf(tb->b, " %*s", w, "-");
	} else if (ms_digits(v) <= w) {
		ms_buf_printf(tb->b, " %*llu", w, v);
	} else {
		ms_col_scaled(tb->b, w, v);
	}
	tb->col++;
}

/* NAME left-aligned in WIDTH; a longer one cut to it, ending in "~". */
static void ms_txt_name(struct ms_buf *b, int width, const char *name)
{
	if (strlen(name) <= (size_t)width)
		ms_buf_printf(b, "%-*s", width, name);
	else
		ms_buf_printf(b, "%.*s~", width - 1, name);
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
	/* 1000% and up (and no divq quotient past 64 bits): not a figure to read. */
	if (div64_u64(net, of) >= 10) {
		ms_buf_printf(b, " %8s", ">999.9%");
		return;
	}
	pct = div_u64_rem(mul_u64_u64_div_u64(net, 1000, of), 10, &tenth);
	ms_buf_printf(b, " %5llu.%u%%", pct, tenth);
}

/* The heads of the time columns FIRST.. of TB: mean, p50, p90, p99, max. */
static void ms_time_heads(struct ms_buf *b, const struct ms_tab *tb, unsigned int first)
{
	unsigned int i;

	ms_buf_printf(b, " %*s", tb->w[first], "mean");
	for (i = 0; i < ARRAY_SIZE(ms_pcts); i++)
		ms_buf_printf(b, " %*s%-2u", tb->w[first + 1 + i] - 2, "p", ms_pcts[i]);
	ms_buf_printf(b, " %*s\n", tb->w[first + 1 + ARRAY_SIZE(ms_pcts)], "max");
}

static void ms_time_cols(struct ms_tab *tb, const struct ms_cell *c)
{
	unsigned int i;

	ms_tab_num(tb, c->count, ms_cell_mean(c));
	for (i = 0; i < ARRAY_SIZE(ms_pcts); i++)
		ms_tab_num(tb, c->count, ms_cell_percentile(c, ms_pcts[i]));
	ms_tab_num(tb, c->count, c->max_ns);
	ms_tab_end(tb);
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
	ms_buf_printf(b, "timed with: %s\n", r->clock);
	if (r->clock_switched)
		ms_buf_puts(b, "warning: the kernel changed clocksource during these figures: the calls before\n"
			    "  were timed with the counter, the later ones with its clocksource; reset for one clock\n");
	if (r->clock_backwards)
		ms_buf_printf(b, "warning: %llu calls since load ended before they began on the clock (a task moved\n"
			      "  between CPUs whose counters disagree): each counted, timed as 0 ns\n",
			      r->clock_backwards);
	ms_buf_printf(b, "calibration: %llu ns inside each timed call (subtracted for net), %llu ns per probed call in all\n",
		      r->calibration_ns, r->calibration_outer_ns);
	for (i = 0; i < r->ncalib; i++)
		ms_buf_printf(b, "calibration of %s (CPU %d): %llu ns inside, %llu ns in all\n",
			      r->calib[i].backend, r->calib[i].cpu, r->calib[i].inner_ns,
			      r->calib[i].outer_ns);
	/* Each calibration nets the calls of its clock only (clock.h). */
	for (i = 0; i < r->ncalib; i++)
		if (r->calib[i].stale)
			ms_buf_printf(b, "warning: the calibration of %s was taken with %s, which no longer times\n"
				      "  the calls: nets are off until calibrate is written to the command parameter\n",
				      r->calib[i].backend, r->calib[i].clock);
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
		ms_buf_printf(b, "syscall backend: %s%s%s%s\n", r->syscall_backend,
			      r->syscall_span ? " (" : "", r->syscall_span ?: "",
			      r->syscall_span ? ")" : "");
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

/* "STATE: NAME..." for the probes in STATE, wrapped: none, no line. */
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

/* The last column: the symbol, cut to what the line has left, then the error. */
static void ms_probe_symbol(struct ms_tab *tb, const struct ms_report_probe *p)
{
	struct ms_buf err = { NULL, 0, 0 };
	size_t used, room, n = strlen(p->symbol);

	if (p->err)
		ms_buf_printf(&err, " (error %d)", p->err);
	used = tb->b->len - tb->line + 2 + err.len;
	room = used < MS_REPORT_COLS ? MS_REPORT_COLS - used : 0;
	/*
	 * Sizing counts no symbol text: the symbol gets what the figures leave
	 * (cut, "~"), so a long one never makes the figures scaled.
	 */
	if (tb->sizing)
		ms_buf_printf(tb->b, "  ~");
	else if (n <= room || room < 2)
		ms_buf_printf(tb->b, "  %s", p->symbol);
	else
		ms_buf_printf(tb->b, "  %.*s~", (int)room - 1, p->symbol);
	if (p->err)
		ms_buf_printf(tb->b, " (error %d)", p->err);
}

static void ms_probe_rows(struct ms_tab *tb, const struct ms_report *r)
{
	unsigned int i;

	ms_tab_rows(tb);
	for (i = 0; i < r->nprobes; i++) {
		const struct ms_report_probe *p = &r->probes[i];

		if (!ms_probe_listed(p))
			continue;
		ms_buf_puts(tb->b, "  ");
		ms_txt_name(tb->b, MS_W_CHECK, p->name);
		ms_buf_puts(tb->b, " ");
		ms_txt_name(tb->b, 7, p->kind);
		ms_buf_puts(tb->b, " ");
		ms_txt_name(tb->b, 8, p->state);
		ms_buf_puts(tb->b, " ");
		ms_txt_name(tb->b, 10, p->backend);
		ms_tab_num(tb, !strcmp(p->state, "attached"), p->missed);
		ms_probe_symbol(tb, p);
		ms_tab_end(tb);
	}
}

static void ms_text_probes(struct ms_buf *b, const struct ms_report *r)
{
	static const int usual[] = { 8 };	/* missed */
	struct ms_buf count = { NULL, 0, 0 };
	struct ms_tab tb;

	ms_tab_init(&tb, &count, usual, ARRAY_SIZE(usual));
	ms_probe_rows(&tb, r);
	ms_tab_fit(&tb, b);
	ms_buf_printf(b, "\nprobes:\n  %-*s %-7s %-8s %-10s %*s  %s\n", MS_W_CHECK,
		      "name", "kind", "state", "backend", tb.w[0], "missed", "symbol");
	ms_probe_rows(&tb, r);
	ms_text_names(b, r, "absent");
	ms_text_names(b, r, "off");
	ms_buf_printf(b, "missed in all: %llu\n", ms_missed_total(r));
}

static unsigned int ms_syscall_rows(struct ms_tab *tb, const struct ms_report *r)
{
	unsigned int s, rows = 0;

	ms_tab_rows(tb);
	for (s = 0; s < MS_NSYS; s++) {
		const struct ms_cell *c = ms_txt_cell(r, MS_CELL_SYS(s));

		if (!c->count)
			continue;
		ms_buf_puts(tb->b, "  ");
		ms_txt_name(tb->b, MS_W_ROW, ms_sys_names[s]);
		ms_tab_num(tb, true, c->count);
		ms_tab_num(tb, true, c->bad);
		ms_tab_num(tb, true, c->errors);
		ms_time_cols(tb, c);
		rows++;
	}
	return rows;
}

static void ms_text_syscalls(struct ms_buf *b, const struct ms_report *r)
{
	/* count, eperm, errors; mean, p50, p90, p99, max */
	static const int usual[] = { 8, 6, 6, 9, 9, 9, 9, 10 };
	struct ms_buf count = { NULL, 0, 0 };
	struct ms_tab tb;

	ms_tab_init(&tb, &count, usual, ARRAY_SIZE(usual));
	ms_syscall_rows(&tb, r);
	ms_tab_fit(&tb, b);
	ms_buf_printf(b, "\nsyscalls (ns):\n  %-*s %*s %*s %*s", MS_W_ROW, "syscall",
		      tb.w[0], "count", tb.w[1], "eperm", tb.w[2], "errors");
	ms_time_heads(b, &tb, 3);
	if (!r->syscalls_probed)
		ms_buf_puts(b, "  (not probed: syscalls=0; each check is charged to the syscall it ran in)\n");
	else if (!ms_syscall_rows(&tb, r))
		ms_buf_puts(b, "  (none counted)\n");
}

/* The row name and the check name, as every table of checks starts its rows. */
static void ms_row_check(struct ms_buf *b, const char *row, const char *check)
{
	ms_buf_puts(b, "  ");
	ms_txt_name(b, MS_W_ROW, row);
	ms_buf_puts(b, " ");
	ms_txt_name(b, MS_W_CHECK, check);
}

static unsigned int ms_check_rows(struct ms_tab *tb, const struct ms_report *r)
{
	unsigned int s, k, rows = 0;

	ms_tab_rows(tb);
	for (s = 0; s < MS_NROWS; s++) {
		for (k = 0; k < MS_NCHK; k++) {
			const struct ms_cell *c = ms_txt_cell(r, MS_CELL_CHK(s, k));

			if (!c->count)
				continue;
			ms_row_check(tb->b, ms_row_name(s), ms_chk_names[k]);
			ms_tab_num(tb, true, c->count);
			ms_tab_num(tb, true, c->bad);
			ms_time_cols(tb, c);
			rows++;
		}
	}
	return rows;
}

/*
 * A syscall whose probe missed calls: on the tracepoints, a sys_enter
 * that found its in-flight window full; the checks made in those calls
 * found no slot naming the syscall and are in the "other" rows.  Said
 * under the table, one line a syscall, so that no row is read as whole.
 */
static void ms_text_check_misses(struct ms_buf *b, const struct ms_report *r)
{
	unsigned int i;

	for (i = 0; i < r->nprobes; i++) {
		const struct ms_report_probe *p = &r->probes[i];

		if (p->missed && !strcmp(p->kind, "syscall"))
			ms_buf_printf(b, "  note: %s missed %llu calls: checks made in them may be in the other rows\n",
				      p->name, (unsigned long long)p->missed);
	}
}

static void ms_text_checks(struct ms_buf *b, const struct ms_report *r)
{
	/* count, refused; mean, p50, p90, p99, max: 100 columns as they are */
	static const int usual[] = { 8, 7, 8, 8, 8, 8, 9 };
	struct ms_buf count = { NULL, 0, 0 };
	struct ms_tab tb;

	ms_tab_init(&tb, &count, usual, ARRAY_SIZE(usual));
	ms_check_rows(&tb, r);
	ms_tab_fit(&tb, b);
	ms_buf_printf(b, "\nchecks (ns, raw):\n  %-*s %-*s %*s %*s", MS_W_ROW, "syscall",
		      MS_W_CHECK, "check", tb.w[0], "count", tb.w[1], "refused");
	ms_time_heads(b, &tb, 2);
	if (!ms_check_rows(&tb, r))
		ms_buf_puts(b, "  (none counted)\n");
	ms_text_check_misses(b, r);
}

static void ms_total_row(struct ms_tab *tb, const char *row, const char *check,
			 const struct ms_cell *c, u64 net, u64 share, u64 of)
{
	ms_row_check(tb->b, row, check);
	ms_tab_num(tb, true, c->count);
	ms_tab_num(tb, true, c->total_ns);
	ms_tab_num(tb, true, net);
	ms_col_share(tb->b, share, of);
	ms_tab_end(tb);
}

/*
 * Each syscall's row, its share the net of all its checks; under it each
 * check's, its share its own.  Other and worker have no syscall: no share.
 */
static unsigned int ms_total_rows(struct ms_tab *tb, const struct ms_report *r)
{
	unsigned int s, k, rows = 0;

	ms_tab_rows(tb);
	for (s = 0; s < MS_NROWS; s++) {
		const struct ms_cell *c = s < MS_NSYS ? ms_txt_cell(r, MS_CELL_SYS(s)) : NULL;
		u64 sys_net = c && c->count ? ms_sys_net(r, s) : 0, checks_net = 0;

		for (k = 0; k < MS_NCHK; k++)
			checks_net += ms_check_net(r, k, ms_txt_cell(r, MS_CELL_CHK(s, k)));
		if (c && c->count) {
			ms_total_row(tb, ms_row_name(s), "(syscall)", c, sys_net, checks_net,
				     sys_net);
			rows++;
		}
		for (k = 0; k < MS_NCHK; k++) {
			const struct ms_cell *kc = ms_txt_cell(r, MS_CELL_CHK(s, k));
			u64 net = ms_check_net(r, k, kc);

			if (!kc->count)
				continue;
			ms_total_row(tb, ms_row_name(s), ms_chk_names[k], kc, net, net, sys_net);
			rows++;
		}
	}
	return rows;
}

static void ms_text_totals(struct ms_buf *b, const struct ms_report *r)
{
	static const int usual[] = { 8, 13, 13 };	/* count, total, net */
	struct ms_buf count = { NULL, 0, 0 };
	struct ms_tab tb;

	ms_tab_init(&tb, &count, usual, ARRAY_SIZE(usual));
	ms_total_rows(&tb, r);
	ms_tab_fit(&tb, b);
	ms_buf_printf(b, "\ntotals (ns; net: less the probes' own cost, from the calibration):\n"
		      "  %-*s %-*s %*s %*s %*s %8s\n", MS_W_ROW, "syscall", MS_W_CHECK,
		      "check", tb.w[0], "count", tb.w[1], "total", tb.w[2], "net", "share");
	if (!ms_total_rows(&tb, r))
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
