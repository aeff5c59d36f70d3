#!/bin/sh
# bpftrace over nttrace's tracepoints: README's one-liner, which counts the
# events written by provider (`@[buf(args->guid, 16)] = count()` on
# tracepoint:nttrace:nttrace_write), run with -c over a session that
# trace_sample (messages) and event_sample (EventWrite and TraceLogging
# events) write to, while ftrace records the same tracepoint; each
# provider's count must be ftrace's. Not one of run-all's tests: it needs
# bpftrace, which scripts/check carries (Debian's, with its LLVM) into a
# boot of the debian kernel of its own (/add/bpftrace), the one test
# kernel with BPF (Debian's; the others are built without BPF_SYSCALL).
# Prints TAP.
. tests/vm/tap.sh

T=/sys/kernel/tracing
tmp=${TMPDIR:-/tmp}/bpftrace-test.$$
mkdir -p "$tmp"
[ -d "$T/events" ] || mount -t tracefs nodev "$T" 2> /dev/null
if [ ! -f /add/bpftrace/bpftrace.sh ] || [ ! -d "$T/events/nttrace" ]; then
	echo "1..0 # SKIP no bpftrace in this guest, or no nttrace tracepoints"
	exit 0
fi
. /add/bpftrace/bpftrace.sh

# The provider is enabled before event_sample registers, so its enable
# callback runs inside EventRegister: --wait 0, no time to wait for it;
# one that did not come leaves ftrace without the sample's events, which
# the check of ftrace's GUIDs fails.
cat > "$tmp/work.sh" << EOF
cd $PWD
u64/nttrace start bt > /dev/null
u64/trace_sample --session bt > /dev/null
u64/nttrace enable bt 8a1d5c3e-7b42-4e19-9c0d-2f6a8e4b1d70 --level 5 --any 0xffffffffffffffff > /dev/null
u64/event_sample --events 2 --wait 0 > /dev/null
u64/nttrace stop bt > /dev/null
EOF
echo 1 > "$T/events/nttrace/nttrace_write/enable"
echo > "$T/trace"
bpftrace -e 'tracepoint:nttrace:nttrace_write { @[buf(args->guid, 16)] = count(); }' \
	-c "/bin/sh $tmp/work.sh" > "$tmp/bpftrace.out" 2> "$tmp/bpftrace.err"
rc=$?
echo 0 > "$T/events/nttrace/nttrace_write/enable"
sed 's/^/# /' "$tmp/bpftrace.out" "$tmp/bpftrace.err"
check "bpftrace -e 'tracepoint:nttrace:nttrace_write ...' -c ...: exit 0" test $rc -eq 0
grep -o 'guid=[0-9a-f-]*' "$T/trace" | sort | uniq -c > "$tmp/ftrace"
sed 's/^/# ftrace:/' "$tmp/ftrace"
# event_sample's provider among them: its enable came inside EventRegister.
saw_both() {
	[ "$(wc -l < "$tmp/ftrace")" -ge 2 ] &&
		grep -q 'guid=8a1d5c3e-7b42-4e19-9c0d-2f6a8e4b1d70' "$tmp/ftrace"
}
check "ftrace saw the sample's messages and events" saw_both

# Each GUID ftrace counted, in the bytes of a Windows GUID as bpftrace's
# buf() prints them (printable ASCII as is, a backslash too, any other
# byte \xNN), must have ftrace's count in bpftrace's map.
awk '
function hexval(h) { return index("0123456789abcdef", substr(h, 1, 1)) * 16 - 16 +
			    index("0123456789abcdef", substr(h, 2, 1)) - 1 }
function byte(b) {
	if (b >= 32 && b < 127) return sprintf("%c", b)
	return sprintf("\\x%02x", b)
}
function key(g,    h, order, i, k) {
	gsub("-", "", g)
	# Data1, Data2 and Data3 little-endian, then Data4 as it is.
	order = "7 5 3 1 11 9 15 13 17 19 21 23 25 27 29 31"
	split(order, at, " ")
	k = ""
	for (i = 1; i <= 16; i++)
		k = k byte(hexval(substr(g, at[i], 2)))
	return k
}
FNR == NR {
	if (substr($0, 1, 2) == "@[") {
		i = length($0)
		while (substr($0, i, 1) != " ")
			i--
		got[substr($0, 3, i - 5)] = substr($0, i + 1)
	}
	next
}
{
	g = $2
	sub("guid=", "", g)
	k = key(g)
	if (got[k] != $1) {
		printf "# %s: ftrace %s, bpftrace %s (key %s)\n", g, $1, got[k], k
		bad++
	}
}
END { exit bad ? 1 : 0 }' "$tmp/bpftrace.out" "$tmp/ftrace" > "$tmp/compare"
crc=$?
cat "$tmp/compare"
check "bpftrace's count of each provider's events is ftrace's" test $crc -eq 0
u64/nttrace stop bt > /dev/null 2>&1
rm -rf "$tmp"
tap_done
