// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace dump: an ETL file's header, then every event in time order across
 * the CPUs, as text or, with --json, one JSON object a line. A consumer
 * like any other: OpenTrace, ProcessTrace (which merges the per-CPU
 * buffers and skips what is damaged) and CloseTrace; render.c prints. Output
 * streams: nothing is held but what the reader holds.
 *
 * To show the file as it is, it uses nttrace's two additions to the API
 * (<nttrace/consumer.h>): the reader's record behind each EVENT_RECORD
 * (render.c: byte offsets, sequence numbers, losses, malformed items) and
 * the problems met in the file, printed where they are met with their
 * byte offsets; the exit status is then 1.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <nttrace/consumer.h>
#include "cli.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace dump [--json] [--formats PATH[,PATH...]]...\n"
		"                    [--manifest PATH[,PATH...]]... FILE\n\n"
		"Print the header of FILE (an ETL file) and then every event in time order\n"
		"across the CPUs: time (UTC and since the start), CPU, message number,\n"
		"sequence, GUID or component ID, thread and process, and the data (as text\n"
		"when it is text); for TraceEvent and TraceEventInstance events, the class\n"
		"GUID, type, level and version, the instance and parent IDs and the parent's\n"
		"GUID, thread and process, and the data as hex; for the kernel's own events\n"
		"(the NT Kernel Logger's) whose class is known, its name and version\n"
		"(Process/Start v4), thread and process (- for none) and every field by\n"
		"name; for EventWrite events, the provider GUID, id, version, channel,\n"
		"level, opcode, task and keyword, thread and process, the activity and\n"
		"related activity IDs, the other extended items, and the data\n"
		"(EventWriteString's as text). --json prints\n"
		"one JSON object per line instead, with each record's byte offset. The\n"
		"file is read with OpenTrace and ProcessTrace: a damaged part of it, or a\n"
		"record of a kind it cannot show, is reported with its byte offset and\n"
		"skipped, a last line counts all that was not read, and the exit status\n"
		"is 1.\n\n"
		"--formats takes binaries built with <nttrace/wpp.h> (their message formats)\n"
		"or format files (`nttrace formats` writes them): a message whose GUID and\n"
		"number have a format is shown as its text, with its source file and line.\n"
		"--manifest takes instrumentation manifests (.man, loaded with\n"
		"TdhLoadManifest): their providers' events are shown by name with their\n"
		"fields, as TraceLogging events and the kernel's always are; manifests\n"
		"installed with `nttrace manifest install` or named by NTTRACE_MANIFEST_PATH\n"
		"are found without it.\n"
		"`nttrace show` prints events as they come, from a file or a live session.\n");
}

static EVENT_TRACE_LOGFILEA lf;
static const char *path;
static uint64_t events, buffers;
static int header_shown;

/* The buffers in the file, header included, as the reader found them. */
static void show_header(void)
{
	header_shown = 1;
	render_header(&lf.LogfileHeader, path, buffers);
}

static void WINAPI on_event(PEVENT_RECORD er)
{
	/*
	 * The header from LogfileHeader when its event comes, first: after
	 * the problems ProcessTrace meets opening the file (its buffers'
	 * index), before those met reading the events.
	 */
	if (render_is_header_event(er)) {
		if (!header_shown)
			show_header();
		return;
	}
	render_event(er);
	events++;
}

static void formats_usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace formats PATH...\n\n"
		"Print the message formats of binaries built with <nttrace/wpp.h> (and of\n"
		"format files) as a format file: one line a message, GUID, number, pointer\n"
		"size, argument types, file:line and the format. `nttrace dump --formats`\n"
		"takes such a file for binaries that are not at hand.\n");
}

int cmd_formats(int argc, char **argv)
{
	char line[8192];
	size_t i;
	int k;

	if (argc < 2 || cli_wants_help(argc, argv)) {
		formats_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? CLI_USAGE : 0;
	}
	for (k = 1; k < argc; k++)
		if (render_load_formats(argv[k]))
			return 1;
	printf("# nttrace message formats: GUID NUMBER POINTER_SIZE TYPES FILE:LINE \"FORMAT\"\n");
	for (i = 0; i < render_formats.n; i++) {
		/* A line longer than the buffer (a long path or format) whole. */
		size_t need = nttrace_tmf_line(&render_formats.v[i], line, sizeof(line));
		char *big = need >= sizeof(line) ? malloc(need + 1) : NULL;

		if (big)
			nttrace_tmf_line(&render_formats.v[i], big, need + 1);
		printf("%s\n", big ? big : line);
		free(big);
	}
	nttrace_tmf_free(&render_formats);
	return 0;
}

int cmd_dump(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "formats", required_argument, NULL, 'f' },
		{ "manifest", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct nttrace_trace_counts counts;
	TRACEHANDLE h;
	ULONG err;
	int opt;

	while ((opt = getopt_long(argc, argv, "jf:m:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'j': render_json = 1; break;
		case 'f':
			if (render_load_formats(optarg))
				return 1;
			break;
		case 'm':
			if (render_load_manifests(optarg))
				return 1;
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return CLI_USAGE;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return CLI_USAGE;
	}
	path = argv[optind];
	/* OpenTrace says only "access denied" for a directory. */
	if (render_not_a_directory(path))
		return 1;
	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = (LPSTR)path;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = on_event;
	h = OpenTraceA(&lf);
	if (h == INVALID_PROCESSTRACE_HANDLE)
		return render_fail(GetLastError(), path, "OpenTrace");
	render_start = lf.LogfileHeader.StartTime.QuadPart;
	if (!nttrace_trace_counts(h, &counts))
		buffers = counts.buffers;
	err = nttrace_trace_problems(h, render_problem, NULL);
	if (err) {
		CloseTrace(h);
		return render_fail(err, path, "nttrace_trace_problems");
	}
	err = ProcessTrace(&h, 1, NULL, NULL);
	memset(&counts, 0, sizeof(counts));
	nttrace_trace_counts(h, &counts);
	CloseTrace(h);
	nttrace_tmf_free(&render_formats);
	/* ProcessTrace failed before the header event: the header all the same. */
	if (!header_shown)
		show_header();
	if (!render_json)
		printf("# %" PRIu64 " events%s%s\n", events,
		       render_problems ? ", with problems (above)" : "",
		       err ? ", then an error" : "");
	/* What was not read, whole: the problems above stop at a cap. */
	if (counts.not_delivered || counts.buffers_skipped || counts.bytes_skipped) {
		if (render_json)
			printf("{\"not_read\":{\"records\":%" PRIu64 ",\"buffers\":%" PRIu64
			       ",\"bytes\":%" PRIu64 "}}\n", counts.not_delivered,
			       counts.buffers_skipped, counts.bytes_skipped);
		else
			printf("# not read: %" PRIu64 " records, %" PRIu64 " buffers, %" PRIu64
			       " bytes of records\n", counts.not_delivered,
			       counts.buffers_skipped, counts.bytes_skipped);
		render_problems++;
	}
	fflush(stdout);
	if (err)
		return render_fail(err, path, "ProcessTrace");
	return render_problems ? 1 : 0;
}
