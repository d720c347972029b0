# SPDX-License-Identifier: GPL-2.0
#
# The patches' text: the commit messages git am makes of them, what a
# message must not say, checkpatch on them, and which backends
# invalidate at map. Sourced by tools/lib-tree.sh, not run.

# patch_messages PATCH...: the commit messages git am makes of them, as
# "git log --format='%B%n--'" prints them (a blank line before each --),
# whitespace as git stripspace leaves it.
patch_messages()
{
	local p tmp

	tmp=$(mktemp -d)
	for p in "$@"; do
		git mailinfo "$tmp/msg" "$tmp/patch" <"$p" | sed -n 's/^Subject: //p'
		echo
		cat "$tmp/msg"
		printf '\n--\n'
	done | git stripspace
	rm -rf "$tmp"
}

# Tracked files of a kernel tree that a tool breaks on purpose (a
# mutation, a red run): call "breaking TREE FILE..." before changing them
# and "mend" when done. mend also runs on exit, so an interrupted tool
# leaves the tree as it was.
BROKEN=()
breaking()
{
	BROKEN=("$@")
	trap mend EXIT
}

mend()
{
	[ "${#BROKEN[@]}" -lt 2 ] || git -C "${BROKEN[0]}" checkout -q -- "${BROKEN[@]:1}"
	BROKEN=()
}

# checkpatch_test TREE PATCH NAME: checkpatch --strict with TREE's
# scripts, as one KTAP test. TREE has no upstream history, so commit ids
# that messages cite (c50f11c6196f) cannot be looked up:
# UNKNOWN_COMMIT_ID is off. So is FILE_PATH_CHANGES ("does MAINTAINERS
# need updating?"), which a patch that adds a file gets unless it touches
# MAINTAINERS: the KUnit suite's files are covered by F: kernel/dma/
# already, and the review asked not to add a second line. So is
# MISSING_SIGN_OFF: the committed patches are a reference copy that no
# person has signed; tools/series send-ready adds the sender's sign-off,
# and 12-send-ready runs checkpatch on what it writes. A patch whose
# "Fixes: <to be filled> (blame: ...)" line send-ready fills (with the
# id the sender finds in a mainline clone) also has MISSING_FIXES_TAG
# off; that patch only.
#
# The script is always the mainline tree's, whatever TREE is: a backport
# is mailed with the trailers of its mainline commit, in the form of
# mainline's process documents (7.3's "Assisted-by: LLM", which 6.12's
# checkpatch wants as AGENT:MODEL), and the sender runs a current
# checkpatch. TREE stays the --root (its spelling list, MAINTAINERS).
checkpatch_test()
{
	local out ignore=UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES,MISSING_SIGN_OFF

	[ -n "${CHECKPATCH_TREE:-}" ] ||
		CHECKPATCH_TREE=$(BASE=mainline "$TOP/tools/base-tree")
	grep -q '^Fixes: <to be filled> (blame: .*)$' "$2" && ignore=$ignore,MISSING_FIXES_TAG
	out=$("$CHECKPATCH_TREE/scripts/checkpatch.pl" --strict --ignore "$ignore" \
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
