# SPDX-License-Identifier: GPL-2.0
#
# Helpers shared by the scripts in tools/: error handling, the base and
# series they work on and where its tree is; with lib-tree.sh (the tree
# and the series) and lib-ktap.sh (KTAP output), which it sources.
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
# A package field with a "*" names a family (mainline: linux-source-7.*):
# tools/base-tree installs the newest that Debian serves and names it in
# the base commit's subject; the tree and its tag carry no version.
family_installed() # the newest installed of $BASE_FAMILY, or nothing
{
	{ dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' "$BASE_FAMILY" 2>/dev/null ||
	  true; } | awk '$1 == "ii" { print $2 }' | sort -V | tail -n 1
}
if [ "${BASE_PKG%\*}" != "$BASE_PKG" ]; then
	BASE_FAMILY=$BASE_PKG
	BASE_PKG=$(family_installed)
	# none installed yet: tools/base-tree installs the newest
	BASE_PKG=${BASE_PKG:-$BASE_FAMILY}
	BASE_TAG=base-$BASE
else
	BASE_FAMILY=
	BASE_TAG=base-$BASE_VERSION
fi
BASE_TARBALL=/usr/src/$BASE_PKG.tar.xz
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
# architectures instead, with its own branch, cover letter and patch
# directory (patches/other-arches); SERIES=dma-kasan: CONFIG_DMA_KASAN,
# a new feature for the dma-mapping tree (patches/dma-kasan). Both are
# for mainline only and go on top of the ARM series (the first's last
# patch replaces the ARM series' list of architectures that do not keep
# the CPU's data; the second needs its KUnit suite): tools/series
# applies the ARM series first and exports only the series' own
# patches, with the ARM series' patch ids as prerequisites.
case "${SERIES:-}" in
"") ;;
other-arches|dma-kasan)
	[ "$BASE" = mainline ] ||
		die "SERIES=$SERIES is for mainline only; BASE=$BASE has none (tools/bases)"
	PREREQ_DIR=$TOP/$_dir
	PATCH_DIR=${SERIES_DIR:-$TOP/patches/$SERIES}
	COVER=$TOP/Documentation/cover-letter-$SERIES.txt
	SERIES_BRANCH=$SERIES
	SUBJECT_PREFIX=PATCH
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
# Only Debian's programs (tools/packages): checkpatch's SPDX check needs
# Debian's python3-ply and python3-git, and a kernel build would run a
# rustc in ~/.cargo/bin (90-packages reports it).
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
		echo "$CACHE_DIR/linux-${BASE_TAG#base-}"
	fi
}

. "$TOP/tools/lib-tree.sh"
. "$TOP/tools/lib-ktap.sh"
