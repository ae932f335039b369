// SPDX-License-Identifier: GPL-2.0
/* The records' clock and unit: see clock.h. */
#include <stdio.h>
#include <string.h>

#include "clock.h"

static const struct clock_unit clocks[] = {
	{ "wall", "ns per operation (wall clock)", "ns", NULL },
	{ "icount", "guest instructions per operation, 1 ns each (QEMU -icount shift=0)", "insn",
	  "instructions, not time: no caches, TLB or branch prediction, and every iteration of "
	  "a rep stos counts. For this change Intel's 0-day measured stress-ng pagemove at "
	  "+7.6 % instructions per operation for -4.2 % throughput (lore: "
	  "202408041602.caa0372-oliver.sang@intel.com): instructions overstated the time "
	  "about 1.8 times" },
};

static const struct clock_unit *find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (!strcmp(clocks[i].clock, name))
			return &clocks[i];
	return NULL;
}

const struct clock_unit *clock_of_records(const struct record *recs, const int *idx, int n,
					  char *err, size_t errlen)
{
	const struct record *first = &recs[idx[0]];
	const struct clock_unit *c = find(first->clock);
	int i;

	if (!c) {
		snprintf(err, errlen, "%s is timed by the clock \"%s\", which this report does not know "
			 "(wall or icount)", first->name, first->clock);
		return NULL;
	}
	for (i = 1; i < n; i++)
		if (strcmp(recs[idx[i]].clock, first->clock)) {
			snprintf(err, errlen, "the records mix clocks (%s on the %s clock, %s on the %s clock): "
				 "their figures are in different units and do not compare; keep each clock's "
				 "records in a folder of their own", first->name, first->clock,
				 recs[idx[i]].name, recs[idx[i]].clock);
			return NULL;
		}
	return c;
}
