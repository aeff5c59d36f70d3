#!/bin/sh
# What `make demo` runs in the guest.
set -e
show() {
	echo "\$ $*"
	"$@"
}
echo "== nttrace.ko is loaded: $(ls -l /dev/nttrace)"
show u64/nttrace version
echo
echo "== Raw NtTraceEvent: Flags decoding and the user-mode defences"
echo "# an invalid type, then misaligned and unreadable Fields (64-bit, then 32-bit)"
show u64/nttrace call 0x0A00 || true
show u64/nttrace call --misalign 0x0200 || true
show u32/nttrace call --null 0x0200 || true
echo
echo "== TraceMessage into a kernel session, drained through mmap by the recorder"
show u64/nttrace start demo --buffer-size 4 --max-buffers 8 --flush-timer 1
echo "\$ u64/nttrace record demo -o /tmp/demo.etl --quiet &"
u64/nttrace record demo -o /tmp/demo.etl --quiet &
rec=$!
sleep 1
echo "# the sample program (userlib/sample/trace_sample.c), built 64-bit and 32-bit"
show u64/trace_sample --session demo
show u32/trace_sample --session demo
echo "\$ u64/nttrace stop demo"
u64/nttrace stop demo > /tmp/stop.txt
wait $rec	# the recorder prints its summary as it finishes
cat /tmp/stop.txt
show u64/nttrace dump /tmp/demo.etl
echo
echo "== StartTrace with a log file: the library runs the logger; StopTrace leaves the file whole"
show u64/trace_sample --file /tmp/file64.etl
show u32/trace_sample --file /tmp/file32.etl
show u64/nttrace dump /tmp/file32.etl
echo
echo "== The in-process user-mode logger (handle bit 0x01000000): no system call per event"
show u64/trace_sample --private /tmp/private64.etl
show u32/trace_sample --private /tmp/private32.etl
show u64/nttrace dump /tmp/private64.etl
show u64/nttrace dump /tmp/private32.etl
echo
echo "== WPP-style messages (<nttrace/wpp.h>): formats from the binaries' ELF section"
show u64/nttrace formats u64/trace_sample
echo "# the kernel session's file from above, rendered as text (64-bit and 32-bit sample)"
show u64/nttrace dump --formats u64/trace_sample,u32/trace_sample /tmp/demo.etl
