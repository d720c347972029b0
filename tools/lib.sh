# SPDX-License-Identifier: GPL-2.0
#
# Helpers shared by the scripts in tools/: error handling, KTAP output and
# the location of the kernel tree the series is applied to.
#
# Sourced, not run. Callers set -euo pipefail themselves.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PROG=$(basename "$0")

# The embedded default base tree: Debian's linux-source-6.12 package.
BASE_PKG=linux-source-6.12
BASE_VERSION=6.12.117
BASE_TARBALL=/usr/src/linux-source-6.12.tar.xz
CACHE_DIR=${ARM_DMA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/arm-dma-from-device}
BASE_TAG=base-$BASE_VERSION
SERIES_BRANCH=dma-from-device
CROSS_COMPILE=${CROSS_COMPILE:-arm-linux-gnueabi-}
export CROSS_COMPILE
# Debian's python3 first: checkpatch's SPDX check needs the python3-ply
# and python3-git packages that tools/setup installs for it.
export PATH=/usr/bin:/bin:$PATH

die()
{
	echo "$PROG: error: $*" >&2
	exit 1
}

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

# The patch files of the series, cover letter excluded, in order.
series_patches()
{
	local p

	for p in "${SERIES_DIR:-$TOP/patches}"/*.patch; do
		[ -e "$p" ] || continue
		case "$p" in
		*-0000-cover-letter.patch) ;;
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

# KTAP output for the tools' own test runs.
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
