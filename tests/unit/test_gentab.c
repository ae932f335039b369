// SPDX-License-Identifier: GPL-2.0
/*
 * test_gentab.c - reset generations (module/gentab.h): a cell is zeroed by
 * its owner at its first update in a new generation, one cell at a time; a
 * reader takes a cell of another generation for zeros; and a snapshot that
 * a reset overtakes starts over, so it never mixes two generations.
 *
 * Four fake CPUs, each a table, and a generation counter, as stats.c has
 * them; the snapshot's sum can run a reset and an update in its middle,
 * after the CPUs it has read, before the others.
 */
#include "cell.c"
#include "names.c"
#include "gentab.h"
#include "utap.h"

#define NCPU	4

static struct ms_gen_table cpu[NCPU];
static unsigned long gen = 1;	/* as the module: 0 is never current */
static struct ms_table snap;
static unsigned int cell = MS_CELL_CHK(MS_SYS_madvise, MS_CHK_can_modify_vma_madv);

/* Run once, in the middle of the next sum: after CPU AFTER_CPU is read. */
static void (*midway)(void);
static int midway_after_cpu = -1;
static unsigned int sums;

static unsigned long fake_generation(void *arg)
{
	(void)arg;
	return gen;
}

static void fake_sum(void *arg, unsigned long g, struct ms_table *out)
{
	struct ms_cell c;
	unsigned int i, k;

	(void)arg;
	sums++;
	memset(out, 0, sizeof(*out));
	for (i = 0; i < NCPU; i++) {
		for (k = 0; k < MS_NCELLS; k++) {
			ms_gen_read(&cpu[i], g, k, &c);
			ms_cell_merge(&out->cell[k], &c);
		}
		if ((int)i == midway_after_cpu && midway) {
			midway();
			midway = NULL;
		}
	}
}

static const struct ms_gen_source src = { fake_generation, fake_sum, NULL };

/* A reset, then CPU 3 (not yet read) makes a call of 7 ns. */
static void reset_and_call(void)
{
	gen++;
	ms_gen_add(&cpu[3], gen, cell, 7, false, false);
}

static void test_lazy_zero(void)
{
	unsigned int other = MS_CELL_SYS(MS_SYS_munmap);
	struct ms_cell c;

	ms_gen_add(&cpu[0], gen, cell, 100, false, false);
	ms_gen_add(&cpu[0], gen, other, 50, false, false);
	gen++;
	ms_gen_read(&cpu[0], gen, cell, &c);
	utap_eq_u64(c.count, 0, "reset: an old cell reads as zero in the new generation");
	ms_gen_read(&cpu[0], gen - 1, cell, &c);
	utap_eq_u64(c.count, 1, "reset: and as itself in its own");
	ms_gen_add(&cpu[0], gen, cell, 30, true, false);
	utap_ok(cpu[0].table.cell[cell].count == 1 && cpu[0].table.cell[cell].total_ns == 30 &&
		cpu[0].table.cell[cell].min_ns == 30 && cpu[0].table.cell[cell].bad == 1,
		"update after a reset: the cell zeroed first, then counted (count 1, 30 ns, min 30)");
	utap_ok(cpu[0].table.cell[other].count == 1 && cpu[0].gen[other] == gen - 1,
		"update after a reset: only that cell; the others stay until their own update");
}

static void test_snapshot_across_reset(void)
{
	unsigned int i;

	/* Generation g: every CPU has made 2 calls of 10 ns. */
	memset(cpu, 0, sizeof(cpu));
	gen = 5;
	for (i = 0; i < NCPU; i++) {
		ms_gen_add(&cpu[i], gen, cell, 10, false, false);
		ms_gen_add(&cpu[i], gen, cell, 10, false, false);
	}
	sums = 0;
	utap_eq_u64(ms_gen_snapshot(&src, &snap), 5, "quiet: the snapshot is of generation 5");
	utap_eq_u64(snap.cell[cell].count, 8, "quiet: 8 calls");
	utap_eq_u64(sums, 1, "quiet: one pass");

	/*
	 * A reset after CPUs 0 and 1 were read; CPU 3 rolls over at once.  The
	 * first pass holds 4 old calls of CPUs 0-1, 2 of CPU 2 and none of
	 * CPU 3: 6, of neither generation.  Started over in the new one: the
	 * one call CPU 3 made since the reset.
	 */
	midway = reset_and_call;
	midway_after_cpu = 1;
	sums = 0;
	utap_eq_u64(ms_gen_snapshot(&src, &snap), 6, "reset midway: the snapshot is of the new generation, 6");
	utap_eq_u64(sums, 2, "reset midway: two passes");
	utap_eq_u64(snap.cell[cell].count, 1, "reset midway: 1 call, CPU 3's since the reset");
	utap_eq_u64(snap.cell[cell].total_ns, 7, "reset midway: 7 ns");
	utap_eq_u64(snap.cell[cell].min_ns, 7, "reset midway: min 7");
}

int main(void)
{
	utap_plan(4 + 8);
	test_lazy_zero();
	test_snapshot_across_reset();
	return utap_done();
}
