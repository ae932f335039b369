# SPDX-License-Identifier: GPL-2.0
# TAP helpers for the suites in tests/suites/.  Sourced.
# shellcheck shell=bash
MS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VM_RUN=$MS_ROOT/testbed/vm-run
tap_n=0
# Every guest a test boots, through vm_tap or a script, emulates its vCPUs in
# one host thread: QEMU's multi-threaded TCG breaks the kernel's own text
# patching across vCPUs (testbed/vm-run, --one-tcg-thread).
export MSEAL_STATS_ONE_TCG_THREAD=1

# tap_check NAME COMMAND...: one result, ok when COMMAND succeeds.
tap_check() {
	local name=$1; shift
	tap_n=$((tap_n + 1))
	if "$@"; then echo "ok $tap_n - $name"; else echo "not ok $tap_n - $name"; fi
}
tap_ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1"; }
tap_fail() { tap_n=$((tap_n + 1)); echo "not ok $tap_n - $1"; }
tap_skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP $1"; }

# The kernels a suite should boot: its own list, less what MSEAL_TEST_KERNELS
# leaves out (unset: all).
tap_kernels() {
	local k
	for k in "$@"; do
		if [ -z "${MSEAL_TEST_KERNELS:-}" ] || [[ " $MSEAL_TEST_KERNELS " == *" $k "* ]]; then
			echo "$k"
		fi
	done
}

# vm_tap LABEL KERNEL [vm-run options] -- COMMAND...
# Runs COMMAND in the guest; its TAP lines pass through with LABEL added to
# each name.  A failed boot, a non-zero exit or results short of the TAP
# plans the guest printed each give a `not ok`; so does every complaint of
# the kernel (a WARN, a debug checker's report, a taint), named by the step
# it came in (vm-run: `kernel complaint during STEP`).
vm_tap() {
	local label=$1 kernel=$2; shift 2
	local out rc planned got complaints=0
	local t0=$SECONDS
	out=$(mktemp /tmp/vm-tap.XXXXXX)
	"$VM_RUN" --kernel "$kernel" "$@" >"$out" 2>&1
	rc=$?
	# Each boot's wall time, for placing and cutting boots (docs/testbed.md).
	echo "# [$label] vm-run: $((SECONDS - t0)) s"
	# Guest TAP results, renumbered into this suite's sequence.  What a
	# failing vm-run prints after `--- console tail ---` repeats the
	# console: shown, not counted.
	local tail=0
	while IFS= read -r line; do
		[ "$line" = "--- console tail ---" ] && tail=1
		if [ "$tail" = 1 ]; then echo "# | $line"; continue; fi
		case $line in
		"vm-run: kernel complaint during "*)
			line=${line#vm-run: kernel complaint during }
			tap_fail "[$label] ${line%%: *}: the kernel complained: ${line#*: }"
			complaints=$((complaints + 1)) ;;
		"not ok "*|"ok "*)
			tap_n=$((tap_n + 1))
			echo "$line" | sed -E "s/^(not ok|ok) [0-9]+/\1 $tap_n/; s/^((not )?ok [0-9]+)( - | )?/\1 - [$label] /" ;;
		"# "*|"["*) echo "$line" ;;
		*) echo "# $line" ;;
		esac
	done < <(grep -vE '^\[ *[0-9]+\.[0-9]+\] reboot: ' "$out")
	planned=$(sed '/^--- console tail ---$/,$d' "$out" | sed -nE 's/^1\.\.([0-9]+)$/\1/p' | awk '{s+=$1} END{print s+0}')
	got=$(sed '/^--- console tail ---$/,$d' "$out" | grep -cE '^(not )?ok [0-9]+')
	if [ "$planned" -gt 0 ] && [ "$got" -ne "$planned" ]; then
		tap_fail "[$label] guest planned $planned results, printed $got"
	fi
	# A complaint is already a failure of its own, by name.
	if [ "$rc" -ne 0 ] && ! [ "$rc" -eq 125 -a "$complaints" -gt 0 ]; then
		tap_fail "[$label] guest command exited $rc: $(grep -m1 '^vm-run: FAIL' "$out" || tail -n 1 "$out")"
	fi
	rm -f "$out"
	return 0
}
