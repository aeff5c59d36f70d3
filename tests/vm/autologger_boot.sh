#!/bin/sh
# Autologgers at boot: run by scripts/check in a guest booted with the
# configuration it wrote with `nttrace autologger add` (vm-run --etc), which
# scripts/vm-init started before this command, as the systemd unit does:
#   "NT Kernel Logger"  EnableFlags=0x1 (process), FileName=/tmp/boot-kernel.etl
#   nttrace-boot        FileName=/tmp/boot-user.etl FileMax=2, the sample
#                       provider (samples/event_sample) at level 5, keywords 0x3
#   and a WPR boot trace: `wpr -boottrace -addboot CPU.Light -filemode
#   -recordtempto /tmp`, its system collector a system logger of its own,
#   and one in memory mode: `-addboot CPU.Light -instancename Mem`
# Both sessions must be running, the provider enabled as configured, and
# the kernel logger's file must hold this very command's start: events from
# before the test began. Prints TAP.
. tests/vm/tap.sh
. tests/vm/tool.sh autologger-boot
guid=8a1d5c3e-7b42-4e19-9c0d-2f6a8e4b1d70

check "the boot's status: both started" exits 0 "" $tool autologger list
check "... NT Kernel Logger: Status=0, its file" \
	sh -c "$tool autologger list 'NT Kernel Logger' | grep -q 'File=/tmp/boot-kernel.etl' &&
	       $tool autologger list 'NT Kernel Logger' | grep -q 'Status=0'"
check "... nttrace-boot: FileMax=2 gives the first boot's file .001" \
	sh -c "$tool autologger list nttrace-boot | grep -q 'File=/tmp/boot-user.etl.001' &&
	       $tool autologger list nttrace-boot | grep -q 'FileCounter=1'"
check "the 32-bit tool reads the same configuration" exits 0 "MatchAnyKeyword=0x3" \
	u32/nttrace autologger list nttrace-boot
check "both sessions run" sh -c "$tool list | grep -q 'NT Kernel Logger' &&
				 $tool list | grep -q 'nttrace-boot'"
check "boot again: each already running, their status kept" exits 0 "nttrace-boot: already running" \
	$tool autologger boot
check "... the first boot's status still there" \
	sh -c "$tool autologger list nttrace-boot | grep -q 'Status=0'"
u64/event_sample --events 5 --wait 5 > "$tmp/sample.out" 2>&1
check "the provider is enabled as configured: level 5, keywords 0x3" \
	grep -q "event_sample: enabled, level 5, any 0x3" "$tmp/sample.out"
check "stop nttrace-boot" exits 0 "completed successfully" \
	$tool logman stop nttrace-boot -ets
check "stop the NT Kernel Logger" exits 0 "completed successfully" \
	$tool logman stop "NT Kernel Logger" -ets
check "the provider's events are in the boot's file" dumped /tmp/boot-user.etl.001 "$guid" 5
check "the kernel logger's file holds this test's own start (sh /command): the boot's events" \
	dumped /tmp/boot-kernel.etl ' Process/Start .*CommandLine="sh /command"' 1
check "... and the rundown of the processes before it" \
	dumped /tmp/boot-kernel.etl ' Process/DCStart .* ProcessId=1 ' 1
check "wpr -boottrace -stopboot saves the boot trace" exits 0 "successfully saved" \
	$tool wpr -boottrace -stopboot "$tmp/wprboot.etl"
check "... with the boot's events: this test's start" \
	dumped "$tmp/wprboot.etl" ' Process/Start .*CommandLine="sh /command"' 1
check "... its CPU samples" dumped "$tmp/wprboot.etl" ' PerfInfo/SampleProfile ' 1
check "... and its configuration gone: a boot trace records one boot" \
	sh -c "! $tool autologger list | grep -q WPR_initiated_WprApp"
check "... -stopboot again: none" exits 1 "There are no trace profiles running" \
	$tool wpr -boottrace -stopboot "$tmp/again.etl"
check "the memory-mode boot trace kept its buffers: -stopboot saves them" exits 0 \
	"successfully saved" $tool wpr -boottrace -stopboot "$tmp/memboot.etl" -instancename Mem
check "... with the boot's events" dumped "$tmp/memboot.etl" ' PerfInfo/SampleProfile ' 1
check "-cancelboot with none configured" exits 1 "There are no trace profiles running" \
	$tool wpr -boottrace -cancelboot
check "nothing left running" sh -c "! $tool list | grep -Eq 'NT Kernel Logger|nttrace-boot|WPR_'"
rm -rf "$tmp"
tap_done
