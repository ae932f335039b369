// SPDX-License-Identifier: GPL-2.0
/*
 * mseal-bench: harness.  Usage: mseal-bench --help
 *
 * Tasks (processes by default, threads with --threads) run a workload's
 * op() in a loop and count operations in their own cache line of a shared
 * mapping.  The parent prints, once a second, will-it-scale's line
 *	min:X max:Y total:Z
 * (operations of the slowest task, the fastest task, all tasks in that
 * second), and with --json a summary of the seconds after warm-up.
 */
#include <errno.h>
#include <math.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lib/memclock_mark.h"
#include "../lib/workloads.h"
#include "bench.h"

#define MAX_TASKS 256

/* dkms.conf's PACKAGE_VERSION, passed by the Makefile. */
#ifndef MSEAL_STATS_VERSION
#define MSEAL_STATS_VERSION "unknown"
#endif /* !MSEAL_STATS_VERSION */

/* One counter per cache line so tasks never share a line. */
struct counter {
	volatile unsigned long long ops;
	volatile int failed;
	volatile int ready;	/* setup done: the clock may start */
	char pad[64 - sizeof(unsigned long long) - 2 * sizeof(int)];
} __attribute__((aligned(64)));

static const struct workload *const workloads[] = {
	&wl_mmap1, &wl_mprotect, &wl_pagemove, &wl_madvise, &wl_munmap_vmas, &wl_getppid,
};

static struct counter *counters;
static const struct workload *wl;
static volatile int stop;

static void usage(void)
{
	size_t i;

	printf("usage: mseal-bench [options] WORKLOAD\n"
	       "  -t, --tasks N         tasks (default 1)\n"
	       "  --threads             tasks are threads (default: processes)\n"
	       "  -s, --seconds SECONDS measured seconds (default 5; under 1, e.g. 0.25: one\n"
	       "                        sample that long, for the instruction clock)\n"
	       "  --warmup SECONDS      warm-up seconds, not counted (default 1; a decimal\n"
	       "                        such as 0.05 is one sample; -w is accepted for\n"
	       "                        --warmup: -w names workloads in mseal-compare)\n"
	       "  --vmas LIST           munmap-vmas: VMA counts (default 1,2,4,8,16,32,64)\n"
	       "  --layout N            run in layout N (1, 2, ...) of a seeded family of user\n"
	       "                        address-space layouts drawn as ASLR draws them, the same\n"
	       "                        on every kernel (default 0: the kernel's own layout)\n"
	       "  --json                print a JSON summary after the per-second lines\n"
	       "  --list                the workloads, one a line: NAME RECORD KIND WHAT, where\n"
	       "                        RECORD is default (mseal-compare record runs it) or -,\n"
	       "                        KIND ops (one run) or vmas (a run per --vmas count) and\n"
	       "                        WHAT what one operation is\n"
	       "  -h, --help, --version\n"
	       "A bad option is one line on stderr and exit 2; a failed run exit 1.\n"
	       "mseal-compare record writes a boot record's meta.json with\n"
	       "  mseal-bench --meta [KEY:s=STRING|KEY:n=NUMBER|KEY:j=JSON]... <RUNS\n"
	       "and vm-record files a guest's at the host's time with\n"
	       "  mseal-bench --meta-stamp FILE EPOCH\n"
	       "workloads:\n");
	for (i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++)
		printf("  %-12s  %s\n", workloads[i]->name, workloads[i]->help);
}

/* A usage error: one line on stderr, exit 2. */
static void __attribute__((noreturn, format(printf, 1, 2))) bad(const char *fmt, ...)
{
	va_list ap;

	fputs("mseal-bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see --help)\n", stderr);
	exit(2);
}

static void task_loop(struct counter *c)
{
	void *ctx = wl->setup();

	if (!ctx) {
		perror("mseal-bench: setup");
		c->failed = 1;
		c->ready = 1;
		return;
	}
	c->ready = 1;
	while (!stop) {
		if (wl->op(ctx)) {
			perror("mseal-bench: op");
			c->failed = 1;
			break;
		}
		c->ops++;
	}
	wl->teardown(ctx);
}

static void *thread_main(void *arg)
{
	task_loop(arg);
	return NULL;
}

static int run_harness(const struct bench_opts *o)
{
	unsigned long long prev[MAX_TASKS] = { 0 };
	pthread_t tids[MAX_TASKS];
	pthread_attr_t attr;
	pid_t pids[MAX_TASKS];
	/*
	 * Samples of a second, or one shorter sample where -s is under a
	 * second (the instruction clock repeats a run to the operation: a
	 * fraction of a second measures as well, and leaves time for more
	 * layouts).  Warm-up is whole seconds.
	 */
	int nsamp = o->seconds < 1 ? 1 : (int)ceil(o->seconds);
	double period = o->seconds / nsamp;
	/* Warm-up likewise: seconds, or one shorter sample under a second. */
	int nwarm = o->warmup <= 0 ? 0 : o->warmup < 1 ? 1 : (int)ceil(o->warmup);
	double wperiod = nwarm ? o->warmup / nwarm : 0;
	int total_s = nwarm + nsamp, s, i, failed = 0;
	double *per_sec = calloc((size_t)nsamp, sizeof(double));
	double t_next, t_last;
	unsigned long long ops = 0;	/* in the measured samples */

	counters = mmap(NULL, sizeof(*counters) * o->tasks, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counters == MAP_FAILED || !per_sec) {
		perror("mseal-bench");
		return 1;
	}
	/*
	 * The test bed's memory clock models caches from here, so they are
	 * warm when the measured samples start (its marks are no-ops on a
	 * CPU: scripts/lib/memclock_mark.h).
	 */
	mc_mark(MC_MARK_ON);
	/*
	 * Threads get 8 MiB stacks, whatever RLIMIT_STACK was at start:
	 * --layout starts under a limit of 16 GiB and more, and glibc sizes
	 * the default thread stack from it.
	 */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 8UL << 20);
	for (i = 0; i < o->tasks; i++) {
		if (o->threads) {
			if (pthread_create(&tids[i], &attr, thread_main, &counters[i])) {
				perror("pthread_create");
				return 1;
			}
			continue;
		}
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("fork");
			return 1;
		}
		if (pids[i] == 0) {
			signal(SIGTERM, SIG_DFL);
			task_loop(&counters[i]);
			_exit(counters[i].failed);
		}
	}

	/*
	 * The clock starts once every task has made its memory (fork and
	 * setup are not the workload's), and each sample is divided by the
	 * time it really took, not the period asked for: with samples of
	 * 0.05 s a late wake-up would otherwise be a visible error.
	 */
	for (i = 0; i < o->tasks; i++)
		while (!counters[i].ready)
			nanosleep(&(struct timespec){ .tv_nsec = 100000 }, NULL);
	for (i = 0; i < o->tasks; i++)
		prev[i] = counters[i].ops;
	t_last = bench_now();
	if (!nwarm)
		mc_mark(MC_MARK_BEGIN);
	t_next = t_last + (nwarm ? wperiod : period);
	for (s = 0; s < total_s; s++) {
		unsigned long long min = ~0ULL, max = 0, total = 0;
		struct timespec ts;
		double left = t_next - bench_now(), t_now;

		if (left > 0) {
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
			nanosleep(&ts, NULL);
		}
		t_next += s + 1 < nwarm ? wperiod : period;
		t_now = bench_now();
		if (s + 1 == nwarm)
			mc_mark(MC_MARK_BEGIN);
		else if (s + 1 == total_s)
			mc_mark(MC_MARK_END);
		for (i = 0; i < o->tasks; i++) {
			unsigned long long now = counters[i].ops, d = now - prev[i];

			prev[i] = now;
			min = d < min ? d : min;
			max = d > max ? d : max;
			total += d;
			failed |= counters[i].failed;
		}
		printf("%smin:%llu max:%llu total:%llu\n", s < nwarm ? "warmup " : "",
		       min, max, total);
		fflush(stdout);
		if (s >= nwarm) {
			per_sec[s - nwarm] = (double)total / (t_now - t_last);
			ops += total;
		}
		t_last = t_now;
		if (failed)
			break;
	}

	stop = 1;
	for (i = 0; i < o->tasks; i++) {
		if (o->threads) {
			pthread_join(tids[i], NULL);
		} else {
			kill(pids[i], SIGTERM);
			waitpid(pids[i], NULL, 0);
		}
	}
	if (failed) {
		fprintf(stderr, "mseal-bench: %s failed in a task\n", wl->name);
		return 1;
	}
	if (o->json) {
		struct bench_summary sum;

		unsigned long long layout = 0, rnd = 0;

		bench_layout_applied(&layout, &rnd);
		printf("{\"workload\": \"%s\", \"tasks\": %d, \"mode\": \"%s\", "
		       "\"seconds\": %g, \"layout\": %llu, \"layout_rnd_pages\": %llu, "
		       "\"ops\": %llu, \"ops_per_sec\": [", wl->name, o->tasks,
		       o->threads ? "threads" : "processes", o->seconds, layout, rnd, ops);
		for (s = 0; s < nsamp; s++)
			printf("%s%.0f", s ? ", " : "", per_sec[s]);
		bench_summarize(per_sec, (size_t)nsamp, &sum);
		printf("], \"median\": %.0f, \"min\": %.0f, \"max\": %.0f, "
		       "\"q1\": %.0f, \"q3\": %.0f, \"spread_pct\": %.2f}\n",
		       sum.median, sum.min, sum.max, sum.q1, sum.q3,
		       sum.median > 0 ? 100.0 * (sum.q3 - sum.q1) / sum.median : 0.0);
	}
	free(per_sec);
	return 0;
}

/* An option's value; "-s=5" is "-s 5" as "--seconds=5" is. */
static int parse_int(const char *s, int lo, int hi, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || !*s || *end || v < lo || v > hi)
		bad("%s wants a whole number from %d to %d, not '%s'", what, lo, hi, s);
	return (int)v;
}

/*
 * Seconds, a decimal from lo to hi (-s from 0.01, --warmup from 0; under a
 * second, one sample that long).
 */
static double parse_seconds(const char *s, double lo, double hi, const char *what)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || !*s || *end || !(v >= lo && v <= hi))
		bad("%s wants seconds from %g to %g, not '%s'", what, lo, hi, s);
	return v;
}

static unsigned long long parse_layout(const char *s)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || !*s || *end || *s == '-')
		bad("--layout wants a whole number (0: the kernel's own layout), not '%s'", s);
	return v;
}

static const char *value(const char *arg)
{
	return arg[0] == '=' ? arg + 1 : arg;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "tasks", required_argument, NULL, 't' },
		{ "seconds", required_argument, NULL, 's' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "threads", no_argument, NULL, 'T' },
		{ "json", no_argument, NULL, 'j' },
		{ "vmas", required_argument, NULL, 'v' },
		{ "layout", required_argument, NULL, 'L' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct bench_opts o = {
		.vmas = "1,2,4,8,16,32,64", .seconds = 5, .warmup = 1, .tasks = 1,
	};
	unsigned long long layout = 0;
	const char *p;
	size_t i;
	int c;

	/* Not a run: the record's meta.json (meta.c), its own arguments. */
	if (argc >= 2 && !strcmp(argv[1], "--meta"))
		return bench_meta(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "--meta-stamp")) {
		if (argc != 4)
			bad("--meta-stamp wants FILE EPOCH");
		return bench_meta_stamp(argv[2], argv[3]);
	}
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:s:w:h", lopts, NULL)) != -1) {
		switch (c) {
		case 't': o.tasks = parse_int(value(optarg), 1, MAX_TASKS, "-t"); break;
		case 's': o.seconds = parse_seconds(value(optarg), 0.01, 86400, "-s"); break;
		case 'w': o.warmup = parse_seconds(value(optarg), 0, 3600, "--warmup"); break;
		case 'T': o.threads = 1; break;
		case 'j': o.json = 1; break;
		case 'v': o.vmas = value(optarg); break;
		case 'L': layout = parse_layout(value(optarg)); break;
		case 'h': usage(); return 0;
		case 'l': msw_print_list(stdout); return 0;
		case 'V': printf("mseal-bench %s\n", MSEAL_STATS_VERSION); return 0;
		case ':': bad("%s wants a value", argv[optind - 1]);
		default:
			p = argv[optind - 1];
			if (strncmp(p, "--", 2))
				bad("unknown option -%c", optopt);
			if (strchr(p, '=') && optopt)
				bad("%.*s takes no value", (int)(strchr(p, '=') - p), p);
			bad("unknown option %s", p);
		}
	}
	for (p = o.vmas; *p; p++)
		if ((*p < '0' || *p > '9') && *p != ',')
			break;
	if (*p || !*o.vmas)
		bad("--vmas wants a list of numbers such as 1,4,16, not '%s'", o.vmas);
	if (optind == argc)
		bad("WORKLOAD is missing");
	if (optind != argc - 1)
		bad("one WORKLOAD only, not '%s' and '%s'", argv[optind], argv[optind + 1]);
	for (i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++)
		if (!strcmp(argv[optind], workloads[i]->name))
			wl = workloads[i];
	if (!wl)
		bad("unknown workload '%s'", argv[optind]);
	/* Re-executes itself in layout N; back here after that exec. */
	if (layout && bench_layout_apply(layout, argv)) {
		perror("mseal-bench: --layout");
		return 1;
	}
	return wl->run ? wl->run(&o) : run_harness(&o);
}
