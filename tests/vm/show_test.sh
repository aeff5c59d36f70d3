#!/bin/sh
# `nttrace show` (and `nttrace dump`, which shares its renderer) over files
# of every record type, for the 64-bit and 32-bit tool and files of both
# pointer sizes: messages with and without formats (a GUID, a component
# ID), classic and instance events, EventWrite events with an extended
# item; text and --json; each filter; what the reader's record adds (the
# sequence number, the 16-bit class version, offsets, losses) and a
# damaged file's problems in dump; usage errors (2), a missing file or
# session (1). Then, with the module and real-time delivery, a live
# session: events as they come, the end when the session stops, Ctrl-C;
# and `nttrace convert --to ctf --live`, which must get what show gets.
# And files laid out as Windows writes them (winetl_test --write): times,
# kernel events by class, what dump could not read. Prints TAP.
#
# The files come from `opentrace_test --write` and `trace_sample --private`
# (the in-process logger: no module needed). On a host (64-bit only):
#
#   NTTRACE_BITS=64 NTTRACE_DIR=$NTTRACE_BUILD sh tests/vm/show_test.sh
. tests/vm/tap.sh

cd "${NTTRACE_DIR:-.}" || exit 1
bits_list=${NTTRACE_BITS:-"64 32"}
tmp=${TMPDIR:-/tmp}/show-test.$$
mkdir -p "$tmp"

msg=0e7c0001-1111-2222-0102-030405060708
cls=0e7c0002-3333-4444-0807-060504030201
par=0e7c0003-5555-6666-0909-090909090909
prov=0e7c0004-7777-8888-0a0b-0c0d01020304
comp=c0ffee01-0000-0000-0000-000000000000	# component ID 0xC0FFEE01 as the API gives it

# run CMD...: stdout in $tmp/out, stderr in $tmp/err, exit status in $rc.
run() {
	"$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
}

say() {
	echo "# $*" | head -n 3 >&3
}

# lines N CMD...: CMD exits 0, says nothing on stderr, prints N lines.
lines() {
	want=$1
	shift
	run "$@"
	got=$(wc -l < "$tmp/out")
	[ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] && [ "$got" -eq "$want" ] && return 0
	say "$*: exit $rc, $got lines, stderr: $(head -c 200 "$tmp/err")"
	return 1
}

# has PATTERN: the last output has a line matching PATTERN (grep -E).
has() {
	grep -Eq -- "$1" "$tmp/out" && return 0
	say "no line matches $1"
	return 1
}

# exits N PATTERN CMD...: CMD exits N, nothing on stdout, stderr matches.
exits() {
	want=$1
	pat=$2
	shift 2
	run "$@"
	[ "$rc" -eq "$want" ] && [ ! -s "$tmp/out" ] && grep -Eq -- "$pat" "$tmp/err" &&
		return 0
	say "$*: exit $rc, stderr: $(head -c 200 "$tmp/err")"
	return 1
}

for bits in $bits_list; do
	check "$bits-bit file of every record type" u$bits/tests/opentrace_test --write "$tmp/all$bits.etl"
	check "$bits-bit sample's messages" sh -c "u$bits/trace_sample --private '$tmp/s$bits.etl' > /dev/null"
done

for tb in $bits_list; do
	tool=u$tb/nttrace
	for fb in $bits_list; do
		f=$tmp/all$fb.etl
		b="$tb-bit tool, $fb-bit file"

		# ---- every record type, as text ----
		check "$b: show prints the 6 events" lines 6 $tool show "$f"
		check "$b: a message with a GUID, its IDs, data as hex" \
			has " cpu [0-9]+ #17 seq [1-9][0-9]* \{$msg\} tid [1-9][0-9]* pid [1-9][0-9]* ptr$fb \[7 bytes\] 68 69 00 78 56 34 12\$"
		check "$b: a message with a component ID" \
			has " #18 component 3237998081 ptr$fb \[1 bytes\] 68\$"
		check "$b: a classic event (its 16-bit Class.Version, from the record)" \
			has " event \{$cls\} type 1 level 4 version 4660 tid [0-9]+ pid [0-9]+ ptr$fb \[9 bytes\] 01 02 03 04 05 06 07 08 09\$"
		check "$b: an instance event with its parent" \
			has " instance \{$cls\} type 2 level 2 version 7 id 1 parent 2 \{$par\} tid [0-9]+ pid [0-9]+ ptr$fb \[3 bytes\] aa bb cc\$"
		check "$b: an EventWrite event" \
			has " event_header \{$prov\} id 42 version 3 channel 16 level 4 opcode 11 task 300 keyword 0x5 tid [0-9]+ pid [0-9]+ ptr$fb \[5 bytes\] 10 20 30 40 50\$"
		check "$b: EventWriteTransfer: activity and related activity (its item)" \
			has " event_header \{$prov\} .* activity \{[0-9a-f-]{36}\} related \{[0-9a-f-]{36}\} \[3 bytes\] 10 20 30\$"
		check "$b: times and CPU first" \
			sh -c "! grep -Ev '^20[0-9]{2}-[0-9]{2}-[0-9]{2} [0-9:.]{16} \+[0-9.]+s cpu [0-9]+ ' '$tmp/out'"
		cp "$tmp/out" "$tmp/show.txt"
		run $tool dump "$f"
		grep -v '^#' "$tmp/out" > "$tmp/dump.txt"
		check "$b: dump prints the same event lines (one renderer)" \
			cmp -s "$tmp/show.txt" "$tmp/dump.txt"
		check "$b: dump's header from LogfileHeader" \
			grep -Eq "^# session \"ot-um\", [0-9]+ processors, pointer size $((fb / 8)), mode 0x800, clock " "$tmp/out"
		check "$b: dump counts 6 events" grep -q '^# 6 events$' "$tmp/out"

		# ---- --json ----
		check "$b: show --json: 6 objects" lines 6 $tool show --json "$f"
		check "$b: --json: every line an object" \
			sh -c "! grep -v '^{\"offset\":[0-9]*,\"cpu\":[0-9]*,\"time\":\"[0-9T:.-]*Z\",\"relative\":[0-9.]*,\"timestamp\":[0-9]*,.*}\$' '$tmp/out'"
		check "$b: --json message" \
			has "\"number\":17,\"flags\":[0-9]+,\"sequence\":[1-9][0-9]*,\"guid\":\"$msg\",\"tid\":[0-9]+,\"pid\":[0-9]+,\"pointer_size\":$((fb / 8)),\"data\":\"68690078563412\"}"
		check "$b: --json component" has "\"number\":18,\"flags\":[0-9]+,\"component\":3237998081,"
		check "$b: --json classic" \
			has "\"record\":\"event\",\"size\":57,\"pointer_size\":$((fb / 8)),\"guid\":\"$cls\",\"type\":1,\"level\":4,\"version\":4660,"
		check "$b: --json instance" \
			has "\"record\":\"instance\",.*\"instance_id\":1,\"parent_instance_id\":2,\"parent_guid\":\"$par\",\"data\":\"aabbcc\"}"
		check "$b: --json EventWrite with its extended item" \
			has "\"record\":\"event_header\",.*\"provider\":\"$prov\",\"id\":42,.*\"extended\":\[\{\"type\":1,\"size\":16,\"data\":\"[0-9a-f]{32}\"\}\],\"data\":\"102030\"}"
		cp "$tmp/out" "$tmp/show.json"
		run $tool dump --json "$f"
		sed 1d "$tmp/out" > "$tmp/dump.json"
		check "$b: dump --json: the same objects after its header" \
			cmp -s "$tmp/show.json" "$tmp/dump.json"
		check "$b: dump --json header" \
			grep -q '^{"header":{"file":".*","logger":"ot-um","has_header":true,' "$tmp/out"

		# ---- filters ----
		check "$b: --provider (classic GUID)" lines 2 $tool show --provider $cls "$f"
		check "$b: ... only that provider" sh -c "! grep -v '{$cls}' '$tmp/out'"
		check "$b: --provider {GUID} (a message GUID)" lines 1 $tool show --provider "{$msg}" "$f"
		check "$b: --provider (a component ID)" lines 1 $tool show --provider $comp "$f"
		check "$b: --provider twice" lines 3 $tool show --provider $prov --provider $msg "$f"
		check "$b: --level 3: levels 0 to 3" lines 3 $tool show --level 3 "$f"
		check "$b: ... the messages (level 0) and the level-2 instance" \
			sh -c "[ \$(grep -c ' #1[78] ' '$tmp/out') -eq 2 ] && grep -q ' instance ' '$tmp/out'"
		check "$b: --level 0: level 0 only" lines 2 $tool show --level 0 "$f"
		pid=$(sed -n 's/.* #17 .* pid \([0-9]*\) .*/\1/p' "$tmp/show.txt")
		check "$b: --pid (the writer): all but the message without IDs" \
			lines 5 $tool show --pid "$pid" "$f"
		check "$b: --pid 1 and --pid 2: none" lines 0 $tool show --pid 1 --pid 2 "$f"
		check "$b: filters combine" lines 1 $tool show --provider $cls --level 2 --pid "$pid" --json "$f"

		# ---- messages through their formats ----
		both=u64/trace_sample,u32/trace_sample
		[ "$bits_list" = 64 ] && both=u64/trace_sample
		check "$b: show --formats (sample)" lines 6 $tool show --formats $both "$tmp/s$fb.etl"
		check "$b: ... rendered with file and line" \
			has " #10 seq [0-9]+ \{[0-9a-f-]{36}\} tid [0-9]+ pid [0-9]+ ptr$fb \[trace_sample.c:[0-9]+\] $fb-bit sample started, pid [0-9]+\$"
		check "$b: ... three steps" \
			test "$(grep -c 'step [1-3] of 3: [0-9.]*% done, state at 0x' "$tmp/out")" -eq 3
		check "$b: ... TraceMessage's own text" has "\"hello from a $fb-bit program\"\$"
		cp "$tmp/out" "$tmp/fmt.txt"
		run $tool dump --formats $both "$tmp/s$fb.etl"
		grep -v '^#' "$tmp/out" > "$tmp/dump.txt"
		check "$b: dump --formats: the same lines" cmp -s "$tmp/fmt.txt" "$tmp/dump.txt"
		check "$b: show --formats --json" lines 6 $tool show --json --formats $both "$tmp/s$fb.etl"
		check "$b: ... file, line, message" \
			has '"file":"samples/trace_sample.c","line":[0-9]+,"message":"step 2 of 3: 66.7% done'
		check "$b: without formats: GUID, number and hex" lines 6 $tool show "$tmp/s$fb.etl"
		# Hex, or text when the pid's bytes happen to be printable.
		check "$b: ... the WPP message as its data" \
			has " #10 seq [0-9]+ \{[0-9a-f-]{36}\} .* ptr$fb (\[[0-9]+ bytes\]( [0-9a-f]{2})+|\"$fb-bit.*\")\$"
	done

	b="$tb-bit tool"

	# ---- a damaged file: dump reports its problems, show skips them ----
	f=$tmp/all$tb.etl
	d=$tmp/damaged$tb.etl
	bs=$(od -An -tu4 -N4 "$f" | tr -d ' ')
	size=$(wc -c < "$f")
	# Buffer 1's NTTRACE_WMI_BUFFER_FLAG_EVENTS_LOST (its flags at 0x34), and 4
	# bytes past the last whole buffer.
	fl=$(od -An -tu1 -j $((bs + 52)) -N1 "$f" | tr -d ' ')
	cp "$f" "$d"
	printf "\\$(printf %o $((fl | 2)))" |
		dd of="$d" bs=1 seek=$((bs + 52)) conv=notrunc 2> /dev/null
	printf 'junk' >> "$d"
	run $tool dump "$d"
	check "$b: dump of a damaged file exits 1" test $rc -eq 1
	check "$b: ... its problem with its byte offset, met opening it: before the header" \
		sh -c "head -n 1 '$tmp/out' | grep -qx '# offset $size: 4 bytes after the last whole buffer ignored'"
	check "$b: ... the loss, on a line before the event" \
		sh -c "grep -A1 -x '# cpu [0-9]*: events lost before this event' '$tmp/out' | grep -q '^20.* cpu '"
	check "$b: ... the count says so" grep -qx '# 6 events, with problems (above)' "$tmp/out"
	run $tool dump --json "$d"
	check "$b: dump --json of it exits 1" test $rc -eq 1
	check "$b: ... the problem as an object" \
		grep -qx "{\"problem\":\"4 bytes after the last whole buffer ignored\",\"offset\":$size}" "$tmp/out"
	check "$b: ... lost_before on an event" has '^\{"offset":[0-9]+,.*,"lost_before":true,'
	run $tool show "$d"
	check "$b: show of it: exit 0, 6 events and the loss as a line of its own" \
		sh -c "[ $rc -eq 0 ] && [ \$(grep -vc '^#' '$tmp/out') -eq 6 ] && grep -qx '# cpu [0-9]*: events lost before this event' '$tmp/out'"

	# ---- errors ----
	check "$b: show without an argument" exits 2 "usage: nttrace show" $tool show
	check "$b: show with two" exits 2 "usage" $tool show a.etl b.etl
	check "$b: show --level 256" exits 2 "--level '256'" $tool show --level 256 x.etl
	check "$b: show --level x" exits 2 "--level 'x'" $tool show --level x x.etl
	check "$b: show --pid -1" exits 2 "--pid '-1'" $tool show --pid -1 x.etl
	check "$b: show --pid 4294967296" exits 2 "--pid" $tool show --pid 4294967296 x.etl
	check "$b: show --provider bad" exits 2 "--provider 'nosuch'" $tool show --provider nosuch x.etl
	check "$b: show --bogus" exits 2 "usage" $tool show --bogus x.etl
	check "$b: a missing file" exits 1 "ERROR_FILE_NOT_FOUND" $tool show "$tmp/none.etl"
	check "$b: a directory" exits 1 "is a directory" $tool show "$tmp"
	check "$b: a file that is not ETL" exits 1 "ERROR_FILE_CORRUPT" $tool show "$tool"
	check "$b: dump of a file that is not ETL" exits 1 "ERROR_FILE_CORRUPT" $tool dump "$tool"
	check "$b: a missing --formats file" exits 1 "" $tool show --formats "$tmp/none" "$tmp/all$tb.etl"
	# No such session: ERROR_WMI_INSTANCE_NOT_FOUND (ERROR_NOT_SUPPORTED
	# while OpenTrace refused real time); without the module, it says so.
	if [ -e /dev/nttrace ]; then
		check "$b: no such session" exits 1 "ERROR_WMI_INSTANCE_NOT_FOUND|ERROR_NOT_SUPPORTED" \
			$tool show show-nosuch-$$
	else
		check "$b: a session without the module" \
			exits 1 "module is not loaded.*ERROR_SERVICE_NOT_ACTIVE" $tool show show-nosuch-$$
	fi
	check "$b: no status line when stdout is not a terminal" \
		sh -c "$tool show '$tmp/all$tb.etl' 2>&1 >/dev/null | wc -c | grep -qx 0"
	run $tool show --help
	check "$b: show --help names every option" \
		sh -c "[ $rc -eq 0 ] && for o in formats provider level pid json no-status; do grep -q -- \"--\$o\" '$tmp/out' || exit 1; done"
	run $tool --help
	check "$b: the usage lists show" grep -q '^  show ' "$tmp/out"
done

# ---- files laid out as Windows writes them (tests/fuzz/winetl.h) ----
# StartTime 133000000000000000 is 2022-06-18 04:26:40 UTC; QPC at 10 MHz;
# buffer 0's EventTrace record at the header event's time stamp, the first
# data event 5 ms later. One record (WNODE_HEADER) cannot be presented.
for tb in $bits_list; do
	tool=u$tb/nttrace
	for kind in kernel64 kernel32 compressed; do
		b="$tb-bit tool, Windows $kind file"
		u$tb/tests/winetl_test --write $kind "$tmp/win-$kind.etl"
		run $tool dump "$tmp/win-$kind.etl"
		check "$b: dump exits 1 (a record not read)" test "$rc" -eq 1
		check "$b: ... and says what it did not read, last" \
			sh -c "tail -n 1 '$tmp/out' | grep -qx '# not read: 1 records, 0 buffers, 0 bytes of records'"
		check "$b: ... the record's kind and offset" \
			has "^# offset [0-9]+: a record of a header type ProcessTrace does not present; not delivered\$"
		check "$b: ... 9 events" grep -q '^# 9 events, with problems (above)$' "$tmp/out"
		check "$b: buffer 0's record, at the start" \
			has "^2022-06-18 04:26:40\.0000000 \+0\.000000s cpu 0 event \{68fdd900-4a3e-11d1-84f4-0000f80464e3\} type 80 "
		check "$b: the first data event 5 ms later, by its class's name" \
			has "^2022-06-18 04:26:40\.0050000 \+0\.005000s cpu 1 Process/DCStart v4 tid 102 pid 6 ptr(32|64) UniqueProcessKey="
		check "$b: a context switch's wait reason by name, values without one as numbers" \
			has " OldThreadWaitReason=WrYieldExecution\(33\) OldThreadWaitMode=34 OldThreadState=35 "
		check "$b: a perfinfo event: no IDs, shown as -" \
			has " PerfInfo/SampleProfile v2 tid - pid - ptr(32|64) InstructionPointer="
	done
done

# ---- live sessions (real-time) ----
live=0
if [ -e /dev/nttrace ]; then
	u64/nttrace start show-probe > /dev/null 2>&1
	u64/nttrace show --no-status show-probe > "$tmp/out" 2> "$tmp/err" &
	probe=$!
	wait_attached $probe	# or refused, and gone
	u64/nttrace stop show-probe > /dev/null 2>&1
	wait $probe
	grep -q ERROR_NOT_SUPPORTED "$tmp/err" || live=1
	[ $live -eq 0 ] && echo "# live tests skipped: OpenTrace refuses real time (ERROR_NOT_SUPPORTED)" >&3
fi
# ---- a kernel session's file with messages of both pointer sizes ----
# Each message is rendered with its own pointer size's format (the
# record's TRACE_MESSAGE_POINTER32/64), not the file's.
if [ -e /dev/nttrace ] && [ "$bits_list" = "64 32" ]; then
	s=show-mixed
	u64/nttrace start $s --flush-timer 1 > /dev/null
	u64/nttrace record $s -o "$tmp/mixed.etl" --quiet > /dev/null 2>&1 &
	rec=$!
	wait_attached $rec
	u64/trace_sample --session $s > /dev/null
	u32/trace_sample --session $s > /dev/null
	u64/nttrace stop $s > /dev/null
	wait $rec
	for tb in 64 32; do
		run u$tb/nttrace show --formats u64/trace_sample,u32/trace_sample "$tmp/mixed.etl"
		check "$tb-bit tool, both samples in one file: 12 events" \
			test "$(wc -l < "$tmp/out")" -eq 12
		for sb in 64 32; do
			check "$tb-bit tool: the $sb-bit sample's messages are ptr$sb" \
				has " pid [0-9]+ ptr$sb \[trace_sample.c:[0-9]+\] $sb-bit sample started"
		done
		check "$tb-bit tool: six steps rendered" \
			test "$(grep -c 'step [1-3] of 3: [0-9.]*% done, state at 0x[0-9a-f]*$' "$tmp/out")" -eq 6
		check "$tb-bit tool: no mismatch" sh -c "! grep -q 'does not match' '$tmp/out'"
	done
fi

if [ $live -eq 1 ]; then
	for tb in $bits_list; do
		tool=u$tb/nttrace
		s=show-live-$tb
		check "$tb-bit: start a session" sh -c "$tool start $s --flush-timer 1 > /dev/null"
		rm -f "$tmp/live.txt" "$tmp/live.err" "$tmp/live.json"
		$tool show --formats u$tb/trace_sample "$s" > "$tmp/live.txt" 2> "$tmp/live.err" &
		pid=$!
		wait_caught $pid 2	# attached, its handler set
		check "$tb-bit: the sample traces into it" \
			sh -c "u$tb/trace_sample --session $s > /dev/null"
		check "$tb-bit: events shown while the session runs" \
			wait_grep "$tb-bit sample started, pid [0-9]*\$" "$tmp/live.txt" $pid
		check "$tb-bit: stop" sh -c "$tool stop $s > /dev/null"
		wait $pid
		rc=$?
		check "$tb-bit: show ends with the session, exit 0" test $rc -eq 0
		check "$tb-bit: ... all three steps" \
			test "$(grep -c 'step [1-3] of 3' "$tmp/live.txt")" -eq 3
		check "$tb-bit: ... no status line (not a terminal), no error" test ! -s "$tmp/live.err"

		check "$tb-bit: start again" sh -c "$tool start $s > /dev/null"
		$tool show --json "$s" > "$tmp/live.json" 2>&1 &
		pid=$!
		wait_caught $pid 2
		u$tb/trace_sample --session $s > /dev/null
		$tool flush $s > /dev/null
		# An event shown, then the signal.
		wait_grep '^\{"cpu":' "$tmp/live.json" $pid
		kill -INT $pid
		wait $pid	# a show that SIGINT does not end hangs here
		rc=$?
		check "$tb-bit: SIGINT ends show" test $rc -lt 128
		check "$tb-bit: ... with exit 0" test $rc -eq 0
		cp "$tmp/live.json" "$tmp/out"
		check "$tb-bit: --json: a session's events, without file offsets" \
			has '^\{"cpu":[0-9]+,"time":"[0-9T:.-]+Z","relative":[0-9.]+,"timestamp":[0-9]+,"number":[0-9]+,"flags":[0-9]+,'
		check "$tb-bit: ... none has an offset" sh -c "! grep -q offset '$tmp/live.json'"
		$tool show "$s" > /dev/null 2>&1 &
		pid=$!
		wait_caught $pid 15
		kill -TERM $pid
		wait $pid	# as for SIGINT
		check "$tb-bit: SIGTERM ends it too" test $? -eq 0
		check "$tb-bit: stop" sh -c "$tool stop $s > /dev/null"
		check "$tb-bit: a stopped session: exit 1" exits 1 "ERROR_WMI_INSTANCE_NOT_FOUND" \
			$tool show "$s"

		# `nttrace convert --to ctf DIR --live`: every event that a
		# second consumer, show --json, is given, both attached before
		# the sample writes and ended by the session's stop, once each
		# has had all of it. (The guest has no babeltrace2:
		# tests/host/ctf_test.c reads what convert writes, from files.)
		check "$tb-bit: start for convert --live" sh -c "$tool start $s > /dev/null"
		$tool convert --to ctf --formats u$tb/trace_sample "$tmp/ctf$tb" --live "$s" \
			2> "$tmp/ctf.err" &
		pid=$!
		$tool show --json "$s" > "$tmp/ctf.json" 2>&1 &
		spid=$!
		wait_caught $pid 2	# attached, its handler set
		wait_caught $spid 2
		u$tb/trace_sample --session $s > /dev/null
		check "$tb-bit: stop" sh -c "$tool stop $s > /dev/null"
		wait $pid
		rc=$?
		wait $spid
		check "$tb-bit: convert --live: the session's stop ends it, exit 0" test $rc -eq 0
		shown=$(grep -c '^{' "$tmp/ctf.json")
		check "$tb-bit: ... the events show had ($shown), no more, no fewer" sh -c \
			"[ $shown -gt 0 ] && grep -q '^nttrace: $shown events in [0-9]* classes written to' '$tmp/ctf.err'"
		check "$tb-bit: ... the sample's messages, by their formats" \
			grep -q 'name = "TraceMessage"' "$tmp/ctf$tb/metadata"
		check "$tb-bit: ... in CTF 1.8, its streams written" sh -c \
			"head -1 '$tmp/ctf$tb/metadata' | grep -q 'CTF 1.8' && [ -s \"\$(ls '$tmp/ctf$tb'/channel0_* | head -1)\" ]"
		# Ctrl-C ends it too, with its summary.
		check "$tb-bit: start for convert --live and SIGINT" sh -c "$tool start $s > /dev/null"
		rm -rf "$tmp/ctf$tb"
		$tool convert --to ctf "$tmp/ctf$tb" --live "$s" 2> "$tmp/ctf.err" &
		pid=$!
		wait_caught $pid 2
		u$tb/trace_sample --session $s > /dev/null
		kill -INT $pid
		wait $pid	# a convert that SIGINT does not end hangs here
		rc=$?
		check "$tb-bit: convert --live: SIGINT ends it, exit 0" test $rc -eq 0
		check "$tb-bit: ... and says what it wrote" \
			grep -q '^nttrace: [0-9]* events in [0-9]* classes written to' "$tmp/ctf.err"
		check "$tb-bit: stop" sh -c "$tool stop $s > /dev/null"
	done
fi
rm -rf "$tmp"
tap_done
