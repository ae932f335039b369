// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the workload registry (scripts/lib/workloads.c): the names
 * a record holds map to their workload, mseal-bench --list's lines, and
 * the check time per operation that records.c takes from it.
 */
#include <math.h>

#include "../../scripts/lib/cmpstats.c"
#include "../../scripts/lib/workloads.c"
#include "../../scripts/compare/records.c"
#include "utap.h"

static const char *name_of(const struct msw_workload *w)
{
	return w ? w->name : "(none)";
}

int main(void)
{
	struct acct a = { 0 };
	char buf[1024] = "";
	FILE *f;
	int i, recorded = 0;

	utap_plan(17);
	utap_eq_str(name_of(msw_find("mmap1")), "mmap1", "msw_find: mmap1");
	utap_eq_str(name_of(msw_find("munmap-vmas")), "munmap-vmas", "msw_find: munmap-vmas");
	utap_eq_str(name_of(msw_find("munmap-vmas-004")), "(none)", "msw_find: a recorded name is not a workload");
	utap_eq_str(name_of(msw_counted("munmap-vmas-004")), "munmap-vmas", "msw_counted: munmap-vmas-004");
	utap_eq_str(name_of(msw_counted("munmap-vmas-")), "(none)", "msw_counted: munmap-vmas- has no count");
	utap_eq_str(name_of(msw_counted("munmap-vmas-4x")), "(none)", "msw_counted: munmap-vmas-4x is not a count");
	utap_eq_str(name_of(msw_counted("munmap-vmas")), "(none)", "msw_counted: munmap-vmas is never recorded bare");
	utap_eq_str(name_of(msw_counted("mmap1-001")), "(none)", "msw_counted: mmap1 has no per-VMA names");
	utap_eq_str(name_of(msw_counted("getppid")), "(none)", "msw_counted: getppid makes no tracked syscall");
	utap_eq_str(name_of(msw_counted("pagemove")), "pagemove", "msw_counted: pagemove");

	for (i = 0; i < msw_count; i++)
		recorded += msw_workloads[i].in_record;
	utap_ok(msw_count == 6 && recorded == 5, "6 workloads, 5 of them record's (%d, %d)", msw_count, recorded);

	f = fmemopen(buf, sizeof(buf), "w");
	msw_print_list(f);
	fclose(f);
	utap_eq_str(buf, "mmap1 default ops one mmap + one munmap\n"
		    "pagemove default ops one mremap\n"
		    "mprotect default ops two mprotect calls\n"
		    "madvise default ops two madvise calls\n"
		    "munmap-vmas default vmas one munmap of N VMAs\n"
		    "getppid - ops one getppid\n", "mseal-bench --list's lines");

	/* mprotect: 2 calls an operation; 1000 calls, 3000 ns of net checks: 6 ns an operation. */
	a.reports = 1;
	a.calls[rec_syscall_index("mprotect")] = 1000;
	a.check_net_ns[rec_syscall_index("mprotect")] = 3000;
	utap_ok(rec_check_ns_per_op(msw_find("mprotect"), &a) == 6.0, "mprotect: 3000 ns over 500 operations: 6 ns");
	/* mmap1: counted by munmap, the checks of mmap and munmap both its own. */
	a.calls[rec_syscall_index("munmap")] = 100;
	a.check_net_ns[rec_syscall_index("munmap")] = 700;
	a.check_net_ns[rec_syscall_index("mmap")] = 300;
	utap_ok(rec_check_ns_per_op(msw_find("mmap1"), &a) == 10.0, "mmap1: (700 + 300) ns over 100 munmaps: 10 ns");
	utap_ok(isnan(rec_check_ns_per_op(msw_find("madvise"), &a)), "madvise: no calls, no figure (NaN)");
	a.reports = 0;
	utap_ok(isnan(rec_check_ns_per_op(msw_find("mmap1"), &a)), "no report: no figure (NaN)");
	utap_ok(!strcmp(msw_find("munmap-vmas")->counted_by, "munmap") && msw_find("munmap-vmas")->calls_per_op == 1,
		"munmap-vmas: one munmap an operation");
	return utap_done();
}
