# SPDX-License-Identifier: GPL-2.0
# Shell functions for the guest side of the module suites (41, 41-backends,
# 43, 45), as a string a suite puts before its guest script.  Sourced.
# shellcheck shell=bash
#
#   run PROG [ARGS...]     runs a guest test program; a non-zero exit is a
#                          result of its own ("not ok - PROG exited N", with
#                          a plan of one, so vm_tap's plan count holds) and
#                          sets st=1.  A crash before the program's plan is
#                          met is a short plan in vm_tap besides.
#   drop_check_fails PROG  the fault injected for the tests of the tests
#                          (issue 30): PROG run with the first of the
#                          kernel's checks (MS_EXPECT_CHECKS,
#                          tests/lib/kernel-checks.sh) read as not attached
#                          (MS_TEST_DROP_CHECK, tests/guest/mstest.h) must
#                          fail, with no skip; one result.
#   cpus_online N          one result: at least N CPUs online
#                          (/sys/devices/system/cpu/online), for a boot
#                          whose test relies on the vCPUs it asked for
#                          (`vm-run --smp N`): the source-built kernels
#                          once came up with one CPU whatever N was.
#   st                     0, or 1 once anything failed: the script ends
#                          with `exit $st`, never a bare `exit 0`.
guest_lib='
st=0
run() {
	"$@"
	rc=$?
	if [ $rc -ne 0 ]; then echo "1..1"; echo "not ok 1 - $1 exited $rc"; st=1; fi
	return 0
}
cpus_online() {
	on=$(cat /sys/devices/system/cpu/online)
	n=$(echo "$on" | awk -F, "{ for (i = 1; i <= NF; i++) { k = split(\$i, r, \"-\"); n += k == 2 ? r[2] - r[1] + 1 : 1 } print n + 0 }")
	echo 1..1
	if [ "$n" -ge "$1" ]; then
		echo "ok 1 - $n CPUs online ($on): the $1 this test relies on"
	else
		echo "not ok 1 - $n CPUs online ($on), the test relies on $1"; st=1
	fi
}
drop_check_fails() {
	c=${MS_EXPECT_CHECKS%% *}
	echo 1..1
	if [ -z "$c" ] || [ "$c" = none ]; then
		echo "ok 1 # SKIP no seal check in this kernel to drop"
		return 0
	fi
	MS_TEST_DROP_CHECK=$c "$@" >/tmp/drop.out 2>&1
	rc=$?
	nf=$(grep -c "^not ok" /tmp/drop.out)
	ns=$(grep -c "# SKIP" /tmp/drop.out)
	if [ $rc -ne 0 ] && [ "$nf" -gt 0 ] && [ "$ns" -eq 0 ]; then
		echo "ok 1 - $1 with $c dropped (a fault injected): fails ($nf not ok, exit $rc), skips nothing"
	else
		echo "not ok 1 - $1 with $c dropped (a fault injected): exit $rc, $nf not ok, $ns skipped"
		sed "s/^/# drop: /" /tmp/drop.out
		st=1
	fi
}
'
