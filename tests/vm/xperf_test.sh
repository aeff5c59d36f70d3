#!/bin/sh
# `nttrace xperf` end to end, with the 64-bit and the 32-bit tool: the
# kernel logger with flags and groups and -stackwalk, a user session of
# the sample provider's (samples/event_sample) started beside it on one
# command line, both stopped and merged by -stop ... -d into one file
# `nttrace dump` reads; -loggers, -flush, -providers, -merge; -buffering
# saved by -flush -f while it goes on; xperf's
# errors for a session already running or not running, and one refused
# option, each leaving nothing running; and who may: root in a user
# namespace cannot start the kernel logger. Prints TAP.
. tests/vm/tap.sh
. tests/vm/tool.sh xperf-test
guid=8a1d5c3e-7b42-4e19-9c0d-2f6a8e4b1d70

# No session of the test's is running.
none_running() {
	none_matching "NT Kernel Logger|xperftest"
}

cd "$tmp" || exit 1
top=/nttrace
for bits in 64 32; do
	b=$bits-bit
	x="$top/u$bits/nttrace xperf"

	check "$b: -providers K lists flags and groups" exits 0 "DiagEasy +: PROC_THREAD" $x -providers K
	check "$b: -on Latency+MEMINFO -stackwalk Profile+CSwitch, and a session of a provider" \
		exits 0 "Not recorded on Linux: MEMINFO" \
		$x -on Latency+MEMINFO -stackwalk Profile+CSwitch -BufferSize 64 -MaxBuffers 16 \
		-start xperftest -on "$guid:0x3:5" -f "$tmp/u$bits.etl"
	check "$b: ... the kernel logger writes kernel.etl in the current directory" test -f kernel.etl
	check "$b: ... -loggers shows both" exits 0 "Logger Name +: xperftest" $x -loggers
	check "$b: ... and the kernel logger's file" grep -q "^Log Filename  *: $tmp/kernel.etl" "$tmp/out"
	check "$b: ... -on again: already running" exits 1 \
		"xperf: error: NT Kernel Logger: Cannot create a file when that file already exists. [(]0xb7[)]" \
		$x -on PROC_THREAD
	$top/u$bits/event_sample --events 5 --wait 5 > "$tmp/sample.out"
	check "$b: ... the provider was enabled" grep -q "event_sample: enabled, level 5, any 0x3" "$tmp/sample.out"
	$top/u$bits/spin_sample --cpu-ms 100 > /dev/null
	check "$b: ... -flush xperftest" exits 0 "" $x -flush xperftest
	check "$b: -stop xperftest -stop -d merged" exits 0 "^Merged Etl: $tmp/m$bits.etl" \
		$x -stop xperftest -stop -d "$tmp/m$bits.etl"
	check "$b: ... the provider's events are in the merged file" dumped "$tmp/m$bits.etl" "$guid" 15
	check "$b: ... the kernel's" dumped "$tmp/m$bits.etl" "Process/DC" 2
	check "$b: ... and its stacks" dumped "$tmp/m$bits.etl" "StackWalk" 1
	check "$b: ... nothing left running" none_running
	check "$b: -merge IN OUT" exits 0 "^Merged Etl: $tmp/again$bits.etl" \
		$x -merge kernel.etl "$tmp/u$bits.etl" "$tmp/again$bits.etl"

	check "$b: -stop with nothing running" exits 1 "[(]0x1069[)]" $x -stop
	check "$b: -d alone with nothing running" exits 1 "[(]0x1069[)]" $x -d "$tmp/none.etl"
	check "$b: a flag that is none" exits 2 "'NOPE' is not a kernel flag or group" $x -on PROC_THREAD+NOPE
	# -buffering: in memory only, saved by -flush -f while it goes on.
	rm -f kernel.etl
	check "$b: -on PROC_THREAD+CSWITCH -buffering" exits 0 "" $x -on PROC_THREAD+CSWITCH -buffering
	check "$b: ... no file written" test ! -e kernel.etl
	$top/u$bits/spin_sample --cpu-ms 50 > /dev/null
	check "$b: ... -flush -f saves what the buffers hold" exits 0 \
		"^NT Kernel Logger: [1-9][0-9]* events in [1-9][0-9]* buffers saved to $tmp/snap1.etl" \
		$x -flush -f "$tmp/snap1.etl"
	check "$b: ... the saved file holds the kernel's events" dumped "$tmp/snap1.etl" "CSwitch" 1
	check "$b: ... the session goes on" exits 0 "Logger Name +: NT Kernel Logger" $x -loggers
	$top/u$bits/spin_sample --cpu-ms 50 > /dev/null
	check "$b: ... a second save, by name" exits 0 "saved to $tmp/snap2.etl" \
		$x -flush "NT Kernel Logger" -f "$tmp/snap2.etl"
	check "$b: ... its file holds events too" dumped "$tmp/snap2.etl" "CSwitch" 1
	check "$b: ... a file with -buffering at the start is refused" exits 2 \
		"-buffering writes no file" $x -start xperftest -on "$guid" -buffering -f "$tmp/x.etl"
	check "$b: ... -stop ends it, keeping nothing" exits 0 "" $x -stop
	check "$b: ... nothing left running" none_running
	check "$b: -flush -f of a session with a file of its own is refused" exits 1 \
		"-f is for a session in buffering mode" \
		sh -c "$x -on PROC_THREAD -f '$tmp/k.etl' > /dev/null && $x -flush -f '$tmp/y.etl'"
	check "$b: ... and writes nothing" test ! -e "$tmp/y.etl"
	$x -stop > /dev/null 2>&1
	check "$b: -flush -f with nothing running" exits 1 "[(]0x1069[)]" $x -flush -f "$tmp/z.etl"
	check "$b: ... nothing left running" none_running
	rm -f "$tmp/snap1.etl" "$tmp/snap2.etl" "$tmp/k.etl"
	check "$b: a provider nobody knows" exits 1 "Nowhere-Provider: The provider is not known here" \
		$x -start xperftest -on Nowhere-Provider
	check "$b: ... nothing left running" none_running
	if busybox unshare -U true > /dev/null 2>&1; then
		check "$b: root in a user namespace may not start the kernel logger" exits 1 \
			"Access is denied" busybox unshare -U $x -on PROC_THREAD
		check "$b: ... nothing left running" none_running
	fi
	rm -f kernel.etl
done
cd /
rm -rf "$tmp"
tap_done
