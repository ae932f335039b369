/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msjson.h - a small JSON reader for the tools and the tests: validate a
 * document, and look values up by a dotted path ("syscalls.munmap.count",
 * "probes.3.name"; a number selects an array element).  No allocation: it
 * walks the text.
 */
#ifndef MSJSON_H
#define MSJSON_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

static inline const char *msj_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

/* Skip a string starting at its opening quote; NULL when malformed. */
static inline const char *msj_skip_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p && *p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
						return NULL;
				p += 4;
			} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
				return NULL;
			}
		}
		p++;
	}
	return *p == '"' ? p + 1 : NULL;
}

/* Skip one or more digits; false when there is none. */
static inline bool msj_digits(const char **p)
{
	const char *s = *p;

	while (**p >= '0' && **p <= '9')
		(*p)++;
	return *p > s;
}

/* Skip any value; NULL when malformed. */
static inline const char *msj_skip(const char *p)
{
	p = msj_ws(p);
	if (*p == '"')
		return msj_skip_string(p);
	if (*p == '{' || *p == '[') {
		char close = *p == '{' ? '}' : ']';
		bool obj = *p == '{';

		p = msj_ws(p + 1);
		if (*p == close)
			return p + 1;
		for (;;) {
			if (obj) {
				p = msj_skip_string(msj_ws(p));
				if (!p)
					return NULL;
				p = msj_ws(p);
				if (*p++ != ':')
					return NULL;
			}
			p = msj_skip(p);
			if (!p)
				return NULL;
			p = msj_ws(p);
			if (*p == close)
				return p + 1;
			if (*p++ != ',')
				return NULL;
		}
	}
	if (!strncmp(p, "true", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	if (!strncmp(p, "null", 4))
		return p + 4;
	if (*p == '-' || (*p >= '0' && *p <= '9')) {
		if (*p == '-')
			p++;
		if (!msj_digits(&p))
			return NULL;
		/* mseal-bench's summaries have fractions (spread_pct). */
		if (*p == '.' && (p++, !msj_digits(&p)))
			return NULL;
		if (*p == 'e' || *p == 'E') {
			p++;
			if (*p == '+' || *p == '-')
				p++;
			if (!msj_digits(&p))
				return NULL;
		}
		return p;
	}
	return NULL;
}

/* Is TEXT exactly one well-formed JSON value? */
static inline bool msj_valid(const char *text)
{
	const char *p = msj_skip(text);

	return p && *msj_ws(p) == '\0';
}

/* The value at PATH in TEXT, or NULL. */
static inline const char *msj_find(const char *text, const char *path)
{
	const char *p = msj_ws(text);

	while (*path) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);

		if (*p == '{') {
			p = msj_ws(p + 1);
			for (;;) {
				const char *k = p, *e;

				if (*p != '"')
					return NULL;
				e = msj_skip_string(p);
				if (!e)
					return NULL;
				p = msj_ws(e);
				if (*p++ != ':')
					return NULL;
				p = msj_ws(p);
				if ((size_t)(e - k - 2) == n && !strncmp(k + 1, path, n))
					break;
				p = msj_skip(p);
				if (!p)
					return NULL;
				p = msj_ws(p);
				if (*p++ != ',')
					return NULL;
				p = msj_ws(p);
			}
		} else if (*p == '[') {
			long idx = strtol(path, NULL, 10);

			p = msj_ws(p + 1);
			if (*p == ']')
				return NULL;
			while (idx-- > 0) {
				p = msj_skip(p);
				if (!p)
					return NULL;
				p = msj_ws(p);
				if (*p++ != ',')
					return NULL;
				p = msj_ws(p);
			}
		} else {
			return NULL;
		}
		path += n;
		if (*path == '.')
			path++;
	}
	return p;
}

/* Integer at PATH; DEF when missing or not a number. */
static inline long long msj_int(const char *text, const char *path, long long def)
{
	const char *p = msj_find(text, path);

	if (!p || !(*p == '-' || (*p >= '0' && *p <= '9')))
		return def;
	return strtoll(p, NULL, 10);
}

/* Sum of the integers of the array at PATH; -1 when it is missing. */
static inline long long msj_int_sum(const char *text, const char *path)
{
	const char *p = msj_find(text, path);
	long long sum = 0;
	char *end;

	if (!p || *p != '[')
		return -1;
	p = msj_ws(p + 1);
	while (*p && *p != ']') {
		sum += strtoll(p, &end, 10);
		if (end == p)
			return -1;
		p = msj_ws(end);
		if (*p == ',')
			p = msj_ws(p + 1);
	}
	return sum;
}

/* Number at PATH (fractions and exponents too); DEF when missing or not a number. */
static inline double msj_num(const char *text, const char *path, double def)
{
	const char *p = msj_find(text, path);

	if (!p || !(*p == '-' || (*p >= '0' && *p <= '9')))
		return def;
	return strtod(p, NULL);
}

/* Boolean at PATH: 1, 0, or -1 when missing. */
static inline int msj_bool(const char *text, const char *path)
{
	const char *p = msj_find(text, path);

	if (p && !strncmp(p, "true", 4))
		return 1;
	if (p && !strncmp(p, "false", 5))
		return 0;
	return -1;
}

/* String at PATH, unescaped (\uXXXX below 0x100 only) into BUF; NULL if missing. */
static inline char *msj_str(const char *text, const char *path, char *buf, size_t size)
{
	const char *p = msj_find(text, path), *e;
	size_t n = 0;

	if (!p || *p != '"' || !(e = msj_skip_string(p)) || size == 0)
		return NULL;
	for (p++; p < e - 1 && n + 1 < size; p++) {
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				char hex[5] = { p[1], p[2], p[3], p[4], 0 };

				buf[n++] = (char)strtol(hex, NULL, 16);
				p += 4;
				continue;
			}
			buf[n++] = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
			continue;
		}
		buf[n++] = *p;
	}
	buf[n] = '\0';
	return buf;
}

/*
 * Read a whole file into BUF (NUL-terminated); bytes read, or -1.  Plain
 * open/read, no stdio: no allocation, so no brk or mmap of our own before
 * the module takes its snapshot at open.
 */
static inline long msj_read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	size_t n = 0;
	ssize_t r;

	if (fd < 0)
		return -1;
	while (n + 1 < size && (r = read(fd, buf + n, size - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
	close(fd);
	return (long)n;
}

#endif /* MSJSON_H */
