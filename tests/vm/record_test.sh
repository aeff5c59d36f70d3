#!/bin/sh
# `nttrace record` end to end, for the 64-bit and 32-bit tool: a session,
# a recorder draining it into a file, events, stop; then the file holds
# whole buffers and the summary counts every event. Prints TAP.
. tests/vm/tap.sh

for bits in 64 32; do
	tool=u$bits/nttrace
	out=/tmp/record-$bits.bin
	check "$bits-bit: start" $tool start rec --buffer-size 4 --max-buffers 8 >/dev/null
	id=$($tool query rec | sed -n 's/^Logger ID: *//p')
	$tool record rec -o "$out" > /tmp/record-$bits.txt 2>&1 &
	rec=$!
	wait_attached $rec
	i=0
	while [ $i -lt 200 ]; do
		$tool call --handle "$id" 0x200 > /dev/null
		i=$((i + 1))
	done
	check "$bits-bit: stop" $tool stop rec >/dev/null
	wait $rec
	check "$bits-bit: record exits 0" test $? -eq 0
	size=$(wc -c < "$out")
	check "$bits-bit: file is whole 4 KB buffers ($size bytes)" \
		test "$size" -gt 0 -a $((size % 4096)) -eq 0
	check "$bits-bit: summary counts 200 events" \
		grep -q "^recorded 200 events" /tmp/record-$bits.txt
	check "$bits-bit: nothing lost" \
		grep -q "^lost: 0 events refused by full rings, 0 events" /tmp/record-$bits.txt
	check "$bits-bit: record --help" $tool record --help >/dev/null
	check "$bits-bit: record without -o is refused" sh -c "! $tool record rec 2>/dev/null"
	check "$bits-bit: unknown session" sh -c "! $tool query nosuch 2>/dev/null"
done
for sub in start stop query list flush record dump show formats version call; do
	check "nttrace $sub --help" sh -c "u64/nttrace $sub --help >/dev/null"
done
check "nttrace query NAME --help is help, not an error" \
	sh -c "u64/nttrace query rec --help >/dev/null"
check "nttrace list with an argument is refused" sh -c "! u64/nttrace list x 2>/dev/null"
tap_done
