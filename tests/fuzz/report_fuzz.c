// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: `nttrace tracerpt -report` over a hostile ETL file
 * (userlib/tools/tracerpt_report.c): every event ProcessTrace delivers,
 * decoded by TDH, counted into the report's processes, threads and CPUs,
 * then the report written as XML and as HTML to memory. The sanitizers
 * check the walk and the tables; the harness aborts when the file's name,
 * which holds every character XML and HTML must escape, comes out raw.
 *
 * Build and run: scripts/fuzz-lib (build/fuzz/report_fuzz); seeds in
 * tests/fuzz/corpus/report_fuzz/ (etl_fuzz's, kernel records among them).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nttrace/evntcons.h>
#include <nttrace/evntrace.h>
#include "cli.h"
#include "fuzz_file.h"
#include "tracerpt.h"

static struct fuzz_file file;

static VOID WINAPI on_event(PEVENT_RECORD er)
{
	struct render_fields v;
	int decoded = render_tdh_fields(er, render_pointer_size(er), &v);

	tracerpt_report_event(er, &v, decoded);
	if (decoded)
		render_fields_free(&v);
}

static void write_checked(const struct tracerpt_file *tf, int html)
{
	static const struct tracerpt_count count = { .provider = "p<\"'&>", .event = "e</x>" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	tracerpt_report_write(f, html, tf, 1, 1, &count, 1);
	if (fclose(f))
		abort();
	if (strstr(buf, "<\"'&>") || strstr(buf, "</x>") || !strstr(buf, "fuzz&lt;&amp;&gt;"))
		abort();
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	EVENT_TRACE_LOGFILEA lf;
	struct tracerpt_file tf;
	TRACEHANDLE h;

	fuzz_file_set(&file, "report_fuzz", data, size);
	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = file.path;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = on_event;
	h = OpenTraceA(&lf);
	if (h == INVALID_PROCESSTRACE_HANDLE)
		return 0;
	ProcessTrace(&h, 1, NULL, NULL);
	memset(&tf, 0, sizeof(tf));
	tf.path = "fuzz<&>";
	tf.session = "s<&>";
	tf.header = lf.LogfileHeader;
	tf.header.LoggerName = NULL;
	tf.header.LogFileName = NULL;
	CloseTrace(h);
	write_checked(&tf, 0);
	write_checked(&tf, 1);
	tracerpt_report_free();
	return 0;
}
