# nttrace_bench's raw output (tests/bench/bench.c) into the report: a
# markdown table of medians and spreads, the ratios and targets the
# benchmark is judged by, on stdout; every number, raw samples included,
# into the JSON file named by -v json=FILE. The first file is the VM run,
# the second the host run (its paths are prefixed "host_"); any further
# files are more VM boots of the scaling paths (tm_kernel and
# tm_kernel_noseq, 1 and 2 threads) with a host thread for each vCPU
# (vm-run --mttcg): the 2-thread / 1-thread ratio is judged in the median
# of theirs. The first boot ran both vCPUs on one host thread (vm-run's
# default), where two guest threads can at best share one host CPU: its
# ratios count only when there is no later boot (BENCH_QUICK).
#
#   awk -v json=bench.json -f report.awk vm.raw host.raw [vm-boot2.raw ...] [read.raw]
#
# The lines of scripts/bench-read (tests/bench/read.c: "F", "FI", "F#"),
# in whichever file they come, make the "Reading files" section; with -v
# only_read=1 that section is all the report and the JSON hold.

function sort(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
}

function median(key,    n, i, a) {
	n = count[key]
	if (!n)
		return -1
	for (i = 1; i <= n; i++)
		a[i] = sample[key, i]
	sort(a, n)
	lo[key] = a[1]
	hi[key] = a[n]
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

# The median of a space-separated list of numbers ("n/a" skipped).
function median_of(list,    n, i, a, v, m) {
	n = split(list, v, " ")
	m = 0
	for (i = 1; i <= n; i++)
		if (v[i] != "n/a")
			a[++m] = v[i] + 0
	if (!m)
		return "n/a"
	sort(a, m)
	return sprintf("%.2f", m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2)
}

# LTTng's discards in a round: the session's count after it, less before.
function lttng_round(round, before,    a, b) {
	a = fact["host_lttng_ust discarded_" round]
	b = before == "" ? 0 : fact["host_lttng_ust discarded_" before]
	if (a == "" || a < 0 || b == "" || b < 0 || a + 0 >= 9.2e18 || b + 0 >= 9.2e18)
		return "n/a"
	return a - b
}

# A count of LTTng's discards (the bench reads them from the trace's CTF
# index, not from `lttng list`, which has printed them with bit 63 set):
# such a value is no count.
function lttng_count(v) {
	if (v == "")
		return "n/a"
	if (v + 0 >= 9.2e18)
		return "n/a (LTTng printed " v ")"
	return v
}

function ratio(x, y) {
	return (x > 0 && y > 0) ? sprintf("%.2f", x / y) : "n/a"
}

FNR == 1 { host = (++nfile == 2); boot = nfile > 2 ? nfile - 1 : 1 }

# Reading files (scripts/bench-read): "F PATH REP EVENTS BYTES WALL_NS
# CPU_NS" a timed read, "FI KEY VALUE" a fact, "F# TEXT" a note.
$1 == "F" {
	if (!($2 in rd_n))
		rd_order[++rd_npaths] = $2
	i = ++rd_n[$2]
	rd_events[$2] = $4
	rd_bytes[$2] = $5
	rd_wall[$2, i] = $6
	rd_cpu[$2, i] = $7
	next
}
$1 == "FI" { rd_fact[$2] = $3; next }
$1 == "F#" { sub(/^F# /, ""); rd_note[++rd_nnotes] = $0; next }

# A later boot: only its scaling samples, apart from the first boot's.
boot > 1 && $1 == "R" {
	bkey = boot " " $2 " " $3
	if (!(bkey in count))
		boots = boot
	count[bkey]++
	sample[bkey, count[bkey]] = $5 + 0
	next
}
boot > 1 { next }

$1 == "R" {
	key = (host ? "host_" : "") $2 " " $3
	if (!(key in count)) {
		order[++nkeys] = key
	}
	count[key]++
	sample[key, count[key]] = $5 + 0
}

# A repeat of a real-time delivery path: WRITTEN DELIVERED LOST, then
# NAME VALUE pairs (refused events, buffers lost...), summed over repeats;
# of times (NAME ending in _us), the largest.
$1 == "D" {
	key = (host ? "host_" : "") $2 " " $3
	rt_written[key] += $5; rt_delivered[key] += $6; rt_lost[key] += $7
	rt_reps[key]++
	for (i = 8; i < NF; i += 2) {
		if (!((key, $i) in rt_extra)) {
			rt_extra_names[key] = rt_extra_names[key] " " $i
			rt_extra[key, $i] = 0
		}
		if ($i !~ /_us$/)
			rt_extra[key, $i] += $(i + 1)
		else if ($(i + 1) + 0 > rt_extra[key, $i])
			rt_extra[key, $i] = $(i + 1) + 0
	}
}

$1 == "I" {
	fact[(host ? "host_" : "") $2 " " $3] = $4 (NF > 4 ? " " $5 " " $6 : "")
}

$1 == "#" { sub(/^# /, ""); comment[++ncomments] = $0 }

END {
	if (only_read) {
		reading()
		if (json != "") {
			printf "{\n" > json
			reading_json()
			printf "\n}\n" > json
			close(json)
		}
		exit
	}
	for (k = 1; k <= nkeys; k++)
		med[order[k]] = median(order[k])

	p1 = med["tm_kernel 1"]; p2 = med["user_events 1"]; p3 = med["trace_marker 1"]
	p4 = med["ioctl_noop 1"]; p4b = med["getppid 1"]
	p5 = med["host_tm_umlogger 1"]; pl = med["host_lttng_ust 1"]

	print "## nttrace benchmark"
	print ""
	for (k = 1; k <= ncomments; k++)
		print "- " comment[k]
	print ""
	print "| path | threads | ns/event (median) | min - max |"
	print "| --- | --- | --- | --- |"
	for (k = 1; k <= nkeys; k++) {
		if (order[k] in rt_reps)	# in the real-time block below
			continue
		split(order[k], w, " ")
		printf "| %s | %s | %s | %s - %s |\n", w[1], w[2], ns(med[order[k]]),
			ns(lo[order[k]]), ns(hi[order[k]])
	}
	print ""
	print "With 2 threads, ns/event is wall time over all events (throughput)."
	print "Paths without \"host_\" ran in the bench kernel under QEMU TCG."
	print ""

	split(fact["tm_kernel logger"], lg, " ")
	loss = (lg[1] + lg[2] + lg[3] > 0) ? \
		sprintf("%.3f", 100 * (lg[2] + lg[3]) / (lg[1] + lg[2])) : "n/a"
	r12 = ratio(p1, p2); r14 = ratio(p1, p4); r5l = ratio(p5, pl)
	t1 = ratio(med["tm_kernel 1"], med["tm_kernel 2"])
	t2 = ratio(med["user_events 1"], med["user_events 2"])
	tn = ratio(med["tm_kernel_noseq 1"], med["tm_kernel_noseq 2"])

	# 2 threads / 1 thread in every scaling boot (else the first boot's);
	# the median of the boots' ratios.
	tb = boots > 1 ? "" : t1
	for (b = 2; b <= boots; b++)
		tb = tb (tb == "" ? "" : " ") ratio(median(b " tm_kernel 1"),
						   median(b " tm_kernel 2"))
	t1m = median_of(tb)
	nb = boots > 1 ? boots - 1 : 1
	how = boots > 1 ? "a host thread a vCPU" : "one host thread for both vCPUs"
	# The same into a session nobody reads, as user_events runs.
	pb = med["tm_kernel_buffering 1"]
	r12b = ratio(pb, p2); r14c = ratio(pb, p4)
	tbb = boots > 1 ? "" : ratio(pb, med["tm_kernel_buffering 2"])
	for (b = 2; b <= boots; b++)
		tbb = tbb (tbb == "" ? "" : " ") ratio(median(b " tm_kernel_buffering 1"),
						     median(b " tm_kernel_buffering 2"))
	tbm = median_of(tbb)
	p5n = med["host_tm_umlogger_noseq 1"]
	r5n = ratio(p5n, pl)
	# Host scaling: speed-up at 2 and 4 threads, each side in the disk round.
	u1 = med["host_tm_umlogger_disk 1"]; l1 = med["host_lttng_ust 1"]
	ncpus_host = fact["host_cpus online"] + 0
	su2 = ratio(u1, med["host_tm_umlogger_disk 2"]); sl2 = ratio(l1, med["host_lttng_ust 2"])
	su4 = ratio(u1, med["host_tm_umlogger_disk 4"]); sl4 = ratio(l1, med["host_lttng_ust 4"])
	n1 = med["host_tm_umlogger_disk_noseq 1"]
	sn2 = ratio(n1, med["host_tm_umlogger_disk_noseq 2"])
	sn4 = ratio(n1, med["host_tm_umlogger_disk_noseq 4"])

	print "| ratio | value | target |"
	print "| --- | --- | --- |"
	printf "| 1/2: TraceMessage (kernel) / user_events | %s | <= 0.8 %s |\n", r12,
		mark(r12 != "n/a" && r12 + 0 <= 0.8)
	printf "| 1/3: TraceMessage (kernel) / trace_marker | %s | |\n", ratio(p1, p3)
	printf "| 1/4: TraceMessage (kernel) / no-op ioctl | %s | <= 2.0 %s |\n", r14,
		mark(r14 != "n/a" && r14 + 0 <= 2.0)
	printf "| 1/4b: TraceMessage (kernel) / getppid | %s | |\n", ratio(p1, p4b)
	printf "| 5/LTTng-UST (host): user-mode logger / LTTng-UST | %s | <= 0.8 %s |\n", r5l,
		mark(r5l != "n/a" && r5l + 0 <= 0.8)
	printf "| 5n/LTTng-UST (host): the same without SEQUENCE | %s | <= 0.5 %s |\n", r5n,
		mark(r5n != "n/a" && r5n + 0 <= 0.5)
	printf "| host, 2 threads / 1: user-mode logger (file on disk) vs LTTng-UST | " \
		"%s vs %s | >= LTTng's %s |\n", su2, sl2,
		mark(su2 != "n/a" && sl2 != "n/a" && su2 + 0 >= sl2 + 0)
	printf "| host, 4 threads / 1 (%d CPUs): user-mode logger vs LTTng-UST | " \
		"%s vs %s | >= LTTng's %s |\n", ncpus_host, su4, sl4,
		mark(su4 != "n/a" && sl4 != "n/a" && su4 + 0 >= sl4 + 0)
	printf "| host, 2 / 4 threads, user-mode logger without SEQUENCE vs LTTng-UST | " \
		"%s / %s vs %s / %s | >= LTTng's %s |\n", sn2, sn4, sl2, sl4,
		mark(sn2 != "n/a" && sn4 != "n/a" && sl2 != "n/a" && sl4 != "n/a" &&
		     sn2 + 0 >= sl2 + 0 && sn4 + 0 >= sl4 + 0)
	printf "| 2 threads / 1 thread, TraceMessage (kernel), median of %d boot%s, %s " \
		"(%s) | %s | >= 1.8 %s |\n", nb, (nb > 1 ? "s" : ""), how, tb, t1m,
		mark(t1m != "n/a" && t1m + 0 >= 1.8)
	printf "| 2 threads / 1 thread, TraceMessage into a buffering session nobody " \
		"reads (as user_events runs), median of %d boot%s, %s (%s) | %s | >= 1.8 %s |\n",
		nb, (nb > 1 ? "s" : ""), how, tbb, tbm, mark(tbm != "n/a" && tbm + 0 >= 1.8)
	printf "| 1/2b: the same, 1 thread / user_events | %s | <= 0.8 %s |\n", r12b,
		mark(r12b != "n/a" && r12b + 0 <= 0.8)
	printf "| 1/4c: the same, 1 thread / no-op ioctl | %s | <= 2.0 %s |\n", r14c,
		mark(r14c != "n/a" && r14c + 0 <= 2.0)
	# The first boot's: both vCPUs on one host thread (at most 1).
	printf "| 2 threads / 1 thread, TraceMessage without SEQUENCE (first boot: " \
		"one host thread for both vCPUs) | %s | |\n", tn
	printf "| 2 threads / 1 thread, user_events (first boot: one host thread " \
		"for both vCPUs) | %s | |\n", t2
	printf "| SEQUENCE's cost, 1 thread (with / without) | %s | |\n",
		ratio(med["tm_kernel 1"], med["tm_kernel_noseq 1"])
	printf "| SEQUENCE's cost, 2 threads (with / without) | %s | |\n",
		ratio(med["tm_kernel 2"], med["tm_kernel_noseq 2"])
	printf "| logger draining all tm_kernel runs: events lost %% | %s | 0 %s |\n", loss,
		mark(loss == "0.000")
	# A TraceMessage refused (the only failure here: no free buffer) is
	# an event lost; the logger's EventsLost also counts EventWrite's.
	tml = fact["host_tm_umlogger failed_1t"] + 0
	printf "| user-mode logger, TraceMessage events lost at one thread's full rate, " \
		"file on tmpfs (host) | %d | 0 %s |\n", tml,
		mark(fact["host_tm_umlogger lost"] != "" && tml == 0)
	printf "| the same logger's EventsLost, TraceMessage and EventWrite (144-byte " \
		"records) | %s | |\n", nz(fact["host_tm_umlogger lost"])
	printf "| file on disk, 1-4 threads: user-mode logger lost / LTTng-UST discarded | " \
		"%s / %s | |\n", nz(fact["host_tm_umlogger_disk lost"]),
		lttng_round("disk_round", "tmpfs_round")
	printf "| user-mode logger in the VM (/dev/null), events lost | %s | |\n",
		nz(fact["tm_umlogger lost"])
	printf "| user-mode logger's writer thread, CPU per 64 KB buffer written (host): " \
		"tmpfs / disk / /dev/null (the sweep) | %s / %s / %s us | |\n",
		nz(fact["host_tm_umlogger writer_us_per_buffer"]),
		nz(fact["host_tm_umlogger_disk writer_us_per_buffer"]),
		nz(fact["host_sweep_umlogger writer_us_per_buffer"])
	# The session also records the size sweep: its discards before it.
	ld = fact["host_lttng_ust discarded_before_sweep"]
	if (ld == "")
		ld = fact["host_lttng_ust discarded"]
	printf "| LTTng-UST: events discarded | %s | |\n", lttng_count(ld)

	# The inline test <nttrace/evntprov.h> makes: one load and a branch.
	ewd = med["host_ew_disabled 1"]; eed = med["host_ee_disabled 1"]
	ewt = med["host_ewt_disabled 1"]; ewx = med["host_ewx_disabled 1"]
	printf "| disabled EventWrite (host), ns | %s | <= 1.0 %s |\n", ns(ewd),
		mark(ewd != "" && ewd >= 0 && ewd <= 1.0)
	printf "| disabled EventWriteTransfer (host), ns | %s | <= 1.0 %s |\n", ns(ewt),
		mark(ewt != "" && ewt >= 0 && ewt <= 1.0)
	printf "| disabled EventWriteEx (host), ns | %s | <= 1.0 %s |\n", ns(ewx),
		mark(ewx != "" && ewx >= 0 && ewx <= 1.0)
	printf "| disabled EventEnabled (host), ns | %s | <= 1.0 %s |\n", ns(eed),
		mark(eed != "" && eed >= 0 && eed <= 1.0)
	printf "| disabled LTTng-UST tracepoint (host), ns | %s | |\n", ns(med["host_lttng_disabled 1"])
	# The inline test of the enable bits an `nttrace mc` header makes.
	mcd = med["host_mc_disabled 1"]
	printf "| disabled EventWriteX of an nttrace mc header (host), ns | %s | <= 0.5 %s |\n",
		ns(mcd), mark(mcd != "" && mcd >= 0 && mcd <= 0.5)
	# A disabled TraceLoggingWrite beside a disabled tracepoint.
	tld = med["host_tl_disabled 1"]; ltd = med["host_lttng_disabled 1"]
	printf "| disabled TraceLoggingWrite (host), ns | %s | |\n", ns(tld)
	printf "| disabled TraceLoggingWrite - disabled LTTng-UST tracepoint (host), ns | %s | " \
		"<= 0.5 %s |\n", (tld != "" && ltd != "" ? sprintf("%.2f", tld - ltd) : "n/a"),
		mark(tld != "" && ltd != "" && tld - ltd <= 0.5)
	printf "| TraceLoggingWrite / EventWrite, to the user-mode logger (host) | %s | |\n",
		ratio(med["host_tl_umlogger 1"], med["host_ew_umlogger 1"])
	printf "| TraceLoggingWrite / EventWrite, to a kernel session (VM) | %s | |\n",
		ratio(med["tl_kernel 1"], med["ew_kernel 1"])
	printf "| disabled EventWrite / disabled user_events check (VM) | %s | |\n",
		ratio(med["ew_disabled 1"], med["ue_disabled 1"])
	printf "| EventWrite to the user-mode logger / LTTng-UST (host) | %s | |\n",
		ratio(med["host_ew_umlogger 1"], pl)
	printf "| EventWrite to a kernel session / user_events writev (VM) | %s | |\n",
		ratio(med["ew_kernel 1"], p2)

	realtime()
	reading()
	sweep()

	if (json == "")
		exit
	printf "{\n  \"paths\": {\n" > json
	for (k = 1; k <= nkeys; k++) {
		key = order[k]
		split(key, w, " ")
		printf "    \"%s/%s\": {\"path\": \"%s\", \"threads\": %s, \"median_ns\": %.1f, " \
			"\"min_ns\": %.1f, \"max_ns\": %.1f, \"samples_ns\": [", key_name(key),
			w[2], w[1], w[2], med[key], lo[key], hi[key] > json
		for (i = 1; i <= count[key]; i++)
			printf("%s%.1f", (i > 1 ? ", " : ""), sample[key, i]) > json
		printf("]}%s\n", (k < nkeys ? "," : "")) > json
	}
	printf "  },\n  \"ratios\": {\"1/2\": %s, \"1/3\": %s, \"1/4\": %s, \"1/4b\": %s, " \
		"\"5/lttng_ust\": %s, \"2t/1t_tm_kernel\": %s, \"2t/1t_tm_kernel_noseq\": %s, " \
		"\"2t/1t_user_events\": %s, \"5n/lttng_ust\": %s, " \
		"\"2t/1t_tm_kernel_median_of_boots\": %s, \"host_2t/1t_umlogger\": %s, " \
		"\"host_2t/1t_lttng_ust\": %s, \"host_4t/1t_umlogger\": %s, " \
		"\"host_4t/1t_lttng_ust\": %s, \"host_2t/1t_umlogger_noseq\": %s, " \
		"\"host_4t/1t_umlogger_noseq\": %s, \"1/2b\": %s, \"1/4c\": %s, " \
		"\"2t/1t_tm_kernel_buffering_median_of_boots\": %s},\n", jnum(r12),
		jnum(ratio(p1, p3)), jnum(r14),
		jnum(ratio(p1, p4b)), jnum(r5l), jnum(t1), jnum(tn), jnum(t2), jnum(r5n),
		jnum(t1m), jnum(su2), jnum(sl2), jnum(su4), jnum(sl4), jnum(sn2), jnum(sn4),
		jnum(r12b), jnum(r14c), jnum(tbm) > json
	printf "  \"logger\": {\"events_written\": %d, \"events_lost\": %d, " \
		"\"events_overwritten\": %d, \"lost_percent\": %s},\n", lg[1], lg[2], lg[3],
		jnum(loss) > json
	printf "  \"realtime\": {" > json
	for (k = 1; k <= nrt; k++) {
		key = rt_keys[k]
		split(key, w, " ")
		printf "%s\n    \"%s/%s\": {\"events_per_s\": %s, \"min_events_per_s\": %s, " \
			"\"max_events_per_s\": %s, \"written\": %d, \"delivered\": %d, " \
			"\"lost\": %d", (k > 1 ? "," : ""), w[1], w[2], jnum(eps(med[key])),
			jnum(eps(hi[key])), jnum(eps(lo[key])), rt_written[key],
			rt_delivered[key], rt_lost[key] > json
		n = split(rt_extra_names[key], x, " ")
		for (i = 1; i <= n; i++)
			printf ", \"%s\": %d", x[i], rt_extra[key, x[i]] > json
		printf "}" > json
	}
	printf "%s},\n  \"realtime_ratios\": {\"rt_consumer/rt_trace_pipe_1t\": %s, " \
		"\"rt_consumer/rt_trace_pipe_2t\": %s, \"rt_consumer/rt_ue_pipe_1t\": %s, " \
		"\"rt_consumer/rt_ue_pipe_2t\": %s},\n", (nrt ? "\n  " : ""),
		jnum(rt_ratio("rt_trace_pipe", 1)), jnum(rt_ratio("rt_trace_pipe", 2)),
		jnum(rt_ratio("rt_ue_pipe", 1)), jnum(rt_ratio("rt_ue_pipe", 2)) > json
	if (rd_npaths) {
		reading_json()
		printf ",\n" > json
	}
	printf "  \"notes\": [" > json
	for (k = 1; k <= ncomments; k++) {
		c = comment[k]
		gsub(/\\/, "\\\\", c)
		gsub(/"/, "\\\"", c)
		printf("%s\"%s\"", (k > 1 ? ", " : ""), c) > json
	}
	printf "]\n}\n" > json
	close(json)
}

# The real-time delivery block: events per second delivered to a reader,
# end to end, and nttrace's against trace_pipe's. Informational: there is
# no target.
function realtime(    k, key, w, n, i, x, extra, ok) {
	for (k = 1; k <= nkeys; k++)
		if (order[k] in rt_reps)
			rt_keys[++nrt] = order[k]
	if (!nrt)
		return
	print ""
	print "### Real-time delivery (VM; informational)"
	print ""
	print "Events per second delivered to a reader in the same process, end to end: from"
	print "the first write to the last event read (nttrace: ProcessTrace returning after"
	print "the session's stop; trace_pipe: its reader seeing an end marker). Written,"
	print "delivered and lost are over all repeats; lost events are those refused by a full"
	print "ring or taken back from the consumer (nttrace: EVENT_TRACE_LOGFILE.EventsLost)"
	print "or overwritten before being read (ftrace: trace_pipe's \"LOST\" lines)."
	print ""
	print "| path | threads | events/s (median) | min - max | written | delivered | lost | " \
		"delivered + lost = written | other counts |"
	print "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	for (k = 1; k <= nrt; k++) {
		key = rt_keys[k]
		split(key, w, " ")
		extra = ""
		n = split(rt_extra_names[key], x, " ")
		for (i = 1; i <= n; i++)
			extra = extra (i > 1 ? ", " : "") (x[i] ~ /_us$/ ? "max " : "") x[i] " " \
				rt_extra[key, x[i]]
		ok = rt_delivered[key] + rt_lost[key] == rt_written[key]
		printf "| %s | %s | %s | %s - %s | %d | %d | %d | %s | %s |\n", rt_label[w[1]] ? \
			rt_label[w[1]] : w[1], w[2], eps(med[key]), eps(hi[key]), eps(lo[key]),
			rt_written[key], rt_delivered[key], rt_lost[key], ok ? "yes" : "**no**",
			extra
	}
	for (k = 1; k <= ncomments; k++)
		if (comment[k] ~ /^rt_perf_trace:/)
			print "\n`perf trace`: " substr(comment[k], 16)
	print ""
	print "| ratio (events/s) | value |"
	print "| --- | --- |"
	printf "| nttrace real-time consumer / trace_pipe (trace_marker), 1 thread | %s |\n",
		rt_ratio("rt_trace_pipe", 1)
	printf "| nttrace real-time consumer / trace_pipe (trace_marker), 2 threads | %s |\n",
		rt_ratio("rt_trace_pipe", 2)
	printf "| nttrace real-time consumer / trace_pipe (user_events), 1 thread | %s |\n",
		rt_ratio("rt_ue_pipe", 1)
	printf "| nttrace real-time consumer / trace_pipe (user_events), 2 threads | %s |\n",
		rt_ratio("rt_ue_pipe", 2)
	printf "| nttrace, 1 thread: real-time delivery end to end / writing alone, " \
		"`nttrace record` draining (tm_kernel) | %s |\n",
		ratio(med["tm_kernel 1"], med["rt_consumer 1"])
}

# ---- Reading files (scripts/bench-read, tests/bench/read.c) ----
#
# One thread each, events/s and MB/s (2^20 bytes) by wall time, median of
# the rounds; the targets: ProcessTrace with a counting callback
# at 10 million events/s or more on one core, and ten times babeltrace2's
# rate. babeltrace2's rate is that of its counting sink: a reader that
# formats nothing, as the counting callback, and babeltrace2's fastest.

# @path's rate in each round (what 1: events/s, 2: MB/s, 3: CPU over wall
# time, 4: events per second of the reader's CPU time); the median is
# returned, the min and max left in rd_lo and rd_hi.
function rd_stat(path, what,    n, i, a) {
	n = rd_n[path]
	if (!n)
		return -1
	for (i = 1; i <= n; i++)
		a[i] = what == 1 ? rd_events[path] * 1e9 / rd_wall[path, i] : \
		       what == 2 ? rd_bytes[path] / 1048576 * 1e9 / rd_wall[path, i] : \
		       what == 3 ? rd_cpu[path, i] / rd_wall[path, i] : \
		       rd_events[path] * 1e9 / rd_cpu[path, i]
	sort(a, n)
	rd_lo = a[1]
	rd_hi = a[n]
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

function rd_eps(path) { return rd_stat(path, 1) }

# A whole number with thousands separators (mawk has no %'d).
function big(v,    s, t) {
	if (v == "" || v < 0)
		return "n/a"
	s = sprintf("%.0f", v)
	t = ""
	while (length(s) > 3) {
		t = "," substr(s, length(s) - 2) t
		s = substr(s, 1, length(s) - 3)
	}
	return s t
}

function reading(    k, p, e, lo, hi, mbs, cpu, pt, bc, bt, dm, r, rt, rdt, t10, lbl) {
	if (!rd_npaths)
		return
	print ""
	print "### Reading files (host)"
	print ""
	for (k = 1; k <= rd_nnotes; k++)
		print "- " rd_note[k]
	printf "- The file: %s MB (%s bytes) written with the library's writer " \
		"(nttrace_logfile_open/_buffer/_close) into the build directory on disk, " \
		"fsynced, then read once (%s ms) so that every timed read found it in the " \
		"page cache: %s events, EventWrite records (EVENT_HEADER and a %s-byte payload, " \
		"%s bytes a record, %s a buffer) in %s KB buffers of %s CPUs whose events " \
		"alternate one by one in time, so that the reader's merge changes CPU at " \
		"every event.\n", sprintf("%.0f", rd_fact["bytes"] / 1048576),
		big(rd_fact["bytes"]), nz(rd_fact["cache_read_ms"]), big(rd_fact["events"]),
		nz(rd_fact["payload"]), nz(rd_fact["record_bytes"]),
		nz(rd_fact["events_per_buffer"]), nz(rd_fact["buffer_kb"]), nz(rd_fact["cpus"])
	if ("lttng_bytes" in rd_fact)
		printf "- babeltrace2's trace: an LTTng-UST session of the same number of " \
			"events (nttrace_bench:sized, the same %s bytes, a thread on each " \
			"CPU, per-user buffers, a blocking channel): %s bytes of streams, " \
			"%s events discarded, %s events read by babeltrace2%s; also read once " \
			"before the timed reads.\n", nz(rd_fact["payload"]),
			big(rd_fact["lttng_bytes"]), nz(rd_fact["lttng_discarded"]),
			big(rd_fact["lttng_events"]),
			rd_fact["lttng_events"] == rd_fact["events"] ? "" : \
			" (**not the " rd_fact["events"] " asked for**)"
	print "- Median of the rounds (one run of each reader a round, interleaved), " \
		"one thread each, by wall time; MB/s of the bytes each read (MB = 2^20 bytes); " \
		"CPU is the reader's user and system time over its wall time, and events " \
		"per CPU second the events over that time (what the reader would do on a core " \
		"of its own, where the machine is shared)."
	print ""
	print "| reader | events | events/s (median) | min - max | MB/s | CPU / wall | " \
		"events per CPU second | rounds |"
	print "| --- | --- | --- | --- | --- | --- | --- | --- |"
	for (k = 1; k <= rd_npaths; k++) {
		p = rd_order[k]
		e = rd_eps(p); lo = rd_lo; hi = rd_hi
		mbs = rd_stat(p, 2)
		cpu = rd_stat(p, 3)
		lbl = p in rd_label ? rd_label[p] : p
		printf "| %s | %s | %s | %s - %s | %.0f | %.2f | %s | %d |\n", lbl,
			big(rd_events[p]), big(e), big(lo), big(hi), mbs, cpu,
			big(rd_stat(p, 4)), rd_n[p]
	}
	pt = rd_eps("processtrace")
	bc = rd_eps("babeltrace2_counter")
	bt = rd_eps("babeltrace2_text")
	dm = rd_eps("nttrace_dump")
	r = ratio(pt, bc); rt = ratio(pt, bt); rdt = ratio(dm, bt)
	t10 = pt >= 10e6
	print ""
	print "| reading: ratio or target | value | target |"
	print "| --- | --- | --- |"
	printf "| ProcessTrace, counting callback, events/s on one core | %s | " \
		">= 10,000,000 %s |\n", big(pt), mark(t10)
	printf "| ProcessTrace / babeltrace2 -c sink.utils.counter (events/s) | %s | " \
		">= 10 %s |\n", r, mark(r != "n/a" && r + 0 >= 10)
	printf "| the same by events per CPU second (less of the shared machine in it) " \
		"| %s | |\n", ratio(rd_stat("processtrace", 4), rd_stat("babeltrace2_counter", 4))
	printf "| ProcessTrace / babeltrace2, text output | %s | |\n", rt
	printf "| nttrace dump / babeltrace2, text output (both formatting every " \
		"event) | %s | |\n", rdt
}

# The "reading" member of the JSON: the file, each reader's rates and raw
# samples, the ratios and the targets.
function reading_json(    k, p, i, e, lo, hi, pt, bc, r) {
	printf "  \"reading\": {\"file\": {" > json
	printf "\"events\": %s, \"bytes\": %s, \"buffer_kb\": %s, \"record_bytes\": %s, " \
		"\"payload\": %s, \"cpus\": %s, \"cache_read_ms\": %s, \"write_fsync_ms\": %s, " \
		"\"lttng_bytes\": %s, \"lttng_events\": %s, \"lttng_discarded\": %s},\n",
		jv(rd_fact["events"]), jv(rd_fact["bytes"]), jv(rd_fact["buffer_kb"]),
		jv(rd_fact["record_bytes"]), jv(rd_fact["payload"]), jv(rd_fact["cpus"]),
		jv(rd_fact["cache_read_ms"]), jv(rd_fact["write_fsync_ms"]),
		jv(rd_fact["lttng_bytes"]), jv(rd_fact["lttng_events"]),
		jv(rd_fact["lttng_discarded"]) > json
	printf "    \"readers\": {" > json
	for (k = 1; k <= rd_npaths; k++) {
		p = rd_order[k]
		e = rd_eps(p); lo = rd_lo; hi = rd_hi
		printf "%s\n      \"%s\": {\"events\": %s, \"bytes\": %s, " \
			"\"events_per_s\": %.0f, \"min_events_per_s\": %.0f, " \
			"\"max_events_per_s\": %.0f, \"mb_per_s\": %.1f, " \
			"\"events_per_cpu_s\": %.0f, \"samples\": [",
			(k > 1 ? "," : ""), p, rd_events[p], rd_bytes[p], e, lo, hi,
			rd_stat(p, 2), rd_stat(p, 4) > json
		for (i = 1; i <= rd_n[p]; i++)
			printf "%s{\"wall_ns\": %s, \"cpu_ns\": %s}", (i > 1 ? ", " : ""),
				rd_wall[p, i], rd_cpu[p, i] > json
		printf "]}" > json
	}
	pt = rd_eps("processtrace")
	bc = rd_eps("babeltrace2_counter")
	r = ratio(pt, bc)
	printf "\n    },\n    \"ratios\": {\"processtrace/babeltrace2_counter\": %s, " \
		"\"processtrace/babeltrace2_text\": %s, \"nttrace_dump/babeltrace2_text\": %s},\n",
		jnum(r), jnum(ratio(pt, rd_eps("babeltrace2_text"))),
		jnum(ratio(rd_eps("nttrace_dump"), rd_eps("babeltrace2_text"))) > json
	printf "    \"targets\": {\"processtrace_10M_events_per_s\": %s, " \
		"\"processtrace_10x_babeltrace2\": %s}}", (pt >= 10e6 ? "true" : "false"),
		(r != "n/a" && r + 0 >= 10 ? "true" : "false") > json
}

function jv(v) { return v == "" ? "null" : v }

# nttrace's events/s over @peer's with @t threads (ns per event the other way).
function rt_ratio(peer, t) { return ratio(med[peer " " t], med["rt_consumer " t]) }

function eps(v) { return v <= 0 || v == "" ? "n/a" : sprintf("%.0f", 1e9 / v) }

BEGIN {
	rd_label["processtrace"] = "nttrace: OpenTraceA + ProcessTrace (EVENT_RECORD), " \
		"a callback that counts"
	rd_label["nttrace_dump"] = "`nttrace dump FILE > /dev/null`"
	rd_label["babeltrace2_text"] = "`babeltrace2 TRACE > /dev/null` (text output)"
	rd_label["babeltrace2_counter"] = "`babeltrace2 TRACE -c sink.utils.counter` " \
		"(counts, formats nothing)"
	rt_label["rt_consumer"] = "rt_consumer: nttrace, OpenTrace/ProcessTrace"
	rt_label["rt_trace_pipe"] = "rt_trace_pipe: trace_marker, trace_pipe"
	rt_label["rt_ue_pipe"] = "rt_ue_pipe: user_events, trace_pipe"
}

function key_name(key) { sub(/ .*/, "", key); return key }
function ns(v) { return v < 0 || v == "" ? "n/a" : (v < 10 ? sprintf("%.2f", v) : sprintf("%.0f", v)) }
function nz(v) { return v == "" ? "n/a" : v }
function jnum(v) { return v == "n/a" ? "null" : v }
function mark(ok) { return ok ? "(met)" : "(**not met**)" }

# ---- How cost grows with the payload: the size sweep ----
#
# "S PATH SIZE REP NS" samples, "U PATH SIZE WHY..." for a size a path
# cannot take, "L PATH SIZE LOST WRITTEN" for its session's losses, "M KEY
# VALUES..." for memory and overhead (bench.c's sweep section). With -v
# plotdir=DIR, the medians also go to DIR/sweep-vm.dat and
# DIR/sweep-host.dat for tests/bench/plot.gp.

$1 == "S" {
	sk = (host ? "host " : "vm ") $2
	if (!((sk) in sw_seen)) {
		sw_seen[sk] = 1
		sw_paths[host, ++sw_npaths[host]] = $2
	}
	sw_n[sk, $3]++
	sw_s[sk, $3, sw_n[sk, $3]] = $5 + 0
}

$1 == "U" {
	sk = (host ? "host " : "vm ") $2
	if (!((sk) in sw_seen)) {
		sw_seen[sk] = 1
		sw_paths[host, ++sw_npaths[host]] = $2
	}
	why = $0
	sub(/^U [^ ]+ [^ ]+ /, "", why)
	sw_why[sk, $3] = why
}

$1 == "L" { sw_lost[(host ? "host " : "vm ") $2, $3] = $4; sw_written[(host ? "host " : "vm ") $2, $3] = $5 }

$1 == "M" { m = $2; for (i = 3; i <= NF; i++) mf[m, i - 2] = $i; mseen = 1 }

function sw_median(sk, size,    n, i, a) {
	n = sw_n[sk, size]
	if (!n)
		return -1
	for (i = 1; i <= n; i++)
		a[i] = sw_s[sk, size, i]
	sort(a, n)
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

function sw_size_name(s) { return s >= 1024 ? (s / 1024) " KB" : s " B" }

# One table (h: 0 the VM, 1 the host) and its plot data.
function sw_table(h, title, dat,    p, k, sk, name, cell, v, nfoot, hdr, line, note) {
	if (!sw_npaths[h])
		return
	print ""
	print "#### " title
	print ""
	hdr = "| path |"
	line = "| --- |"
	for (k = 1; k <= sw_nsizes; k++) {
		hdr = hdr " " sw_size_name(sw_sizes[k]) " |"
		line = line " --- |"
	}
	print hdr
	print line
	if (dat != "") {
		printf "bytes" > dat
		for (p = 1; p <= sw_npaths[h]; p++) {
			name = sw_paths[h, p]
			note = ""
			for (k = 1; k <= sw_nsizes; k++)
				if ((((h ? "host " : "vm ") name), sw_sizes[k]) in sw_why)
					note = note (note == "" ? " (cannot take " : ", ") \
						sw_size_name(sw_sizes[k])
			if (name == "ioctl_noop")
				note = " (the floor: no payload"
			printf " \"%s%s\"", name, note (note == "" ? "" : ")") > dat
		}
		printf "\n" > dat
	}
	for (p = 1; p <= sw_npaths[h]; p++) {
		name = sw_paths[h, p]
		sk = (h ? "host " : "vm ") name
		cell = "| " name (name == "ioctl_noop" ? " (floor: no payload)" : "") " |"
		for (k = 1; k <= sw_nsizes; k++) {
			if ((sk, sw_sizes[k]) in sw_why) {
				sw_foot[++sw_nfoot] = name ", " sw_size_name(sw_sizes[k]) ": " \
					sw_why[sk, sw_sizes[k]]
				cell = cell " cannot [" sw_nfoot "] |"
				continue
			}
			v = sw_median(sk, sw_sizes[k])
			cell = cell " " ns(v)
			if (sw_lost[sk, sw_sizes[k]] > 0)
				cell = cell sprintf(" (%s%% lost)", pct(sw_lost[sk, sw_sizes[k]], \
					sw_written[sk, sw_sizes[k]]))
			cell = cell " |"
		}
		print cell
	}
	if (dat == "")
		return
	for (k = 1; k <= sw_nsizes; k++) {
		printf "%d", sw_sizes[k] > dat
		for (p = 1; p <= sw_npaths[h]; p++) {
			v = sw_median((h ? "host " : "vm ") sw_paths[h, p], sw_sizes[k])
			printf((v < 0 ? " NaN" : " %.1f"), v) > dat
		}
		printf "\n" > dat
	}
	close(dat)
}

function sweep(    k, kb, tot, n, bytes, hdr) {
	if (!sw_npaths[0] && !sw_npaths[1] && !mseen)
		return
	sw_nsizes = split("8 64 512 4096 8192", sw_sizes, " ")
	print ""
	print "### How cost grows with the payload"
	print ""
	print "ns per event (median of the sweep's repeats) by payload size, one thread. A"
	print "\"lost\" figure is the share of the events written that the session lost (its"
	print "QUERY counters before and after each run, over the repeats; LTTng-UST's below"
	print "the table). An event lost is cheaper than one recorded: read the times beside"
	print "the losses."
	print "ftrace's ring (trace_marker, user_events) overwrites: nothing is lost to the writer."
	sw_table(0, "In the VM (bench kernel, QEMU TCG)", plotdir == "" ? "" : plotdir "/sweep-vm.dat")
	sw_table(1, "On the host", plotdir == "" ? "" : plotdir "/sweep-host.dat")
	if (sw_nfoot) {
		print ""
		print "Sizes a path cannot take (each found by one event of that size, untimed):"
		print ""
		for (k = 1; k <= sw_nfoot; k++)
			print "- [" k "] " sw_foot[k]
	}

	print ""
	print "#### Memory per session (defaults)"
	print ""
	print "| session | buffers | memory | how obtained |"
	print "| --- | --- | --- | --- |"
	if (("mem_kernel_session", 1) in mf)
		printf "| nttrace kernel session | %d x %d KB (%d CPUs: %d a CPU) | %s | " \
			"StartTrace's NumberOfBuffers and BufferSize with default properties, in the VM |\n",
			mf["mem_kernel_session", 1], mf["mem_kernel_session", 2],
			mf["mem_kernel_session", 3], mf["mem_kernel_session", 1] / \
			mf["mem_kernel_session", 3], kbs(mf["mem_kernel_session", 1] * \
			mf["mem_kernel_session", 2])
	if (("mem_umlogger", 1) in mf)
		printf "| nttrace user-mode logger | %d x %d KB (one set a process) | %s | " \
			"StartTrace's NumberOfBuffers and BufferSize, EVENT_TRACE_PRIVATE_LOGGER_MODE, " \
			"defaults, on the host |\n", mf["mem_umlogger", 1], mf["mem_umlogger", 2],
			kbs(mf["mem_umlogger", 1] * mf["mem_umlogger", 2])
	if (("mem_lttng", 1) in mf)
		printf "| LTTng-UST channel (per-user buffers) | %d sub-buffers x %d KB a CPU, " \
			"%d CPUs | %s | `lttng list` of the session scripts/bench creates (the " \
			"defaults of `lttng enable-event -u`), on the host |\n", mf["mem_lttng", 2],
			mf["mem_lttng", 1] / 1024, mf["mem_lttng", 3],
			kbs(mf["mem_lttng", 1] / 1024 * mf["mem_lttng", 2] * mf["mem_lttng", 3])
	if (("mem_ftrace", 1) in mf)
		printf "| ftrace ring (trace_marker, user_events) | %d KB a CPU, %d CPUs | %s | " \
			"tracefs buffer_size_kb, in the VM |\n", mf["mem_ftrace", 1],
			mf["mem_ftrace", 2], kbs(mf["mem_ftrace", 1] * mf["mem_ftrace", 2])

	print ""
	print "#### Bytes of overhead per event (64-byte payload)"
	print ""
	print "| path | record header | bytes per event beyond the payload, in the file | how obtained |"
	print "| --- | --- | --- | --- |"
	ovh("overhead_tm_kernel", "TraceMessage, kernel session (SEQUENCE \\| TIMESTAMP \\| SYSTEMINFO)",
		"`nttrace record` to a file in the VM")
	ovh("overhead_ew_kernel", "EventWrite, kernel session (EVENT_HEADER)",
		"`nttrace record` to a file in the VM")
	ovh("overhead_tm_umlogger", "TraceMessage, user-mode logger (SEQUENCE \\| TIMESTAMP \\| " \
		"SYSTEMINFO)", "the logger's own file on the host")
	ovh("overhead_ew_umlogger", "EventWrite, user-mode logger (EVENT_HEADER)",
		"the logger's own file on the host")
	if (("overhead_lttng_ust", 1) in mf) {
		n = mf["overhead_lttng_ust", 1] - mf["overhead_lttng_ust", 3]
		bytes = mf["overhead_lttng_ust", 2]
		hdr = mf["overhead_lttng_ust", 4]
		printf "| LTTng-UST (nttrace_bench:msg, a 64-byte array) | %s | %s | the trace's " \
			"stream files (metadata and indexes excluded) of a session recording only " \
			"%d events (%d discarded), packet headers and padding included; the header " \
			"kind read from the trace's metadata (compact: 5-bit id and 27-bit time stamp " \
			"= 4 bytes; large: 16-bit id and 32-bit time stamp = 6 bytes, before " \
			"alignment, per CTF's LTTng layout) |\n",
			(hdr == "" ? "n/a" : "event_header_" hdr),
			(n > 0 ? sprintf("%.1f", bytes / n - 64) : "n/a"),
			mf["overhead_lttng_ust", 1], mf["overhead_lttng_ust", 3]
	}
}

# One nttrace overhead row: M KEY events file_bytes hdr_min hdr_max lost failed buffer_kb.
function ovh(key, label, how,    n, hdr) {
	if (!((key, 1) in mf))
		return
	n = mf[key, 1]
	hdr = mf[key, 3] == mf[key, 4] ? mf[key, 3] " bytes" : mf[key, 3] " - " mf[key, 4] " bytes"
	printf "| %s | %s | %.1f | %s: %d events read back with nttrace's ETL reader, each " \
		"record's size less its data (header); the file's size (%d bytes: its header, " \
		"%d KB buffers with their headers and unused tails) over the events, less 64; " \
		"%d lost |\n", label, hdr, mf[key, 2] / n - 64, how, n, mf[key, 2], mf[key, 7],
		mf[key, 5]
}

# @a of @b in percent: whole numbers, or two decimals below 1 (never "0%").
function pct(a, b) { return 100 * a / b >= 1 ? sprintf("%.0f", 100 * a / b) : sprintf("%.2f", 100 * a / b) }

function kbs(kb) { return kb >= 1024 ? sprintf("%.1f MB", kb / 1024) : kb " KB" }
