# SPDX-License-Identifier: GPL-2.0
#
# Helpers shared by the scripts in tools/: error handling, KTAP output and
# the location of the kernel tree the series is applied to.
#
# Sourced, not run. Callers set -euo pipefail themselves.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PROG=$(basename "$0")

die()
{
	echo "$PROG: error: $*" >&2
	exit 1
}

# base_line NAME: NAME's line of tools/bases, fields split by " | ".
base_line()
{
	grep -v '^#' "$TOP/tools/bases" | awk -F ' [|] ' -v n="$1" '$1 == n'
}

# tree_base TREE: the base whose patch directory fits TREE, by the
# VERSION and PATCHLEVEL of its Makefile: a base of that name, else
# mainline for a tree at least as new as mainline's base.
tree_base()
{
	local v p mv

	v=$(sed -n 's/^VERSION = //p' "$1/Makefile")
	p=$(sed -n 's/^PATCHLEVEL = //p' "$1/Makefile")
	[ -n "$v" ] && [ -n "$p" ] || die "$1/Makefile names no VERSION and PATCHLEVEL"
	if [ -n "$(base_line "$v.$p")" ]; then
		echo "$v.$p"
		return
	fi
	mv=$(base_line mainline | awk -F ' [|] ' '{ print $3 }')
	mv=${mv%.*}
	if [ "$(printf '%s\n' "$mv" "$v.$p" | sort -V | head -n 1)" = "$mv" ]; then
		echo mainline
		return
	fi
	die "$1 is Linux $v.$p; the series has patch directories for $mv and newer, and for $(grep -v '^#' "$TOP/tools/bases" | awk -F ' [|] ' '$1 != "mainline" { printf "%s%s", s, $1; s = ", " }') (tools/bases)"
}

# The base the tools work on: $BASE, else the one that fits $KERNEL_TREE,
# else the first base that Debian packages.
if [ -z "${BASE:-}" ]; then
	if [ -n "${KERNEL_TREE:-}" ] && [ -f "$KERNEL_TREE/Makefile" ]; then
		BASE=$(tree_base "$KERNEL_TREE") || exit 1
	else
		BASE=$(grep -v '^#' "$TOP/tools/bases" | awk -F ' [|] ' '$2 != "-" { print $1; exit }')
	fi
fi
_line=$(base_line "$BASE")
[ -n "$_line" ] || die "no base '$BASE' in tools/bases"
IFS='|' read -r _ BASE_PKG BASE_VERSION _dir SUBJECT_PREFIX _cover <<<"${_line// | /|}"
export BASE
BASE_TARBALL=/usr/src/$BASE_PKG.tar.xz
BASE_TAG=base-$BASE_VERSION
PATCH_DIR=${SERIES_DIR:-$TOP/$_dir}
COVER=$TOP/$_cover
# A series that goes on top of another names its patch directory here.
PREREQ_DIR=
# What the tools generate for this base (tables, logs): never edited.
RESULTS_DIR=$TOP/Documentation/results/$BASE
# Everything a tool unpacks or builds for this base: the base tree, O=
# build directories, worktrees. Kept between runs.
CACHE_ROOT=${ARM_DMA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/arm-dma-from-device}
CACHE_DIR=$CACHE_ROOT/$BASE
SERIES_BRANCH=dma-from-device
# SERIES=other-arches: the follow-up series for the other non-coherent
# architectures instead, with its own branch, cover letters and patch
# directories: patches/other-arches for mainline, patches/other-arches-
# BASE for a base (made for tools/check, not for stable, so no "6.12.y"
# in its subjects).
case "${SERIES:-}" in
"") ;;
other-arches)
	if [ "$BASE" = mainline ]; then _sfx=; else _sfx=-$BASE; fi
	PATCH_DIR=${SERIES_DIR:-$TOP/patches/other-arches$_sfx}
	COVER=$TOP/Documentation/cover-letter-other-arches$_sfx.txt
	SERIES_BRANCH=other-arches
	SUBJECT_PREFIX=PATCH
	unset _sfx
	;;
# SERIES=dma-kasan: CONFIG_DMA_KASAN (issue 15), a new feature for the
# dma-mapping tree, on top of the ARM series, whose KUnit suite it needs:
# patches/dma-kasan for mainline, patches/dma-kasan-BASE for a base.
# tools/series applies the ARM series first and exports only its own
# patches, with the ARM series' patch ids as prerequisites.
dma-kasan)
	if [ "$BASE" = mainline ]; then _sfx=; else _sfx=-$BASE; fi
	PREREQ_DIR=$TOP/$_dir
	PATCH_DIR=${SERIES_DIR:-$TOP/patches/dma-kasan$_sfx}
	COVER=$TOP/Documentation/cover-letter-dma-kasan$_sfx.txt
	SERIES_BRANCH=dma-kasan
	SUBJECT_PREFIX=PATCH
	unset _sfx
	;;
*) die "SERIES=$SERIES: the other series are other-arches and dma-kasan" ;;
esac
unset _line _dir _cover
CROSS_COMPILE=${CROSS_COMPILE:-arm-linux-gnueabi-}
export CROSS_COMPILE
# git am, and git am --abort, need a committer, and a new machine has
# none configured.
if [ -z "${GIT_COMMITTER_EMAIL:-}" ] && [ -z "$(git config user.email 2>/dev/null)" ]; then
	export GIT_COMMITTER_NAME=dma-from-device
	export GIT_COMMITTER_EMAIL=dma-from-device@localhost
fi
# Only Debian's programs: checkpatch's SPDX check needs the python3-ply
# and python3-git that tools/setup installs for Debian's python3, and a
# kernel build probes for rustc, so one in ~/.cargo/bin would be run
# (90-packages reports it). Every program a tool runs comes from a
# package in tools/packages.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin

note()
{
	echo "# $*"
}

# need_cmd CMD PACKAGE: fail with the package to install when CMD is missing.
need_cmd()
{
	command -v "$1" >/dev/null 2>&1 ||
		die "'$1' not found: install it with 'apt-get install $2' (or run tools/setup)"
}

# The kernel tree every tool works on: $KERNEL_TREE, or the embedded base.
kernel_tree()
{
	if [ -n "${KERNEL_TREE:-}" ]; then
		echo "$KERNEL_TREE"
	else
		echo "$CACHE_DIR/linux-$BASE_VERSION"
	fi
}

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

# The patch files of the series (of DIR, default $PATCH_DIR), cover
# letter excluded, in order.
series_patches()
{
	local p

	for p in "${1:-$PATCH_DIR}"/*.patch; do
		[ -e "$p" ] || continue
		case "${p##*/}" in
		0000-cover-letter.patch|*-0000-cover-letter.patch) ;;
		*) echo "$p" ;;
		esac
	done
}

# has_series DIR ONTO PATCH...: DIR's HEAD is ONTO plus exactly these
# patches (same patch-ids, same order), so nothing needs to be applied.
has_series()
{
	local dir=$1 onto=$2
	shift 2

	[ "$(git -C "$dir" rev-parse -q --verify "HEAD~$#" 2>/dev/null)" = \
	  "$(git -C "$dir" rev-parse -q --verify "$onto^{commit}" 2>/dev/null)" ] || return 1
	[ "$(cat "$@" | git patch-id --stable | cut -d' ' -f1)" = \
	  "$(git -C "$dir" log --reverse -p --format='commit %H' "HEAD~$#..HEAD" |
	     git patch-id --stable | cut -d' ' -f1)" ]
}

# A tracked file of a kernel tree that a tool breaks on purpose (a
# mutation, a red run): call "breaking TREE FILE" before changing it and
# "mend" when done. mend also runs on exit, so an interrupted tool leaves
# the tree as it was.
BROKEN=()
breaking()
{
	BROKEN=("$1" "$2")
	trap mend EXIT
}

mend()
{
	[ "${#BROKEN[@]}" -eq 0 ] || git -C "${BROKEN[0]}" checkout -q -- "${BROKEN[1]}"
	BROKEN=()
}

# checkpatch_test TREE PATCH NAME: checkpatch --strict with TREE's
# scripts, as one KTAP test. TREE has no upstream history, so commit ids
# that messages cite (c50f11c6196f) cannot be looked up:
# UNKNOWN_COMMIT_ID is off. So is FILE_PATH_CHANGES ("does MAINTAINERS
# need updating?"), which a patch that adds a file gets unless it touches
# MAINTAINERS: the KUnit suite's files are covered by F: kernel/dma/
# already, and the review asked not to add a second line.
checkpatch_test()
{
	local out

	out=$("$1/scripts/checkpatch.pl" --strict --ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES \
	      --root="$1" "$2" 2>&1 | grep '^total:' || true)
	echo "# $(basename "$2"): $out"
	case "$out" in
	"total: 0 errors, 0 warnings, 0 checks,"*) ktap_pass "$3" ;;
	*) ktap_fail "$3" ;;
	esac
}

# map_area_invalidators DIR [REV]: the *_dma_map_area routines of DIR's
# arch/arm/mm/*.S (at REV, else the work tree) that branch to an
# *_dma_inv_range, one name a line. SYM_TYPED_FUNC_START() since 6.6,
# ENTRY() before.
map_area_invalidators()
{
	git -C "$1" grep -h -A6 -E '^(SYM_TYPED_FUNC_START|ENTRY)\([a-z0-9_]+_dma_map_area\)' \
		${2:+"$2"} -- 'arch/arm/mm/*.S' |
		awk '/_dma_map_area\)/ { f = $0 } /_dma_inv_range/ { print f }' |
		sed -E 's/.*\((.*)\)/\1/' | sort -u
}

# KTAP output for the tools' own test runs.
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

KTAP_PASS=0
KTAP_FAIL=0
KTAP_SKIP=0
KTAP_NUM=0

ktap_header()
{
	echo "KTAP version 1"
	echo "1..$1"
}

ktap_pass()
{
	KTAP_NUM=$((KTAP_NUM + 1))
	KTAP_PASS=$((KTAP_PASS + 1))
	echo "ok $KTAP_NUM $1"
}

ktap_fail()
{
	KTAP_NUM=$((KTAP_NUM + 1))
	KTAP_FAIL=$((KTAP_FAIL + 1))
	echo "not ok $KTAP_NUM $1"
}

ktap_skip()
{
	KTAP_NUM=$((KTAP_NUM + 1))
	KTAP_SKIP=$((KTAP_SKIP + 1))
	echo "ok $KTAP_NUM $1 # SKIP $2"
}

# ktap_summary: the closing line read by humans and CI alike.
ktap_summary()
{
	echo "$KTAP_PASS passed, $KTAP_FAIL failed, $KTAP_SKIP skipped"
}
