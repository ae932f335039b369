// SPDX-License-Identifier: GPL-2.0
/*
 * msjson: scripts/lib/msjson.h for the guest's shell, where a suite's guest
 * side is a sh script (46-module-lockdown).  Built static into build/guest/
 * (make guest), so it is in every guest's PATH.
 *
 *   msjson FILE            exit 0 when FILE is one well-formed JSON value
 *   msjson FILE PATH...    the same, then print the value at each PATH
 *                          (msjson.h's dotted paths: "syscalls.madvise.count",
 *                          "probes.3.name"), one a line, as JSON text
 *
 * Exit status: 0 valid (and every PATH found), 1 not valid or a PATH
 * missing (said on stderr), 2 usage or FILE unreadable.
 */
#include "../../scripts/lib/msjson.h"

int main(int argc, char **argv)
{
	static char text[4 << 20];
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: msjson FILE [PATH]...\n");
		return 2;
	}
	if (msj_read_file(argv[1], text, sizeof(text)) < 0) {
		perror(argv[1]);
		return 2;
	}
	if (!msj_valid(text)) {
		fprintf(stderr, "msjson: %s: not one well-formed JSON value\n", argv[1]);
		return 1;
	}
	for (i = 2; i < argc; i++) {
		const char *v = msj_find(text, argv[i]), *e = v ? msj_skip(v) : NULL;

		if (!e) {
			fprintf(stderr, "msjson: %s: no %s\n", argv[1], argv[i]);
			return 1;
		}
		printf("%.*s\n", (int)(e - v), v);
	}
	return 0;
}
