# SPDX-License-Identifier: GPL-2.0
#
# tools/series export: the patch directory from the series branch, with
# the cover letter. Sourced by tools/series, not run on its own; uses its
# ONTO, OUT and default_onto.

# prereq_top TREE BASE: the commit of $SERIES_BRANCH that ends the series
# it goes on top of ($PREREQ_DIR), checked by its subject.
prereq_top()
{
	local -a prereqs
	local top

	mapfile -t prereqs < <(series_patches "$PREREQ_DIR")
	top=$(git -C "$1" rev-list --reverse --first-parent "$2..$SERIES_BRANCH" |
	      sed -n "${#prereqs[@]}p")
	[ -n "$top" ] &&
	[ "$(git -C "$1" log -1 --format=%s "$top")" = "$(patch_subject "${prereqs[-1]}")" ] ||
		die "$SERIES_BRANCH in $1 does not start with the ${#prereqs[@]} patches of ${PREREQ_DIR#"$TOP"/}"
	echo "$top"
}

# format_range TREE BASE FROM TO COVER PREFIX DIR: git format-patch of
# FROM..TO into DIR, with COVER's text as the cover letter. git takes
# the cover letter from the description of the branch the range ends
# at: for a range that ends before the series branch does, a branch of
# that name plus "-part" is made for the run and removed after.
format_range()
{
	local b=$SERIES_BRANCH rc=0

	if [ "$(git -C "$1" rev-parse "$4")" != "$(git -C "$1" rev-parse "$SERIES_BRANCH")" ]; then
		b=$SERIES_BRANCH-part
		git -C "$1" branch -f "$b" "$4"
	fi
	git -C "$1" config "branch.$b.description" "$(cover_text "$5")"
	GIT_COMMITTER_DATE=$date GIT_COMMITTER_NAME=$name \
	GIT_COMMITTER_EMAIL=$email git -C "$1" -c core.abbrev=12 \
		format-patch -q --subject-prefix="$6" --cover-letter \
		--cover-from-description=subject --zero-commit --no-signature \
		--base="$2" -o "$7" "$3..$b" || rc=$?
	if [ "$b" != "$SERIES_BRANCH" ]; then
		git -C "$1" config --unset "branch.$b.description" || true
		git -C "$1" branch -q -D "$b"
	fi
	[ "$rc" -eq 0 ] || { rm -rf "$tmp"; die "git format-patch failed; $out is as it was"; }
	# No base here is an upstream commit (Debian's trees are commits
	# made here from a package's tarball, the mainline tree is an
	# upload's): the cover letter names the release instead, and keeps
	# only the prerequisite patch ids.
	sed -i '/^base-commit: [0-9a-f]\{40\}$/d' "$7"/0000-cover-letter.patch
	# The cover letter's "create mode" lines of the diffstat run past
	# checkpatch's 75 columns, and say what the patches' own diffstats say.
	sed -i '/^ \(create\|delete\) mode [0-7]\{6\} /d' "$7"/0000-cover-letter.patch
	# What a patch was tested with, and its history, go below its "---"
	# (git am drops them): Documentation/patch-notes/NAME.txt, NAME
	# being the patch file's name without its number, or DIR/NAME.txt
	# for the patch directory DIR (a backport's own notes).
	local p n name dir
	dir=$(basename "$PATCH_DIR")
	[ "$(basename "$7")" != tests ] || dir=$dir-tests
	for p in "$7"/0*.patch; do
		name=$(basename "$p" .patch | sed 's/^[0-9]*-//').txt
		n=$TOP/Documentation/patch-notes/$dir/$name
		[ -f "$n" ] || n=$TOP/Documentation/patch-notes/$name
		[ -f "$n" ] || continue
		awk -v note="$n" '!done && $0 == "---" {
			print; while ((getline l < note) > 0) print l; print ""; done = 1; next
		} { print }' "$p" >"$p.new" && mv "$p.new" "$p"
	done
}

# upstream_ids DIR: with UPSTREAM_COMMITS="ID ..." (the mainline commit
# of each patch of DIR, in order, once mainline has merged them), each
# patch's "commit <to be filled> upstream." line names its ID.
upstream_ids()
{
	local -a ids fx
	local i

	[ -n "${UPSTREAM_COMMITS:-}" ] || return 0
	read -ra ids <<<"$UPSTREAM_COMMITS"
	mapfile -t fx < <(grep -l '^commit <to be filled> upstream\.$' "$1"/0*.patch)
	if [ "${#ids[@]}" -ne "${#fx[@]}" ]; then
		rm -rf "$tmp"
		die "UPSTREAM_COMMITS names ${#ids[@]} commits for ${#fx[@]} patches; $out is as it was"
	fi
	for i in "${!ids[@]}"; do
		if ! [[ ${ids[i]} =~ ^[0-9a-f]{40}$ ]]; then
			rm -rf "$tmp"
			die "UPSTREAM_COMMITS: '${ids[i]}' is not a full commit id; $out is as it was"
		fi
		sed -i "s/^commit <to be filled> upstream\.\$/commit ${ids[i]} upstream./" "${fx[i]}"
	done
}

cmd_export()
{
	local tree onto out base date name email from tmp tests_cover split fixes

	tree=$(kernel_tree)
	onto=${ONTO:-$(default_onto "$tree")}
	out=${OUT:-$PATCH_DIR}
	git -C "$tree" rev-parse -q --verify "refs/heads/$SERIES_BRANCH" >/dev/null ||
		die "no branch $SERIES_BRANCH in $tree; run '$PROG apply' first"
	[ -f "$COVER" ] || die "$COVER missing"
	base=$(git -C "$tree" rev-parse "$onto")
	from=$base
	[ -z "$PREREQ_DIR" ] || from=$(prereq_top "$tree" "$base")
	[ -n "$(git -C "$tree" rev-list "$from..$SERIES_BRANCH")" ] ||
		die "$SERIES_BRANCH has no commits on top of $from"

	# A base with a test series (its cover letter COVER-tests.txt):
	# the patch directory takes the fixes, the commits up to the last
	# one that touches arch/, and DIR-tests the rest, with the fixes as
	# its prerequisite.
	tests_cover=${COVER%.txt}-tests.txt
	split=
	if [ -z "$PREREQ_DIR" ] && [ -f "$tests_cover" ]; then
		split=$(git -C "$tree" log -1 --format=%H "$from..$SERIES_BRANCH" -- arch/)
		[ -n "$split" ] || die "$SERIES_BRANCH has no commit that touches arch/ to end the fixes"
	fi
	# The cover letter is dated and signed like the last patch, and blob
	# ids are abbreviated to a fixed 12 digits (git's default grows with
	# the repository), so that an export of an unchanged branch
	# reproduces patches/ byte for byte on any machine.
	date=$(git -C "$tree" log -1 --format=%aI "$SERIES_BRANCH")
	name=$(git -C "$tree" log -1 --format=%an "$SERIES_BRANCH")
	email=$(git -C "$tree" log -1 --format=%ae "$SERIES_BRANCH")
	# a backport: what differs from mainline; a failure leaves $out as it was
	fixes=${split:-$SERIES_BRANCH}
	[ "$BASE" = mainline ] || [ -n "$PREREQ_DIR" ] ||
		fixes=$(python3 "$TOP/tools/series.d/backport_only.py" "$tree" "$from" "$fixes")
	tmp=$(mktemp -d)
	format_range "$tree" "$base" "$from" "$fixes" "$COVER" "$SUBJECT_PREFIX" "$tmp/fixes"
	[ -z "$split" ] ||
		format_range "$tree" "$base" "$split" "$SERIES_BRANCH" "$tests_cover" \
			"PATCH $BASE tests" "$tmp/tests"
	upstream_ids "$tmp/fixes"
	mkdir -p "$out"
	rm -f "$out"/*.patch
	mv "$tmp"/fixes/*.patch "$out"/
	if [ -n "$split" ]; then
		mkdir -p "$out-tests"
		rm -f "$out-tests"/*.patch
		mv "$tmp"/tests/*.patch "$out-tests"/
	fi
	rm -rf "$tmp"
	note "series: exported $(ls "$out"/*.patch | wc -l) files to $out${split:+, $(ls "$out-tests"/*.patch | wc -l) to $out-tests}"
}
