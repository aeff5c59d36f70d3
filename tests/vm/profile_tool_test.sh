#!/bin/sh
# `nttrace record --kernel profile ... --stacks profile` and `nttrace
# profile`, end to end: spin_sample burns 1500 ms of CPU in work(), called
# through outer() and middle(); its trace's hottest function must be
# work(), and at least 80% of the samples in user code (the kernel's share,
# its exec, page faults and interrupts, depends on the kernel's debugging
# options) must be in it and pass through outer() and middle(). The
# 64-bit tool names functions with libdwfl, for the 64-bit
# and the 32-bit program; the 32-bit tool, built without it, says
# image+offset. Prints TAP.
. tests/vm/tap.sh

tmp=${TMPDIR:-/tmp}/profile-tool-test.$$
mkdir -p "$tmp"

# pct FUNCTION COLUMN: the percentage (self 1, total 2) of FUNCTION's line.
pct() {
	grep -F "  $1" "$tmp/out" | head -n 1 | awk -v c="$2" '{ sub("%", "", $c); print int($c) }'
}

for bits in 64 32; do
	u=u$bits
	rm -f "$tmp/p.etl"
	check "$bits-bit program: record --kernel profile,process,thread,img --stacks profile" \
		u64/nttrace record --kernel profile,process,thread,img --stacks profile \
		-o "$tmp/p.etl" --quiet -- $u/spin_sample --cpu-ms 1500
	u64/nttrace profile --process spin_sample --top 1000 "$tmp/p.etl" > "$tmp/out" 2>&1
	sed -n '1,6s/^/# /p' "$tmp/out"
	check "$bits-bit program: the hottest function is work (spin_sample)" \
		sh -c "sed -n 3p '$tmp/out' | grep -q '  work (spin_sample)\$'"
	self=$(pct "work (spin_sample)" 1)
	user=$((100 - $(pct "[kernel]" 1)))
	check "$bits-bit program: ... at least 80% of the user-code samples in it ($self% of $user%)" \
		test "$((${self:-0} * 100))" -ge "$((user * 80))"
	outer=$(pct "outer (spin_sample)" 2)
	middle=$(pct "middle (spin_sample)" 2)
	check "$bits-bit program: ... and through middle() and outer() ($middle%, $outer% of $user%)" \
		test "$((${outer:-0} * 100))" -ge "$((user * 80))" -a \
		"$((${middle:-0} * 100))" -ge "$((user * 80))"
	u64/nttrace profile --folded --process spin_sample "$tmp/p.etl" > "$tmp/folded"
	grep -m 1 'work' "$tmp/folded" | sed 's/^/# /'
	check "$bits-bit program: --folded: spin_sample;...;outer;middle;work COUNT" \
		grep -Eq '^spin_sample;.*outer_\(spin_sample\);middle_\(spin_sample\);work_\(spin_sample\)(;[^ ]*)? [0-9]+$' \
		"$tmp/folded"
	u32/nttrace profile --process spin_sample "$tmp/p.etl" > "$tmp/out32" 2>&1
	check "$bits-bit program: the 32-bit tool (no libdwfl): image+offset" \
		sh -c "sed -n 3p '$tmp/out32' | grep -q '  spin_sample+0x[0-9a-f]*\$'"
done
check "profile of no file: exit 1" sh -c "! u64/nttrace profile '$tmp/none.etl' 2> /dev/null"
check "profile --help" u64/nttrace profile --help
rm -rf "$tmp"
tap_done
