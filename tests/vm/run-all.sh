#!/bin/sh
# Run in the guest by scripts/check: every user-space test program, 64-bit
# then 32-bit, each framed by lines scripts/tap-summary reads. Always exits
# 0: the results are in the output.
for prog in u64/tests/* u32/tests/*; do
	[ -x "$prog" ] || continue
	echo "# program: $prog"
	"$prog"
	echo "# exit: $prog $?"
done
exit 0
