#!/bin/sh
# nttrace's kernel tracepoints (module/trace.h) as Linux's tools see them:
# ftrace through tracefs (events/nttrace/), then perf when the guest has it
# (scripts/check adds the host's perf for the bench kernel: /add/perf).
# For the 64-bit and the 32-bit callers: a session started and stopped,
# TraceMessage and EventWrite events with their fields (logger, kind,
# GUID, ID, level, opcode, keyword, process and thread, payload), a ring
# too small for a burst, whose lost events are traced, and the payloads
# withheld (a secure session's, the security provider's). Prints TAP.
. tests/vm/tap.sh

T=/sys/kernel/tracing
tmp=${TMPDIR:-/tmp}/tracepoints-test.$$
mkdir -p "$tmp"
[ -d "$T/events" ] || mount -t tracefs nodev "$T" 2> /dev/null
if [ ! -d "$T/events/nttrace" ]; then
	echo "ok 1 - tracepoints # SKIP no events/nttrace (no tracefs, or the module built with NTTRACE_TRACEPOINTS=n)"
	echo "1..1"
	exit 0
fi
check "the five tracepoints are in events/nttrace" \
	test -d "$T/events/nttrace/nttrace_write" -a -d "$T/events/nttrace/nttrace_session_start" \
	-a -d "$T/events/nttrace/nttrace_session_stop" -a -d "$T/events/nttrace/nttrace_events_lost" \
	-a -d "$T/events/nttrace/nttrace_buffers_lost"
check "nttrace_write's fields are named in its format" \
	grep -q 'field:u8 payload\|field:__data_loc u8\[\] payload' "$T/events/nttrace/nttrace_write/format"

has() {
	grep -q "$1" "$tmp/trace"
}

for bits in 64 32; do
	u=u$bits
	echo 1 > "$T/events/nttrace/enable"
	echo > "$T/trace"
	$u/nttrace start tp$bits > /dev/null
	$u/trace_sample --session tp$bits > /dev/null
	$u/nttrace enable tp$bits 8a1d5c3e-7b42-4e19-9c0d-2f6a8e4b1d70 --level 5 --any 0xffffffffffffffff > /dev/null
	$u/event_sample --events 2 --wait 5 > /dev/null
	$u/nttrace stop tp$bits > /dev/null
	# Rings with too little room, and no reader: events are lost.
	$u/nttrace start tplost$bits --buffer-size 4 --min-buffers 2 --max-buffers 2 > /dev/null
	$u/nttrace enable tplost$bits 8a1d5c3e-7b42-4e19-9c0d-2f6a8e4b1d70 --level 5 --any 0xffffffffffffffff > /dev/null
	$u/event_sample --events 100 --wait 5 > /dev/null
	$u/nttrace stop tplost$bits > /dev/null
	echo 0 > "$T/events/nttrace/enable"
	cat "$T/trace" > "$tmp/trace"
	grep -m 3 'nttrace_' "$tmp/trace" | sed 's/^/# /'
	check "$bits-bit: session start traced, with its name" has "nttrace_session_start: logger=[0-9]* name=tp$bits "
	check "$bits-bit: TraceMessage traced: kind, the message GUID, number" \
		has "nttrace_write: logger=[0-9]* kind=message guid=6a1b7c2d-3e4f-4a5b-8c9d-0e1f2a3b4c5d id=1 "
	check "$bits-bit: ... the writer's process and its payload" \
		has "kind=message .*pid=[1-9][0-9]* tid=[1-9][0-9]* size=[1-9][0-9]* payload="
	check "$bits-bit: EventWrite traced: provider GUID, ID, level, opcode, keyword" \
		has "kind=event guid=8a1d5c3e-7b42-4e19-9c0d-2f6a8e4b1d70 id=1 level=4 opcode=1 keyword=0x1 "
	check "$bits-bit: session stop traced, with its counts" \
		has "nttrace_session_stop: logger=[0-9]* name=tp$bits events_lost=0 buffers_written="
	check "$bits-bit: events lost in a full ring traced" has "nttrace_events_lost: logger="
done

# The NT Kernel Logger's events (module/kernel_logger/'s sources) too.
echo 1 > "$T/events/nttrace/nttrace_write/enable"
echo > "$T/trace"
u64/nttrace start --kernel process > /dev/null
sh -c 'true'
u64/nttrace stop "NT Kernel Logger" > /dev/null
echo 0 > "$T/events/nttrace/nttrace_write/enable"
cat "$T/trace" > "$tmp/trace"
check "the NT Kernel Logger's events traced: kind system, its HookId (Process/Start)" \
	has "nttrace_write: logger=65535 kind=system .*id=769 level=0 opcode=1 "

# What only chosen readers may read stays out of the tracepoint: a secure
# session's records (its owner and the privileged write and read them) and
# the security provider's events (readers of security events: CAP_AUDIT_READ)
# are traced without their payload; size still says the record's.
withheld() {
	grep "nttrace_write: logger=$1 .*$2" "$tmp/trace" > "$tmp/lines" &&
		! grep -v 'size=[1-9][0-9]* payload=$' "$tmp/lines" > /dev/null
}
for bits in 64 32; do
	u=u$bits
	echo 1 > "$T/events/nttrace/enable"
	echo > "$T/trace"
	$u/nttrace start tpsecure$bits --mode secure > /dev/null
	$u/trace_sample --session tpsecure$bits > /dev/null
	$u/nttrace stop tpsecure$bits > /dev/null
	# noreg_test writes security events into a session enabling the provider.
	$u/tests/noreg_test > /dev/null 2>&1
	echo 0 > "$T/events/nttrace/enable"
	cat "$T/trace" > "$tmp/trace"
	id=$(sed -n "s/.*nttrace_session_start: logger=\([0-9]*\) name=tpsecure$bits .*/\1/p" "$tmp/trace")
	grep -m 1 "nttrace_write: logger=$id " "$tmp/trace" | sed 's/^/# /'
	check "$bits-bit: a secure session's records traced without their payload" \
		withheld "$id" "kind=message"
	grep -m 1 'guid=54849625-5478-4994-a5ba-3e3b0328c30d' "$tmp/trace" | sed 's/^/# /'
	check "$bits-bit: the security provider's events traced without their payload" \
		withheld "[0-9]*" "kind=event guid=54849625-5478-4994-a5ba-3e3b0328c30d"
	check "$bits-bit: ... other events keep theirs" \
		grep -q "kind=event guid=.* size=[1-9][0-9]* payload=[0-9a-f]" "$tmp/trace"
done

if [ -f /add/perf/perf.sh ]; then
	. /add/perf/perf.sh
	u64/nttrace start tpperf > /dev/null
	perf record -q -e 'nttrace:*' -a -o "$tmp/perf.data" -- \
		u64/trace_sample --session tpperf > /dev/null 2> "$tmp/perf.err"
	u64/nttrace stop tpperf > /dev/null
	perf script -i "$tmp/perf.data" > "$tmp/trace" 2>> "$tmp/perf.err"
	grep -m 2 'nttrace_write' "$tmp/trace" | sed 's/^/# /'
	check "perf record -e 'nttrace:*': perf script shows each event with its fields" \
		has "nttrace:nttrace_write: logger=[0-9]* kind=message guid=6a1b7c2d-3e4f-4a5b-8c9d-0e1f2a3b4c5d id=1 "
else
	echo "ok $((n + 1)) - perf record -e 'nttrace:*' # SKIP no perf in this guest (scripts/check adds it for the bench kernel)"
	n=$((n + 1))
fi
# bpftrace: tests/vm/bpftrace-oneliner.sh, which scripts/check runs in a
# debian kernel's boot of its own (the one test kernel with BPF).
rm -rf "$tmp"
tap_done
