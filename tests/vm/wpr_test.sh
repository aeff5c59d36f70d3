#!/bin/sh
# `nttrace wpr` end to end, with the 64-bit and the 32-bit tool: a
# built-in profile in memory mode (the default) and in file mode, two
# profiles merged, a .wprp file of this test's own with an event collector
# whose provider (samples/event_sample) writes while the kernel's events
# are recorded, all saved by -stop into one file that `nttrace dump`
# reads; -status, -cancel, -flush; WPR's errors by code, each leaving no
# session running; and who may: root in a user namespace cannot start the
# kernel's collector. Prints TAP.
. tests/vm/tap.sh
. tests/vm/tool.sh wpr-test

# No session of the test's is running.
none_running() {
	none_matching "WPR_initiated_"
}

cat > "$tmp/mine.wprp" << 'EOF'
<?xml version="1.0" encoding="utf-8"?>
<WindowsPerformanceRecorder Version="1.0">
  <Profiles>
    <SystemCollector Id="Sys" Name="NT Kernel Logger">
      <BufferSize Value="64"/>
      <Buffers Value="16"/>
    </SystemCollector>
    <EventCollector Id="Ev" Name="Sample/../Event Collector">
      <BufferSize Value="64"/>
      <Buffers Value="8"/>
    </EventCollector>
    <SystemProvider Id="SysProv">
      <Keywords>
        <Keyword Value="ProcessThread"/>
        <Keyword Value="Loader"/>
        <Keyword Value="Pool"/>
      </Keywords>
    </SystemProvider>
    <EventProvider Id="Sample" Name="8a1d5c3e-7b42-4e19-9c0d-2f6a8e4b1d70" Level="5">
      <Keywords>
        <Keyword Value="0x3"/>
      </Keywords>
      <CaptureStateOnStart>
        <Keyword Value="0x20"/>
      </CaptureStateOnStart>
      <CaptureStateOnSave>
        <Keyword Value="0x10"/>
      </CaptureStateOnSave>
    </EventProvider>
    <EventProvider Id="Absent" Name="Microsoft-Windows-Nowhere"/>
    <Profile Id="Sample.Verbose.File" Name="Sample" Description="The sample provider"
             DetailLevel="Verbose" LoggingMode="File">
      <Collectors>
        <SystemCollectorId Value="Sys">
          <SystemProviderId Value="SysProv"/>
        </SystemCollectorId>
        <EventCollectorId Value="Ev">
          <EventProviders>
            <EventProviderId Value="Sample"/>
            <EventProviderId Value="Absent"/>
          </EventProviders>
        </EventCollectorId>
      </Collectors>
    </Profile>
    <Profile Id="Sample.Verbose.Memory" Base="Sample.Verbose.File" Name="Sample"
             Description="The sample provider" DetailLevel="Verbose" LoggingMode="Memory"/>
  </Profiles>
</WindowsPerformanceRecorder>
EOF

for bits in 64 32; do
	b=$bits-bit
	w="u$bits/nttrace wpr"

	check "$b: -profiles lists the built-in ones" exits 0 "CPU +CPU usage" $w -profiles
	check "$b: -profiles FILE lists a file's" exits 0 "Sample +The sample provider" \
		$w -profiles "$tmp/mine.wprp"

	# Memory mode: nothing is written until -stop.
	check "$b: -start CPU" exits 0 "" $w -start CPU
	check "$b: ... lists what Linux cannot record, once" \
		grep -q "^Not recorded on Linux: .*keyword MemoryInfo" "$tmp/out"
	check "$b: ... -status: recording, in memory" exits 0 "Logging mode +: Memory" $w -status
	check "$b: ... -status names the profile" grep -q "^Profile  *: CPU.Verbose.Memory" "$tmp/out"
	check "$b: ... -start again: already running" exits 1 "Error code: 0xc5583001" \
		$w -start DiskIO
	check "$b: ... -marker TEXT" exits 0 "marker was successfully set" $w -marker "phase é1"
	u$bits/spin_sample --cpu-ms 200 > /dev/null
	check "$b: ... -markerflush TEXT" exits 0 "marker was successfully set" \
		$w -markerflush "phase two"
	check "$b: -stop FILE saves it" exits 0 "The trace was successfully saved" \
		$w -stop "$tmp/cpu-$bits.etl"
	check "$b: ... with both marks, UTF-8 text kept" sh -c "$tool dump '$tmp/cpu-$bits.etl' |
		grep -q 'Mark=\"phase é1\"' && $tool dump '$tmp/cpu-$bits.etl' | grep -q 'Mark=\"phase two\"'"
	check "$b: ... the file is 0600" sh -c "ls -l '$tmp/cpu-$bits.etl' | grep -q '^-rw-------'"
	check "$b: ... holds the rundown of processes" dumped "$tmp/cpu-$bits.etl" "Process/DC(Start|End)" 2
	check "$b: ... and context switches" dumped "$tmp/cpu-$bits.etl" "CSwitch" 10
	check "$b: ... nothing left running" none_running
	check "$b: ... -status: not recording" exits 0 "^WPR is not recording" $w -status
	check "$b: -stop with nothing running" exits 1 "Error code: 0xc5583000" $w -stop "$tmp/x.etl"
	check "$b: -cancel with nothing running" exits 1 "Error code: 0xc5583000" $w -cancel
	check "$b: -marker with nothing running" exits 1 "Error code: 0xc5583000" $w -marker x

	# File mode, two profiles, the temporary files in a directory of our own.
	mkdir -p "$tmp/t$bits"
	check "$b: -start CPU -start DiskIO.light -filemode -recordtempto DIR" exits 0 "" \
		$w -start CPU -start DiskIO.light -filemode -recordtempto "$tmp/t$bits"
	check "$b: ... the temporary file is written from the start" \
		test -f "$tmp/t$bits/WPR_initiated_WprApp_WPR System Collector.etl"
	check "$b: ... -status: file mode, both profiles" exits 0 \
		"Profile +: CPU.Verbose.File, DiskIO.Light.File" $w -status
	check "$b: ... -flush" exits 0 "" $w -flush
	check "$b: ... -stop" exits 0 "successfully saved" $w -stop "$tmp/file-$bits.etl"
	check "$b: ... the temporary files are gone" sh -c "! ls '$tmp/t$bits'/*.etl 2>/dev/null"
	check "$b: ... the kernel's events are in the file" dumped "$tmp/file-$bits.etl" "Process/DC" 2

	# A profile file: a system collector and an event collector, whose
	# provider is registered before -start (CaptureStateOnStart asks it
	# then) and stays until the stop disables it (CaptureStateOnSave).
	u$bits/event_sample --events 5 --wait 60 --until-disabled > "$tmp/sample.out" &
	sample=$!
	until u64/nttrace providers | grep -q 8a1d5c3e-7b42-4e19-9c0d-2f6a8e4b1d70; do
		kill -0 $sample 2> /dev/null || break
		sleep 0.05
	done
	check "$b: -start FILE!Sample" exits 0 "provider Microsoft-Windows-Nowhere [(]not known here[)]" \
		$w -start "$tmp/mine.wprp!Sample" -filemode -recordtempto "$tmp/t$bits"
	check "$b: ... the keyword Linux has not is listed" grep -q "keyword Pool" "$tmp/out"
	check "$b: ... two sessions" sh -c "u64/nttrace list | grep -c WPR_initiated_WprApp_ | grep -qx 2"
	check "$b: ... a collector's name with / writes its file in the directory all the same" \
		test -f "$tmp/t$bits/WPR_initiated_WprApp_Sample_.._Event Collector.etl"
	check "$b: ... the provider was enabled while it wrote" \
		wait_grep "event_sample: enabled, level 5, any 0x3" "$tmp/sample.out" $sample
	check "$b: ... and asked for its state at the start (CaptureStateOnStart 0x20)" \
		wait_grep "event_sample: capture state, level 5, any 0x20" "$tmp/sample.out" $sample
	wait_grep "event_sample: [0-9]+ events written" "$tmp/sample.out" $sample
	check "$b: ... -stop merges both" exits 0 "successfully saved" $w -stop "$tmp/mine-$bits.etl"
	wait $sample
	check "$b: ... the provider was asked for its state at the save (CaptureStateOnSave 0x10)" \
		grep -q "event_sample: capture state, level 5, any 0x10" "$tmp/sample.out"
	# -stop waits for the callback (EnableTraceEx2's Timeout): the state
	# written at the save is in the file too.
	check "$b: ... the state it wrote at the start and at the save is in the file" \
		dumped "$tmp/mine-$bits.etl" "event_sample's state" 2
	check "$b: ... the provider's events are in the file" \
		dumped "$tmp/mine-$bits.etl" "8a1d5c3e-7b42-4e19-9c0d-2f6a8e4b1d70" 15
	check "$b: ... and the kernel's" dumped "$tmp/mine-$bits.etl" "Process/DC" 2
	check "$b: ... nothing left running" none_running

	# -cancel discards; -instancename keeps recordings apart.
	check "$b: -start FileIO -instancename Other" exits 0 "" $w -start FileIO -instancename Other
	check "$b: ... -status of the default instance: not recording" exits 0 \
		"^WPR is not recording" $w -status
	check "$b: ... -cancel -instancename Other" exits 0 "" $w -cancel -instancename Other
	check "$b: ... nothing left running" none_running

	# The Default profile, GeneralProfile, with its stacks; then discarded.
	check "$b: -start GeneralProfile" exits 0 "Not recorded on Linux: " $w -start GeneralProfile
	check "$b: ... -status names it" exits 0 "GeneralProfile.Verbose.Memory" $w -status
	check "$b: ... -cancel" exits 0 "" $w -cancel
	check "$b: ... nothing left running" none_running

	# Errors, each with nothing left running.
	check "$b: a profile that does not exist" exits 1 "Error code: 0xc5580704" $w -start Nope
	check "$b: a file that does not exist" exits 1 "Error code: 0xc5580702" \
		$w -start "$tmp/none.wprp!X"
	printf '<WindowsPerformanceRecorder><Profiles><Profile' > "$tmp/bad.wprp"
	check "$b: a file that is not XML" exits 1 "Error code: 0xc5580702" \
		$w -start "$tmp/bad.wprp!X"
	check "$b: a bad option" exits 2 "Invalid option: -bogus" $w -bogus
	check "$b: ... nothing left running" none_running

	# Who may: the kernel's collector needs CAP_PERFMON in the initial
	# namespaces, which root in a user namespace of its own has not.
	if busybox unshare -U true > /dev/null 2>&1; then
		check "$b: root in a user namespace may not start CPU" exits 1 \
			"Error code: 0xc5585011" busybox unshare -U $w -start CPU
		check "$b: ... nothing left running" none_running
	else
		say "busybox unshare -U fails here: the user-namespace check is left out"
	fi
done
rm -rf "$tmp"
tap_done
