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
