# SPDX-License-Identifier: GPL-2.0
# loop-lib.sh: the loop's helpers, sourced by scripts/compare/loop after
# its constants (UNIT, STATE, GRUB_CFG, ...): logging and state, GRUB's
# entries and default, Secure Boot and the module's presence, the next
# boot armed and taken, the end of a loop and the CPU settings undone.

# Every line to DIR/log and stderr; from the unit stderr is the journal,
# by hand the journal gets it through logger.
log() {
	local line
	line="$(date -u '+%Y-%m-%dT%H:%M:%SZ') $*"
	[ -z "${dir:-}" ] || { echo "$line" >>"$dir/log"; own_dir "$dir/log"; }
	echo "loop: $*" >&2
	[ -n "${INVOCATION_ID:-}" ] || logger -t mseal-compare-loop -- "$*" 2>/dev/null || true
}
# DIR's files are the sudo user's.
own_dir() { [ -z "${sudo_uid:-}" ] || chown "$sudo_uid:${sudo_gid:-$sudo_uid}" "$@" 2>/dev/null || true; }

# The state: shell assignments, written whole and renamed into place.
save_state() {
	local v
	{
		for v in dir plan done_ unplanned reboots last_boot a b settle rec_opts \
			own own_entry sudo_uid sudo_gid sudo_home bench governor no_turbo ntrial tried found_default; do
			printf '%s=%q\n' "$v" "${!v}"
		done
	} >"$STATE.new"
	mv "$STATE.new" "$STATE"
}
load_state() { [ -e "$STATE" ] || return 1; . "$STATE"; }

envget() { grub-editenv "$GRUBENV" list 2>/dev/null | sed -n "s/^$1=//p"; }

# The grub-reboot argument for RELEASE: the id of its entry in grub.cfg,
# with the id of the submenu it sits in ("SUBMENU>ENTRY").  update-grub's
# 10_linux names them gnulinux-advanced-ID and gnulinux-RELEASE-advanced-ID.
grub_entry() {
	awk -v rel="$1" '
		function id(line) { n = split(line, q, "'\''"); return q[n - 1] }
		/^submenu / { sub_ = id($0) }
		/^}/ { sub_ = "" }
		/^[ \t]*menuentry / && index($0, "gnulinux-" rel "-advanced-") {
			print (sub_ != "" ? sub_ ">" : "") id($0); exit
		}' "$GRUB_CFG"
}

# The release GRUB boots when nothing is armed: grub.cfg's `set default`
# (GRUB_DEFAULT), "${saved_entry}" read from grubenv; a number counts the
# top-level entries, else an id or title, "SUBMENU>ENTRY" too.
grub_default_release() {
	local want
	want=$(sed -n 's/^[ \t]*set default="\(.*\)"$/\1/p' "$GRUB_CFG" | grep -vxF '${next_entry}' | head -n 1)
	case $want in '${saved_entry}') want=$(envget saved_entry) ;; esac
	awk -v want="${want:-0}" '
		function id(line) { n = split(line, q, "'\''"); return q[n - 1] }
		function title(line) { n = split(line, q, "'\''"); return q[2] }
		BEGIN { last = want; sub(/.*>/, "", last) }
		/^(menuentry|submenu) / { top++; d = 0 }
		/^[ \t]*(menuentry|submenu) / { d++; cur = id($0); ttl = title($0)
			hit = (want ~ /^[0-9]+$/) ? ($0 ~ /^menuentry / && top - 1 == want + 0) : (cur == last || ttl == last) }
		hit && /^[ \t]*linux[ \t]/ { r = $2; sub(/.*vmlinuz-/, "", r); print r; exit }' "$GRUB_CFG"
}

# Secure Boot is on (the EFI variable's fifth byte).
secure_boot() { [ -r "$SB_VAR" ] && [ "$(od -An -tu1 -j4 -N1 "$SB_VAR" 2>/dev/null | tr -d ' ')" = 1 ]; }

# Why the kernel RELEASE would not pass shim under Secure Boot, or nothing:
# it must carry a signature that one of the enrolled MOK certificates
# verifies (sbverify, mokutil --export).
sb_unsigned() {
	local k=/boot/vmlinuz-$1 c ok=
	command -v sbverify >/dev/null && command -v mokutil >/dev/null && command -v openssl >/dev/null ||
		{ echo "Secure Boot is on and sbverify, mokutil or openssl is missing to check $k (apt install sbsigntool mokutil openssl)"; return; }
	local t
	t=$(mktemp -d)
	(cd "$t" && mokutil --export >/dev/null 2>&1) || true
	for c in "$t"/MOK-*.der; do
		[ -e "$c" ] || continue
		openssl x509 -inform der -in "$c" -out "$c.pem" 2>/dev/null || continue
		if sbverify --cert "$c.pem" "$k" >/dev/null 2>&1; then ok=1; break; fi
	done
	rm -rf "$t"
	[ -n "$ok" ] || echo "Secure Boot is on and $k is not signed by an enrolled MOK key: shim would refuse it and the machine would come up on its own kernel at every boot of it. Sign it: sudo sbsign --key MOK.priv --cert MOK.pem --output $k $k (a key enrolled with sudo mokutil --import MOK.der and a reboot), or switch Secure Boot off (docs/secure-boot.md)"
}

# The module file for RELEASE and why record would refuse it there, or
# nothing: installed (modinfo -k), built for it (vermagic), signed where
# the kernel will enforce signatures (as it does now, or under Secure Boot).
module_problem() {
	local rel=$1 f vm tailsig
	f=$(modinfo -k "$rel" -n mseal_stats 2>/dev/null) && [ -e "$f" ] ||
		{ echo "mseal_stats is not installed for $rel: sudo dkms install mseal-stats/$(ms_pkg_version) -k $rel (or loop start --no-module)"; return; }
	vm=$(modinfo -F vermagic "$f" 2>/dev/null | head -n 1)
	case $vm in "$rel "*|"") ;; *) echo "$f was built for ${vm%% *}, not for $rel: rebuild it (dkms install mseal-stats/$(ms_pkg_version) -k $rel --force)"; return ;; esac
	if [ "$(cat /sys/module/module/parameters/sig_enforce 2>/dev/null)" = Y ] ||
		grep -q '\[integrity\]\|\[confidentiality\]' /sys/kernel/security/lockdown 2>/dev/null || secure_boot; then
		case $f in
		*.xz) tailsig=$(xz -dc "$f" 2>/dev/null | tail -c 28) ;;
		*.zst) tailsig=$(zstd -dc "$f" 2>/dev/null | tail -c 28) ;;
		*.gz) tailsig=$(gzip -dc "$f" 2>/dev/null | tail -c 28) ;;
		*) tailsig=$(tail -c 28 "$f") ;;
		esac
		[ "$tailsig" = "~Module signature appended~" ] ||
			echo "$f is not signed, and $rel will load only signed modules (lockdown, module.sig_enforce or Secure Boot): DKMS signs with its MOK key once it exists and is enrolled (docs/secure-boot.md)"
	fi
}

# The mseal-bench record will run at every boot: $MSEAL_BENCH, else one
# in the unit's PATH, else this tree's build/mseal-bench.
find_bench() {
	if [ -n "${MSEAL_BENCH:-}" ]; then echo "$MSEAL_BENCH"; return; fi
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin command -v mseal-bench 2>/dev/null ||
		echo "$MS_ROOT/build/mseal-bench"
}

# GRUB's default for the loop: the machine's own kernel.  The files as
# found are kept in STATE_DIR and put back by finish.
grub_protect() {
	cp -p "$GRUB_CFG" "$STATE_DIR/grub.cfg.found"
	if [ -e "$GRUBENV" ]; then cp -p "$GRUBENV" "$STATE_DIR/grubenv.found"; else rm -f "$STATE_DIR/grubenv.found"; fi
	mkdir -p "$GRUB_D"
	# panic=N: a kernel that panics, or whose initramfs cannot find the
	# root (initramfs-tools' panic() reboots when panic= is set, instead of
	# its shell), reboots by itself, and comes up on the own kernel.
	printf '# mseal-compare loop: the machine boots %s unless the loop asks for A or B\n# (removed when the loop ends)\nGRUB_DEFAULT=saved\nGRUB_SAVEDEFAULT=false\nGRUB_CMDLINE_LINUX="${GRUB_CMDLINE_LINUX:-} panic=%s"\n' "$own" "$PANIC" >"$LOOP_CFG"
	update-grub >"$STATE_DIR/update-grub.log" 2>&1 || return 1
	own_entry=$(grub_entry "$own")
	[ -n "$own_entry" ] || return 1
	grub-set-default "$own_entry" || return 1
	[ "$(grub_default_release)" = "$own" ]
}
grub_restore() {
	rm -f "$LOOP_CFG"
	[ ! -e "$STATE_DIR/grub.cfg.found" ] || { cat "$STATE_DIR/grub.cfg.found" >"$GRUB_CFG" && rm -f "$STATE_DIR/grub.cfg.found"; }
	if [ -e "$STATE_DIR/grubenv.found" ]; then
		cat "$STATE_DIR/grubenv.found" >"$GRUBENV" && rm -f "$STATE_DIR/grubenv.found"
	fi
	sync
}

# The one-time default for the next boot: the plan's boot number $1.
arm_next() {
	local rel=${plan_a[$1 - 1]} entry
	entry=$(grub_entry "$rel")
	[ -n "$entry" ] || return 1
	grub-reboot "$entry" || return 1
	log "next boot ($1 of ${#plan_a[@]}): $rel (grub-reboot '$entry'; any other boot comes up on $own)"
}
# The trial's boot $1 (1: A, 2: B), one-time as the plan's.
arm_trial() {
	local rel entry
	if [ "$1" = 1 ]; then rel=$a; else rel=$b; fi
	entry=$(grub_entry "$rel")
	[ -n "$entry" ] || return 1
	grub-reboot "$entry" || return 1
	log "next boot (trial $1 of 2): $rel (grub-reboot '$entry'; if it does not come up, the machine comes back on $own and the loop ends)"
}

do_reboot() {
	local cap=$((${#plan_a[@]} + ntrial + 1))
	if [ "$reboots" -ge "$cap" ]; then
		finish failed "the loop already rebooted $reboots times (at most $cap): not again"
		return
	fi
	reboots=$((reboots + 1))
	save_state
	log "rebooting (reboot $reboots of at most $cap)"
	sync
	systemctl reboot
}

# End the loop: GRUB's files as found, no unit, the CPU settings of this
# boot as found, DIR the user's, the outcome in $LAST (for status), and the
# state removed last (while it exists, the loop runs).  $1 the outcome
# (finished, stopped, failed), $2 why.
finish() {
	local outcome=$1 why=$2 now
	grub_restore
	systemctl disable "$UNIT" >/dev/null 2>&1 || true
	rm -f "$UNIT_FILE"
	systemctl daemon-reload || true
	cpu_restore
	[ -z "$sudo_uid" ] || chown -R "$sudo_uid:${sudo_gid:-$sudo_uid}" "$dir" 2>/dev/null || true
	now=$(grub_default_release || true)
	log "loop ended: $why ($outcome); unit removed, GRUB's files as found (the default boots ${now:-?})"
	if [ "$outcome" = finished ] && [ "$(uname -r)" != "$now" ]; then
		log "the machine runs $(uname -r), the plan's last kernel, until it reboots: its next boot is GRUB's default, ${now:-?} (sudo reboot when you like)"
	fi
	[ ! -e "$KEEP_CFG" ] ||
		log "GRUB's default stays $now by loop keep-default ($KEEP_CFG): to go back to /etc/default/grub's, sudo scripts/mseal-compare loop keep-default --undo"
	{
		printf 'outcome=%q\nwhy=%q\ndir=%q\nended=%q\n' "$outcome" "$why" "$dir" "$(date -u '+%Y-%m-%d %H:%M:%SZ')"
	} >"$LAST"
	rm -f "$STATE"
}

# The CPU settings this boot's unit made (cpu-settings --save), put back;
# a reboot has undone those of earlier boots already.
cpu_restore() {
	[ -e "$CPU_FOUND" ] || return 0
	if [ "$(sed -n 's/^boot_id //p' "$CPU_FOUND")" = "$(cat /proc/sys/kernel/random/boot_id)" ]; then
		log "CPU settings put back: $(sh "$MS_ROOT/scripts/compare/cpu-settings" --restore "$CPU_FOUND" 2>&1 || true)"
	fi
	rm -f "$CPU_FOUND"
}
