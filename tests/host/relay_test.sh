#!/bin/sh
# `nttrace convert --to net://` against LTTng's own relay daemon: an ETL
# file of 4 CPU streams sent to lttng-relayd, which stores it under its
# output directory by host and session; babeltrace2's text of what it
# stored is its text of `convert --to ctf` of the same file, every event.
# Then relays that misbehave (python3 plays them): none listening, another
# protocol version, a refused session, a reply cut short, a connection
# closed at once or mid-stream, or asked about a stream it does not know:
# each a clear error, exit 1. And one still writing when the converter is
# done: each stream is closed only once the relay says it is written.
# Prints TAP.
#
#   tests/host/relay_test.sh NTTRACE BENCH_READ OUTDIR
set -u
tool=$1
gen=$2
out=$3
tmp=$(mktemp -d "$out/relay-test.XXXXXX")
relayd_pid=
. "$(dirname "$0")/tap.sh"

cleanup() {
	[ -n "$relayd_pid" ] && kill "$relayd_pid" 2> /dev/null && wait "$relayd_pid"
	rm -rf "$tmp"
}
trap cleanup EXIT
[ -n "${KEEP:-}" ] && trap - EXIT

# A port nobody listens on now, from the ephemeral range (bind, close).
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

"$gen" gen "$tmp/t.etl" 2 4 > /dev/null || { echo "Bail out! cannot write the ETL file"; exit 1; }
"$tool" convert --to ctf "$tmp/local" "$tmp/t.etl" 2> "$tmp/local.err"
events=$(sed -n 's/^nttrace: \([0-9]*\) events.*/\1/p' "$tmp/local.err")

if ! command -v lttng-relayd > /dev/null || ! command -v babeltrace2 > /dev/null; then
	skip "the trace stored by lttng-relayd" "lttng-relayd or babeltrace2 not installed"
else
	cport=$(free_port) dport=$(free_port) lport=$(free_port)
	lttng-relayd -o "$tmp/relay" -C "tcp://127.0.0.1:$cport" -D "tcp://127.0.0.1:$dport" \
		-L "tcp://127.0.0.1:$lport" > "$tmp/relayd.log" 2>&1 &
	relayd_pid=$!
	while ! listening 127.0.0.1 "$cport" || ! listening 127.0.0.1 "$dport"; do
		kill -0 "$relayd_pid" 2> /dev/null || break
		sleep 0.05
	done
	check "lttng-relayd listens" listening 127.0.0.1 "$dport"
	check "convert --to net://127.0.0.1:CTRL:DATA --name fleet-a: exit 0" \
		sh -c "'$tool' convert --to net://127.0.0.1:$cport:$dport --name fleet-a '$tmp/t.etl' 2> '$tmp/net.err'"
	check "... says it sent every event ($events)" grep -q "^nttrace: $events events" "$tmp/net.err"
	host=$(hostname)
	dir=$(ls -d "$tmp/relay/$host"/fleet-a-*/nttrace 2> /dev/null | head -n 1)
	check "... the relay stored it as HOST/fleet-a-DATE-TIME/nttrace" test -d "$dir"
	check "... metadata, a stream file a CPU as LTTng names them, their indexes" \
		sh -c "test -s '$dir/metadata' && test -s '$dir/channel0_3' && test -s '$dir/index/channel0_0.idx'"
	babeltrace2 "$tmp/local" > "$tmp/local.txt" 2> /dev/null
	babeltrace2 "$dir" > "$tmp/net.txt" 2> /dev/null
	check "... babeltrace2 reads it: as many events ($(wc -l < "$tmp/net.txt"))" \
		test "$(wc -l < "$tmp/net.txt")" -eq "$events"
	check "... each as the local CTF has it" cmp -s "$tmp/local.txt" "$tmp/net.txt"
	check "a second host's name keeps them apart: another session, the file's name" \
		sh -c "'$tool' convert --to net://127.0.0.1:$cport:$dport '$tmp/t.etl' 2> /dev/null &&
		       ls -d '$tmp/relay/$host'/t-*/nttrace > /dev/null"
fi

# ---- relays that misbehave ----
# fake MODE: a relay on two free ports that does MODE with the first
# command; prints "CTRL DATA" once it listens. The modes pending and
# unknown answer a whole conversation, and log to $tmp/fake.log each
# stream's close with how many DATA_PENDING asks came before it.
fake() {
	python3 - "$1" "$tmp/fake.log" > "$tmp/fake.ports" <<'PY' &
import socket, struct, sys, threading
mode = sys.argv[1]
c = socket.socket(); c.bind(("127.0.0.1", 0)); c.listen(1)
d = socket.socket(); d.bind(("127.0.0.1", 0)); d.listen(1)
print(c.getsockname()[1], d.getsockname()[1], flush=True)
s, _ = c.accept()
body = b""
def cmd():
    global body
    h = b""
    while len(h) < 24:
        b = s.recv(24 - len(h))
        if not b:
            sys.exit(0)
        h += b
    size = struct.unpack(">QQII", h)[1]
    body = b""
    while len(body) < size:
        b = s.recv(size - len(body))
        if not b:
            sys.exit(0)
        body += b
    return struct.unpack(">QQII", h)[2]
# The rest of a conversation: ADD_STREAM, SEND_METADATA, SEND_INDEX,
# STREAMS_SENT, DATA_PENDING (pending twice for each stream, then
# written; unknown: no such stream) and CLOSE_STREAM, as lttng-relayd
# answers them, the data connection read and dropped.
def conversation():
    def drain():
        ds, _ = d.accept()
        while ds.recv(65536):
            pass
    threading.Thread(target=drain, daemon=True).start()
    log = open(sys.argv[2], "w", buffering=1)
    handles, asks = 0, {}
    s.sendall(struct.pack(">QI", 1, 10))
    while True:
        n = cmd()
        if n == 1:
            handles += 1
            s.sendall(struct.pack(">QI", handles, 10))
        elif n in (13, 16):
            s.sendall(struct.pack(">I", 10))
        elif n == 8:
            sid = struct.unpack(">QQ", body[:16])[0]
            asks[sid] = asks.get(sid, 0) + 1
            if mode == "unknown":
                s.sendall(struct.pack(">i", -1))
            else:
                s.sendall(struct.pack(">I", 1 if asks[sid] <= 2 else 0))
        elif n == 7:
            sid = struct.unpack(">QQ", body[:16])[0]
            log.write("close %d after %d asks\n" % (sid, asks.get(sid, 0)))
            s.sendall(struct.pack(">I", 10))
cmd()
if mode == "major":
    s.sendall(struct.pack(">II", 3, 0))
elif mode == "short":
    s.sendall(b"\x00\x00\x00\x02")
elif mode == "close":
    pass
else:
    s.sendall(struct.pack(">II", 2, 13))
    cmd()
    if mode == "refuse":
        s.sendall(struct.pack(">QI", 0, 1))
    elif mode == "garbage":
        s.sendall(b"\xff" * 7)
    elif mode in ("pending", "unknown"):
        conversation()
    elif mode == "midstream":
        # The session and the metadata stream, then gone.
        s.sendall(struct.pack(">QI", 1, 10))
        cmd()
        s.sendall(struct.pack(">QI", 1, 10))
        d.accept()
s.close()
PY
	fake_pid=$!
	while [ ! -s "$tmp/fake.ports" ] && kill -0 "$fake_pid" 2> /dev/null; do
		sleep 0.05
	done
	read -r fc fd < "$tmp/fake.ports"
}

# refused WHAT MODE PATTERN: convert to a fake relay doing MODE exits 1 saying PATTERN.
refused() {
	fake "$2"
	"$tool" convert --to "net://127.0.0.1:$fc:$fd" "$tmp/t.etl" > /dev/null 2> "$tmp/err"
	rc=$?
	wait "$fake_pid"
	if [ "$rc" -eq 1 ] && grep -q -- "$3" "$tmp/err"; then
		ok "$1"
	else
		bad "$1"
		echo "# exit $rc: $(head -c 300 "$tmp/err")"
	fi
	rm -f "$tmp/fake.ports"
}

p=$(free_port)
"$tool" convert --to "net://127.0.0.1:$p:$p" "$tmp/t.etl" > /dev/null 2> "$tmp/err"
check "no relay listening: exit 1, said" sh -c "test $? -eq 1 && grep -q 'Connection refused' '$tmp/err'"
refused "a relay of another major version: refused, said" major "speaks protocol 3.0"
refused "a relay that refuses the session: said with its error" refuse "create session: refused (LTTng error 1)"
refused "a reply cut short: said" short "version: the relay closed the connection"
refused "a reply of the wrong size: said" garbage "create session: the relay closed the connection"
refused "a relay that closes at once: said" close "version: the relay closed the connection"
refused "a relay that closes mid-stream: said" midstream "the relay closed the connection"
# Each data stream closed only once the relay says its packets are
# written; the metadata, sent on the control connection, is not asked.
fake pending
"$tool" convert --to "net://127.0.0.1:$fc:$fd" "$tmp/t.etl" > /dev/null 2> "$tmp/err"
rc=$?
wait "$fake_pid"
check "a relay still writing: the converter asks until it is written, exit 0" test "$rc" -eq 0
check "... each data stream closed after the relay said it was written" \
	test "$(grep -c '^close [0-9]* after 3 asks$' "$tmp/fake.log")" -eq 4
check "... the metadata stream closed without asking" grep -q '^close 1 after 0 asks$' "$tmp/fake.log"
check "... and nothing else closed" test "$(wc -l < "$tmp/fake.log")" -eq 5
rm -f "$tmp/fake.ports"
refused "a relay that does not know the stream it is asked about: said" unknown \
	"data pending: the relay does not know the stream"
check "a URL that is not net://HOST[:PORT[:PORT]]: exit 2" \
	sh -c "'$tool' convert --to net://h:0 '$tmp/t.etl' 2> /dev/null; test \$? -eq 2"
check "a session name with '/': refused" \
	sh -c "! '$tool' convert --to net://127.0.0.1:1 --name a/b '$tmp/t.etl' 2> /dev/null"
done_tap
