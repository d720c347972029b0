# SPDX-License-Identifier: GPL-2.0
#
# kunit/module-run's runs of the board recipe's scripts/config line
# (Documentation/board.md) on ARM defconfigs that lack what the suite
# needs, as boards' own configurations do: vexpress_defconfig (no
# DEBUG_FS, so no KUNIT_DEBUGFS; mxs_defconfig gets DEBUG_FS from
# BLK_DEV_IO_TRACE's select), multi_v4t_defconfig (no DEBUG_FS, no MODULES:
# -m would build the suite in) and neponset_defconfig (SA1111, whose
# ARCH_FORCE_MAX_ORDER is 8, and no DEBUG_FS). Each: the defconfig, the
# line's arguments word for word, olddefconfig, and every setting of the
# line must hold. Reds: the line without "-e DEBUG_FS" on vexpress_defconfig,
# and without "-e MODULES" on multi_v4t_defconfig, must not. Kconfig
# only, but for the suite's object on neponset_defconfig (W=1), whose
# largest row must be the one capped at MAX_PAGE_ORDER, "max_order".
# Sourced by kunit/module-run, not run; uses its tree, build and src.

RECIPE_TESTS=6
RECIPE_FAIL=0

# recipe_config DEFCONFIG ARGS...: DEFCONFIG with the scripts/config
# ARGS in $build/recipe-DEFCONFIG; prints the settings of ARGS that did
# not hold after olddefconfig (none: nothing).
recipe_config()
{
	local defconfig=$1 out=$build/recipe-$1 opt val
	shift
	mkdir -p "$out"
	make -s -C "$tree" O="$out" ARCH=arm CROSS_COMPILE="$CROSS_COMPILE" \
		"$defconfig" >/dev/null
	"$tree/scripts/config" --file "$out/.config" "$@"
	make -s -C "$tree" O="$out" ARCH=arm CROSS_COMPILE="$CROSS_COMPILE" \
		olddefconfig >/dev/null
	while [ $# -ge 2 ]; do
		case $1 in -e) val=y ;; -m) val=m ;; *) val=n ;; esac
		opt=CONFIG_$2=$val
		shift 2
		if [ "$val" = n ]; then
			! grep -q "^CONFIG_$2=" "$out/.config" || echo "$opt"
		else
			grep -qx "$opt" "$out/.config" || echo "$opt"
		fi
	done
}

# recipe_lacks DEFCONFIG OPTION...: none of the OPTIONs is on in the
# defconfig as it stands (else its run would show nothing).
recipe_lacks()
{
	local defconfig=$1 o out=$build/recipe-$1

	shift
	make -s -C "$tree" O="$out" ARCH=arm CROSS_COMPILE="$CROSS_COMPILE" \
		"$defconfig" >/dev/null
	for o in "$@"; do
		! grep -q "^CONFIG_$o=y" "$out/.config" || return 1
	done
}

recipe_defconfigs()
{
	local -a args red
	local d lacks bad i f0=$KTAP_FAIL

	mapfile -t args < <(python3 "$TOP/kunit/board.py" args "$TOP/Documentation/board.md")
	for d in vexpress_defconfig:DEBUG_FS multi_v4t_defconfig:DEBUG_FS,MODULES \
		 neponset_defconfig:DEBUG_FS; do
		lacks=${d#*:}
		d=${d%%:*}
		mkdir -p "$build/recipe-$d"
		# shellcheck disable=SC2086 # one option a word
		if ! recipe_lacks "$d" ${lacks//,/ }; then
			echo "# $d: has ${lacks//,/ or } on already: shows nothing"
			ktap_fail "recipe_on_${d}_without_${lacks//,/_}"
			continue
		fi
		bad=$(recipe_config "$d" "${args[@]}" | tr '\n' ' ')
		[ "$d" != neponset_defconfig ] ||
			grep -qx CONFIG_ARCH_FORCE_MAX_ORDER=8 "$build/recipe-$d/.config" ||
			bad="$bad (ARCH_FORCE_MAX_ORDER is not 8)"
		echo "# $d + recipe: settings that did not hold: ${bad:-none}"
		if [ -z "$bad" ]; then
			ktap_pass "recipe_on_${d}_without_${lacks//,/_}"
		else
			ktap_fail "recipe_on_${d}_without_${lacks//,/_}"
		fi
	done
	# The suite where MAX_PAGE_ORDER is 8: its largest row is capped.
	d=$build/recipe-neponset_defconfig
	local rows=
	! make -s -C "$tree" O="$d" ARCH=arm CROSS_COMPILE="$CROSS_COMPILE" W=1 \
		"${src%.c}.o" >"$d/make.log" 2>&1 ||
		rows=$("${CROSS_COMPILE}strings" "$d/${src%.c}.o")
	if ! grep -q 'warning:' "$d/make.log" && grep -qx max_order <<<"$rows" &&
	   ! grep -qx 1MiB <<<"$rows"; then
		ktap_pass suite_on_neponset_defconfig_caps_its_largest_row
	else
		echo "# neponset_defconfig: the suite's object did not build W=1 clean with a max_order row ($d/make.log)"
		ktap_fail suite_on_neponset_defconfig_caps_its_largest_row
	fi
	# Reds: the line without one of its settings.
	for d in vexpress_defconfig:DEBUG_FS multi_v4t_defconfig:MODULES; do
		lacks=${d#*:}
		d=${d%%:*}
		red=()
		for ((i = 0; i < ${#args[@]}; i += 2)); do
			[ "${args[i + 1]}" = "$lacks" ] || red+=("${args[i]}" "${args[i + 1]}")
		done
		bad=$(recipe_config "$d" "${red[@]}" | tr '\n' ' ')
		echo "# red: $d + recipe without -e $lacks: did not hold: ${bad:-none}"
		if [ -n "$bad" ] && [ ${#red[@]} -lt ${#args[@]} ]; then
			ktap_pass "red_recipe_on_${d}_without_-e_${lacks}_fails"
		else
			ktap_fail "red_recipe_on_${d}_without_-e_${lacks}_fails"
		fi
	done
	RECIPE_FAIL=$((KTAP_FAIL - f0))
}
