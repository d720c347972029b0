# SPDX-License-Identifier: GPL-2.0
#
# tools/lib.sh's KTAP output, for the tools' own test runs (tools/ktap.py
# is the same for Python).
# Sourced by tools/lib.sh, not on its own.

KTAP_PASS=0
KTAP_FAIL=0
KTAP_SKIP=0
KTAP_NUM=0

ktap_header()
{
	echo "KTAP version 1"
	echo "1..$1"
}

ktap_pass()
{
	KTAP_NUM=$((KTAP_NUM + 1))
	KTAP_PASS=$((KTAP_PASS + 1))
	echo "ok $KTAP_NUM $1"
}

ktap_fail()
{
	KTAP_NUM=$((KTAP_NUM + 1))
	KTAP_FAIL=$((KTAP_FAIL + 1))
	echo "not ok $KTAP_NUM $1"
}

ktap_skip()
{
	KTAP_NUM=$((KTAP_NUM + 1))
	KTAP_SKIP=$((KTAP_SKIP + 1))
	echo "ok $KTAP_NUM $1 # SKIP $2"
}

# ktap_summary: the closing line read by humans and CI alike.
ktap_summary()
{
	echo "$KTAP_PASS passed, $KTAP_FAIL failed, $KTAP_SKIP skipped"
}
