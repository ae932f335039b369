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
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#define MAX_TASKS 256

/* One counter per cache line so tasks never share a line. */
struct counter {
	volatile unsigned long long ops;
	volatile int failed;
	char pad[64 - sizeof(unsigned long long) - sizeof(int)];
} __attribute__((aligned(64)));

static const struct workload *const workloads[] = {
	&wl_mmap1, &wl_mprotect, &wl_pagemove, &wl_madvise, &wl_munmap_vmas,
};

static struct counter *counters;
static const struct workload *wl;
static volatile int stop;

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"usage: mseal-bench [options] WORKLOAD\n"
		"  -t N          tasks (default 1)\n"
		"  --threads     tasks are threads (default: processes)\n"
		"  -s SECONDS    measured seconds (default 5)\n"
		"  -w SECONDS    warm-up seconds, not counted (default 1)\n"
		"  --vmas LIST   munmap-vmas: VMA counts (default 1,2,4,8,16,32,64)\n"
		"  --json        print a JSON summary after the per-second lines\n"
		"workloads:\n");
	for (i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++)
		fprintf(f, "  %-12s  %s\n", workloads[i]->name, workloads[i]->help);
}

static void task_loop(struct counter *c)
{
	void *ctx = wl->setup();

	if (!ctx) {
		perror("mseal-bench: setup");
		c->failed = 1;
		return;
	}
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
	pid_t pids[MAX_TASKS];
	int total_s = o->warmup + o->seconds, s, i, failed = 0;
	double *per_sec = calloc(o->seconds ? o->seconds : 1, sizeof(double));
	double t_next;

	counters = mmap(NULL, sizeof(*counters) * o->tasks, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counters == MAP_FAILED || !per_sec) {
		perror("mseal-bench");
		return 1;
	}
	for (i = 0; i < o->tasks; i++) {
		if (o->threads) {
			if (pthread_create(&tids[i], NULL, thread_main, &counters[i])) {
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

	t_next = bench_now() + 1.0;
	for (s = 0; s < total_s; s++) {
		unsigned long long min = ~0ULL, max = 0, total = 0;
		struct timespec ts;
		double left = t_next - bench_now();

		if (left > 0) {
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
			nanosleep(&ts, NULL);
		}
		t_next += 1.0;
		for (i = 0; i < o->tasks; i++) {
			unsigned long long now = counters[i].ops, d = now - prev[i];

			prev[i] = now;
			min = d < min ? d : min;
			max = d > max ? d : max;
			total += d;
			failed |= counters[i].failed;
		}
		printf("%smin:%llu max:%llu total:%llu\n", s < o->warmup ? "warmup " : "",
		       min, max, total);
		fflush(stdout);
		if (s >= o->warmup)
			per_sec[s - o->warmup] = (double)total;
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

		printf("{\"workload\": \"%s\", \"tasks\": %d, \"mode\": \"%s\", "
		       "\"seconds\": %d, \"ops_per_sec\": [", wl->name, o->tasks,
		       o->threads ? "threads" : "processes", o->seconds);
		for (s = 0; s < o->seconds; s++)
			printf("%s%.0f", s ? ", " : "", per_sec[s]);
		bench_summarize(per_sec, (size_t)o->seconds, &sum);
		printf("], \"median\": %.0f, \"min\": %.0f, \"max\": %.0f, "
		       "\"q1\": %.0f, \"q3\": %.0f, \"spread_pct\": %.2f}\n",
		       sum.median, sum.min, sum.max, sum.q1, sum.q3,
		       sum.median > 0 ? 100.0 * (sum.q3 - sum.q1) / sum.median : 0.0);
	}
	free(per_sec);
	return 0;
}

static int parse_int(const char *s, int lo, int hi, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi) {
		fprintf(stderr, "mseal-bench: %s must be %d..%d, not '%s'\n", what, lo, hi, s);
		exit(2);
	}
	return (int)v;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "threads", no_argument, NULL, 'T' },
		{ "json", no_argument, NULL, 'j' },
		{ "vmas", required_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bench_opts o = {
		.vmas = "1,2,4,8,16,32,64", .seconds = 5, .warmup = 1, .tasks = 1,
	};
	size_t i;
	int c;

	while ((c = getopt_long(argc, argv, "t:s:w:h", lopts, NULL)) != -1) {
		switch (c) {
		case 't': o.tasks = parse_int(optarg, 1, MAX_TASKS, "-t"); break;
		case 's': o.seconds = parse_int(optarg, 1, 86400, "-s"); break;
		case 'w': o.warmup = parse_int(optarg, 0, 3600, "-w"); break;
		case 'T': o.threads = 1; break;
		case 'j': o.json = 1; break;
		case 'v': o.vmas = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	for (i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++)
		if (!strcmp(argv[optind], workloads[i]->name))
			wl = workloads[i];
	if (!wl) {
		fprintf(stderr, "mseal-bench: unknown workload '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	return wl->run ? wl->run(&o) : run_harness(&o);
}
