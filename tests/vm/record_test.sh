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
# The NT Kernel Logger with one ring for all CPUs: processes on both CPUs,
# their context switches and page faults. The file has one stream, in
# time order; the run has no lockdep report (the VM run fails on any).
out=/tmp/record-nopp.etl
kl="NT Kernel Logger"
check "kernel logger, no-per-processor: start" u64/nttrace start --kernel \
	process,thread,cswitch,memory_page_faults --mode no-per-processor >/dev/null
check "... query says the mode and one ring" \
	sh -c "u64/nttrace query '$kl' | grep -q 'no-per-processor'"
check "... record" u64/nttrace record "$kl" -o "$out" --quiet -- \
	sh -c 'for i in 1 2 3 4 5 6 7 8; do ls -R /sys/module >/dev/null 2>&1 & done; wait'
check "... stop" u64/nttrace stop "$kl" >/dev/null
u64/nttrace dump "$out" > /tmp/record-nopp.txt 2>&1
check "... the file says one processor" grep -q ", 1 processors," /tmp/record-nopp.txt
check "... it holds events" test "$(grep -c " cpu 0 " /tmp/record-nopp.txt)" -gt 100
check "... all of them in processor 0's stream" \
	sh -c "! grep -q ' cpu [1-9]' /tmp/record-nopp.txt"
check "... in time order" awk '/^#/ { next } { t = $1 " " $2; if (t < last) exit 1; last = t }' \
	/tmp/record-nopp.txt
rm -f "$out" /tmp/record-nopp.txt

for sub in start stop query list flush record dump show formats version call; do
	check "nttrace $sub --help" sh -c "u64/nttrace $sub --help >/dev/null"
done
check "nttrace query NAME --help is help, not an error" \
	sh -c "u64/nttrace query rec --help >/dev/null"
check "nttrace list with an argument is refused" sh -c "! u64/nttrace list x 2>/dev/null"
tap_done
