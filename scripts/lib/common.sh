# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the host-side scripts.  Sourced, never run.
# shellcheck shell=bash

# Project root: scripts/lib/ is two levels below it.
MS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# (A systemd unit has no HOME: root's cache then, as the unit runs as root.)
MS_CACHE=${MSEAL_STATS_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/mseal-stats}
# The x86_64 CPU of every wall-clock TCG guest (vm-run, 64's loop, the
# loop image's setup boot): why LA57 is off is in testbed/vm-run, "The CPU
# under TCG".
MS_TCG_CPU_X86=max,la57=off

# The tools' command-line convention (README, Usage):
#   --help: usage on stdout, exit 0; --version: "NAME VERSION" (dkms.conf's);
#   a usage error (unknown option, missing or bad value) is one line on
#   stderr and exit 2, and so is a missing prerequisite, before anything
#   runs; a failure at run time is exit 1; `--opt=value` wherever
#   `--opt value`.  MS_NAME is the name in messages ("mseal-compare pair").
MS_NAME=${MS_NAME:-${0##*/}}
ms_die() { echo "$MS_NAME: $*" >&2; exit 2; }
ms_bad() { echo "$MS_NAME: $* (see --help)" >&2; exit 2; }
ms_fail() { echo "$MS_NAME: $*" >&2; exit 1; }
ms_log() { echo "${0##*/}: $*" >&2; }

# The one version: dkms.conf's PACKAGE_VERSION.
ms_pkg_version() { sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$MS_ROOT/dkms.conf" 2>/dev/null | grep . || echo unknown; }
ms_version() { echo "$MS_NAME $(ms_pkg_version)"; exit 0; }

# ms_getopt SPEC ARG...: the arguments in one form, into the array MS_ARGS:
# every option by its long name and its value as the next word, so that the
# caller's `case` knows only `--boots N`.  SPEC lists the options as words
# "n|boots:" (a letter, if any, and the long name; `:` when it takes a
# value).  Taken: `-n 3`, `-n3`, `-n=3`, `--boots 3`, `--boots=3`.  Every
# tool knows -h, --help and --version.  Parsing stops at `--` (kept) and at the
# first argument that is not an option: the rest is kept as it is.  With
# MS_GETOPT_PERMUTE=1 options and operands may mix, as GNU getopt allows:
# the options come first, then `--` and the operands.  An unknown option, a missing value or a value given
# to an option that takes none is a usage error (ms_bad).
ms_getopt() {
	local spec=" $1 h|help version " a name val w long short takes found
	shift
	MS_ARGS=()
	local -a rest=()
	while [ $# -gt 0 ]; do
		a=$1
		case $a in
		--)
			if [ "${MS_GETOPT_PERMUTE:-0}" = 1 ]; then shift; rest+=("$@"); else MS_ARGS+=("$@"); fi
			break ;;
		--?*) name=${a%%=*}; name=${name#--}; val=; [[ $a == *=* ]] && val=${a#*=} ;;
		-[a-zA-Z]*) name=${a:1:1}; val=${a:2}; val=${val#=} ;;
		*)
			if [ "${MS_GETOPT_PERMUTE:-0}" = 1 ]; then rest+=("$a"); shift; continue; fi
			MS_ARGS+=("$@"); break ;;
		esac
		found=
		for w in $spec; do
			takes=; [[ $w == *: ]] && takes=1 && w=${w%:}
			if [[ $w == ?\|* ]]; then short=${w%%|*} long=${w#*|}; else short= long=$w; fi
			if [ "$name" = "$long" ] || { [ ${#name} = 1 ] && [ "$name" = "$short" ]; }; then found=1; break; fi
		done
		[ -n "$found" ] || ms_bad "unknown option ${a%%=*}"
		shift
		if [ -n "$takes" ]; then
			if [[ $a != --* && -n $val ]] || [[ $a == *=* ]]; then :
			elif [ $# -gt 0 ]; then val=$1; shift
			else ms_bad "${a%%=*} wants a value"
			fi
			MS_ARGS+=("--$long" "$val")
		else
			[[ $a != *=* && ( $a == --* || -z $val ) ]] || ms_bad "${a%%=*} takes no value"
			MS_ARGS+=("--$long")
		fi
	done
	[ "${MS_GETOPT_PERMUTE:-0}" != 1 ] || MS_ARGS+=(-- "${rest[@]}")
	return 0
}

# A whole number of at least $3 (default 1) for option $1, or a usage error.
ms_number() {
	[[ $2 =~ ^[0-9]+$ ]] && [ "$((10#$2))" -ge "${3:-1}" ] || ms_bad "$1 wants a whole number of at least ${3:-1}, not '$2'"
}

# Take a lock on a cache entry so two runs never unpack into one folder;
# ms_lock_file names a lock's file, for a holder of two at once.
ms_lock_file() { mkdir -p "$MS_CACHE/locks" && echo "$MS_CACHE/locks/$1.lock"; }
ms_lock() {
	local f
	f=$(ms_lock_file "$1")
	exec {MS_LOCK_FD}>"$f"
	flock "$MS_LOCK_FD"
}
ms_unlock() { flock -u "$MS_LOCK_FD"; }

# Print the running script's header comment as its usage (from line 2 to
# the first line that is not a comment, so the text can grow without a line
# count to keep in step) and exit with $1 (default 0).
ms_usage() { sed -n '2,/^[^#]/{/SPDX-License-Identifier/d;s/^# \{0,1\}//p;}' "$0"; exit "${1:-0}"; }

# mseal-bench for this host, made when missing or older than its sources
# (make bench): the shell tools ask it for the registry of workloads
# (mseal-bench --list), which record reads before it checks -w.
ms_host_bench() {
	ms_make build/mseal-bench || ms_fail "cannot build mseal-bench (make bench)"
	echo "$MS_ROOT/build/mseal-bench"
}

# make -C the tree TARGET..., one at a time per tree: two guests booting
# side by side (vm --clock icount) would otherwise compile the same binary
# at once, and one of them pack or run it half written.
ms_make() {
	mkdir -p "$MS_ROOT/build" &&
		flock "$MS_ROOT/build/.make.lock" make -s -C "$MS_ROOT" "$@" >&2
}
