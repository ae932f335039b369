# SPDX-License-Identifier: GPL-2.0
# The seal checks each kernel of the test bed has: the table the guest tests
# take their expectations from (issue 30).  Sourced.
# shellcheck shell=bash
#
# Never the module's own report: a check the kernel has and the module did
# not attach must fail the tests, not turn them into skips.  The table
# follows the kernel's history (shared/kernel-facts.md, "Where the seal
# checks live"), read from the kernel's release; every guest run of
# ms_counts checks it against the guest's /proc/kallsyms
# (ms_expect_table_is_kallsyms in tests/guest/mstest.h).
#
#   kernel_checks SPEC    prints the checks, space-separated, or "none";
#                         provisions SPEC (testbed/kernels path) to read its
#                         release.  Fails (status 1) for a kernel it cannot
#                         place: a test must not guess.
#
# The guest gets the list as MS_EXPECT_CHECKS (guest_check_env below).
# MSEAL_TEST_DROP_CHECK=NAME on the host is a fault injected for the tests
# of the tests: the guest programs then read the check NAME as not attached
# (MS_TEST_DROP_CHECK, tests/guest/mstest.h), and a kernel that has NAME
# must fail its suite.

kernel_checks() {
	local spec=$1 dir rel major minor err
	# src-preseries: 6.12 with the pre-series checks put back
	# (kernel/patches/): can_modify_mm and can_modify_mm_madv, global;
	# can_modify_vma stays a static inline.  can_modify_vma_madv goes.
	case $spec in
	src-preseries|src-preseries-bpf) echo "can_modify_mm can_modify_mm_madv"; return 0 ;;
	esac
	# A kernel that cannot be provisioned (a build that failed) says why,
	# on stderr as TAP comments, not only "cannot place".
	err=$(mktemp)
	if ! dir=$("$MS_ROOT/testbed/kernels" path "$spec" 2>"$err"); then
		tail -n 20 "$err" | sed 's/^/# testbed\/kernels: /' >&2
		rm -f "$err"
		return 1
	fi
	rm -f "$err"
	rel=$(cat "$dir/release" 2>/dev/null) || return 1
	major=${rel%%.*} minor=${rel#*.} minor=${minor%%[!0-9]*}
	case $major in ''|*[!0-9]*) return 1 ;; esac
	case $minor in ''|*[!0-9]*) return 1 ;; esac
	if [ "$major" -lt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -lt 10 ]; }; then
		echo none		# no mseal before 6.10
	elif [ "$major" -eq 6 ] && [ "$minor" -lt 12 ]; then
		# 6.10, 6.11: can_modify_vma static (inlined or a clone: the
		# module does not count on it)
		echo "can_modify_mm can_modify_mm_madv"
	elif [ "$major" -eq 6 ] && [ "$minor" -lt 17 ]; then
		echo can_modify_vma_madv	# can_modify_vma a static inline
	else
		echo none		# 6.17 on: vma_is_sealed(), static inline
	fi
}

# kernel_features SPEC: what the kernel's config promises that a guest test
# would otherwise skip without ("io_uring" for CONFIG_IO_URING=y,
# "userfaultfd" for CONFIG_USERFAULTFD=y), space-separated; nothing when
# its config cannot be read.
kernel_features() {
	local dir cfg f=
	dir=$("$MS_ROOT/testbed/kernels" path "$1" 2>/dev/null) || return 0
	cfg=$dir/build/.config
	[ -f "$cfg" ] || return 0
	grep -qx 'CONFIG_IO_URING=y' "$cfg" && f+=" io_uring"
	grep -qx 'CONFIG_USERFAULTFD=y' "$cfg" && f+=" userfaultfd"
	echo "${f# }"
}

# guest_check_env SPEC: the shell line a guest script starts with, exporting
# MS_EXPECT_CHECKS and MS_EXPECT_FEATURES (and MS_TEST_DROP_CHECK when
# MSEAL_TEST_DROP_CHECK is set).  Fails when kernel_checks does.
guest_check_env() {
	local c
	c=$(kernel_checks "$1") || return 1
	printf 'export MS_EXPECT_CHECKS="%s" MS_EXPECT_FEATURES="%s";' "$c" "$(kernel_features "$1")"
	if [ -n "${MSEAL_TEST_DROP_CHECK:-}" ]; then
		printf ' export MS_TEST_DROP_CHECK="%s";' "$MSEAL_TEST_DROP_CHECK"
	fi
	printf '\n'
}
