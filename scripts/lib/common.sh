# Shared helpers for the host-side scripts.  Sourced, never run.
# shellcheck shell=bash

# Project root: scripts/lib/ is two levels below it.
MS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# (A systemd unit has no HOME: root's cache then, as the unit runs as root.)
MS_CACHE=${MSEAL_STATS_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/mseal-stats}

ms_die() { echo "${0##*/}: $*" >&2; exit 2; }
ms_log() { echo "${0##*/}: $*" >&2; }

# Take a lock on a cache entry so two runs never unpack into one folder.
ms_lock() {
	mkdir -p "$MS_CACHE/locks"
	exec {MS_LOCK_FD}>"$MS_CACHE/locks/$1.lock"
	flock "$MS_LOCK_FD"
}
ms_unlock() { flock -u "$MS_LOCK_FD"; }

# Print the running script's header comment as its usage (from line 2 to
# the first line that is not a comment, so the text can grow without a line
# count to keep in step) and exit with $1 (default 0).
ms_usage() { sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit "${1:-0}"; }
