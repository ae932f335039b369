// SPDX-License-Identifier: GPL-2.0
/* The workload registry: see workloads.h. */
#include <string.h>

#include "workloads.h"

/*
 * One operation of each workload as scripts/mseal-bench/wl_*.c makes it.
 * The order is record's and report's: a record's runs and a report's
 * tables follow it.
 */
const struct msw_workload msw_workloads[] = {
	{ "mmap1", 1, 0, "munmap", 1, { "mmap", "munmap" }, "one mmap + one munmap" },
	{ "pagemove", 1, 0, "mremap", 1, { "mremap" }, "one mremap" },
	{ "mprotect", 1, 0, "mprotect", 2, { "mprotect" }, "two mprotect calls" },
	{ "madvise", 1, 0, "madvise", 2, { "madvise" }, "two madvise calls" },
	{ "munmap-vmas", 1, 1, "munmap", 1, { "munmap" }, "one munmap of N VMAs" },
	{ "getppid", 0, 0, NULL, 1, { NULL }, "one getppid" },
};
const int msw_count = sizeof(msw_workloads) / sizeof(msw_workloads[0]);

const struct msw_workload *msw_find(const char *name)
{
	int i;

	for (i = 0; i < msw_count; i++)
		if (!strcmp(name, msw_workloads[i].name))
			return &msw_workloads[i];
	return NULL;
}

const struct msw_workload *msw_counted(const char *recorded)
{
	const struct msw_workload *w;
	const char *num;
	size_t n;
	int i;

	for (i = 0; i < msw_count; i++) {
		w = &msw_workloads[i];
		n = strlen(w->name);
		if (!w->counted_by || strncmp(recorded, w->name, n))
			continue;
		num = recorded + n + 1;
		if (w->per_vmas ? recorded[n] == '-' && *num && strspn(num, "0123456789") == strlen(num)
				: !recorded[n])
			return w;
	}
	return NULL;
}

void msw_print_list(FILE *f)
{
	int i;

	for (i = 0; i < msw_count; i++)
		fprintf(f, "%s %s %s %s\n", msw_workloads[i].name,
			msw_workloads[i].in_record ? "default" : "-",
			msw_workloads[i].per_vmas ? "vmas" : "ops", msw_workloads[i].what);
}
