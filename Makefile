# SPDX-License-Identifier: GPL-2.0
# mseal-stats top-level Makefile.  Works by hand and from DKMS.
#
#   make [KDIR=...]          build mseal_stats.ko (default: the running kernel)
#   make install [KDIR=...]  install it into that kernel's extra/ and run depmod for it,
#                            then the man pages (install-man)
#   make install-man         man/*.1 and man/*.4 into MANDIR [PREFIX=/usr/local DESTDIR=]
#   make dkms-install [KVER=RELEASE]  the module's sources to /usr/src/mseal-stats-VERSION,
#                            then dkms add, build and install for RELEASE (default: running)
#   make dkms-remove         dkms remove for every kernel, and the /usr/src folder
#   make bench               mseal-bench for this machine -> build/mseal-bench
#   make guest               static in-guest test programs and mseal-bench -> build/guest/
#   make guest-arm64         the same for arm64 guests -> build/guest-arm64/
#   make unit                userspace unit tests -> build/unit/
#   make check               every test: tests/run (unit tests, then VM suites)
#   make demo [ARCH=arm64]   the A/B comparison on QEMU's instruction clock (scripts/mseal-compare vm --clock icount)
#   make textfile            the node_exporter collector -> build/mseal-stats-textfile
#   make textfile-install    it and its systemd units [PREFIX=/usr/local TEXTFILE_DIR=...]
#   make clean
#
# When the kernel's Makefile reads this file through Kbuild, only Kbuild
# counts: everything below is for humans and CI.
KDIR ?= /lib/modules/$(shell uname -r)/build
CC ?= cc

.PHONY: all modules install install-man kdir-check dkms-install dkms-remove textfile textfile-install clean bench guest guest-arm64 unit unit-cflags check demo
all: modules

modules: kdir-check
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# Without a build tree make -C would only say "No such file or directory":
# say which package provides it.
kdir-check:
	@[ -f "$(KDIR)/Makefile" ] || { echo "mseal-stats: no kernel build tree at $(KDIR): install linux-headers-$$(uname -r) (Debian, Ubuntu) or kernel-devel-$$(uname -r) (Fedora, RHEL), or pass KDIR=/path/to/build" >&2; exit 1; }

# The release KDIR builds for: the folder under /lib/modules, depmod's argument.
KRELEASE = $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null)

# extra/ said explicitly: kbuild's default became updates/ (6.12:
# INSTALL_MOD_DIR ?= updates).  kbuild runs depmod only where the build tree
# has a System.map, which headers packages lack: without this depmod,
# modprobe would not find the module until `depmod -a`.
install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=extra modules_install
	depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KRELEASE)
	$(if $(MAN_PAGES),$(MAKE) install-man)

# The man pages need no kernel tree, so a package of the tools installs
# them alone (make install-man DESTDIR=... PREFIX=/usr); make install runs
# it after the module where man/ is there (not in DKMS's copy of the
# sources, which holds the module's files alone).
MANDIR ?= $(PREFIX)/share/man
MAN_PAGES := $(wildcard man/*.1 man/*.4)
install-man:
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man4
	install -m 644 $(filter %.1,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(filter %.4,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man4/

# --- DKMS --------------------------------------------------------------------
# dkms add of the working tree would copy all of it (docs, results, .git)
# into /usr/src: stage the module's sources alone, as v4l2loopback and
# lttng-modules install theirs.  dkms.conf holds the one version.
DKMS_NAME := mseal-stats
# Parsed as Kbuild parses it: quoted or not.
DKMS_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\{0,1\}\([^"]*\)"\{0,1\}$$/\1/p' dkms.conf 2>/dev/null)
DKMS_SRCTREE ?= /usr/src
DKMS_DIR = $(DKMS_SRCTREE)/$(DKMS_NAME)-$(DKMS_VERSION)
DKMS_FILES := Kbuild Makefile dkms.conf $(wildcard module/*.[chS] module/conftest/*.c)
# More dkms options (the tests: --dkmstree DIR).
DKMS_FLAGS ?=
DKMS = dkms $(1) -m $(DKMS_NAME) -v $(DKMS_VERSION) --sourcetree $(DKMS_SRCTREE) $(DKMS_FLAGS)
KVER ?= $(shell uname -r)

# Once per kernel: the sources already added for this version stay, so the
# installs for other kernels stay too (dkms build and install skip what is
# done).  Sources that changed under the same version cannot be added again
# (dkms add refuses a version already added): that version is removed from
# every kernel first, and the message says so.
dkms-install:
	rm -rf $(DKMS_DIR).new && mkdir -p $(DKMS_DIR).new
	cp --parents $(DKMS_FILES) $(DKMS_DIR).new/
	@if [ -n "$$($(call DKMS,status) 2>/dev/null)" ] && diff -r -q $(DKMS_DIR) $(DKMS_DIR).new >/dev/null 2>&1; then \
		rm -rf $(DKMS_DIR).new; \
	else \
		if [ -n "$$($(call DKMS,status) 2>/dev/null)" ]; then \
			echo "mseal-stats: the sources of $(DKMS_VERSION) changed: removing it from every kernel to add them again"; \
			$(call DKMS,remove) --all || exit 1; \
		fi; \
		rm -rf $(DKMS_DIR) && mv $(DKMS_DIR).new $(DKMS_DIR) && $(call DKMS,add); \
	fi
	$(call DKMS,build) -k $(KVER)
	$(call DKMS,install) -k $(KVER)

dkms-remove:
	@if [ -n "$$($(call DKMS,status) 2>/dev/null)" ]; then $(call DKMS,remove) --all; fi
	rm -rf $(DKMS_DIR) $(DKMS_DIR).new

# --- test programs ---------------------------------------------------------
GUEST_CFLAGS := -O2 -Wall -Wextra -Werror -static -D_GNU_SOURCE -Itests/guest
GUEST_SRCS := $(wildcard tests/guest/*.c)
GUEST_BINS := $(patsubst tests/guest/%.c,build/guest/%,$(GUEST_SRCS))
GUEST_HDRS := $(wildcard tests/guest/*.h) scripts/lib/msjson.h scripts/lib/memclock_mark.h
# msjson.h from the guest's shell (tests/lib/msjson.c), for sh-only suites.
GUEST_BINS += build/guest/msjson

# The tools' shared library (scripts/lib): JSON reader, statistics, workloads.
LIB_SRCS := $(wildcard scripts/lib/*.c)
LIB_HDRS := $(wildcard scripts/lib/*.h)
BENCH_SRCS := $(wildcard scripts/mseal-bench/*.c) $(LIB_SRCS)
BENCH_DEPS := $(BENCH_SRCS) scripts/mseal-bench/bench.h $(LIB_HDRS) dkms.conf
# The tools' --version: dkms.conf's, the one place it is written.
VERSION_CFLAGS := -DMSEAL_STATS_VERSION='"$(DKMS_VERSION)"'
# The user tools build without -Werror (a newer gcc or clang warns about
# something new: a warning, not a failed build); `make check` (CI) and
# MSEAL_STATS_WERROR=1 keep it, for every make the suites run too.
ifneq ($(filter check,$(MAKECMDGOALS)),)
export MSEAL_STATS_WERROR := 1
endif
WERROR := $(if $(MSEAL_STATS_WERROR)$(CI),-Werror)
BENCH_CFLAGS := -O2 -Wall -Wextra $(WERROR) -D_GNU_SOURCE $(VERSION_CFLAGS)
# Static mseal-bench ends in a page linked apart, unmapped before main: the
# hole ASLR leaves below the brk heap, in every layout (layout.c).
BENCH_STATIC := -static -Wl,--section-start=.brk_gap=0x10000000

# mseal-bench for the machine measured (mseal-compare record finds it here).
bench: build/mseal-bench
build/mseal-bench: $(BENCH_DEPS)
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ $(BENCH_SRCS) -lpthread -lm

guest: $(GUEST_BINS) build/guest/mseal-bench

# mseal-bench, static, so the same binary runs on the host and in guests.
build/guest/mseal-bench: $(BENCH_DEPS)
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) $(BENCH_STATIC) -o $@ $(BENCH_SRCS) -lpthread -lm

build/guest/%: tests/guest/%.c $(GUEST_HDRS)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $< -lpthread

build/guest/msjson: tests/lib/msjson.c scripts/lib/msjson.h
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $<

# mseal-compare report: every statistic and conversion of a comparison, on the host.
# Every C file of scripts/compare/ and scripts/lib/, as scripts/compare/report builds it.
REPORT_SRCS := $(wildcard scripts/compare/*.c) $(LIB_SRCS)
# Names and messages are cut to their buffers on purpose (snprintf).
build/mseal-compare-report: $(REPORT_SRCS) $(wildcard scripts/compare/*.h) $(LIB_HDRS)
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra $(WERROR) -Wno-unknown-warning-option -Wno-format-truncation -o $@ $(REPORT_SRCS) -lm

# The same programs for arm64 guests, with Debian's cross compiler.
CROSS_ARM64 ?= aarch64-linux-gnu-
GUEST_ARM64_BINS := $(patsubst build/guest/%,build/guest-arm64/%,$(GUEST_BINS)) build/guest-arm64/mseal-bench

guest-arm64: $(GUEST_ARM64_BINS)

build/guest-arm64/%: tests/guest/%.c $(GUEST_HDRS)
	@mkdir -p $(@D)
	$(CROSS_ARM64)gcc $(GUEST_CFLAGS) -o $@ $< -lpthread

build/guest-arm64/msjson: tests/lib/msjson.c scripts/lib/msjson.h
	@mkdir -p $(@D)
	$(CROSS_ARM64)gcc $(GUEST_CFLAGS) -o $@ $<

build/guest-arm64/mseal-bench: $(BENCH_DEPS)
	@mkdir -p $(@D)
	$(CROSS_ARM64)gcc $(BENCH_CFLAGS) $(BENCH_STATIC) -o $@ $(BENCH_SRCS) -lpthread -lm

# The node_exporter textfile collector: the module's JSON as Prometheus text.
textfile: build/mseal-stats-textfile
build/mseal-stats-textfile: scripts/prometheus/mseal-stats-textfile.c scripts/lib/msjson.h dkms.conf
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra $(WERROR) -D_GNU_SOURCE $(VERSION_CFLAGS) -o $@ $<

# The collector and its systemd units, the service pointed at PREFIX's
# binary and at node_exporter's textfile directory (Debian's by default).
PREFIX ?= /usr/local
SYSTEMD_UNIT_DIR ?= /etc/systemd/system
TEXTFILE_DIR ?= /var/lib/prometheus/node-exporter
textfile-install: build/mseal-stats-textfile
	install -D -m 755 build/mseal-stats-textfile $(DESTDIR)$(PREFIX)/bin/mseal-stats-textfile
	install -d $(DESTDIR)$(SYSTEMD_UNIT_DIR)
	sed -e 's|/usr/local/bin/|$(PREFIX)/bin/|' -e 's|/var/lib/prometheus/node-exporter|$(TEXTFILE_DIR)|g' \
		scripts/prometheus/mseal-stats-textfile.service >$(DESTDIR)$(SYSTEMD_UNIT_DIR)/mseal-stats-textfile.service
	install -m 644 scripts/prometheus/mseal-stats-textfile.timer $(DESTDIR)$(SYSTEMD_UNIT_DIR)/
	@echo "mseal-stats: now systemctl daemon-reload && systemctl enable --now mseal-stats-textfile.timer"

# mseal-overhead's table of ratios.
build/mseal-overhead-summary: testbed/overhead/summary.c scripts/lib/cmpstats.c scripts/lib/cmpstats.h
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -Werror -o $@ testbed/overhead/summary.c scripts/lib/cmpstats.c -lm

build/memclock-summary: testbed/memclock/summary.c scripts/lib/cmpstats.c scripts/lib/cmpstats.h
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -Werror -o $@ testbed/memclock/summary.c scripts/lib/cmpstats.c -lm

# -fno-sanitize-recover=all: a UBSan report ends the test with a non-zero
# status (by default UBSan prints and goes on, and 05-unit would pass it).
UNIT_CFLAGS := -O1 -g -Wall -Wextra -Werror -D_GNU_SOURCE -Imodule -fsanitize=address,undefined -fno-sanitize-recover=all
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,build/unit/%,$(UNIT_SRCS))
UNIT_LINK_test_cmpstats := -lm
UNIT_LINK_test_ratio := -lm
UNIT_LINK_test_stoprule := -lm
UNIT_LINK_test_seeds := -lm
UNIT_LINK_test_layouts := -lm
UNIT_LINK_test_headline := -lm
UNIT_LINK_test_workloads := -lm
UNIT_LINK_test_inflight := -lpthread

unit: $(UNIT_BINS)

build/unit/%: tests/unit/%.c $(wildcard module/*.h module/*.c scripts/compare/*.[ch] scripts/mseal-bench/layout_draw.c scripts/mseal-bench/bench.h scripts/lib/*.[ch] testbed/memclock/*.[ch]) Makefile
	@mkdir -p $(@D)
	$(CC) $(UNIT_CFLAGS) -o $@ $< $(UNIT_LINK_$*)

# The flags, for 05-unit's check that a sanitizer report is fatal.
unit-cflags:
	@echo $(UNIT_CFLAGS)

check:
	tests/run

# The main job: the A/B comparison of the pre-series and the patched kernel
# in the test bed, on QEMU's instruction clock, where a boot repeats to
# 0.1 % whatever the host does (5 boots of each kernel, 6 runs of 0.05 s a
# workload, mmap1 32, a seeded layout a run; vm --help); prints the
# tables and the plots' paths.  ARCH=arm64: the same on the arm64 pair
# (qemu-system-aarch64); ARCH leaves this recipe's environment, where the
# kernel and module builds below it would read it.
demo:
	env -u ARCH MAKEFLAGS= scripts/mseal-compare vm --clock icount$(if $(ARCH), --arch $(ARCH))

clean:
	rm -rf build
	[ ! -d "$(KDIR)" ] || $(MAKE) -C $(KDIR) M=$(CURDIR) clean
