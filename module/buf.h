/* SPDX-License-Identifier: GPL-2.0 */
/*
 * buf.h - a plain text buffer that printf-style calls append to.
 *
 * With data == NULL it only counts: format once to learn the length,
 * allocate len + 1 bytes, then format again into them.  Output that does not
 * fit is cut, never written past cap; len always counts all of it.
 */
#ifndef MSEAL_STATS_BUF_H
#define MSEAL_STATS_BUF_H

#include "env.h"

struct ms_buf {
	char *data;
	size_t cap;
	size_t len;
};

__printf(2, 3) void ms_buf_printf(struct ms_buf *b, const char *fmt, ...);
void ms_buf_puts(struct ms_buf *b, const char *s);
/* S as the contents of a JSON string, quotes included. */
void ms_buf_json_string(struct ms_buf *b, const char *s);

#endif /* MSEAL_STATS_BUF_H */
