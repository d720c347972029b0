# SPDX-License-Identifier: GPL-2.0
#
# kunit/run's breakages: one mutation (check_mutation) applied, run and
# held against what it must break, with its KTAP line and its row of
# mresults. Sourced by kunit/lib-run.sh, not run; uses kunit/run's
# MUTATIONS, tree and field().

# mutation_field PATCH FIELD: the value of "FIELD: ..." in PATCH's head.
mutation_field()
{
	sed -n '/^---$/q; s/^'"$2"': //p' "$1" | head -n 1
}

check_mutation()
{
	local name=$1 patch config cases skips c missed= err skipped ok
	local -a files

	patch=$MUTATIONS/$name.patch
	[ -f "$patch" ] || die "no mutation '$name' in ${MUTATIONS#"$TOP"/}"
	config=$(mutation_field "$patch" Config)
	cases=$(mutation_field "$patch" Must-fail)
	skips=$(mutation_field "$patch" Must-skip)
	[ -n "$config" ] && [ -n "$cases$skips" ] ||
		die "${patch#"$TOP"/}: no Config: line, or neither Must-fail: nor Must-skip:"
	mapfile -t files < <(git -C "$tree" apply --numstat "$patch" | cut -f 3)
	breaking "$tree" "${files[@]}"
	if ! err=$(git -C "$tree" apply "$patch" 2>&1); then
		echo "# $name: does not apply: $(head -n 1 <<<"$err")"
		ktap_fail "mutation_$name"
		mend
		return
	fi
	git -C "$tree" diff -U0 -- "${files[@]}" | grep '^[-+][^-+]' | sed 's/^/# /'
	run_config "$config"
	mend
	failed=$("$TOP/kunit/kunit_results.py" failed "$json" 2>/dev/null |
		 tr '\n' ' ' || true)
	skipped=$("$TOP/kunit/kunit_results.py" skipped "$json" 2>/dev/null |
		  tr '\n' ' ' || true)
	for c in $cases; do
		[[ " $failed " == *" $c "* ]] || missed="$missed $c"
	done
	# Must-skip: the cases skip (a row is enough), and with no
	# Must-fail: nothing fails, kunit.py passes and the suite's log has
	# no WARNING or BUG.
	for c in $skips; do
		[[ " $skipped " == *" $c "* ]] || missed="$missed $c (no skip)"
	done
	echo "# $name: failed cases: ${failed:-none}; skipped: ${skipped:-none}"
	if [ -n "$cases" ]; then
		ok=$([ "$rc" -ne 0 ] && echo y || true)
	else
		ok=$([ "$rc" -eq 0 ] && [ -z "$failed" ] && echo y || true)
		[ -n "$ok" ] || missed="$missed (a case failed)"
		# nor does the suite warn (an allocation it may not get
		# must not splat: __GFP_NOWARN)
		! sed -n '/# Subtest: dma_mapping/,$p' "$build/test.log" 2>/dev/null |
			grep -qE 'WARNING:|BUG:' ||
			missed="$missed (a WARNING or BUG in the suite's log)"
	fi
	verdict=caught
	[ -z "$missed" ] || verdict="not caught by$missed"
	mresults+=("| $name | $config | \`${files[*]}\` | ${failed:-none} | $verdict |")
	if [ -n "$ok" ] && [ -z "$missed" ]; then
		ktap_pass "mutation_$name"
	else
		echo "# $name: not caught by:${missed:- (kunit.py passed)}"
		ktap_fail "mutation_$name"
	fi
}
