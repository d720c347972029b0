# SPDX-License-Identifier: GPL-2.0
#
# tools/lib.sh's helpers for the kernel tree and the series: its state,
# its lock, checkpatch, the cover letter text, what Python tools need.
# Sourced by tools/lib.sh, not on its own.

# Refuse a tree with uncommitted changes to tracked files.
require_clean_tree()
{
	local tree=$1 dirt

	git -C "$tree" rev-parse --git-dir >/dev/null 2>&1 ||
		die "$tree is not a git repository"
	[ -d "$(git -C "$tree" rev-parse --git-path rebase-apply)" ] &&
		die "$tree has a 'git am' or rebase in progress; finish or abort it first"
	dirt=$(git -C "$tree" status --porcelain --untracked-files=no)
	[ -z "$dirt" ] ||
		die "$tree has uncommitted changes to $(echo "$dirt" | wc -l) tracked file(s); commit or stash them first"
}

# sparse_skip TREE: why sparse cannot check TREE (nothing when it can):
# since 7.x, Kbuild asks scripts/checker-valid.sh, and with C=1 skips
# sparse with a one-line note when Debian 12's sparse (0.6.4) cannot
# parse __typeof_unqual__; a build that claims sparse must say so.
sparse_skip()
{
	[ -f "$1/scripts/checker-valid.sh" ] || return 0
	[ "$(cd "$1" && sh scripts/checker-valid.sh sparse 2>/dev/null)" = 1 ] ||
		echo "sparse $(dpkg-query -W -f='${Version}' sparse 2>/dev/null) fails $(sed -n 's/^VERSION = //p' "$1/Makefile").$(sed -n 's/^PATCHLEVEL = //p' "$1/Makefile")'s scripts/checker-valid.sh (__typeof_unqual__): Kbuild skips it"
}

# The patch files of the series (of DIR, default $PATCH_DIR), cover
# letter excluded, in the order they apply: for a stable backport,
# mainline's fixes that stable takes unchanged among its own, then its
# test series DIR-tests (tools/series.d/applied.py).
series_patches()
{
	python3 "$TOP/tools/series.d/applied.py" "${1:-$PATCH_DIR}" ||
		die "tools/series.d/applied.py ${1:-$PATCH_DIR} failed"
}

# patch_subject FILE: its subject without "[PATCH ...]", the folded
# header lines joined.
patch_subject()
{
	awk '/^$/ { exit }
	     /^Subject: / { s = $0; on = 1; next }
	     on && /^[ \t]/ { s = s $0; next }
	     { on = 0 }
	     END { print s }' "$1" | sed 's/^Subject: \[PATCH[^]]*\] //'
}

# has_series DIR ONTO PATCH...: DIR's HEAD is ONTO plus exactly these
# patches (same patch-ids, same messages, same order), so nothing needs
# to be applied.
has_series()
{
	local dir=$1 onto=$2
	shift 2

	[ "$(git -C "$dir" rev-parse -q --verify "HEAD~$#" 2>/dev/null)" = \
	  "$(git -C "$dir" rev-parse -q --verify "$onto^{commit}" 2>/dev/null)" ] || return 1
	[ "$(cat "$@" | git patch-id --stable | cut -d' ' -f1)" = \
	  "$(git -C "$dir" log --reverse -p --format='commit %H' "HEAD~$#..HEAD" |
	     git patch-id --stable | cut -d' ' -f1)" ] || return 1
	# a message-only change keeps the patch-ids
	[ "$(patch_messages "$@")" = \
	  "$(git -C "$dir" log --reverse --format='%B%n--' "HEAD~$#..HEAD" | git stripspace)" ]
}

# lib_env: what a Python tool needs of the above, one KEY=VALUE a line,
# then one PATCH=FILE line per patch of the series (series_patches).
lib_env()
{
	local v p

	for v in TOP BASE BASE_TAG BASE_VERSION CACHE_DIR RESULTS_DIR PATCH_DIR \
		 CROSS_COMPILE PATH; do
		echo "$v=${!v}"
	done
	series_patches | while read -r p; do echo "PATCH=$p"; done
}

# lock_tree TREE -x|-s: hold TREE's lock on fd 8 until the caller exits:
# -x (exclusive) to move its branch (tools/series apply), -s (shared) to
# build or read in it after that. One tool cannot switch the tree under
# another's build; a second apply waits for the first.
lock_tree()
{
	local f

	f=$(git -C "$1" rev-parse --absolute-git-dir)/arm-dma-from-device.lock
	exec 8>>"$f"
	flock "$2" 8 || die "cannot lock $1 ($f)"
}

# cover_text [FILE]: the cover letter source FILE (default: the base's),
# with its "@include FILE" lines expanded as is and its "@wrap FILE"
# lines folded to 72 columns.
cover_text()
{
	local line src=${1:-$COVER}

	while IFS= read -r line; do
		case "$line" in
		"@include "*)
			cat "$TOP/${line#@include }" ||
				die "cover letter includes missing ${line#@include }"
			;;
		"@wrap "*)
			fold -s -w 72 "$TOP/${line#@wrap }" | sed 's/ *$//' ||
				die "cover letter wraps missing ${line#@wrap }"
			;;
		*)
			printf '%s\n' "$line"
			;;
		esac
	done <"$src"
}

. "$TOP/tools/lib-patches.sh"
