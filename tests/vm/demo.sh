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
echo "# the sample program (samples/trace_sample.c), built 64-bit and 32-bit"
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
echo
echo "== A classic provider (RegisterTraceGuids, TraceEvent), enabled from the command line"
echo "# samples/classic_sample.c, 32-bit, registers and waits; the controller is nttrace"
show u64/nttrace start classic --flush-timer 1
echo "\$ u64/nttrace record classic -o /tmp/classic.etl --quiet &"
u64/nttrace record classic -o /tmp/classic.etl --quiet &
rec=$!
echo "\$ u32/classic_sample --events 3 &"
u32/classic_sample --events 3 &
prov=$!
sleep 1
show u64/nttrace providers
show u64/nttrace enable classic 3f0c9a4e-5d21-4b8a-a6e3-1c7d9b2f4e60 --flags 0x5 --level 4
wait $prov
show u64/nttrace providers
echo "\$ u64/nttrace stop classic"
u64/nttrace stop classic > /tmp/stop.txt
wait $rec
show u64/nttrace dump /tmp/classic.etl
echo
echo "== A manifest-based provider (EventRegister, EventWrite): two sessions, two levels"
echo "# samples/event_sample.c: start (level 4, keyword 0x1), work (level 5, 0x2),"
echo "# error (level 2, 0x5); both sessions enable it before it registers"
show u64/nttrace start errors --flush-timer 1
show u64/nttrace start verbose --flush-timer 1
show u64/nttrace enable errors 8a1d5c3e-7b42-4e19-9c0d-2f6a8e4b1d70 --level 2 --any 0xff
show u64/nttrace enable verbose 8a1d5c3e-7b42-4e19-9c0d-2f6a8e4b1d70 --level 5 --any 0xff
echo "\$ u64/nttrace record errors -o /tmp/errors.etl --quiet &"
u64/nttrace record errors -o /tmp/errors.etl --quiet &
rec1=$!
echo "\$ u64/nttrace record verbose -o /tmp/verbose.etl --quiet &"
u64/nttrace record verbose -o /tmp/verbose.etl --quiet &
rec2=$!
sleep 1
show u32/event_sample --events 2
u64/nttrace stop errors > /tmp/stop.txt
u64/nttrace stop verbose > /tmp/stop.txt
wait $rec1 $rec2
show u64/nttrace dump /tmp/errors.etl
show u64/nttrace dump /tmp/verbose.etl
echo
echo "== A driver: nttrace_sample.ko (samples/driver/sample_driver.c) traces with WmiTraceMessage"
echo "== and ZwTraceEvent from process context, softirq and hardirq"
show u64/nttrace start driver --flush-timer 1
echo "\$ u64/nttrace record driver -o /tmp/driver.etl --quiet &"
u64/nttrace record driver -o /tmp/driver.etl --quiet &
rec=$!
id=$(u64/nttrace query driver | sed -n 's/^Logger ID: *//p')
show insmod /nttrace_sample.ko logger="$id" events=2
show cat /sys/module/nttrace_sample/parameters/failures
rmmod nttrace_sample
echo "\$ u64/nttrace stop driver"
u64/nttrace stop driver > /tmp/stop.txt
wait $rec
show u64/nttrace dump /tmp/driver.etl
echo
echo "== Live: nttrace show, a real-time consumer (OpenTrace/ProcessTrace), beside the recorder"
show u64/nttrace start live --mode realtime
echo "\$ u64/nttrace record live -o /tmp/live.etl --quiet &"
u64/nttrace record live -o /tmp/live.etl --quiet &
rec=$!
echo "\$ u64/nttrace show live --formats u64/trace_sample,u32/trace_sample --no-status &"
u64/nttrace show live --formats u64/trace_sample,u32/trace_sample --no-status &
view=$!
sleep 1
echo "# each event shows as its buffer is published: the flush timer (1 s) does it here"
u64/trace_sample --session live > /dev/null
u32/trace_sample --session live > /dev/null
sleep 2
echo "\$ u64/nttrace stop live"
u64/nttrace stop live > /tmp/stop.txt
wait $view $rec
grep -E "^(Events|Buffers|Real time):" /tmp/stop.txt
