# SPDX-License-Identifier: GPL-2.0
#
# The KUnit result reading of tools/checks/22-dma-kasan: one test per
# result line of kunit/run's output. Sourced by kunit/lib-dma-kasan.sh,
# not run.

# kunit_tests MODE N: one test per result line of kunit/run's output for
# MODE, and
# a failure for each of the N rows that it did not report (a tool that
# died early).
kunit_tests()
{
	local mode=$1 want=$2 line start=$KTAP_NUM

	while IFS= read -r line; do
		case "$line" in
		"ok "*|"not ok "*)
			line=${line#not }
			line=${line#ok }
			set -- $line
			if [ "${line#*# SKIP}" != "$line" ]; then
				ktap_skip "kunit_$2" "${line#*# SKIP }"
			elif grep -q "^not ok $1 " "$scratch/kunit.$mode"; then
				ktap_fail "kunit_$2"
			else
				ktap_pass "kunit_$2"
			fi
			;;
		esac
	done <"$scratch/kunit.$mode"
	while [ $((KTAP_NUM - start)) -lt "$want" ]; do
		tail -n 3 "$scratch/kunit.$mode" | sed 's/^/# /'
		ktap_fail "kunit_${mode}_row_$((KTAP_NUM - start + 1))_not_reported"
	done
}
