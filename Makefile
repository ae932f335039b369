# mseal-stats top-level Makefile.
#
#   make                 build the module for the running kernel (KDIR=... for another)
#   make guest           build the static in-guest test programs into build/guest/
#   make check           run every test (unit tests, then the VM suite): tests/run
#   make clean
CC ?= gcc
GUEST_CFLAGS := -O2 -Wall -Wextra -Werror -static -D_GNU_SOURCE -Itests/guest
GUEST_SRCS := $(wildcard tests/guest/*.c)
GUEST_BINS := $(patsubst tests/guest/%.c,build/guest/%,$(filter-out tests/guest/lib%,$(GUEST_SRCS)))
GUEST_HDRS := $(wildcard tests/guest/*.h)

.PHONY: all guest check clean
all: guest

guest: $(GUEST_BINS)

build/guest/%: tests/guest/%.c $(GUEST_HDRS)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $< -lpthread

check:
	tests/run

clean:
	rm -rf build
