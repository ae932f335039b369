// SPDX-License-Identifier: GPL-2.0
/*
 * test_cell.c - log2 buckets, one cell's accounting, and summing the
 * per-CPU tables, the median (module/cell.c).
 */
#include "cell.c"
#include "names.c"
#include "utap.h"

static void test_buckets(void)
{
	utap_eq_u64(ms_hist_bucket(0), 0, "0 ns in bucket 0");
	utap_eq_u64(ms_hist_bucket(1), 0, "1 ns in bucket 0");
	utap_eq_u64(ms_hist_bucket(2), 1, "2 ns in bucket 1");
	utap_eq_u64(ms_hist_bucket(3), 1, "3 ns in bucket 1");
	utap_eq_u64(ms_hist_bucket(4), 2, "4 ns in bucket 2");
	utap_eq_u64(ms_hist_bucket(1023), 9, "1023 ns in bucket 9");
	utap_eq_u64(ms_hist_bucket(1024), 10, "1024 ns in bucket 10");
	utap_eq_u64(ms_hist_bucket((1ULL << 39) - 1), 38, "2^39-1 in bucket 38");
	utap_eq_u64(ms_hist_bucket(1ULL << 39), 39, "2^39 in bucket 39 (the last one before the 64 of now)");
	utap_eq_u64(ms_hist_bucket((1ULL << 63) - 1), 62, "2^63-1 in bucket 62");
	utap_eq_u64(ms_hist_bucket(1ULL << 63), 63, "2^63 in the last bucket");
	utap_eq_u64(ms_hist_bucket(U64_MAX), MS_HIST_BUCKETS - 1, "U64_MAX in the last bucket");
	utap_eq_u64(ms_hist_low(0), 0, "bucket 0 starts at 0");
	utap_eq_u64(ms_hist_high(0), 1, "bucket 0 ends at 1");
	utap_eq_u64(ms_hist_low(10), 1024, "bucket 10 starts at 1024");
	utap_eq_u64(ms_hist_high(10), 2047, "bucket 10 ends at 2047");
	utap_eq_u64(ms_hist_high(MS_HIST_BUCKETS - 1), U64_MAX, "last bucket open-ended");
}

static void test_cell_add(void)
{
	struct ms_cell c;

	ms_cell_zero(&c);
	utap_eq_u64(c.min_ns, U64_MAX, "zero: the min seeded with the largest value");
	ms_cell_add(&c, 100, false, false);
	ms_cell_add(&c, 7, true, false);
	ms_cell_add(&c, 5000, false, true);
	utap_eq_u64(c.count, 3, "add: count");
	utap_eq_u64(c.bad, 1, "add: bad");
	utap_eq_u64(c.errors, 1, "add: errors");
	utap_eq_u64(c.total_ns, 5107, "add: total");
	utap_eq_u64(c.min_ns, 7, "add: min");
	utap_eq_u64(c.max_ns, 5000, "add: max");
	utap_eq_u64(c.hist[6] + c.hist[2] + c.hist[12], 3, "add: buckets 6, 2, 12");
	utap_eq_u64(ms_cell_mean(&c), 1702, "add: mean rounds down");
}

static void test_merge(void)
{
	static struct ms_table cpu[3], sum;
	unsigned int cell = MS_CELL_CHK(MS_SYS_madvise, MS_CHK_can_modify_vma_madv);

	/* CPU 0: nothing; CPU 1: 50 and 70; CPU 2: 30 and 900. */
	ms_table_zero(&cpu[0]);
	ms_table_zero(&cpu[1]);
	ms_table_zero(&cpu[2]);
	ms_cell_add(&cpu[1].cell[cell], 50, false, false);
	ms_cell_add(&cpu[1].cell[cell], 70, true, false);
	ms_cell_add(&cpu[2].cell[cell], 30, false, false);
	ms_cell_add(&cpu[2].cell[cell], 900, true, false);
	ms_cell_add(&cpu[2].cell[MS_CELL_SYS(MS_SYS_munmap)], 0, false, false);
	ms_table_merge(&sum, &cpu[0]);
	ms_table_merge(&sum, &cpu[1]);
	ms_table_merge(&sum, &cpu[2]);
	utap_eq_u64(sum.cell[cell].count, 4, "merge: count summed");
	utap_eq_u64(sum.cell[cell].bad, 2, "merge: refused summed");
	utap_eq_u64(sum.cell[cell].total_ns, 1050, "merge: total summed");
	utap_eq_u64(sum.cell[cell].min_ns, 30, "merge: min over CPUs");
	utap_eq_u64(sum.cell[cell].max_ns, 900, "merge: max over CPUs");
	utap_eq_u64(sum.cell[cell].hist[4], 1, "merge: 30 in bucket 4 [16, 31]");
	utap_eq_u64(sum.cell[cell].hist[5], 1, "merge: 50 in bucket 5 [32, 63]");
	utap_eq_u64(sum.cell[cell].hist[6], 1, "merge: 70 in bucket 6");
	utap_eq_u64(sum.cell[cell].hist[9], 1, "merge: 900 in bucket 9");
	utap_eq_u64(sum.cell[MS_CELL_SYS(MS_SYS_munmap)].min_ns, 0, "merge: a 0 ns min survives");
	utap_eq_u64(sum.cell[MS_CELL_SYS(MS_SYS_munmap)].count, 1, "merge: other cells apart");
	utap_eq_u64(sum.cell[MS_CELL_CALIB].count, 0, "merge: empty cell stays empty");
}

/* The index of syscall number NR, or MS_OTHER: the reference, a switch. */
static int ms_sys_from_nr(long nr)
{
	switch (nr) {
#define MS_CASE(n) case __NR_##n: return MS_SYS_##n;
	MS_SYSCALLS(MS_CASE)
#undef MS_CASE
	default:
		return MS_OTHER;
	}
}

/* The row the number table gives NR (the tracepoint side's mark off). */
static unsigned int ms_row_of_nr(long nr)
{
	if ((unsigned long)nr >= MS_NR_MAX)
		return MS_OTHER;
	return ms_nr_row[nr] & MS_ROW_MASK;
}

static void test_names(void)
{
	utap_eq_u64(ms_sys_from_nr(11), MS_SYS_munmap, "x86_64 11 is munmap");
	utap_eq_u64(ms_sys_from_nr(462), MS_SYS_mseal, "462 is mseal");
	utap_eq_u64(ms_sys_from_nr(-1), MS_OTHER, "-1 (no syscall) is other");
	utap_eq_u64(ms_sys_from_nr(0), MS_OTHER, "read is other");
	utap_eq_str(ms_sys_names[MS_SYS_process_madvise], "process_madvise", "syscall names");
	utap_eq_str(ms_chk_names[MS_CHK_can_modify_vma_madv], "can_modify_vma_madv", "check names");
}

/* The number-to-row table of the hot path agrees with the switch. */
static void test_nr_table(void)
{
	unsigned int bad = 0, s;
	long nr;

	ms_names_init();
	for (nr = -2; nr < MS_NR_MAX + 8; nr++)
		bad += ms_row_of_nr(nr) != (unsigned int)ms_sys_from_nr(nr);
	utap_eq_u64(bad, 0, "nr table: every number's row is the switch's");
	utap_eq_u64(ms_row_of_nr(1L << 40), MS_OTHER, "nr table: a huge number is other");
	for (nr = -2, bad = 0; nr < MS_NR_MAX + 8; nr++)
		bad += ms_tp_sys_of_nr(nr) != -1;
	utap_eq_u64(bad, 0, "nr table: nothing counted by the tracepoints before attach");
	ms_names_set_tp(MS_SYS_munmap, true);
	utap_eq_u64(ms_tp_sys_of_nr(ms_nr_of_sys(MS_SYS_munmap)), MS_SYS_munmap,
		    "nr table: a syscall the tracepoints count");
	utap_eq_u64(ms_row_of_nr(ms_nr_of_sys(MS_SYS_munmap)), MS_SYS_munmap,
		    "nr table: its row unchanged by the mark");
	utap_ok(ms_tp_sys_of_nr(ms_nr_of_sys(MS_SYS_mmap)) == -1, "nr table: the others stay unmarked");
	ms_names_set_tp(MS_SYS_munmap, false);
	for (s = 0, bad = 0; s < MS_NSYS; s++)
		bad += ms_tp_sys_of_nr(ms_nr_of_sys(s)) != -1;
	utap_eq_u64(bad, 0, "nr table: unmarked again at detach");
}

/* Calibration's middle of its batches (module/calib.c). */
static void test_median(void)
{
	u64 odd[11] = { 900, 130, 120, 125, 5000, 121, 119, 122, 124, 123, 2 };
	u64 even[4] = { 7, 1, 4, 100 };
	u64 big[2] = { U64_MAX, U64_MAX - 2 };
	u64 one[1] = { 42 };

	utap_eq_u64(ms_median(odd, 11), 123, "median of 11: the 6th, outliers on both sides ignored");
	utap_ok(odd[0] == 2 && odd[5] == 123 && odd[10] == 5000, "median: sorted in place");
	utap_eq_u64(ms_median(even, 4), 5, "median of 4: the mean of 4 and 7, rounded down");
	utap_eq_u64(ms_median(big, 2), U64_MAX - 1, "median of 2 near U64_MAX: no overflow");
	utap_eq_u64(ms_median(one, 1), 42, "median of 1");
}

int main(void)
{
	utap_plan(18 + 8 + 12 + 6 + 5 + 7);
	test_buckets();
	test_cell_add();
	test_merge();
	test_names();
	test_nr_table();
	test_median();
	return utap_done();
}
