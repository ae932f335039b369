# SPDX-License-Identifier: GPL-2.0
# loop-guest.sh: the loop suites' guests (64-compare-loop on x86_64,
# 68-compare-loop-arm64): boot a copy of the image until its driver powers
# it off, read files back out of its root, and check what the loop left.
# Sourced; the suite has $work, $img, $root_offset (where the root
# partition starts), $suite_tag (its number, for the verdicts) and guest_qemu.
# shellcheck shell=bash

# guest_run NAME MODE: boot a copy of the image until the guest powers off
# (its driver does, once no loop runs); console in $work/NAME.console.
# Each run is one host thread; a suite may run several side by side.
#
# Every reboot is a cold start: QEMU runs with -no-reboot, so a guest's
# reboot ends it, and the next boot is a new QEMU on the same disk, as a
# machine's power cycle.  Why: after a warm reset of TCG from one of the
# pair's kernels, GRUB takes 35 to 75 s to load the next kernel and its
# initrd (its memmove at about 180 KB/s), against 4 s in a new QEMU.  What
# the loop tests (GRUB's one-time entry, grubenv, the boot order) is on
# the disk and does not care.
# The suite defines guest_qemu NAME: QEMU on $work/NAME.img (the disk),
# $work/NAME.mode (the driver's mode) and the console $work/NAME.console.part,
# with -no-reboot.
guest_run() {
	local name=$1 mode=$2 t=$SECONDS q starts=0
	cp --sparse=always "$img/disk.img" "$work/$name.img"
	printf '%s' "$mode" >"$work/$name.mode"
	truncate -s 512 "$work/$name.mode"
	: >"$work/$name.console"
	while :; do
		starts=$((starts + 1))
		guest_qemu "$name" >>"$work/$name.qemu" 2>&1 &
		q=$!
		echo "$q" >"$work/$name.qpid"
		while kill -0 "$q" 2>/dev/null; do
			grep -qE 'reboot: (Power down|Power off not available|System halted)' "$work/$name.console.part" 2>/dev/null && break
			[ $((SECONDS - t)) -lt "${MSEAL_TEST_LOOP_TIMEOUT:-3600}" ] || break
			sleep 3
		done
		sleep 2
		kill "$q" 2>/dev/null; wait "$q" 2>/dev/null; rm -f "$work/$name.qpid"
		cat "$work/$name.console.part" >>"$work/$name.console"
		rm -f "$work/$name.console.part"
		[ $((SECONDS - t)) -lt "${MSEAL_TEST_LOOP_TIMEOUT:-3600}" ] || { echo "# $name: timed out"; break; }
		# A reboot ends QEMU with the kernel's restart line last: start it
		# again; a power-off, or anything else (a panic, QEMU's own end), ends.
		tail -n 5 "$work/$name.console" | grep -qE 'reboot: (Restarting system|machine restart)' || break
	done
	boots=$(grep -c 'Linux version ' "$work/$name.console")
	# The CPU of its QEMUs: guest_run runs in a subshell of its own, and
	# `times` counts that shell's children (not in a $(...) of its own).
	times >"$work/$name.times"
	echo "# $name: $boots boots in $((SECONDS - t)) s, $(tail -n 1 "$work/$name.times" | awk '{ for (i = 1; i <= 2; i++) { split($i, t, "m"); s += t[1] * 60 + t[2] } print int(s) }') CPU-s, $starts QEMU starts (console: $work/$name.console)"
	sed -n 's/.*Linux version \([^ ]*\) .*/\1/p' "$work/$name.console" >"$work/$name.kernels"
	grep -a 'loop-driver: \|loop: ' "$work/$name.console" | grep -av 'loop: record' | sed "s/^/# $name: /"
}
# img_get NAME PATH DEST: copy a file or folder out of the image's ext4
# (the root partition, at $root_offset bytes into the disk).
img_get() { debugfs -R "rdump $2 $3" "$work/$1.img?offset=$root_offset" >/dev/null 2>&1; }
# img_has NAME PATH: PATH exists in the image; a debugfs that cannot read
# the image at all is a failure of the test, not a "no".
img_has() {
	debugfs -R "stat /" "$work/$1.img?offset=$root_offset" 2>&1 | grep -q '^Inode:' ||
		{ echo "# debugfs cannot read $work/$1.img"; echo "(unreadable)"; return 0; }
	debugfs -R "stat $2" "$work/$1.img?offset=$root_offset" 2>&1 | grep -q '^Inode:'
}
# The releases of DIR's records in the order the loop made them: record
# prints each record's folder into DIR/log.  Not by their dates: under TCG on
# a busy host the guest's clock can run ahead in one boot.
rec_order() {
	sed -n 's|^mseal-compare record: /srv/mseal-ab/\([^/ ]*\)$|\1|p' "$1/log" | while read -r f; do
		python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["release"])' "$1/$f/meta.json"
	done | tr '\n' ' '
}
# GRUB's files of a run against the driver's copy made before loop start
# (/srv/grub-before): byte for byte.
grub_same() {
	local o=$work/$1.out f
	mkdir -p "$o/etc"
	img_get "$1" /etc/default "$o/etc"
	for f in grub.cfg grubenv; do cmp -s "$o/srv/grub-before/$f" "$o/grub/$f" || { echo "# $1: $f differs"; return 1; }; done
	cmp -s "$o/srv/grub-before/grub" "$o/etc/default/grub" || { echo "# $1: /etc/default/grub differs"; return 1; }
	test "$(ls -A "$o/etc/default/grub.d" 2>/dev/null)" = "$(cat "$o/srv/grub-before/grub.d.list")" ||
		{ echo "# $1: /etc/default/grub.d differs"; return 1; }
}
# console_ok NAME: every boot of run NAME ended with a clean kernel verdict
# (tests/lib/loop-verdict in the guest, tests/lib/console-verdict here:
# vm-run's complaints and taint rule, the log read whole).
console_ok() {
	"$MS_ROOT/tests/lib/console-verdict" "$work/$1.console" "$suite_tag $1" >"$work/$1.verdict" 2>&1
	local rc=$?
	grep -v ': ok$' "$work/$1.verdict" | sed "s/^/# $1: /"
	return "$rc"
}
# loop_left NAME: what of the loop's own files is still in run NAME's root.
loop_left() {
	local f
	for f in /etc/systemd/system/mseal-compare-loop.service /etc/systemd/system/multi-user.target.wants/mseal-compare-loop.service \
		/var/lib/mseal-compare/loop.state /etc/default/grub.d/zz-mseal-compare-loop.cfg; do
		img_has "$1" "$f" && echo "$f"
	done
}
