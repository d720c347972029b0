# SPDX-License-Identifier: GPL-2.0
#
# The stand-in checks that tools/check's own tests (tools/checks/05-check
# and 06-check-lanes) run tools/check on: small scripts in a directory
# of their own (CHECK_DIR), with the base trees' unpacking replaced by
# `true` (CHECK_PREFETCH).
#
# Sourced after tools/lib.sh, not run.

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# stand_in NAME BODY...: a check in $tmp/d that runs BODY.
stand_in()
{
	local f=$tmp/d/$1

	shift
	mkdir -p "$tmp/d"
	printf '#!/bin/bash\n' >"$f"
	printf '%s\n' "$@" >>"$f"
	chmod +x "$f"
}

pass_body=('echo "KTAP version 1"; echo 1..1; echo "ok 1 a"'
	   'echo "1 passed, 0 failed, 0 skipped"')

# run_check ARGS...: tools/check on $tmp/d; its output in $tmp/out,
# its exit status in $rc.
run_check()
{
	rc=0
	CHECK_DIR=$tmp/d CHECK_PREFETCH=true "$TOP/tools/check" "$@" \
		>"$tmp/out" 2>&1 || rc=$?
}

# expect NAME WANT_RC LAST_LINE [REGEX]: a test on the last run; REGEX
# (grep -E) must match a line of its output.
expect()
{
	local last

	last=$(tail -n 1 "$tmp/out")
	if [ "$2" = 0 ] && [ "$rc" -ne 0 ]; then
		echo "# exit $rc, not 0, after: $last"
		ktap_fail "$1"
	elif [ "$2" != 0 ] && [ "$rc" -eq 0 ]; then
		echo "# exit 0 after: $last"
		ktap_fail "$1"
	elif [ "$last" != "$3" ]; then
		echo "# last line '$last', not '$3'"
		ktap_fail "$1"
	elif [ -n "${4:-}" ] && ! grep -qE -- "$4" "$tmp/out"; then
		echo "# no line with '$4'"
		ktap_fail "$1"
	else
		ktap_pass "$1"
	fi
}
