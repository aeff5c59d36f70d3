#!/bin/sh
# `nttrace tracerpt -report` of a kernel trace: spin_sample burns CPU (as
# a program named "sp<in>&x", which the report must escape), head writes
# a 1 MB file, both recorded with process, thread, cswitch, profile and
# file_io and file_io_init; the report (XML, then HTML) names the file, counts the events
# the summary counts, and gives each process its samples, CPU time,
# context switches and file bytes (a busybox applet's under busybox's
# name, the executable the kernel names). Prints TAP.
. tests/vm/tap.sh

tmp=${TMPDIR:-/tmp}/tracerpt-report-test.$$
mkdir -p "$tmp"
cd "$tmp" || exit 1
top=/nttrace
tool=$top/u64/nttrace
cp $top/u64/spin_sample "$tmp/sp<in>&x"

# data FILE IMAGE NAME: the value of Data NAME in IMAGE's Item of FILE's
# Processes table (XML, one Data a line).
data() {
	awk -v img="$2" -v name="$3" '
		/<Table name="Processes">/ { t = 1 }
		t && /<Item>/ { item = ""; v = "" }
		t && /<Data name="image">/ { item = $0; sub(/.*<Data name="image">/, "", item)
			sub(/<\/Data>.*/, "", item) }
		t && index($0, "<Data name=\"" name "\">") { v = $0
			sub(/.*<Data name="[a-z_]*">/, "", v); sub(/<\/Data>.*/, "", v) }
		t && /<\/Item>/ && item == img { print v; exit }' "$1"
}

check "record --kernel process,thread,cswitch,profile,file_io,file_io_init" \
	$tool record --kernel process,thread,cswitch,profile,file_io,file_io_init -o k.etl --quiet -- \
	sh -c "'$tmp/sp<in>&x' --cpu-ms 300 && head -c 1048576 /dev/zero > '$tmp/mb'"
check "tracerpt -report r.xml -summary s.txt" \
	sh -c "$tool tracerpt k.etl -o d.xml -summary s.txt -report r.xml > out.txt"
check "... says where the report is" grep -qx "Report      r.xml" out.txt
check "... the report is 0600" test "$(stat -c %a r.xml)" = 600
check "... XML: a Report of Sections" \
	sh -c "head -n 2 r.xml | tr -d '\n' | grep -qx '<?xml version=\"1.0\" encoding=\"UTF-8\"?><Report name=\"Trace Report\">' &&
	       tail -n 1 r.xml | grep -qx '</Report>'"
check "... the Trace section names the file" grep -q '<Data name="file">k.etl</Data>' r.xml
total=$(sed -n 's/^Total Events  Processed //p' s.txt)
check "... and counts the events the summary counts ($total)" \
	grep -q "<Data name=\"events\">$total</Data>" r.xml
check "... the Events section has the kernel's classes (Thread's GUID)" \
	grep -q '<Data name="guid">{3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c}</Data>' r.xml
img='sp&lt;in&gt;&amp;x'
samples=$(data r.xml "$img" cpu_samples)
cpu=$(data r.xml "$img" cpu_time_ms)
switches=$(data r.xml "$img" context_switches)
echo "# $img: $samples samples, $cpu ms, $switches switches"
check "... the program's row, its name escaped, with CPU samples" test "${samples:-0}" -gt 0
check "... CPU time from its context switches" test "${cpu:-0}" -gt 0
check "... and context switches" test "${switches:-0}" -gt 0
# head is busybox's: the most file bytes any process wrote.
written=$(awk '/<Data name="file_write_bytes">/ { v = $0; sub(/.*">/, "", v)
	sub(/<.*/, "", v); if (v + 0 > m) m = v + 0 } END { print m + 0 }' r.xml)
echo "# the most written: $written bytes"
check "... head's file writes, 1 MB at least" test "$written" -ge 1048576
check "... the raw name is nowhere" sh -c "! grep -q 'sp<in>' r.xml"

check "-f HTML: report.html by default" \
	sh -c "$tool tracerpt k.etl -o d2.xml -report -f HTML > /dev/null && test -f report.html"
check "... a table of processes, the name escaped" \
	sh -c "grep -q '<h2>Processes</h2>' report.html && grep -q '<td>$img</td>' report.html &&
	       ! grep -q 'sp<in>' report.html && tail -n 1 report.html | grep -qx '</html>'"
check "-f of another format is refused (exit 2), nothing written" \
	sh -c "$tool tracerpt k.etl -o d3.xml -report r3.xml -f PDF 2> err.txt;
	       test \$? -eq 2 && grep -q 'XML or HTML' err.txt && test ! -e r3.xml"
check "an existing report without -y: exit 1, left as it was" \
	sh -c "cp r.xml r.bak; ! $tool tracerpt k.etl -o d4.xml -report r.xml 2> /dev/null &&
	       cmp -s r.xml r.bak"
cd /
rm -rf "$tmp"
tap_done
