#!/bin/sh
# `nttrace logman` end to end, with the 64-bit and the 32-bit tool: the
# NT Kernel Logger with "Windows Kernel Trace" and logman's keyword names,
# a session of the sample provider's (samples/event_sample) by GUID with
# keywords and a level name, each with -o; query -ets (the list and one
# session), update, stop; the files read back by `nttrace dump`; logman's
# errors, each leaving nothing running. Prints TAP.
. tests/vm/tap.sh
. tests/vm/tool.sh logman-test
guid=8a1d5c3e-7b42-4e19-9c0d-2f6a8e4b1d70

# No session of the test's is running.
none_running() {
	none_matching "NT Kernel Logger|lmtest"
}

for bits in 64 32; do
	b=$bits-bit
	l="u$bits/nttrace logman"

	check "$b: start \"NT Kernel Logger\" -p \"Windows Kernel Trace\" (process,thread,img) -o" \
		exits 0 "^The command completed successfully" \
		$l start "NT Kernel Logger" -p "Windows Kernel Trace" "(process,thread,img)" \
		-o "$tmp/k$bits" -bs 64 -nb 8 16 -ets
	check "$b: start lmtest -p GUID 0x3 win:Verbose -o" exits 0 "completed successfully" \
		$l start lmtest -p "{$guid}" 0x1 win:Verbose -o "$tmp/u$bits.etl" -ft 1 -ets
	check "$b: ... start lmtest again" exits 1 "^Error:" $l start lmtest -ets
	check "$b: query -ets lists both" exits 0 "^lmtest +Trace +Running" $l query -ets
	check "$b: query lmtest -ets" exits 0 "^Output Location: +$tmp/u$bits.etl" $l query lmtest -ets
	check "$b: ... its flush timer" grep -q "^Buffer Flush Timer: *1\$" "$tmp/out"
	check "$b: query \"NT Kernel Logger\" -ets: its flags" exits 0 "process,thread,image_load" \
		$l query "NT Kernel Logger" -ets
	check "$b: update lmtest -p GUID 0x3 5" exits 0 "completed successfully" \
		$l update trace lmtest -p "$guid" 0x3 5 -ets
	u$bits/event_sample --events 5 --wait 5 > "$tmp/sample.out"
	check "$b: ... the provider was enabled with the update's keywords" \
		grep -q "event_sample: enabled, level 5, any 0x3" "$tmp/sample.out"
	check "$b: stop lmtest -ets" exits 0 "completed successfully" $l stop lmtest -ets
	check "$b: stop \"NT Kernel Logger\" -ets" exits 0 "completed successfully" \
		$l stop "NT Kernel Logger" -ets
	check "$b: ... the kernel logger's file (.etl added)" dumped "$tmp/k$bits.etl" "Process/DC" 2
	check "$b: ... the provider's events" dumped "$tmp/u$bits.etl" "$guid" 10
	check "$b: ... nothing left running" none_running

	check "$b: stop of nothing" exits 1 "Data Collector Set was not found." $l stop lmtest -ets
	check "$b: query of nothing" exits 1 "Data Collector Set was not found." $l query lmtest -ets
	check "$b: without -ets: refused" exits 1 "give -ets" $l start lmtest
	check "$b: a kernel keyword that is none" exits 2 "'bogus' is not a keyword" \
		$l start "NT Kernel Logger" -p "Windows Kernel Trace" "(process,bogus)" -ets
	check "$b: -mode newfile -max 1 -o nf%d.etl" exits 0 "completed successfully" \
		$l start lmtest -mode newfile,preallocate -max 1 -o "$tmp/nf$bits-%d.etl" -ets
	check "$b: ... writes its first file, 1 MB reserved" \
		sh -c "[ \$(wc -c < '$tmp/nf$bits-1.etl') -eq 1048576 ]"
	check "$b: ... stop" exits 0 "completed successfully" $l stop lmtest -ets
	check "$b: ... the file is cut back, and reads" dumped "$tmp/nf$bits-1.etl" "." 0
	check "$b: ... to less than its reserve" \
		sh -c "[ \$(wc -c < '$tmp/nf$bits-1.etl') -lt 1048576 ]"
	check "$b: -mode bogus: refused" exits 2 "-mode bogus: not done here" \
		$l start lmtest -mode bogus -ets
	check "$b: -a: appended to the kernel logger's file" exits 0 "completed successfully" \
		$l start lmtest -a -o "$tmp/k$bits.etl" -ets
	check "$b: ... stop" exits 0 "completed successfully" $l stop lmtest -ets
	check "$b: ... the file reads, its first events still there" dumped "$tmp/k$bits.etl" \
		"Process/DC" 2
	check "$b: a provider nobody knows" exits 1 "Element not found" \
		$l start lmtest -p Nowhere-Provider -ets
	check "$b: query providers \"Windows Kernel Trace\": its keywords" exits 0 \
		"^0x0000000000000010  cswitch" $l query providers "Windows Kernel Trace"
	check "$b: ... nothing left running" none_running
done
rm -rf "$tmp"
tap_done
