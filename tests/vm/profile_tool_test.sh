#!/bin/sh
# `nttrace record --kernel profile ... --stacks profile` and `nttrace
# profile`, end to end: spin_sample burns 1500 ms of CPU in work(), called
# through outer() and middle(); its trace's hottest function must be
# work(), and at least 80% of the samples in user code (the kernel's share,
# its exec, page faults and interrupts, depends on the kernel's debugging
# options) must be in it and pass through outer() and middle(). The
# 64-bit tool names functions with libdwfl, for the 64-bit
# and the 32-bit program; the 32-bit tool, built without it, says
# image+offset. In a guest with perf, `perf record -g` of the same
# program must agree. --lines names work()'s source line. Prints TAP.
. tests/vm/tap.sh

tmp=${TMPDIR:-/tmp}/profile-tool-test.$$
mkdir -p "$tmp"

# pct FUNCTION COLUMN: the percentage (self 1, total 2) of FUNCTION's line.
pct() {
	grep -F "  $1" "$tmp/out" | head -n 1 | awk -v c="$2" '{ sub("%", "", $c); print int($c) }'
}

# chains: of `perf script -F ip,sym`'s callchains on stdin, "K N": N
# samples with work in their chain, K of them through middle and outer.
chains() {
	awk '/^$/ { if (w) n++; if (w && m && o) k++; w = m = o = 0; next }
	     $2 == "work" { w = 1 } $2 == "middle" { m = 1 } $2 == "outer" { o = 1 }
	     END { print k + 0, n + 0 }'
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
	# The kernel's functions end in [kernel] or [MODULE] (or are [kernel]).
	kern=$(awk '!/^#/ && /\]$/ { sub("%", "", $1); s += $1 } END { print int(s) }' "$tmp/out")
	user=$((100 - kern))
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
	rm -f "$tmp/p.svg"
	check "$bits-bit program: --svg: a flame graph, work's box in it" \
		sh -c "u64/nttrace profile --svg '$tmp/p.svg' --process spin_sample '$tmp/p.etl' &&
		       grep -q '<title>work (spin_sample) (' '$tmp/p.svg' &&
		       grep -q '^</svg>\$' '$tmp/p.svg'"
	u64/nttrace profile --tree --process spin_sample "$tmp/p.etl" > "$tmp/tree" 2>&1
	sed -n '1,8s/^/# /p' "$tmp/tree"
	check "$bits-bit program: --tree: its process, its thread, then main, outer, middle, work" \
		sh -c "awk '/^ *[0-9.]+%  spin_sample [(]process [0-9]+[)]\$/ { s = 1 }
			   s && /^ *[0-9.]+%    thread [0-9]+\$/ { t = 1 }
			   t && /  main [(]spin_sample[)]\$/ { m = 1 }
			   m && /  outer [(]spin_sample[)]\$/ { o = 1 }
			   o && /  middle [(]spin_sample[)]\$/ { d = 1 }
			   d && /  work [(]spin_sample[)]\$/ { w = 1 }
			   END { exit !w }' '$tmp/tree'"
	u64/nttrace profile --lines --process spin_sample "$tmp/p.etl" > "$tmp/lines" 2>&1
	sed -n '3s/^/# /p' "$tmp/lines"
	check "$bits-bit program: --lines: the hottest line is in work (spin_sample.c:N)" \
		sh -c "sed -n 3p '$tmp/lines' | grep -Eq '  [^ ]*spin_sample[.]c:[0-9]+ [(]work[)]\$'"
	check "$bits-bit program: --from past the trace's end: no samples" \
		sh -c "u64/nttrace profile --from 100000 '$tmp/p.etl' | grep -q '^# 0 samples'"
	u32/nttrace profile --process spin_sample "$tmp/p.etl" > "$tmp/out32" 2>&1
	check "$bits-bit program: the 32-bit tool (no libdwfl): image+offset" \
		sh -c "sed -n 3p '$tmp/out32' | grep -q '  spin_sample+0x[0-9a-f]*\$'"
done
# Kernel functions by name, this boot's /proc/kallsyms: dd copying
# /dev/zero to /dev/null spends its time in the kernel. (The whole trace:
# the guest's dd is busybox, whose process is named so.)
u64/nttrace record --kernel profile,process,thread,img --stacks profile -o "$tmp/k.etl" \
	--quiet -- dd if=/dev/zero of=/dev/null bs=1M count=2000 2> /dev/null
u64/nttrace profile --top 5 "$tmp/k.etl" > "$tmp/kout" 2>&1
sed -n '1,6s/^/# /p' "$tmp/kout"
top=$(sed -n 's/^ *[0-9.]*% *[0-9.]*%  \(.*\) \[kernel\]$/\1/p' "$tmp/kout" | head -n 1)
check "kernel samples named by this boot's kallsyms: '$top [kernel]'" \
	sh -c "[ -n '$top' ] && grep -q ' [tT] $top\$' /proc/kallsyms"
# perf, where the guest has it (the bench kernel's, /add/perf), of the same
# program in the same boot: its hottest symbol is work too, and the
# callchains of work's samples pass through middle and outer, as
# nttrace's stacks do.
if [ -f /add/perf/perf.sh ]; then
	. /add/perf/perf.sh
	perf record -q -F 1000 -g -o "$tmp/perf.data" -- u64/spin_sample --cpu-ms 1500 \
		> /dev/null 2> "$tmp/perf.err"
	perf report -i "$tmp/perf.data" --stdio --no-children --sort sym -q 2>> "$tmp/perf.err" |
		grep -v '^$' | head -n 3 > "$tmp/perf.top"
	sed 's/^/# perf: /' "$tmp/perf.top"
	check "perf record -g of the same program: its hottest symbol is work too" \
		sh -c "head -n 1 '$tmp/perf.top' | grep -q '\\] work\$'"
	perf script -i "$tmp/perf.data" -F ip,sym 2>> "$tmp/perf.err" | chains > "$tmp/perf.chains"
	set -- $(cat "$tmp/perf.chains")
	check "... at least 80% of its samples in work through middle and outer ($1 of $2)" \
		test "$(($1 * 100))" -ge "$(($2 * 80))" -a "$2" -gt 0
	# nttrace's samples as perf.data: perf reads them as its own.
	u64/nttrace record --kernel profile,process,thread,img --stacks profile \
		-o "$tmp/p.etl" --quiet -- u64/spin_sample --cpu-ms 1500
	check "convert --to perf-data of nttrace's trace" \
		u64/nttrace convert --to perf-data "$tmp/nt.data" "$tmp/p.etl"
	perf report -i "$tmp/nt.data" --stdio --no-children --comm spin_sample --sort sym -q \
		2>> "$tmp/perf.err" | grep -v '^$' | grep -v '^ *[|-]' | head -n 3 > "$tmp/nt.top"
	sed 's/^/# perf report of nttrace: /' "$tmp/nt.top"
	check "... perf report: the hottest symbol is work, as nttrace profile says" \
		sh -c "head -n 1 '$tmp/nt.top' | grep -q '\\] work\$'"
	perf script -i "$tmp/nt.data" --comm spin_sample -F ip,sym 2>> "$tmp/perf.err" |
		chains > "$tmp/nt.chains"
	set -- $(cat "$tmp/nt.chains")
	check "... perf script: at least 80% of the samples in work through middle and outer ($1 of $2)" \
		test "$(($1 * 100))" -ge "$(($2 * 80))" -a "$2" -gt 0
	# The kernel's functions in perf report, by kallsyms: the dd trace's.
	u64/nttrace convert --to perf-data "$tmp/k.data" "$tmp/k.etl"
	perf report -i "$tmp/k.data" --stdio --no-children --sort sym -q \
		2>> "$tmp/perf.err" | grep -v '^$' | grep -v '^ *[|-]' | head -n 3 > "$tmp/k.top"
	sed 's/^/# perf report of dd: /' "$tmp/k.top"
	ksym=$(sed -n '1s/.*\[k\] //p' "$tmp/k.top")
	check "... perf report of the dd trace: its top symbol a kernel function ('$ksym')" \
		sh -c "[ -n '$ksym' ] && grep -q ' [tT] $ksym\$' /proc/kallsyms"
else
	n=$((n + 1))
	echo "ok $n - perf record -g of the same program # SKIP no perf in this guest (scripts/check adds it for the bench kernel)" >&3
fi
check "profile of no file: exit 1" sh -c "! u64/nttrace profile '$tmp/none.etl' 2> /dev/null"
check "profile --help" u64/nttrace profile --help
rm -rf "$tmp"
tap_done
