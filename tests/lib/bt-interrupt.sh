# SPDX-License-Identifier: GPL-2.0
# bt-interrupt.sh: end a bpftrace as Ctrl-C does, in a guest (sourced by
# the guest scripts of 50-bpftrace and 63-compare-readme; POSIX sh).
#
#   bt_interrupt PID OUT     SIGINT to PID, then wait for it to end
#
# bpftrace 0.17 (Debian 12's) can lose a SIGINT: its poll loop
# (BPFtrace::poll_perf_events) sees the signal's flag only when
# epoll_wait() returns EINTR, so a SIGINT handled while it is between two
# 100-ms waits sets the flag and nothing reads it; it polls on for ever.
# Under TCG the time between waits is long enough that this came once in a
# few dozen runs.  Seen so in a loop of 50's guest under load: bpftrace
# 30 s after its SIGINT asleep in do_epoll_wait, SigCgt with SIGINT,
# nothing pending, 1 tick of CPU in 2 s; `strace -p` attaching (an EINTR)
# made it close its probes at once.
#
# When, from 10 s after the SIGINT, bpftrace still runs, waits in
# epoll_wait (its wchan), has printed no map (OUT has no "@" line),
# catches SIGINT and has none pending, and all that at 3 looks a second
# apart (an exiting bpftrace drains its buffers in one last 100-ms wait
# before it prints; a lost signal leaves it polling for ever), that is
# this loss, proven on the spot: said on stdout as
# "bt_interrupt: lost SIGINT ...", and SIGINT is sent once more (the next
# one arrives in a wait).  A second loss is a failure of its own, not
# retried.  Returns bpftrace's exit status, or 124 when the second signal
# too is lost.
bt_lost_sigint() {
	case $(cat "/proc/$1/wchan" 2>/dev/null) in
	do_epoll_wait|ep_poll) ;;
	*) return 1 ;;
	esac
	# SigCgt has SIGINT's bit (2), SigPnd and ShdPnd have not.
	awk '$1 == "SigCgt:" { c = $2 } $1 == "SigPnd:" { p = $2 } $1 == "ShdPnd:" { s = $2 }
		function int_bit(h) { return index("2367abef", substr(h, length(h), 1)) > 0 }
		END { exit !(int_bit(c) && !int_bit(p) && !int_bit(s)) }' "/proc/$1/status" 2>/dev/null
}
bt_interrupt() {
	bt_pid=$1 bt_out=$2 bt_sent=1 bt_w=0 bt_seen=0
	kill -INT "$bt_pid"
	while kill -0 "$bt_pid" 2>/dev/null; do
		sleep 1
		bt_w=$((bt_w + 1))
		[ "$bt_w" -ge 10 ] || continue
		if ! grep -q '^@' "$bt_out" && bt_lost_sigint "$bt_pid"; then
			bt_seen=$((bt_seen + 1))
		else
			bt_seen=0
		fi
		if [ "$bt_seen" -ge 3 ]; then
			if [ "$bt_sent" -eq 2 ]; then
				echo "bt_interrupt: lost SIGINT again (bpftrace $bt_pid polling 10 s after the second): a failure"
				kill -KILL "$bt_pid"
				wait "$bt_pid" 2>/dev/null
				return 124
			fi
			echo "bt_interrupt: lost SIGINT (bpftrace $bt_pid polling 10 s on, SIGINT caught, none pending, no map printed): sent again"
			kill -INT "$bt_pid"
			bt_sent=2 bt_w=0 bt_seen=0
		fi
	done
	wait "$bt_pid"
}
