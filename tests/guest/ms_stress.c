// SPDX-License-Identifier: GPL-2.0
/*
 * ms_stress - conservation under load: no operation lost, no read torn.
 *
 *   ms_stress [THREADS [PROCS [OPS]]]     (default 4 2 769)
 *
 * THREADS threads of this process and PROCS forked processes each make OPS
 * rounds of mmap, mprotect, mremap, madvise and munmap (five calls a round)
 * while one more thread reads the text and the JSON report in a loop.
 *
 * Phase 1 (no reset): the counts of the five syscalls equal the calls made,
 * exactly, and no probe missed a hit; every JSON read parses, every text
 * read is whole (starts with the header, ends with "end of report").
 * Phase 2: the same load while the reader also resets and changes the tgid
 * and comm filters between reads, the load going on until the reader has
 * read 32 times and reset 16 times: no crash, every read still whole, and
 * in every JSON read every cell whole (count equal to its histogram's sum,
 * min <= mean <= max, min 0 only with count 0) and calibration_ns not 0:
 * resets land while handlers are halfway through cells.
 *
 * Exact counts need quiet workers: every thread and process exists before
 * the reset, and none ends before the snapshot (a thread's exit advises its
 * stack away: one madvise nobody asked for).  They start and stop on pipes;
 * the reader reads with open/read into static buffers; no stdio until the
 * snapshot is taken.  The comm filter ("ms_stress") keeps the rest of the
 * guest out of the counts.
 *
 * MS_STRESS_PATCH=0: nothing patches kernel text while the load or the
 * reader runs, which QEMU's multi-threaded TCG gets wrong (an int3 Oops; see
 * testbed/vm-run --one-tcg-thread).  Phase 2 then never clears the comm
 * filter (it cycles between two names): clearing the last filter turns the
 * module's filter static key off, setting the first turns it on.  The
 * first is set before the reader starts, the last cleared after everyone
 * has ended, in both modes.  Calibrations stay: they patch nothing (their
 * probes are attached at load, module/calib.c).
 *
 * Prints "# operations made N, counted N, misses N" (phase 1).
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "mstest.h"

#define NSYS	5
static const char *const names[NSYS] = { "mmap", "mprotect", "mremap", "madvise", "munmap" };

static int nthreads = 4, nprocs = 2, ops = 769;
static long pg;
/* go: one byte per worker per phase; done: one byte back; quit: EOF ends all. */
static int go_pipe[2], done_pipe[2], quit_pipe[2];

static atomic_int reader_stop, reader_phase;
static long reads, bad_json, bad_text, failed_writes, bad_cells, zero_calib, resets;
static int patch = 1;	/* MS_STRESS_PATCH */
static char why[128];
static char text_buf[1 << 18], json_buf[1 << 20];

/* One round: five calls, each counted once by the module. */
static int round_of_calls(void)
{
	char *a = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int bad = 0;

	if (a == MAP_FAILED)
		return 1;	/* counted all the same: the mmap was made */
	bad |= mprotect(a, pg, PROT_READ) != 0;
	bad |= mremap(a, pg, pg, 0) == MAP_FAILED;
	bad |= madvise(a, 2 * pg, MADV_DONTNEED) != 0;
	bad |= munmap(a, 2 * pg) != 0;
	return bad;
}

/*
 * Phase 2 is a storm only if the reader works through it: the workers go on
 * past their OPS rounds until the reader has read MIN_READS times and reset
 * MIN_RESETS times since phase 2 began (a fresh run once saw 4 resets and 8
 * reads on a slow kernel: the load had ended before the reader got going),
 * at most MAX_ROUNDS_X times OPS rounds.  Shared with the processes.
 */
#define MIN_READS	32
#define MIN_RESETS	16
#define MAX_ROUNDS_X	200
struct shared {
	atomic_int enough;		/* the reader has done its minimum */
	atomic_long rounds2;		/* rounds made in phase 2, all workers */
};
static struct shared *sh;

/* Every worker, thread or process: OPS rounds per phase, two phases. */
static int worker(void)
{
	int phase, i, bad = 0;
	char c;

	for (phase = 0; phase < 2; phase++) {
		if (read(go_pipe[0], &c, 1) != 1)
			return 1;
		for (i = 0; i < ops; i++)
			bad |= round_of_calls();
		for (; phase == 1 && !atomic_load(&sh->enough) && i < MAX_ROUNDS_X * ops; i++)
			bad |= round_of_calls();
		if (phase == 1)
			atomic_fetch_add(&sh->rounds2, i);
		c = bad ? 'x' : '.';
		if (write(done_pipe[1], &c, 1) != 1)
			return 1;
	}
	/* Stay until the last snapshot: then exit. */
	while (read(quit_pipe[0], &c, 1) > 0)
		;
	return bad;
}

static void *worker_thread(void *arg)
{
	(void)arg;
	return (void *)(long)worker();
}

/* A whole text report: the header first, "end of report" last. */
static int text_whole(const char *t, long n)
{
	static const char end[] = "\nend of report\n";
	long e = (long)sizeof(end) - 1;

	return n > e && !strncmp(t, "mseal_stats: kernel ", 20) &&
	       !strcmp(t + n - e, end);
}

/* Read in uneven pieces, so a report is served across many read() calls. */
static long read_pieces(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	size_t n = 0, piece = 1 + (size_t)(reads % 4093);
	ssize_t r;

	if (fd < 0)
		return -1;
	while (n + 1 < size) {
		size_t want = size - 1 - n < piece ? size - 1 - n : piece;

		r = read(fd, buf + n, want);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	close(fd);
	return (long)n;
}

static void *reader(void *arg)
{
	/* "\n" clears the comm filter: not when nothing may be patched. */
	static const char *const comms[] = { "ms_stress\n", "nobody\n", "\n" };
	char tg[32];
	long n;

	(void)arg;
	while (!atomic_load(&reader_stop)) {
		n = read_pieces(MS_TEXT, text_buf, sizeof(text_buf));
		if (!text_whole(text_buf, n))
			bad_text++;
		n = read_pieces(MS_JSON, json_buf, sizeof(json_buf));
		if (n <= 0 || !msj_valid(json_buf))
			bad_json++;
		else if (ms_cells_whole(json_buf, why, sizeof(why)))
			bad_cells++;
		else if (msj_int(json_buf, "calibration_ns", 0) <= 0)
			zero_calib++;
		reads++;
		if (atomic_load(&reader_phase) != 2)
			continue;
		/* Phase 2: change everything a reader may change. */
		switch (reads % 4) {
		case 1:
			snprintf(tg, sizeof(tg), "%ld\n", reads % 3 ? 0L : (long)getpid());
			failed_writes += ms_write(MS_PARAM("tgid"), tg) != 0;
			break;
		case 3:
			/* READS is 3 mod 4 here: step by the comm writes made. */
			failed_writes += ms_write(MS_PARAM("comm"),
						  comms[patch ? reads % 3 : (reads / 4) % 2]) != 0;
			break;
		default:
			/* Half the reads follow a reset; now and then a calibration too. */
			if (reads % 32 == 8)
				failed_writes += ms_write(MS_COMMAND, "calibrate\n") != 0;
			failed_writes += ms_reset() != 0;
			resets++;
			break;
		}
		if (reads >= MIN_READS && resets >= MIN_RESETS)
			atomic_store(&sh->enough, 1);
	}
	return NULL;
}

/* Start every worker on a phase and wait until all have made it. */
static int run_phase(int workers)
{
	char c;
	int i, bad = 0;

	for (i = 0; i < workers; i++)
		if (write(go_pipe[1], "g", 1) != 1)
			return 1;
	for (i = 0; i < workers; i++) {
		if (read(done_pipe[0], &c, 1) != 1)
			return 1;
		bad |= c != '.';
	}
	return bad;
}

int main(int argc, char **argv)
{
	int workers, i, s, bad, status, procs_ok = 1;
	long long made, counted = 0, missed;
	pthread_t *th, rd;
	pid_t *pids;

	if (argc > 1)
		nthreads = atoi(argv[1]);
	if (argc > 2)
		nprocs = atoi(argv[2]);
	if (argc > 3)
		ops = atoi(argv[3]);
	if (getenv("MS_STRESS_PATCH") && !strcmp(getenv("MS_STRESS_PATCH"), "0"))
		patch = 0;
	if (!patch)
		printf("# MS_STRESS_PATCH=0: the comm filter cycles between two names, never cleared\n");
	workers = nthreads + nprocs;
	pg = sysconf(_SC_PAGESIZE);
	t_plan(NSYS + 11);
	if (!ms_loaded()) {
		t_ok(0, "mseal_stats is loaded");
		return 1;
	}
	prctl(PR_SET_NAME, "ms_stress");
	if (pipe(go_pipe) || pipe(done_pipe) || pipe(quit_pipe)) {
		t_ok(0, "pipes");
		return 1;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		t_ok(0, "shared page");
		return 1;
	}
	th = calloc(nthreads, sizeof(*th));
	pids = calloc(nprocs, sizeof(*pids));
	fflush(stdout);
	/* Every task before the reset: creating one maps its stack. */
	for (i = 0; i < nprocs; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			close(quit_pipe[1]);
			_exit(worker());
		}
	}
	for (i = 0; i < nthreads; i++)
		pthread_create(&th[i], NULL, worker_thread, NULL);
	/* The filter before the reader: setting it patches text (its key). */
	if (ms_write(MS_PARAM("tgid"), "0\n") || ms_write(MS_PARAM("comm"), "ms_stress\n")) {
		t_ok(0, "set the comm filter");
		return 1;
	}
	pthread_create(&rd, NULL, reader, NULL);
	if (ms_reset()) {
		t_ok(0, "reset");
		return 1;
	}

	/* Phase 1: quiet from here to the snapshot. */
	bad = run_phase(workers);
	ms_snapshot();
	/* Quiet no more. */
	made = (long long)workers * ops;
	for (s = 0; s < NSYS; s++) {
		long long c = ms_get("syscalls.%s.count", names[s]);

		counted += c;
		t_eq(c, made, names[s]);
	}
	made *= NSYS;
	missed = msj_int(ms_json, "missed_total", -1);
	t_ok(!bad, "every call of the load succeeded");
	t_eq(missed, 0, "no probe missed a hit (default sizing)");
	printf("# operations made %lld, counted %lld, misses %lld\n", made, counted, missed);
	t_ok(reads > 0 && !bad_json && !bad_text,
	     "phase 1: %ld reads of each report, %ld JSON not parsing, %ld text not whole",
	     reads, bad_json, bad_text);

	/* Phase 2: the reader resets and changes the filters meanwhile. */
	reads = bad_json = bad_text = 0;	/* bad_cells and zero_calib: over both */
	resets = 0;
	atomic_store(&reader_phase, 2);
	bad = run_phase(workers);
	atomic_store(&reader_stop, 1);
	pthread_join(rd, NULL);
	t_ok(!bad, "phase 2: every call of the load succeeded");
	t_ok(reads > 0 && !bad_json && !bad_text,
	     "phase 2 (%ld resets and filter changes): %ld reads of each report, %ld JSON not parsing, %ld text not whole",
	     resets, reads, bad_json, bad_text);
	t_eq(failed_writes, 0, "phase 2: every reset, calibrate and filter write accepted");
	t_ok(atomic_load(&sh->enough) && reads >= MIN_READS && resets >= MIN_RESETS &&
	     atomic_load(&sh->rounds2) >= (long)workers * ops,
	     "phase 2 was a storm: %ld reads (at least %d) and %ld resets (at least %d) while the load ran, %ld rounds of calls (at least %ld)",
	     reads, MIN_READS, resets, MIN_RESETS, atomic_load(&sh->rounds2), (long)workers * ops);
	t_ok(!bad_cells && !zero_calib,
	     "phases 1 and 2: every cell whole in every JSON read (%ld not%s%s), calibration_ns never 0 (%ld times 0)",
	     bad_cells, bad_cells ? ", first: " : "", bad_cells ? why : "", zero_calib);

	/* Let everyone go, and see them end well. */
	close(quit_pipe[1]);
	for (i = 0; i < nthreads; i++) {
		void *ret;

		pthread_join(th[i], &ret);
		procs_ok &= ret == NULL;
	}
	for (i = 0; i < nprocs; i++)
		procs_ok &= waitpid(pids[i], &status, 0) == pids[i] &&
			    WIFEXITED(status) && WEXITSTATUS(status) == 0;
	t_ok(procs_ok, "%d threads and %d processes ended cleanly", nthreads, nprocs);
	ms_write(MS_PARAM("comm"), "\n");
	ms_write(MS_PARAM("tgid"), "0\n");
	ms_snapshot();
	t_ok(msj_valid(ms_json) && msj_int(ms_json, "filter.tgid", -1) == 0,
	     "filters cleared, report parses");
	t_ok(msj_read_file(MS_TEXT, text_buf, sizeof(text_buf)) > 0 &&
	     text_whole(text_buf, (long)strlen(text_buf)), "a final text report is whole");
	return t_exit();
}
