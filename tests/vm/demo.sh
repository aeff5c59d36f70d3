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
echo "== NtTraceEvent from a 64-bit program"
echo "# a valid type (TRACE_MESSAGE) whose handler is still to come"
show u64/nttrace call 0x0200
echo "# the same with every modifier bit (WOW64_CALL, USE_NATIVE_HEADER, 15 frames)"
show u64/nttrace call 0xC00F0200
echo "# an invalid type"
show u64/nttrace call 0x0A00
echo "# the user-mode defences: misaligned and unreadable Fields"
show u64/nttrace call --misalign 0x0800
show u64/nttrace call --null 0x0800
echo
echo "== The same calls from a 32-bit program (IA32 emulation)"
show u32/nttrace call 0x0200
show u32/nttrace call 0x0A00
show u32/nttrace call --misalign 0x0800
show u32/nttrace call --null 0x0800
echo
echo "== A logger session: per-CPU ring buffers, drained through mmap"
show u64/nttrace start demo --buffer-size 4 --max-buffers 8 --flush-timer 1
id=$(u64/nttrace query demo | sed -n 's/^Logger ID: *//p')
echo "\$ u64/nttrace record demo -o /tmp/demo.bin --quiet &"
u64/nttrace record demo -o /tmp/demo.bin --quiet &
rec=$!
sleep 1
echo "# 10 TRACE_MESSAGE events from a 64-bit and 10 from a 32-bit caller"
i=0
while [ $i -lt 10 ]; do
	u64/nttrace call --handle "$id" 0x0200 > /dev/null
	u32/nttrace call --handle "$id" 0x0200 > /dev/null
	i=$((i + 1))
done
show u64/nttrace list
echo "\$ u64/nttrace stop demo"
u64/nttrace stop demo > /tmp/stop.txt
wait $rec	# the recorder prints its summary as it finishes
cat /tmp/stop.txt
echo "# the file holds the buffers as the kernel wrote them (WMI_BUFFER_HEADER, records)"
show hexdump -C /tmp/demo.bin | head -n 8
