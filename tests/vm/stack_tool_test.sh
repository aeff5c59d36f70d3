#!/bin/sh
# EventWrite stacks from the command line: `nttrace enable --stack` of
# event_sample's provider for a session, `nttrace providers` saying so,
# event_sample (64- and 32-bit) recorded by `nttrace record` until the
# session's stop, and `nttrace dump` showing each of its events with a
# stack item ("stack ADDR,..."); enabled without --stack, no stacks. The
# recorder is waited for by its mapping of the rings, not by time.
# Prints TAP.
. tests/vm/tap.sh

tmp=${TMPDIR:-/tmp}/stack-tool-test.$$
mkdir -p "$tmp"
g=8a1d5c3e-7b42-4e19-9c0d-2f6a8e4b1d70
tool=u64/nttrace

# run NAME PROGRAM [--stack]: a session NAME enabling the provider (with
# stacks or not), PROGRAM's events recorded into $tmp/NAME.etl, dumped
# into $tmp/NAME.txt.
run() {
	$tool start "$1" > /dev/null &&
		$tool enable "$1" $g --level 5 --any 0xff $3 > "$tmp/$1.enable" &&
		$tool providers > "$tmp/$1.providers" || return 1
	$tool record "$1" -o "$tmp/$1.etl" --quiet > /dev/null &
	rec=$!
	wait_attached $rec || return 1
	$2 --events 2 --wait 5 > /dev/null
	$tool stop "$1" > /dev/null
	wait $rec || return 1
	$tool dump "$tmp/$1.etl" > "$tmp/$1.txt" 2>&1
}

# events NAME: "N S", event_sample's events in the dump and those with a
# stack of at least two frames.
events() {
	n=$(grep -c "event_header {$g}" "$tmp/$1.txt")
	s=$(grep "event_header {$g}" "$tmp/$1.txt" | grep -c ' stack 0x[0-9a-f]*,0x')
	echo "$n $s"
}

for u in u64 u32; do
	check "$u/event_sample recorded, its provider enabled --stack" \
		run "stk-$u" "$u/event_sample" --stack
	check "$u: enable says so" grep -q ', stacks)' "$tmp/stk-$u.enable"
	check "$u: providers: the enable has stacks" \
		grep -q "session [0-9]* stk-$u: .*, stacks\$" "$tmp/stk-$u.providers"
	grep -m 1 ' stack ' "$tmp/stk-$u.txt" | sed 's/^/# /'
	set -- $(events "stk-$u")
	check "$u: dump shows each of its $1 events with a stack of two or more frames ($2)" \
		test "$1" -ge 6 -a "$2" -eq "$1"
done
check "without --stack: recorded" run stk-none u64/event_sample
set -- $(events stk-none)
check "... its $1 events have no stack ($2)" test "$1" -ge 6 -a "$2" -eq 0
rm -rf "$tmp"
tap_done
