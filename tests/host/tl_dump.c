// SPDX-License-Identifier: GPL-2.0
/*
 * `nttrace dump` over TraceLogging events, with no module: the
 * user-mode logger writes a file of a provider using <TraceLoggingProvider.h>
 * (EventRegister needs no kernel for it), then the tool prints it, text and
 * JSON, and each event must come out as its names and fields, formatted by
 * TDH. TAP.
 *
 *   tl_dump NTTRACE DIR MANIFEST
 *
 * MANIFEST: tests/host/tdh_manifest_test.man, whose provider writes one
 * event too (shown by name with it, as hex without it): named by --manifest,
 * by NTTRACE_MANIFEST_PATH, and once `nttrace manifest install`ed.
 *
 * Then an event whose 31-byte schema nests three structures, each an
 * array of 65535 of the next, the last holding an empty array: 65535^3
 * values of no size. dump (text and JSON) and convert must stop at the
 * budget every rendering of an event has, say so, and go on to the next
 * event; checked by the output's size (read up to a bound, the tool
 * killed past it), never by time.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>
#include <nttrace/tdh.h>
#include <nttrace/traceloggingprovider.h>
#include "../vm/props.h"
#include "../vm/tap.h"

/* {6e747472-0028-4c54-8000-000000000029} */
TRACELOGGING_DEFINE_PROVIDER(tl_dump_provider, "nttrace.dump",
			     (0x6e747472, 0x0028, 0x4c54, 0x80, 0, 0, 0, 0, 0, 0, 0x29));
static const GUID tl_guid = { 0x6e747472, 0x0028, 0x4c54,
			      { 0x80, 0, 0, 0, 0, 0, 0, 0x29 } };

/* The lines the events must print: text, then JSON (fields and decoded). */
static const char *const want_text[] = {
	" nttrace.dump/Numbers n=-2 u=4000000000 h=0x2A f=1.5 b=true",
	" nttrace.dump/Texts s=caf\xc3\xa9 w=wide g={6E747472-0028-4C54-8000-000000000029}",
	" nttrace.dump/Shapes pt={x=3 y=4} a.Count=3 a=[7,8,9] c=[1,2] bin.Length=3 bin=0x010203",
};
static const char *const want_json[] = {
	"\"event\":\"Numbers\",\"fields\":{\"n\":\"-2\",\"u\":\"4000000000\",\"h\":\"0x2A\","
	"\"f\":\"1.5\",\"b\":\"true\"},\"decoded\":24}",
	"\"event\":\"Texts\",\"fields\":{\"s\":\"caf\xc3\xa9\",\"w\":\"wide\",\"g\":"
	"\"{6E747472-0028-4C54-8000-000000000029}\"},\"decoded\":32}",
	"\"event\":\"Shapes\",\"fields\":{\"pt\":{\"x\":\"3\",\"y\":\"4\"},\"a.Count\":\"3\","
	"\"a\":[\"7\",\"8\",\"9\"],\"c\":[\"1\",\"2\"],\"bin.Length\":\"3\",\"bin\":\"0x010203\"},"
	"\"decoded\":25}",
};

/* {3B6F6B0E-5C55-4F64-9D5B-2A8C7A1E0F11}: tests/host/tdh_manifest_test.man's provider. */
static const GUID man_guid = { 0x3b6f6b0e, 0x5c55, 0x4f64,
			       { 0x9d, 0x5b, 0x2a, 0x8c, 0x7a, 0x1e, 0x0f, 0x11 } };

/* With the manifest loaded: named by its task and opcode, no fields. */
static const char *const want_man[] = { " Nttrace-Test-Manifest/Start" };

static void write_file(const char *path)
{
	/* The manifest's event 3: no fields, level Error, opcode Start. */
	EVENT_DESCRIPTOR empty = { .Id = 3, .Level = 2, .Opcode = 1 };
	REGHANDLE man = 0;
	static const WCHAR wide[] = { 'w', 'i', 'd', 'e', 0 };
	static const int32_t a[] = { 7, 8, 9 };
	static const UINT8 c[] = { 1, 2 }, bin[] = { 1, 2, 3 };
	TRACEHANDLE h = 0;
	struct props pr;

	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	if (!tap_eq(StartTraceA(&h, "tl-dump", &pr.p), ERROR_SUCCESS, "user-mode logger"))
		return;
	tap_eq(TraceLoggingRegister(tl_dump_provider), 0, "TraceLoggingRegister");
	tap_eq(EnableTraceEx2(h, &tl_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL),
	       ERROR_SUCCESS, "enabled");
	tap_eq(EventRegister(&man_guid, NULL, NULL, &man), ERROR_SUCCESS,
	       "the manifest's provider registered");
	tap_eq(EnableTraceEx2(h, &man_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL),
	       ERROR_SUCCESS, "... enabled");
	tap_eq(EventWrite(man, &empty, 0, NULL), ERROR_SUCCESS, "... its event 3 written");
	TraceLoggingWrite(tl_dump_provider, "Numbers", TraceLoggingInt32(-2, "n"),
			  TraceLoggingUInt32(4000000000U, "u"), TraceLoggingHexInt32(42, "h"),
			  TraceLoggingFloat64(1.5, "f"), TraceLoggingBool(1, "b"));
	TraceLoggingWrite(tl_dump_provider, "Texts", TraceLoggingUtf8String("caf\xc3\xa9", "s"),
			  TraceLoggingWideString(wide, "w"), TraceLoggingGuid(tl_guid, "g"));
	TraceLoggingWrite(tl_dump_provider, "Shapes",
			  TraceLoggingStruct(2, "pt"), TraceLoggingInt16(3, "x"),
			  TraceLoggingInt16(4, "y"), TraceLoggingInt32Array(a, 3, "a"),
			  TraceLoggingUInt8FixedArray(c, 2, "c"),
			  TraceLoggingBinary(bin, 3, "bin"));
	tap_eq(ControlTraceA(h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS, "stop");
	TraceLoggingUnregister(tl_dump_provider);
	EventUnregister(man);
}

/*
 * Run the tool; each @want must be in one of its lines, once, and @n
 * lines must name @provider.
 */
static void check(const char *tool, const char *args, const char *path, const char *provider,
		  const char *const *want, unsigned int n, const char *what)
{
	char cmd[512], line[8192];
	unsigned int found[8] = { 0 }, i, events = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s dump %s %s", tool, args, path);
	f = popen(cmd, "r");
	if (!tap_ok(f != NULL, "%s: run nttrace dump", what))
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, provider))
			events++;
		if (getenv("TL_DUMP_SHOW"))
			printf("# %s", line);
		for (i = 0; i < n; i++)
			if (strstr(line, want[i]))
				found[i]++;
		if (strstr(line, " ext 11") || strstr(line, " ext 12"))
			printf("# metadata shown as hex: %s", line);
	}
	tap_eq(pclose(f), 0, "%s: exit 0", what);
	tap_eq(events, n, "%s: %u events", what, n);
	for (i = 0; i < n; i++)
		if (!tap_eq(found[i], 1, "%s: event %u named, fields decoded", what, i))
			printf("# want: %s\n", want[i]);
}

/* `nttrace providers --manifest`: what TdhEnumerateProviders then knows. */
static void providers(const char *tool, const char *manifest)
{
	char cmd[512], line[1024];
	unsigned int found = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s providers --manifest %s 2>/dev/null", tool, manifest);
	f = popen(cmd, "r");
	if (!tap_ok(f != NULL, "providers: run"))
		return;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "3b6f6b0e-5c55-4f64-9d5b-2a8c7a1e0f11") &&
		    strstr(line, "Nttrace-Test-Manifest") && strstr(line, "manifest"))
			found++;
	pclose(f);	/* 1 on a host without the module: its registrations */
	tap_eq(found, 1, "providers --manifest: the manifest's provider, its name, its source");
}

/*
 * TraceLogging metadata: event "Deep", fields a, b, c: structures of one
 * member, each an array of 65535 (TLG_CCOUNT); d: an array of no UINT8.
 */
static const uint8_t deep_meta[] = {
	31, 0, 0, 'D', 'e', 'e', 'p', 0,
	'a', 0, 24 | 0x20 | 0x80, 1, 0xFF, 0xFF,
	'b', 0, 24 | 0x20 | 0x80, 1, 0xFF, 0xFF,
	'c', 0, 24 | 0x20 | 0x80, 1, 0xFF, 0xFF,
	'd', 0, 4 | 0x20, 0, 0,
};

/* More output than the budget's values can make (about 10 bytes each). */
#define OUTPUT_BOUND	(64 << 20)

static void write_deep(const char *path)
{
	EVENT_DESCRIPTOR d = { .Level = 4, .Channel = 11 };
	EVENT_DATA_DESCRIPTOR dd[2];
	TRACEHANDLE h = 0;
	struct props pr;

	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	if (!tap_eq(StartTraceA(&h, "tl-dump-deep", &pr.p), ERROR_SUCCESS, "deep: logger"))
		return;
	tap_eq(TraceLoggingRegister(tl_dump_provider), 0, "deep: TraceLoggingRegister");
	EnableTraceEx2(h, &tl_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL);
	tap_eq(sizeof(deep_meta), 31, "deep: the schema's size");
	memset(dd, 0, sizeof(dd));
	nttrace_tl_desc_typed(&dd[1], deep_meta, sizeof(deep_meta),
			      EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA);
	tap_eq(nttrace_tl_write(tl_dump_provider, &d, NULL, NULL, 2, dd), ERROR_SUCCESS,
	       "deep: the event written");
	TraceLoggingWrite(tl_dump_provider, "After", TraceLoggingInt32(7, "n"));
	tap_eq(ControlTraceA(h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS,
	       "deep: stop");
	TraceLoggingUnregister(tl_dump_provider);
}

/*
 * `nttrace ARGS...`'s output, read up to OUTPUT_BOUND bytes (the tool is
 * killed past it): its exit status (-1 when killed), its size, and
 * whether it holds @a and @b.
 */
static int bounded(char *const *argv, size_t *size, const char *a, int *has_a,
		   const char *b, int *has_b)
{
	static char buf[1 << 16];
	char tail[256] = "";
	int fds[2], status;
	size_t keep = 0;
	ssize_t n;
	pid_t pid;

	*size = 0;
	*has_a = *has_b = 0;
	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	while (pid > 0 && (n = read(fds[0], buf, sizeof(buf) - 1)) > 0) {
		char join[sizeof(tail) * 2];

		*size += n;
		if (*size > OUTPUT_BOUND) {
			kill(pid, SIGKILL);
			break;
		}
		buf[n] = 0;
		/* A string across two reads: the last bytes of the one before too. */
		snprintf(join, sizeof(join), "%s%.*s", tail, (int)(n < 255 ? n : 255), buf);
		*has_a |= strstr(buf, a) || strstr(join, a);
		*has_b |= strstr(buf, b) || strstr(join, b);
		keep = n < 255 ? (size_t)n : 255;
		memcpy(tail, buf + n - keep, keep);
		tail[keep] = 0;
	}
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* `sh -c CMD`'s exit status (-1: it did not exit). */
static int sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * Manifests TDH finds with no --manifest: by NTTRACE_MANIFEST_PATH (the
 * file, its directory), and installed with `nttrace manifest` into the
 * directory NTTRACE_MANIFEST_DIR names (a fresh one here, never the
 * machine's); bad installs refused with nothing written; and, as an
 * unprivileged user, no install into root's directory.
 */
static void manifests(const char *tool, const char *dir, const char *manifest,
		      const char *path)
{
	/* Not named: its GUID and header, and its data's size (no fields). */
	static const char *const want_hex[] = { " [0 bytes]" };
	char mdir[256], sdir[256], inst[300];

	snprintf(mdir, sizeof(mdir), "%s/tl-dump-installed-%d", dir, (int)getpid());
	snprintf(sdir, sizeof(sdir), "%s/tl-dump-search-%d", dir, (int)getpid());
	snprintf(inst, sizeof(inst), "%s/tdh_manifest_test.man", mdir);
	sh("rm -rf %s %s && mkdir %s && cp %s %s/a.man && cp %s %s/b.txt", mdir, sdir, sdir,
	   manifest, sdir, manifest, sdir);
	setenv("NTTRACE_MANIFEST_DIR", mdir, 1);
	check(tool, "", path, "3b6f6b0e", want_hex, 1, "no manifest found: by its GUID");
	setenv("NTTRACE_MANIFEST_PATH", manifest, 1);
	check(tool, "", path, "Nttrace-Test-Manifest", want_man, 1,
	      "NTTRACE_MANIFEST_PATH=FILE");
	setenv("NTTRACE_MANIFEST_PATH", sdir, 1);
	check(tool, "", path, "Nttrace-Test-Manifest", want_man, 1,
	      "NTTRACE_MANIFEST_PATH=DIR (its .man file)");
	unsetenv("NTTRACE_MANIFEST_PATH");

	tap_eq(sh("%s manifest install %s >/dev/null", tool, manifest), 0,
	       "manifest install: exit 0");
	tap_eq(sh("test \"$(stat -c %%a %s)\" = 644", inst), 0, "... the file 0644");
	check(tool, "", path, "Nttrace-Test-Manifest", want_man, 1, "installed");
	tap_eq(sh("%s manifest list | grep -q '^  3b6f6b0e-5c55-4f64-9d5b-2a8c7a1e0f11 "
		  "Nttrace-Test-Manifest$'", tool), 0, "manifest list: its provider");
	tap_eq(sh("%s manifest install %s >/dev/null", tool, manifest), 0,
	       "install again (an update): exit 0");
	tap_eq(sh("cp %s %s/other.man && %s manifest install %s/other.man 2>&1 | "
		  "grep -q 'already installed by'", manifest, sdir, tool, sdir), 0,
	       "another file naming the same provider: refused, says which");
	tap_eq(sh("test ! -e %s/other.man", mdir), 0, "... and not written");
	tap_eq(sh("printf '<instrumentationManifest' > %s/bad.man && "
		  "! %s manifest install %s/bad.man 2>/dev/null && test ! -e %s/bad.man",
		  sdir, tool, sdir, mdir), 0, "a manifest that does not parse: refused, not written");
	tap_eq(sh("! %s manifest install %s/b.txt 2>/dev/null", tool, sdir), 0,
	       "a name TDH would not look at (.txt): refused");
	if (geteuid() == 0 && !sh("command -v setpriv >/dev/null"))
		tap_eq(sh("setpriv --reuid=65534 --regid=65534 --clear-groups %s manifest "
			  "install %s 2>&1 | grep -q 'Permission denied'", tool, manifest), 0,
		       "as an unprivileged user: permission denied");
	else
		tap_ok(1, "# SKIP as an unprivileged user: not root, or no setpriv");
	tap_eq(sh("%s manifest uninstall tdh_manifest_test.man >/dev/null && test ! -e %s",
		  tool, inst), 0, "manifest uninstall: removed");
	check(tool, "", path, "3b6f6b0e", want_hex, 1, "uninstalled: by its GUID again");
	tap_eq(sh("! %s manifest uninstall tdh_manifest_test.man 2>/dev/null", tool), 0,
	       "uninstall of what is not installed: exit 1");
	setenv("NTTRACE_MANIFEST_DIR", "/nonexistent/nttrace-manifests", 1);
	sh("rm -rf %s %s", mdir, sdir);
}

/* A file with one event whose text CSV and XML must quote: "=1+2 <&> "q"". */
static void write_quotes(const char *path)
{
	TRACEHANDLE h = 0;
	struct props pr;

	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	if (!tap_eq(StartTraceA(&h, "tl-dump-quotes", &pr.p), ERROR_SUCCESS,
		    "tracerpt: a file of text to quote"))
		return;
	TraceLoggingRegister(tl_dump_provider);
	EnableTraceEx2(h, &tl_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL);
	TraceLoggingWrite(tl_dump_provider, "Quotes", TraceLoggingUtf8String("=1+2 <&> \"q\"", "s"));
	ControlTraceA(h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP);
	TraceLoggingUnregister(tl_dump_provider);
}

/*
 * `nttrace tracerpt`: the event XML and CSV of the file's events, TDH's
 * fields in them and, by the manifest found, the RenderingInfo names;
 * text quoted for XML and for a spreadsheet; the summary's counts;
 * outputs 0600, never replaced without -y, never left half written.
 */
static void tracerpt(const char *tool, const char *dir, const char *path, const char *manifest)
{
	char xml[256], csv[256], sum[256], quotes[256], rep[256];

	snprintf(xml, sizeof(xml), "%s/tl-dump-%d.xml", dir, (int)getpid());
	snprintf(csv, sizeof(csv), "%s/tl-dump-%d.csv", dir, (int)getpid());
	snprintf(sum, sizeof(sum), "%s/tl-dump-%d.txt", dir, (int)getpid());
	snprintf(rep, sizeof(rep), "%s/tl-dump-%d-report.xml", dir, (int)getpid());
	snprintf(quotes, sizeof(quotes), "%s/tl-dump-quotes-%d.etl", dir, (int)getpid());
	unlink(xml);
	unlink(csv);
	unlink(sum);
	setenv("NTTRACE_MANIFEST_PATH", manifest, 1);
	tap_eq(sh("%s tracerpt %s -o %s -summary %s >/dev/null", tool, path, xml, sum), 0,
	       "tracerpt: XML and summary, exit 0");
	unsetenv("NTTRACE_MANIFEST_PATH");
	tap_eq(sh("test \"$(stat -c %%a %s)$(stat -c %%a %s)\" = 600600", xml, sum), 0,
	       "... both files 0600");
	tap_eq(sh("head -n 3 %s | tr -d '\\n' | grep -qx '<?xml version=\"1.0\" "
		  "encoding=\"UTF-8\"?><Events><Event xmlns=\"http://schemas.microsoft.com/"
		  "win/2004/08/events/event\">' && tail -n 1 %s | grep -qx '</Events>'", xml, xml),
	       0, "... <Events> of Windows' event XML");
	tap_eq(sh("grep -c '^<Event xmlns' %s | grep -qx 5", xml), 0,
	       "... five events: the header, the manifest's, three TraceLogging");
	tap_eq(sh("grep -q '^\t\t<Provider Name=\"nttrace.dump\" Guid=\"{6e747472-0028-"
		  "4c54-8000-000000000029}\" />$' %s", xml), 0, "... System/Provider: name, GUID");
	/* Binary data as Windows' event XML writes it: hex pairs, no 0x. */
	tap_eq(sh("grep -q '^\t\t<Data Name=\"n\">-2</Data>$' %s && grep -q "
		  "'^\t\t<Data Name=\"bin\">010203</Data>$' %s", xml, xml), 0,
	       "... EventData: the fields by name, as Windows writes their values");
	tap_eq(sh("grep -q '^\t\t<Task>Nttrace-Test-Manifest-Task</Task>$' %s || "
		  "grep -q '^\t\t<Opcode>Start</Opcode>$' %s", xml, xml), 0,
	       "... RenderingInfo: the manifest's names, the manifest found on the search path");
	tap_eq(sh("grep -q '^Total Events  Processed 5$' %s && "
		  "grep -Eq '^1 +nttrace.dump +Numbers +0 ' %s && "
		  "grep -Eq '^1 +Nttrace-Test-Manifest +[^ ]* *3 +1 ' %s", sum, sum, sum), 0,
	       "... summary: the events, by provider and event");
	tap_eq(sh("%s tracerpt %s -o %s >/dev/null 2>&1", tool, path, xml), 1,
	       "an existing output without -y: exit 1");
	tap_eq(sh("%s tracerpt %s -o %s -y >/dev/null", tool, path, xml), 0,
	       "... with -y: replaced");
	tap_eq(sh("%s tracerpt %s/none.etl -o %s -y >/dev/null 2>&1", tool, dir, xml), 1,
	       "a file that is not there: exit 1");
	tap_eq(sh("test -s %s && ! ls %s.* >/dev/null 2>&1", xml, xml), 0,
	       "... the output left as it was, no temporary file");
	tap_eq(sh("%s tracerpt %s -o %s -y -report %s >/dev/null && grep -q '^<Report "
		  "name=\"Trace Report\">$' %s && grep -q '<Data name=\"provider\">"
		  "nttrace.dump</Data>' %s && ! grep -q 'Processes' %s", tool, path, xml, rep,
		  rep, rep, rep), 0,
	       "-report: the files and events, no processes in a trace without the kernel's");
	unlink(rep);
	tap_eq(sh("%s tracerpt %s -o %s -y -report %s -f PDF >/dev/null 2>&1 || test $? -eq 2 "
		  "&& test ! -e %s && exit 2", tool, path, xml, rep, rep), 2,
	       "-report -f PDF: refused, exit 2, no report");

	write_quotes(quotes);
	tap_eq(sh("%s tracerpt %s -o %s -y >/dev/null && grep -q '^\t\t<Data Name=\"s\">"
		  "=1+2 &lt;&amp;&gt; &quot;q&quot;</Data>$' %s", tool, quotes, xml, xml), 0,
	       "XML: text escaped");
	tap_eq(sh("%s tracerpt %s -of CSV -o %s >/dev/null && head -n 1 %s | grep -qx 'Event "
		  "Name, Type, Event ID, Version, Channel, Level, Opcode, Task, Keyword, PID, TID, "
		  "Processor Number, Instance ID, Parent Instance ID, Activity ID, Related Activity "
		  "ID, Clock-Time, Kernel(ms), User(ms), User Data'", tool, quotes, csv, csv), 0,
	       "CSV: tracerpt's columns");
	tap_eq(sh("grep -q '^\"nttrace.dump\", .*, \"'\"'\"'=1+2 <&> \"\"q\"\"\"$' %s",
		  csv), 0, "... text quoted, a formula's '=' made text");
	unlink(xml);
	unlink(csv);
	unlink(sum);
	unlink(quotes);
}

/* ---- tracerpt -export ---- */

/* An event's description as a line: its name, then each field's name and types. */
static void signature(const TRACE_EVENT_INFO *t, char *out, size_t room)
{
	size_t n = 0;
	ULONG i;

#define PUT_W(off) do {							\
		const WCHAR *w_ = (const WCHAR *)((const char *)t + (off));	\
		while ((off) && *w_ && n + 8 < room)				\
			out[n++] = (char)(*w_ < 0x80 ? *w_ : '?'), w_++;	\
	} while (0)
	PUT_W(t->EventNameOffset);
	for (i = 0; i < t->PropertyCount && n + 40 < room; i++) {
		const EVENT_PROPERTY_INFO *pi = &t->EventPropertyInfoArray[i];

		out[n++] = ' ';
		PUT_W(pi->NameOffset);
		if (pi->Flags & PropertyStruct)
			n += snprintf(out + n, room - n, ":struct%u", pi->structType.NumOfStructMembers);
		else
			n += snprintf(out + n, room - n, ":%u/%u", pi->nonStructType.InType,
				      pi->nonStructType.OutType);
		if (pi->Flags & (PropertyParamCount | PropertyParamFixedCount))
			n += snprintf(out + n, room - n, "[%u]", pi->count);
	}
#undef PUT_W
	out[n] = 0;
}

#define MAX_SIGS	16
static char sigs[MAX_SIGS][1024];
static unsigned int nsigs;

static void add_sig(const char *s)
{
	unsigned int i;

	for (i = 0; i < nsigs; i++)
		if (!strcmp(sigs[i], s))
			return;
	if (nsigs < MAX_SIGS)
		snprintf(sigs[nsigs++], sizeof(sigs[0]), "%s", s);
}

static VOID WINAPI sig_event(PEVENT_RECORD er)
{
	char buf[4096], line[1024];
	TRACE_EVENT_INFO *t = (TRACE_EVENT_INFO *)buf;
	ULONG size = sizeof(buf);

	if (TdhGetEventInformation(er, 0, NULL, t, &size) ||
	    (t->DecodingSource != DecodingSourceXMLFile && t->DecodingSource != DecodingSourceTlg))
		return;
	signature(t, line, sizeof(line));
	add_sig(line);
}

/* The events of @path TDH describes (with @manifest loaded), as signatures. */
static void file_signatures(const char *path, const char *manifest)
{
	EVENT_TRACE_LOGFILEA lf;
	TRACEHANDLE h;
	WCHAR wm[512];
	size_t i;

	for (i = 0; manifest[i] && i + 1 < 512; i++)
		wm[i] = (WCHAR)manifest[i];
	wm[i] = 0;
	TdhLoadManifest(wm);
	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = (char *)path;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = sig_event;
	h = OpenTraceA(&lf);
	if (h != INVALID_PROCESSTRACE_HANDLE) {
		ProcessTrace(&h, 1, NULL, NULL);
		CloseTrace(h);
	}
	TdhUnloadManifest(wm);
}

/* How many of the signatures the events of @g in manifest @man describe. */
static unsigned int manifest_signatures(const char *man, const GUID *g, unsigned int *events)
{
	char ibuf[4096], line[1024];
	PROVIDER_EVENT_INFO *pe = NULL;
	TRACE_EVENT_INFO *t = (TRACE_EVENT_INFO *)ibuf;
	ULONG size = 0, k, i, found = 0;
	WCHAR wm[512];

	for (i = 0; man[i] && i + 1 < 512; i++)
		wm[i] = (WCHAR)man[i];
	wm[i] = 0;
	*events = 0;
	if (TdhLoadManifest(wm))
		return 0;
	if (TdhEnumerateManifestProviderEvents((LPGUID)g, NULL, &size) == ERROR_INSUFFICIENT_BUFFER)
		pe = malloc(size);
	if (pe && !TdhEnumerateManifestProviderEvents((LPGUID)g, pe, &size)) {
		*events = pe->NumberOfEvents;
		for (k = 0; k < pe->NumberOfEvents; k++) {
			size = sizeof(ibuf);
			if (TdhGetManifestEventInformation((LPGUID)g, &pe->EventDescriptorsArray[k],
							   t, &size))
				continue;
			signature(t, line, sizeof(line));
			for (i = 0; i < nsigs; i++)
				if (!strcmp(sigs[i], line))
					break;
			if (i < nsigs)
				found++;
			else if (nsigs)
				printf("# not in the log: %s\n", line);
		}
	}
	TdhUnloadManifest(wm);
	free(pe);
	return found;
}

/*
 * A file of hostile names (XML's markup characters, controls) and of more
 * distinct TraceLogging events than a manifest has values for: 65540
 * events of names E0 ... E65539, each with a field v, written with
 * metadata made at run time.
 */
#define MANY_EVENTS	65540

static void write_hostile(const char *path)
{
	EVENT_DESCRIPTOR d = { .Level = 4, .Channel = 11 };
	EVENT_DATA_DESCRIPTOR dd[3];
	uint8_t meta[32];
	int32_t v = 1;
	TRACEHANDLE h = 0;
	struct props pr;
	unsigned int i;
	int n;

	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	pr.p.MaximumFileSize = 0;
	if (!tap_eq(StartTraceA(&h, "tl-dump-hostile", &pr.p), ERROR_SUCCESS,
		    "export: a file of hostile names"))
		return;
	TraceLoggingRegister(tl_dump_provider);
	EnableTraceEx2(h, &tl_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 255, ~0ULL, 0, 0,
		       NULL);
	TraceLoggingWrite(tl_dump_provider, "a<&>\"'\x01\tz--",
			  TraceLoggingLevel(7), TraceLoggingOpcode(77), TraceLoggingKeyword(0x10),
			  TraceLoggingInt32(1, "f<&>\"'\x02"), TraceLoggingInt32(2, "]]>"));
	for (i = 0; i < MANY_EVENTS; i++) {
		n = snprintf((char *)meta + 3, sizeof(meta) - 3, "E%u", i);
		memcpy(meta + 3 + n + 1, "v\0\x07", 3);
		n += 3 + 1 + 3;
		meta[0] = (uint8_t)n;
		meta[1] = 0;
		meta[2] = 0;
		memset(dd, 0, sizeof(dd));
		nttrace_tl_desc_typed(&dd[1], meta, (ULONG)n, EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA);
		EventDataDescCreate(&dd[2], &v, sizeof(v));
		nttrace_tl_write(tl_dump_provider, &d, NULL, NULL, 3, dd);
	}
	ControlTraceA(h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP);
	TraceLoggingUnregister(tl_dump_provider);
}

/*
 * `nttrace tracerpt -export`: the manifest of the log's providers, written
 * 0600 and whole; it parses (TdhLoadManifest) and describes each event
 * with the fields TDH gave the log's (names, types), and `nttrace mc`
 * takes it. Classic events (the log's header) are skipped, said on stderr.
 * Hostile names come out escaped; more events than a manifest has values
 * for are cut, said, in bounded time and memory.
 */
static void schema_export(const char *tool, const char *dir, const char *path, const char *manifest)
{
	char man[256], xml[256], err[256], hostile[256], mcdir[256];
	unsigned int events, found;

	snprintf(man, sizeof(man), "%s/tl-dump-%d.man", dir, (int)getpid());
	snprintf(xml, sizeof(xml), "%s/tl-dump-x-%d.xml", dir, (int)getpid());
	snprintf(err, sizeof(err), "%s/tl-dump-x-%d.err", dir, (int)getpid());
	snprintf(hostile, sizeof(hostile), "%s/tl-dump-hostile-%d.etl", dir, (int)getpid());
	snprintf(mcdir, sizeof(mcdir), "%s/tl-dump-mc-%d", dir, (int)getpid());
	unlink(man);
	tap_eq(sh("%s tracerpt %s -o %s -y -import %s -export %s >/dev/null 2>%s", tool, path,
		  xml, manifest, man, err), 0, "export: exit 0");
	tap_eq(sh("test \"$(stat -c %%a %s)\" = 600 && ! ls %s.* >/dev/null 2>&1", man, man), 0,
	       "... 0600, no temporary file left");
	tap_eq(sh("grep -q '^nttrace: tracerpt: -export: skipped {68FDD900-4A3E-11D1-84F4-"
		  "0000F80464E3} .*1 classic events of a MOF class' %s && grep -q "
		  "'^nttrace: tracerpt: -export: 1 provider skipped, 2 written$' %s", err, err), 0,
	       "... the log's header (a MOF class) skipped, said and counted");
	tap_eq(sh("grep -q '<provider name=\"nttrace.dump\" guid=\"{6E747472-0028-4C54-8000-"
		  "000000000029}\"' %s && grep -q '<provider name=\"Nttrace-Test-Manifest\" "
		  "guid=\"{3B6F6B0E-5C55-4F64-9D5B-2A8C7A1E0F11}\"' %s", man, man), 0,
	       "... both providers, GUIDs in braces, uppercase");
	nsigs = 0;
	file_signatures(path, manifest);
	tap_eq(nsigs, 4, "... the log: four events TDH describes");
	found = manifest_signatures(man, &tl_guid, &events);
	tap_ok(events == 3 && found == 3, "round trip: TraceLogging's 3 events, same fields "
	       "(%u of %u)", found, events);
	found = manifest_signatures(man, &man_guid, &events);
	tap_ok(events == 1 && found == 1, "round trip: the manifest's event in the log, same "
	       "fields (%u of %u)", found, events);
	tap_eq(sh("grep -q 'level=\"win:Error\" opcode=\"win:Start\"' %s", man), 0,
	       "... its level and opcode by name");
	tap_eq(sh("grep -q '<level name=\"Chatty\" value=\"16\" message=\"$(string.' %s && "
		  "grep -q '<opcode name=\"Handshake\" value=\"10\"' %s", man, man), 0,
	       "... the provider's own levels and task opcodes");
	tap_eq(sh("mkdir -p %s && %s mc -h %s -r %s %s >/dev/null", mcdir, tool, mcdir, mcdir,
		  man), 0, "nttrace mc takes it");
	tap_eq(sh("%s tracerpt %s -o %s.2 -export %s >/dev/null 2>&1", tool, path, xml, man), 1,
	       "an existing export without -y: exit 1");

	write_hostile(hostile);
	tap_eq(sh("ulimit -v 1000000; %s tracerpt %s -o %s -y -export %s >/dev/null 2>%s", tool,
		  hostile, xml, man, err), 0, "hostile: exit 0, within 1 GB");
	if (sh("command -v xmllint >/dev/null") == 0)
		tap_eq(sh("xmllint --noout %s", man), 0, "... well-formed XML (xmllint)");
	else
		tap_ok(1, "# SKIP well-formed XML: no xmllint");
	tap_eq(sh("grep -qF 'name=\"a&lt;&amp;&gt;&quot;&apos;\xef\xbf\xbd&#9;z--\"' %s && "
		  "grep -qF 'name=\"f&lt;&amp;&gt;&quot;&apos;\xef\xbf\xbd\"' %s && "
		  "grep -qF 'name=\"]]&gt;\"' %s", man, man, man), 0,
	       "... names escaped, controls as U+FFFD, tab as &#9;");
	tap_eq(sh("grep -q 'level=\"Level_7\" opcode=\"Opcode_77\" keywords=\"Keyword_0x10\"' %s"
		  " && grep -q '<level name=\"Level_7\" value=\"7\"/>' %s", man, man), 0,
	       "... levels, opcodes, keywords winmeta.xml lacks: declared");
	tap_eq(sh("grep -q '^nttrace: tracerpt: -export: partly {6E747472-0028-4C54-8000-"
		  "000000000029} nttrace.dump: 6 distinct events past the export.s limits' %s",
		  err), 0, "... events past a provider's 65535: counted, said");
	tap_eq(sh("test $(grep -c '<event ' %s) = 65535", man), 0, "... 65535 events written");
	nsigs = 0;
	manifest_signatures(man, &tl_guid, &events);
	tap_eq(events, 65535, "... TdhLoadManifest reads it: 65535 events");
	tap_eq(sh("%s mc -h %s -r %s %s >/dev/null", tool, mcdir, mcdir, man), 0,
	       "... nttrace mc takes it");
	sh("rm -rf %s", mcdir);
	unlink(man);
	unlink(xml);
	unlink(err);
	unlink(hostile);
}

/*
 * A file of @n events "Many" (i, the event's number, and s, @len
 * bytes of UTF-8: "x"s, the first two an "\xc3\xa9" with @accent), then one
 * event "After" (n=7); no events at all when @n and @len are 0.
 */
static void write_many(const char *path, unsigned int n, size_t len, int accent)
{
	TRACEHANDLE h = 0;
	struct props pr;
	char *s = malloc(len + 1);
	unsigned int i;

	if (!tap_ok(s != NULL, "tracerpt: memory for a string"))
		return;
	memset(s, 'x', len);
	s[len] = 0;
	if (accent && len >= 2)
		memcpy(s, "\xc3\xa9", 2);
	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	pr.p.BufferSize = 128;	/* KB: room for an event of 64 KB */
	if (tap_eq(StartTraceA(&h, "tl-dump-many", &pr.p), ERROR_SUCCESS,
		   "tracerpt: a file of %u events of %zu bytes of text", n, len)) {
		TraceLoggingRegister(tl_dump_provider);
		EnableTraceEx2(h, &tl_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL);
		for (i = 0; i < n; i++)
			TraceLoggingWrite(tl_dump_provider, "Many", TraceLoggingUInt32(i, "i"),
					  TraceLoggingUtf8String(s, "s"));
		if (n || len)
			TraceLoggingWrite(tl_dump_provider, "After", TraceLoggingInt32(7, "n"));
		ControlTraceA(h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP);
		TraceLoggingUnregister(tl_dump_provider);
	}
	free(s);
}

/*
 * `nttrace tracerpt -of EVTX`: Windows' event log file, read back by
 * libevtx's evtxinfo and evtxexport (skipped without them): its records,
 * their EventRecordIDs from 0, System and EventData values; records over
 * several chunks; an event too large for a chunk said and left out, the
 * next one written.
 */
static void tracerpt_evtx(const char *tool, const char *dir, const char *path,
			  const char *manifest)
{
	char evtx[256], xml[256], many[256], err[256];

	if (sh("command -v evtxexport >/dev/null && command -v evtxinfo >/dev/null")) {
		tap_ok(1, "# SKIP tracerpt -of EVTX: no evtxexport, evtxinfo (libevtx-utils)");
		return;
	}
	snprintf(evtx, sizeof(evtx), "%s/tl-dump-%d.evtx", dir, (int)getpid());
	snprintf(xml, sizeof(xml), "%s/tl-dump-evtx-%d.xml", dir, (int)getpid());
	snprintf(many, sizeof(many), "%s/tl-dump-many-%d.etl", dir, (int)getpid());
	snprintf(err, sizeof(err), "%s/tl-dump-evtx-%d.err", dir, (int)getpid());
	unlink(evtx);
	setenv("NTTRACE_MANIFEST_PATH", manifest, 1);
	tap_eq(sh("%s tracerpt %s -of EVTX -o %s >/dev/null", tool, path, evtx), 0,
	       "tracerpt -of EVTX: exit 0");
	unsetenv("NTTRACE_MANIFEST_PATH");
	tap_eq(sh("test \"$(stat -c %%a %s)\" = 600 && test \"$(head -c 7 %s)\" = ElfFile",
		  evtx, evtx), 0, "... an ElfFile, 0600");
	tap_eq(sh("evtxinfo %s > %s 2>&1 && grep -Eq 'Number of records[[:space:]]+: 4$' %s && "
		  "grep -Eq 'recovered records[[:space:]]+: 0$' %s", evtx, err, err, err), 0,
	       "... evtxinfo: four records (the log file's header event left out), none "
	       "recovered");
	tap_eq(sh("evtxexport -f xml %s > %s 2>&1 && test \"$(grep -c '^<Event xmlns' %s)\" = 4 && "
		  "test \"$(grep -o 'EventRecordID>[0-9]*<' %s | tr -dc '0-9\\n' | tr '\\n' ,)\" "
		  "= 0,1,2,3,", evtx, xml, xml, xml), 0,
	       "... evtxexport: the four events, EventRecordID 0 to 3");
	tap_eq(sh("grep -q '<Provider Name=\"nttrace.dump\" Guid=\"{6e747472-0028-4c54-8000-"
		  "000000000029}\"/>' %s && grep -q '<EventID>3</EventID>' %s && "
		  "grep -q '<Level>2</Level>' %s", xml, xml, xml), 0,
	       "... System: the provider, the manifest's event 3, its level");
	/* n (Int32 -2) is not checked: libevtx 20181227 prints it as -2147483646. */
	tap_eq(sh("grep -q '<Data Name=\"u\">4000000000</Data>' %s && "
		  "grep -q '<Data Name=\"bin\">010203</Data>' %s && "
		  "grep -q '<Data Name=\"s\">caf\xc3\xa9</Data>' %s && "
		  "grep -q '<Data Name=\"a\">\\[7,8,9\\]</Data>' %s", xml, xml, xml, xml), 0,
	       "... EventData: integers, binary, text as the event XML has them");

	/* 2000 records of 400 bytes and more: 13 chunks. */
	write_many(many, 2000, 100, 0);
	unlink(evtx);
	tap_eq(sh("%s tracerpt %s -of EVTX -o %s >/dev/null 2>%s && test ! -s %s", tool, many,
		  evtx, err, err), 0, "tracerpt -of EVTX of 2000 events: exit 0, nothing said");
	tap_eq(sh("evtxinfo %s > %s 2>&1 && grep -Eq 'Number of records[[:space:]]+: 2001$' %s "
		  "&& grep -Eq 'recovered records[[:space:]]+: 0$' %s && test $(stat -c %%s %s) "
		  "-gt $((4096 + 65536 * 4))", evtx, err, err, err, evtx), 0,
	       "... evtxinfo: 2001 records over several chunks, none recovered");
	tap_eq(sh("evtxexport -f xml %s > %s 2>&1 && test \"$(grep -c '^<Event xmlns' %s)\" = 2001 "
		  "&& grep -q '<EventRecordID>2000</EventRecordID>' %s && "
		  "test \"$(grep -c '<Data Name=\"s\">x\\{100\\}</Data>' %s)\" = 2000 && "
		  "grep -q '<Data Name=\"i\">1999</Data>' %s && grep -q '<Data Name=\"n\">7</Data>' %s",
		  evtx, xml, xml, xml, xml, xml, xml), 0,
	       "... evtxexport: every event, its values, the last EventRecordID 2000");

	/*
	 * 39999 characters, not all ASCII (a String, not an AnsiString):
	 * 79998 bytes of UTF-16, more than a chunk holds.
	 */
	write_many(many, 1, 40000, 1);
	unlink(evtx);
	tap_eq(sh("%s tracerpt %s -of EVTX -o %s >/dev/null 2>%s && grep -q 'not written to the "
		  ".evtx: its record is larger than a chunk' %s && grep -q '1 events left out' %s",
		  tool, many, evtx, err, err, err), 0,
	       "an event too large for a chunk: said on stderr, counted, exit 0");
	tap_eq(sh("evtxexport -f xml %s > %s 2>&1 && test \"$(grep -c '^<Event xmlns' %s)\" = 1 "
		  "&& grep -q '<Data Name=\"n\">7</Data>' %s && grep -q "
		  "'<EventRecordID>0</EventRecordID>' %s", evtx, xml, xml, xml, xml), 0,
	       "... the next event written, EventRecordID 0");

	write_many(many, 0, 0, 0);
	unlink(evtx);
	tap_eq(sh("%s tracerpt %s -of EVTX -o %s >/dev/null && evtxinfo %s > %s 2>&1 && "
		  "grep -Eq 'Number of records[[:space:]]+: 0$' %s && ! grep -q corrupted %s", tool,
		  many, evtx, evtx, err, err, err), 0,
	       "no events: a file of one empty chunk, not a damaged one");
	unlink(evtx);
	unlink(xml);
	unlink(many);
	unlink(err);
}

static void check_deep(const char *tool, const char *dir, const char *path)
{
	char *text[] = { (char *)tool, "dump", (char *)path, NULL };
	char *json[] = { (char *)tool, "dump", "--json", (char *)path, NULL };
	char ctf[300], meta[320], cmd[4096];
	int has_stop, has_after, st;
	struct stat sb;
	size_t size;

	st = bounded(text, &size, "nttrace.dump/Deep a=[{b=[{c=[{d=[]},{d=[]}", &has_stop,
		     " nttrace.dump/After n=7", &has_after);
	tap_eq(st, 0, "deep: dump ends, exit 0 (%zu bytes)", size);
	tap_ok(size <= OUTPUT_BOUND, "... within the bound");
	st = bounded(text, &size, " stopped at c: more than 1048576 values", &has_stop,
		     " nttrace.dump/After n=7", &has_after);
	tap_ok(has_stop, "... says where it stopped and why");
	tap_ok(has_after, "... and shows the next event");
	st = bounded(json, &size, "\"stopped\":\"c\",\"max_values\":1048576", &has_stop,
		     "\"event\":\"After\",\"fields\":{\"n\":\"7\"}", &has_after);
	tap_eq(st, 0, "deep: dump --json ends, exit 0 (%zu bytes)", size);
	tap_ok(size <= OUTPUT_BOUND, "... within the bound");
	tap_ok(has_stop, "... says where it stopped and why");
	tap_ok(has_after, "... and shows the next event");
	snprintf(ctf, sizeof(ctf), "%s.ctf", path);
	snprintf(meta, sizeof(meta), "%s/metadata", ctf);
	snprintf(cmd, sizeof(cmd), "rm -rf %s && %s convert --to ctf %s %s >/dev/null 2>&1 && "
		 "grep -q too_many_values_at %s && grep -q nttrace.dump/After %s", ctf, tool, ctf, path,
		 meta, meta);
	st = system(cmd);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "deep: convert ends, declares where it stopped, and the next event");
	snprintf(cmd, sizeof(cmd), "%s/channel0_0", ctf);
	tap_ok(!stat(cmd, &sb) && sb.st_size <= OUTPUT_BOUND, "... its stream within the bound");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", ctf);
	if (system(cmd))
		tap_ok(0, "%s", cmd);
	(void)dir;
}

int main(int argc, char **argv)
{
	char path[200];

	char args[512];

	if (argc != 4) {
		fprintf(stderr, "usage: tl_dump NTTRACE DIR MANIFEST\n");
		return 2;
	}
	/* No manifest but the test's: none of the machine's, nor the caller's. */
	unsetenv("NTTRACE_MANIFEST_PATH");
	setenv("NTTRACE_MANIFEST_DIR", "/nonexistent/nttrace-manifests", 1);
	snprintf(path, sizeof(path), "%s/tl-dump-%d.etl", argv[2], (int)getpid());
	write_file(path);
	check(argv[1], "", path, "nttrace.dump", want_text, 3, "text");
	check(argv[1], "--json", path, "nttrace.dump", want_json, 3, "json");
	snprintf(args, sizeof(args), "--manifest %s", argv[3]);
	check(argv[1], args, path, "Nttrace-Test-Manifest", want_man, 1, "manifest");
	providers(argv[1], argv[3]);
	manifests(argv[1], argv[2], argv[3], path);
	tracerpt(argv[1], argv[2], path, argv[3]);
	schema_export(argv[1], argv[2], path, argv[3]);

	tracerpt_evtx(argv[1], argv[2], path, argv[3]);
	unlink(path);
	snprintf(path, sizeof(path), "%s/tl-deep-%d.etl", argv[2], (int)getpid());
	write_deep(path);
	check_deep(argv[1], argv[2], path);
	unlink(path);
	return tap_done();
}
