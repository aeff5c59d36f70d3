#!/bin/sh
# Run in the guest by scripts/check: every user-space test program, 64-bit
# then 32-bit, then the shell tests, each framed by lines scripts/tap-summary
# reads. Always exits 0: the results are in the output.
for prog in u64/tests/* u32/tests/* tests/vm/*_test.sh; do
	[ -f "$prog" ] || continue
	echo "# program: $prog"
	case $prog in
	*.sh) sh "$prog" ;;
	*) "$prog" ;;
	esac
	echo "# exit: $prog $?"
done
exit 0
