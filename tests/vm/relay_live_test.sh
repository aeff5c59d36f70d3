#!/bin/sh
# `nttrace convert --to net:// --live SESSION`: a running kernel session
# streamed to LTTng's relay daemon over the guest's loopback, and followed
# meanwhile by a live viewer (babeltrace2's lttng-live source, on the
# relay's live port). scripts/check adds the host's lttng-relayd and
# babeltrace2 to the bench kernel's guest (/add/relay); without them the
# test is skipped. Prints TAP.
#
# The session has two CPU streams. Events are written in rounds, each on
# one CPU (taskset), and each round must reach the viewer while the session
# still runs: the first on CPU 0, the second on CPU 1, the third on CPU 0
# again, with CPU 1's stream idle, which the viewer can only pass with the
# beacons the converter sends for it; the fourth, EventWrite events of
# another event class, whose declaration is appended to the metadata the
# viewer already has. Then the session stops: the converter ends cleanly,
# the viewer has every event the converter sent, and the relay's copy on
# disk has them too.
. tests/vm/tap.sh

if [ ! -f /add/relay/relay.sh ]; then
	echo "ok 1 - live to lttng-relayd # SKIP no /add/relay (scripts/check's relay_bundle)"
	echo "1..1"
	exit 0
fi
. /add/relay/relay.sh
u=u64
tmp=${TMPDIR:-/tmp}/relay-live-test.$$
mkdir -p "$tmp"
relayd='' conv='' viewer=''
old_host=$(hostname)
cleanup() {
	for p in $viewer $conv $relayd; do
		kill "$p" 2> /dev/null
	done
	$u/nttrace stop live1 > /dev/null 2>&1
	hostname "$old_host" 2> /dev/null
}
trap cleanup EXIT

# lines FILE: how many lines FILE has (0 if none).
lines() {
	if [ -f "$1" ]; then wc -l < "$1"; else echo 0; fi
}
# wait_lines FILE N PID: FILE has at least N lines; 1 if PID ended first,
# or after 12000 looks (a guard against a hang, far past what any machine
# takes: the condition is what the test waits on).
wait_lines() {
	looks=0
	while [ "$(lines "$1")" -lt "$2" ]; do
		kill -0 "$3" 2> /dev/null || return 1
		looks=$((looks + 1))
		[ $looks -lt "${WAIT_LOOKS:-12000}" ] || return 1
		sleep 0.05
	done
	return 0
}
# round CPU: trace_sample's events, written on CPU.
round() {
	taskset -c "$1" $u/trace_sample --session live1 > /dev/null || return 1
}

# The relay stores by host name, and viewers name the host in the URL.
mkdir -p /var/run
hostname nttrace-guest 2> /dev/null
host=$(hostname)
# How many events a round writes: those of one run into a file.
$u/trace_sample --private "$tmp/probe.etl" > /dev/null
per=$($u/nttrace dump "$tmp/probe.etl" | grep -vc '^#')
check "a round writes events ($per)" test "$per" -gt 0
lttng_relayd -o "$tmp/relay" -C tcp://127.0.0.1:5342 -D tcp://127.0.0.1:5343 \
	-L tcp://127.0.0.1:5344 > "$tmp/relayd.log" 2>&1 &
relayd=$!
while ! listening 5342 || ! listening 5343 || ! listening 5344; do
	kill -0 "$relayd" 2> /dev/null || break
	sleep 0.05
done
check "lttng-relayd listens on 5342, 5343 and 5344" listening 5344
listening 5344 || sed 's/^/# relayd: /' "$tmp/relayd.log" >&3

# No flush timer: the converter's own flush at each tick brings the events.
$u/nttrace start live1 > /dev/null
$u/nttrace convert --to net://127.0.0.1 --live live1 2> "$tmp/conv.err" &
conv=$!
check "convert --to net://127.0.0.1 --live live1 attached to the session" wait_attached "$conv"

# The viewer waits for the session to appear, then follows it from the
# streams' ends (lttng-live attaches at the last packet): the first round
# is written only once the relay counts it as live1's client.
babeltrace2 "net://127.0.0.1:5344/host/$host/live1" > "$tmp/view.txt" 2> "$tmp/view.err" &
viewer=$!
# viewer_attached: the relay's list of live sessions has a client on live1.
viewer_attached() {
	babeltrace2 -i lttng-live net://127.0.0.1:5344 2> /dev/null |
		grep "/host/$host/live1 (" | grep -q ' [1-9][0-9]* client(s) connected)'
}
looks=0
until viewer_attached; do
	kill -0 "$viewer" 2> /dev/null || break
	looks=$((looks + 1))
	[ $looks -lt 600 ] || break	# a guard against a hang, not a time the test needs
	sleep 0.05
done
check "the viewer attached to live1 at the relay" viewer_attached

round 0
check "round 1 (CPU 0) reaches the viewer while the session runs" \
	wait_lines "$tmp/view.txt" "$per" "$viewer"
round 1
check "round 2 (CPU 1) reaches the viewer" wait_lines "$tmp/view.txt" $((2 * per)) "$viewer"
round 0
check "round 3 (CPU 0, CPU 1 idle: beacons) reaches the viewer" \
	wait_lines "$tmp/view.txt" $((3 * per)) "$viewer"
$u/nttrace enable live1 8a1d5c3e-7b42-4e19-9c0d-2f6a8e4b1d70 --level 5 \
	--any 0xffffffffffffffff > /dev/null
taskset -c 1 $u/event_sample --events 3 --wait 5 > /dev/null
check "round 4 (EventWrite, a class of its own) reaches the viewer" \
	wait_lines "$tmp/view.txt" $((3 * per + 1)) "$viewer"
check "... the viewer's events are on both CPUs" \
	sh -c "grep -q 'cpu_id = 0' '$tmp/view.txt' && grep -q 'cpu_id = 1' '$tmp/view.txt'"
check "... and name the sample's message GUID" grep -q '6a1b7c2d' "$tmp/view.txt"

$u/nttrace stop live1 > /dev/null
wait "$conv"
rc=$?
conv=
check "the session's stop ends the converter: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# convert: /' "$tmp/conv.err" >&3
sent=$(sed -n 's/^nttrace: \([0-9]*\) events.*/\1/p' "$tmp/conv.err")
check "... it sent ${sent:-no} events, the four rounds'" test "${sent:-0}" -gt $((3 * per))
check "... no event given another time, none lost" \
	sh -c "! grep -q 'given its time\|lost' '$tmp/conv.err'"
dir=$(ls -d "$tmp/relay/$host"/live1-*/nttrace 2> /dev/null | head -n 1)
check "the relay stored the trace as HOST/live1-DATE-TIME/nttrace" test -d "$dir"
babeltrace2 "$dir" > "$tmp/stored.txt" 2> "$tmp/stored.err"
check "... babeltrace2 reads every event there ($(lines "$tmp/stored.txt"))" \
	test "$(lines "$tmp/stored.txt")" -eq "${sent:-0}"
# The viewer ends only when asked: it is asked once it has had as many
# events as were sent (or it ended first, or the guard ran out).
wait_lines "$tmp/view.txt" "${sent:-0}" "$viewer"
kill "$viewer" 2> /dev/null
wait "$viewer" 2> /dev/null
viewer=
check "the viewer had every event the converter sent" \
	test "$(lines "$tmp/view.txt")" -eq "${sent:-0}"
[ "$(lines "$tmp/view.txt")" -eq "${sent:-0}" ] || sed 's/^/# viewer: /' "$tmp/view.err" >&3
kill "$relayd" 2> /dev/null
wait "$relayd" 2> /dev/null
relayd=
if [ "${fail:-0}" -ne 0 ]; then	# tap.sh's: a check failed
	sed 's/^/# relayd: /' "$tmp/relayd.log" | tail -n 20 >&3
	sed 's/^/# viewer: /' "$tmp/view.err" | tail -n 20 >&3
	sed 's/^/# viewer out: /' "$tmp/view.txt" | tail -n 5 >&3
	sed 's/^/# convert: /' "$tmp/conv.err" | tail -n 20 >&3
fi
rm -rf "$tmp"
tap_done
