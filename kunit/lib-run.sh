# SPDX-License-Identifier: GPL-2.0
#
# kunit/run's runs: one configuration (run_config, check_config) and
# one breakage (check_mutation, in kunit/lib-mutations.sh), each
# printing its KTAP line and adding its results row to cresults or
# mresults. Sourced by kunit/run, not
# run on its own; uses its MATRIX, MUTATIONS, tree and field().

# run_config NAME: kunit.py for one configuration; sets $log, $json,
# $build and $result.
run_config()
{
	local name=$1 i
	local -a args

	argstr=$(field "$name" 2) || die "no configuration '$name' in $MATRIX"
	expect=$(field "$name" 3)
	mapfile -t args < <(xargs printf '%s\n' <<<"$argstr")
	for i in "${!args[@]}"; do
		case "${args[$i]}" in
		--qemu_config=*) args[i]=--qemu_config=$TOP/kunit/${args[$i]#--qemu_config=} ;;
		esac
	done
	build=$CACHE_DIR/build/kunit-$(kernel_of "$name")
	log=$build/kunit-$name.out
	json=$build/kunit-$name.json
	mkdir -p "$build"
	rm -f "$build/test.log" "$json"
	echo "# $name: kunit.py run --kunitconfig=kernel/dma $argstr (kernel: ${build##*/})"
	t0=$(date +%s)
	rc=0
	# 32-bit ARM: --arch=arm, a --qemu_config (kunit/'s ARM boards), or
	# a configuration of the tree's tools/testing/kunit/qemu_configs/
	# for linux_arch 'arm', unless the row names its own compiler (the
	# other architectures).
	arch=$(grep -o -- '--arch=[^ ]*' <<<"$argstr" | sed 's/^--arch=//' || true)
	case " $argstr " in
	*" --cross_compile="*) ;;
	*)
		if [ -z "$arch" ] || [ "$arch" = arm ] ||
		   grep -qs "linux_arch='arm'" "$tree/tools/testing/kunit/qemu_configs/$arch.py"; then
			args+=(--cross_compile="$CROSS_COMPILE")
		fi
		;;
	esac
	# kunit/tcg: x86_64 guests under TCG (KVM hangs them here).
	(cd "$tree" && unset CROSS_COMPILE && export PATH=$TOP/kunit/tcg:$PATH &&
		KUNIT_BUILD_DIR=$build ./tools/testing/kunit/kunit.py run \
		--kunitconfig=kernel/dma --build_dir="$build" --jobs="$(nproc)" \
		--json="$json" "${args[@]}") >"$log" 2>&1 || rc=$?
	# No JSON: kunit.py stopped before the tests (a build or config error).
	result=$("$TOP/kunit/kunit_results.py" summary "$json" 2>/dev/null) ||
		result=$(grep -E 'ERROR|Could not' "$log" | tail -n 1 |
			 sed 's/^\[[0-9:]*\] //')
	echo "# $name: ${result:-no result} ($(($(date +%s) - t0)) s)"
}

check_config()
{
	local name=$1 bad= line every= n total skip

	# A fourth field says why a row is not run (a board that cannot boot).
	skip=$(field "$name" 4) || die "no configuration '$name' in $MATRIX"
	if [ -n "$skip" ]; then
		cresults+=("| $name | \`kunit.py run --kunitconfig=kernel/dma $(field "$name" 2)\` | - | not run | skipped: $skip |")
		ktap_skip "$name" "$skip"
		return
	fi
	run_config "$name"
	[ "$rc" -eq 0 ] || bad="kunit.py exited $rc"
	# "every case: LINE": each case row of the suite logs LINE.
	line=$expect
	if [ "${expect#every case: }" != "$expect" ]; then
		line=${expect#every case: }
		every=1
	fi
	if [ -n "$line" ] && ! grep -qF -- "$line" "$build/test.log" 2>/dev/null; then
		bad="${bad:+$bad; }kernel log lacks \"$line\""
	elif [ -n "$every" ]; then
		n=$(grep -E '^ *# dma_mapping_[a-z0-9_]+: ' "$build/test.log" |
		    grep -cF -- "$line" || true)
		total=$(sed -n 's/^Ran \([0-9]*\) tests.*/\1/p' <<<"$result")
		echo "# $name: $n of ${total:-?} case rows log \"$line\""
		[ "$n" = "$total" ] ||
			bad="${bad:+$bad; }$n of ${total:-?} case rows log \"$line\""
	fi
	# Reports from the suite's run on: a board's own boot warnings (the
	# realview DTB lists more CPUs than a UP kernel has) are not ours.
	# Nor are those of the kasan_dma suite (CONFIG_DMA_KASAN), which
	# makes KASAN report on purpose and counts the reports itself.
	suite=$(sed -n '/# Subtest: dma_mapping/,$p' "$build/test.log" 2>/dev/null |
		sed '/# Subtest: kasan_dma$/,/^ *\(not \)\{0,1\}ok [0-9]* kasan_dma$/d')
	if grep -qE 'WARNING:|BUG:|DMA-API: [^ ]+ [^ ]+: ' <<<"$suite"; then
		grep -m3 -E 'WARNING:|BUG:|DMA-API: [^ ]+ [^ ]+: ' <<<"$suite" | sed 's/^/# /'
		bad="${bad:+$bad; }a WARNING, BUG (KASAN) or DMA-API report"
	fi
	grep -E '# SKIP' "$build/test.log" 2>/dev/null | sed 's/^ */# skipped: /' || true
	cresults+=("| $name | \`kunit.py run --kunitconfig=kernel/dma $argstr\` | ${build##*/} | ${result:-no result} | ${bad:-pass} |")
	if [ -z "$bad" ]; then
		ktap_pass "$name"
	else
		grep -E 'FAILED|Expected|byte [0-9]+ of' "$log" | head -n 15 | sed 's/^/# /' || true
		echo "# $name: $bad (log: $log)"
		ktap_fail "$name"
	fi
}

. "$TOP/kunit/lib-mutations.sh"
