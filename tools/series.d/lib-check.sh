# SPDX-License-Identifier: GPL-2.0
#
# What tools/checks/10-series compares: a tree's state, a patch
# directory's text, and an error path that must leave the tree as it
# was. Sourced by it after lib.sh, not run; uses its $scratch.

# state TREE: everything "leave the tree as it was" promises.
state()
{
	git -C "$1" symbolic-ref -q HEAD || true
	git -C "$1" rev-parse HEAD
	git -C "$1" for-each-ref --format='%(refname) %(objectname)' refs/heads
	git -C "$1" status --porcelain --untracked-files=no
}

# patch_files DIR: every patch of DIR (and of its test series, DIR-tests,
# where the base has one), each after a "=== NAME" line.
patch_files()
{
	local d f

	for d in "$1" "$1-tests"; do
		[ -d "$d" ] || continue
		for f in "$d"/*.patch; do
			echo "=== ${d#"$1"}/${f##*/}"
			cat "$f"
		done
	done
}

# expect_error NAME WANT COMMAND...: COMMAND must fail with one line
# that contains WANT and leave $scratch/tree as it was (state()).
expect_error()
{
	local name=$1 want=$2 before out
	shift 2

	before=$(state "$scratch/tree")
	if out=$("$@" 2>&1); then
		echo "# $name: succeeded, expected an error"
		ktap_fail "$name"
		return
	fi
	echo "# $name: $out"
	if [ "$(wc -l <<<"$out")" -ne 1 ] || ! grep -q -- "$want" <<<"$out"; then
		ktap_fail "$name"
	elif [ "$(state "$scratch/tree")" != "$before" ]; then
		echo "# $name: the tree changed"
		ktap_fail "$name"
	else
		ktap_pass "$name"
	fi
}
