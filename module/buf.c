// SPDX-License-Identifier: GPL-2.0
/*
 * buf.c - appending formatted text to a struct ms_buf (see buf.h).
 */
#include "buf.h"

static __printf(2, 0) void ms_buf_vprintf(struct ms_buf *b, const char *fmt, va_list ap)
{
	char *at = NULL;
	size_t room = 0;
	int n;

	if (b->data && b->len < b->cap) {
		at = b->data + b->len;
		room = b->cap - b->len;
	}
	n = vsnprintf(at, room, fmt, ap);
	if (n > 0)
		b->len += n;
}

void ms_buf_printf(struct ms_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ms_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void ms_buf_puts(struct ms_buf *b, const char *s)
{
	ms_buf_printf(b, "%s", s);
}

void ms_buf_json_string(struct ms_buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	ms_buf_puts(b, "\"");
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			ms_buf_printf(b, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			/* control bytes, and bytes that may not be UTF-8 */
			ms_buf_printf(b, "\\u%04x", *p);
		else
			ms_buf_printf(b, "%c", *p);
	}
	ms_buf_puts(b, "\"");
}
