# SPDX-License-Identifier: GPL-2.0
# The object builds (and, in kunit/lib-dma-kasan-kunit.sh, the KUnit
# result reading) of tools/checks/22-dma-kasan, sourced by it after lib.sh: they use its
# variables tree, apply, work, scratch, applied and before.

# odir NAME CONFIG...: an O= directory for arm, multi_v7_defconfig with
# CONFIG (scripts/config arguments, kept in O/.check-config), made once.
odir()
{
	local o=$work/O-$1 stamp
	shift
	stamp="$* $(git -C "$tree" rev-parse "$BASE_TAG")"
	if [ "$(cat "$o/.check-stamp" 2>/dev/null)" != "$stamp" ]; then
		rm -rf "$o"
		mkdir -p "$o"
		make -s -C "$apply" O="$o" ARCH=arm multi_v7_defconfig >"$scratch/log" 2>&1 ||
			{ sed 's/^/# /' "$scratch/log"; return 1; }
		printf '%s\n' "$@" >"$o/.check-config"
		echo "$stamp" >"$o/.check-stamp"
	fi
	echo "$o"
}

# objects O REV OUT [MAKEVARS...]: build kernel/dma/ and mm/kasan/ of REV
# in O, and write objdump -d of each object to OUT/NAME.dis (file name
# lines dropped), and the compiler's and sparse's warnings, without line
# numbers, to OUT.warnings. The configuration is set again for REV: a
# revision without CONFIG_DMA_KASAN drops it from .config.
objects()
{
	local o=$1 rev=$2 out=$3 f
	local -a cfg
	shift 3

	git -C "$apply" checkout -q --detach "$rev"
	mapfile -t cfg <"$o/.check-config"
	{ [ "${#cfg[@]}" -eq 0 ] || "$apply/scripts/config" --file "$o/.config" "${cfg[@]}"; } &&
	make -s -C "$apply" O="$o" ARCH=arm olddefconfig >"$scratch/log" 2>&1 ||
		{ sed 's/^/# /' "$scratch/log"; return 1; }
	mkdir -p "$out"
	make -j2 -C "$apply" O="$o" ARCH=arm "$@" kernel/dma/ mm/kasan/ \
		>"$scratch/log" 2>&1 || { tail -n 20 "$scratch/log" | sed 's/^/# /'; return 1; }
	grep -E 'warning:|error:' "$scratch/log" | grep -v '"__LINE__" redefined' |
		sed -E 's/:[0-9]+:[0-9]+:/:/' | sort >"$out.warnings" || true
	for f in "$o"/kernel/dma/*.o "$o"/mm/kasan/*.o; do
		[ -e "$f" ] || continue
		case "$f" in */built-in.o|*.mod.o) continue ;; esac
		"${CROSS_COMPILE}objdump" -d "$f" | sed 1,3d >"$out/$(basename "$(dirname "$f")")-$(basename "$f" .o).dis"
	done
}

# same_objects NAME CONFIG...: option off, the objects before and after
# the series are the same.
same_objects()
{
	local name=$1 o d n=0
	shift

	if [ -z "$applied" ] || ! o=$(odir "$name" "$@") ||
	   ! objects "$o" "$before" "$scratch/$name.before" KCFLAGS=-D__LINE__=0 ||
	   ! objects "$o" "$applied" "$scratch/$name.after" KCFLAGS=-D__LINE__=0; then
		ktap_fail "option_off_same_objects_$name"
		return
	fi
	for d in "$scratch/$name.before"/*.dis; do
		n=$((n + 1))
		if ! cmp -s "$d" "$scratch/$name.after/${d##*/}"; then
			echo "# ${d##*/}: objdump -d differs"
			diff "$d" "$scratch/$name.after/${d##*/}" | head -n 10 | sed 's/^/# /' || true
			n=-999
		fi
	done
	echo "# $name: $n objects of kernel/dma/ and mm/kasan/ compared, CONFIG_DMA_KASAN $(grep -c '^CONFIG_DMA_KASAN=y' "$o/.config" | sed 's/0/off/; s/1/on/')"
	if [ "$n" -gt 0 ]; then
		ktap_pass "option_off_same_objects_$name"
	else
		ktap_fail "option_off_same_objects_$name"
	fi
}

# The option on, with the KASAN tests and what they and it need.
OPTION_ON="-e KASAN -e KASAN_VMALLOC -e KUNIT -e DMA_API_DEBUG -e DMA_KASAN
	-e FTRACE -e ENABLE_DEFAULT_TRACERS -e KASAN_KUNIT_TEST"

# each_patch: every patch of the series builds kernel/dma/ and mm/kasan/
# with the option on and with KASAN off, as git bisect needs.
each_patch()
{
	local i rev o_on o_off

	for i in $(seq 1 "${#patches[@]}"); do
		rev=${applied:+$(git -C "$apply" rev-list --reverse "$before..$applied" | sed -n "${i}p")}
		if [ -n "$rev" ] && o_on=$(odir on $OPTION_ON) &&
		   o_off=$(odir nokasan -d KASAN) &&
		   objects "$o_on" "$rev" "$scratch/patch$i.on" &&
		   objects "$o_off" "$rev" "$scratch/patch$i.off"; then
			echo "# patch $i ($(git -C "$apply" log -1 --format=%s "$rev")): builds, option on and KASAN off"
			ktap_pass "patch_${i}_builds_option_on_and_off"
		else
			ktap_fail "patch_${i}_builds_option_on_and_off"
		fi
	done
}

# option_on: W=1 and sparse on what the series touches, before and
# after, with the option on: no new warning (two tests: option_on_w1,
# and option_on_sparse, a skip naming why where the tree's Kbuild
# refuses Debian's sparse).
option_on()
{
	local o new nosparse c=C=1

	nosparse=$(sparse_skip "$apply")
	[ -z "$nosparse" ] || c=
	if [ -n "$applied" ] &&
	   o=$(odir on $OPTION_ON) &&
	   objects "$o" "$before" "$scratch/on.before" W=1 $c &&
	   objects "$o" "$applied" "$scratch/on.after" W=1 $c; then
		grep -q '^CONFIG_DMA_KASAN=y' "$o/.config" || echo "# CONFIG_DMA_KASAN did not stick"
		new=$(comm -13 "$scratch/on.before.warnings" "$scratch/on.after.warnings")
		echo "# option on, W=1 $c: $(wc -l <"$scratch/on.before.warnings") warnings before, $(grep -c . <<<"$new" || true) new"
		[ -z "$new" ] || sed 's/^/#   /' <<<"$new"
		if [ -z "$new" ] && grep -q '^CONFIG_DMA_KASAN=y' "$o/.config"; then
			ktap_pass "option_on_w1"
			if [ -n "$nosparse" ]; then
				ktap_skip option_on_sparse "$nosparse"
			else
				ktap_pass option_on_sparse
			fi
		else
			ktap_fail "option_on_w1"
			ktap_fail option_on_sparse
		fi
	else
		ktap_fail "option_on_w1"
		ktap_fail option_on_sparse
	fi
}

. "$TOP/kunit/lib-dma-kasan-kunit.sh"
