# SPDX-License-Identifier: GPL-2.0
# loop-machine.sh: what makes a Debian root the loop tests' machine, shared
# by tests/lib/loop-image (x86_64, BIOS) and loop-image-arm64 (UEFI).
# Sourced; the caller has $LIB and $MS_ROOT.
# shellcheck shell=bash

# ms_umount_under DIR: every mount under DIR, deepest first: a debootstrap
# killed outright (a CI timeout, tests/run's end) leaves its proc, sys and
# (in a container) a tmpfs /dev with binds in it, in the half-made root.
ms_umount_under() {
	local m
	[ -d "$1" ] || return 0
	# mountinfo has the physical path, a space as \040.
	awk -v d="$(cd "$1" && pwd -P)/" '{ gsub(/\\040/, " ", $5) } index($5 "/", d) == 1 { print $5 }' /proc/self/mountinfo | sort -r |
		while read -r m; do umount -l "$m" 2>/dev/null || true; done
}

# loop_machine ROOT TERMINAL CONSOLE ROOTDEV: GRUB's defaults as Debian
# ships them but for the console (TERMINAL: GRUB's, serial or console;
# CONSOLE: the kernel's console= and what follows it), fstab, the
# journal, the units the test masks, the driver and the verdict units.
loop_machine() {
local r=$1 terminal=$2 console=$3 rootdev=$4 serial=
[ "$terminal" != serial ] || serial='GRUB_SERIAL_COMMAND="serial --unit=0 --speed=115200"
'
# The machine: GRUB straight to its default, no timers
# that would run during a record, a persistent journal.  Two boot-time
# units masked, for the test's time only (every boot pays them): e2scrub_reap (its LVM
# scan held every boot's end back by about 30 s under TCG, and the loop
# waits for the boot to end) and getty-static (the VTs' gettys, on a
# machine with no VT: it waited 20 s a boot).  Neither touches GRUB, the
# loop's unit or a record.
cat >"$r/etc/default/grub" <<EOF
GRUB_DEFAULT=0
GRUB_TIMEOUT=0
GRUB_DISTRIBUTOR="Debian"
GRUB_CMDLINE_LINUX_DEFAULT=""
GRUB_CMDLINE_LINUX="console=$console log_buf_len=4M"
GRUB_TERMINAL=$terminal
${serial}GRUB_DISABLE_RECOVERY=true
GRUB_DISABLE_OS_PROBER=true
EOF
echo "$rootdev / ext4 rw,errors=remount-ro 0 0" >"$r/etc/fstab"
echo loop-test >"$r/etc/hostname"
mkdir -p "$r/var/log/journal"
for t in apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer e2scrub_reap.service getty-static.service; do
	ln -sf /dev/null "$r/etc/systemd/system/$t"
done
install -m 0755 "$LIB/loop-driver" "$r/usr/local/sbin/loop-driver"
for u in check end; do
	sed "s/@WHAT@/$u/" "$LIB/loop-driver.service" >"$r/etc/systemd/system/loop-driver-$u.service"
done
sed -i 's/^Type=.*/Type=oneshot\nTimeoutStartSec=infinity/; s/^\(After=.*\)/\1\nBefore=mseal-compare-loop.service/' "$r/etc/systemd/system/loop-driver-check.service"
sed -i 's/^\(After=.*\)/\1 loop-driver-check.service/' "$r/etc/systemd/system/loop-driver-end.service"
# The unplanned run's stand-in for a kernel that fails to boot: at
# shutdown, GRUB's one-time entry goes, so the machine comes up on its
# default (the loop-driver enables it).
cat >"$r/etc/systemd/system/loop-lose-entry.service" <<'EOF'
[Unit]
Description=the loop test: lose GRUB's one-time entry at every shutdown
After=local-fs.target

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/bin/true
ExecStop=/usr/bin/grub-editenv /boot/grub/grubenv unset next_entry

[Install]
WantedBy=multi-user.target
EOF
# Every boot's kernel verdict on the console (tests/lib/loop-verdict):
# its taint before the loop's unit loads the module, its log at shutdown.
install -m 0755 "$LIB/loop-verdict" "$r/usr/local/sbin/loop-verdict"
mkdir -p "$r/usr/local/lib"
sed -n "s/^bad='\(.*\)'\$/\1/p" "$MS_ROOT/testbed/lib/verdict" >"$r/usr/local/lib/loop-verdict.bad"
[ -s "$r/usr/local/lib/loop-verdict.bad" ] || ms_die "no complaint list in testbed/lib/verdict"
cat >"$r/etc/systemd/system/loop-verdict.service" <<'EOF'
[Unit]
Description=the loop test: the kernel's verdict of this boot at shutdown
After=local-fs.target
Before=mseal-compare-loop.service loop-driver-check.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/sbin/loop-verdict start
ExecStop=/usr/local/sbin/loop-verdict stop

[Install]
WantedBy=multi-user.target
EOF
mkdir -p "$r/etc/systemd/system/multi-user.target.wants"
ln -sf ../loop-driver-check.service ../loop-driver-end.service ../loop-verdict.service "$r/etc/systemd/system/multi-user.target.wants/"

}

# loop_setup_script ROOT OWN INSTALL: the first boot's init, which runs
# INSTALL (grub-install for the platform), update-grub, and `loop
# keep-default OWN`, as docs/real-machines.md says after installing the pair.
loop_setup_script() {
local r=$1 own=$2 install=$3
# The first boot's init: GRUB onto the disk, grub.cfg from update-grub
# (GRUB_DEFAULT=0 as Debian ships it: entry 0 is the newest kernel, one of
# the pair), then what docs/real-machines.md says to do after installing
# the pair: `loop keep-default` for the machine's own kernel.
cat >"$r/usr/local/sbin/loop-setup" <<EOF
#!/bin/sh
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
mount -o remount,rw /
mkdir -p /boot/grub && grub-editenv /boot/grub/grubenv create
if $install && update-grub && cp /boot/grub/grub.cfg /boot/grub/grub.cfg.debian &&
	/opt/mseal-stats/scripts/mseal-compare loop keep-default $own; then echo "loop-setup: done"; else echo "loop-setup: failed"; fi
sync; mount -o remount,ro /
exec systemctl --force --force reboot
EOF
chmod 0755 "$r/usr/local/sbin/loop-setup"
}
