# SPDX-License-Identifier: GPL-2.0
#
# tools/series apply: git am the series (and the series it goes on) onto
# a fresh branch, or leave the tree as it was. Sourced by tools/series,
# not run; uses its default_onto and lib-tree.sh's patch_subject.

cmd_apply()
{
	local tree onto orig old_branch p subj subjects n=0 err line
	local -a patches prereqs

	tree=$(kernel_tree)
	[ -d "$tree" ] || tree=$("$TOP/tools/base-tree")
	lock_tree "$tree" -x
	require_clean_tree "$tree"
	onto=${ONTO:-$(default_onto "$tree")}
	git -C "$tree" rev-parse -q --verify "$onto^{commit}" >/dev/null ||
		die "$onto is not a commit in $tree"
	mapfile -t patches < <(series_patches)
	[ "${#patches[@]}" -gt 0 ] || die "no patches in $PATCH_DIR"
	# A series on top of another (SERIES=dma-kasan): that one first.
	if [ -n "$PREREQ_DIR" ]; then
		mapfile -t prereqs < <(series_patches "$PREREQ_DIR")
		[ "${#prereqs[@]}" -gt 0 ] || die "no patches in $PREREQ_DIR"
		patches=("${prereqs[@]}" "${patches[@]}")
	fi

	# Refuse to stack the series on itself. The log is read once, not
	# piped into grep -q: grep exiting at the first match kills git log
	# with SIGPIPE, and under pipefail the match then reads as none (a
	# failure that needed a loaded machine to show).
	subjects=$(git -C "$tree" log --format=%s -n 500 "$onto")
	for p in "${patches[@]}"; do
		subj=$(patch_subject "$p")
		[ -n "$subj" ] || die "$(basename "$p") has no Subject: line; is it a patch?"
		if grep -qxF -- "$subj" <<<"$subjects"; then
			die "$onto in $tree already contains \"$subj\"; the series is already applied"
		fi
	done

	# Already there: the branch is checked out on $onto with exactly
	# these patches. Touch nothing, so that builds reading the tree
	# from another tool are not disturbed.
	if [ "$(git -C "$tree" symbolic-ref -q --short HEAD || true)" = "$SERIES_BRANCH" ] &&
	   has_series "$tree" "$onto" "${patches[@]}"; then
		note "series: $SERIES_BRANCH in $tree already has these ${#patches[@]} patches on $onto"
		return 0
	fi

	orig=$(git -C "$tree" symbolic-ref -q --short HEAD ||
	       git -C "$tree" rev-parse HEAD)
	old_branch=$(git -C "$tree" rev-parse -q --verify "refs/heads/$SERIES_BRANCH" || true)
	[ "$orig" != "$SERIES_BRANCH" ] || orig=$(git -C "$tree" rev-parse HEAD)

	git -C "$tree" checkout -q -B "$SERIES_BRANCH" "$onto"
	if ! err=$(git -C "$tree" am -q --committer-date-is-author-date \
		   "${patches[@]}" 2>&1); then
		git -C "$tree" am --abort >/dev/null 2>&1 || true
		git -C "$tree" checkout -q "$orig"
		if [ -n "$old_branch" ]; then
			git -C "$tree" branch -q -f "$SERIES_BRANCH" "$old_branch"
		else
			git -C "$tree" branch -q -D "$SERIES_BRANCH"
		fi
		# Here-strings, not "echo | grep -m1": grep exiting early could
		# kill echo with SIGPIPE and, under pipefail, add a second line.
		line=$(grep -m1 -E '^(error|fatal|Patch failed|patch:)' <<<"$err" || true)
		err=${line:-$(head -n 1 <<<"$err")}
		die "git am failed, tree left as it was: $err"
	fi
	n=${#patches[@]}
	note "series: applied $n patches on $onto in $tree, branch $SERIES_BRANCH"
}
