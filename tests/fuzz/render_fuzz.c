// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the tool's rendering of events and names
 * (userlib/tools/render.c, render_tdh.c, render_out.c, cli.c, and the quoting and naming
 * of plot.c and convert.c): what `nttrace dump` and `dump --json` (and
 * `show --json`, the same renderer) print of an event TDH describes, the
 * fields `nttrace convert` makes of it, and what `nttrace plot` hands
 * gnuplot of a name.
 *
 * The first byte says what the rest is:
 *   0  tests/fuzz/tdh_fuzz.c's input: a TraceLogging event (its first
 *      byte, schema, traits and data);
 *   1  tests/fuzz/tdh_manifest_fuzz.c's input: a manifest, loaded from
 *      memory, and an event of its first provider;
 *   2  a name: a file name, provider or event name as plot and convert take it.
 * An event is rendered as text and as JSON (to /dev/null: the output is not
 * checked, the walk is, by the sanitizers and by the budget that bounds an
 * event's rendering), and its fields are named as convert names them: the
 * harness aborts when two come out alike. Any name, and the event's
 * provider and event names, go through plot's quoting: the harness aborts
 * when a quoted name holds a control or an unpaired quote, or a table name
 * a quote, a backslash or a control.
 *
 * Build and run: scripts/fuzz-lib (build/fuzz/render_fuzz); seeds in
 * tests/fuzz/corpus/render_fuzz/ (tdh_fuzz's and tdh_manifest_fuzz's seeds
 * behind their first byte, and names: scripts/fuzz-lib --make-corpus).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nttrace/tdh.h>
#include "cli.h"
#include "render_fuzz.h"
#include "tl_event.h"

static void *copy(const uint8_t *d, size_t n)
{
	void *c = malloc(n + 1);

	if (!c)
		abort();
	memcpy(c, d, n);
	((char *)c)[n] = 0;
	return c;
}

/* Plot's two forms of @name, checked. */
static void plot_names(const char *name)
{
	char *safe = strdup(name), *quoted = NULL;
	size_t len = 0, i;
	FILE *f;

	if (!safe)
		abort();
	render_fuzz_gp_safe(safe);
	for (i = 0; safe[i]; i++)
		if (safe[i] == '"' || safe[i] == '\\' || safe[i] == '\'' ||
		    (unsigned char)safe[i] < 0x20 || safe[i] == 0x7F)
			abort();
	free(safe);
	f = open_memstream(&quoted, &len);
	if (!f)
		abort();
	render_fuzz_gp_quoted(f, name);
	if (fclose(f) || len < 2 || quoted[0] != '\'' || quoted[len - 1] != '\'')
		abort();
	/* Inside: no control, and quotes only in pairs. */
	for (i = 1; i + 1 < len; i++) {
		if ((unsigned char)quoted[i] < 0x20 || quoted[i] == 0x7F)
			abort();
		if (quoted[i] == '\'' && quoted[++i] != '\'')
			abort();
	}
	if (i != len - 1)
		abort();
	free(quoted);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* @n names (taken) as convert names fields: all distinct, or abort. */
static void convert_names(char **names, unsigned int n)
{
	char **sorted = calloc(n + 1, sizeof(*sorted));
	unsigned int i;

	if (!sorted || cli_unique_names(names, n))
		abort();
	memcpy(sorted, names, n * sizeof(*names));
	qsort(sorted, n, sizeof(*sorted), by_name);
	for (i = 1; i < n; i++)
		if (!strcmp(sorted[i - 1], sorted[i]))
			abort();
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(sorted);
}

/* @er as dump prints it, text and JSON, and as convert names its fields. */
static void render(const EVENT_RECORD *er)
{
	struct render_fields f;
	unsigned int i;
	char **names;

	render_json = 0;
	render_event(er);
	render_json = 1;
	render_event(er);
	render_json = 0;
	fflush(stdout);
	if (!render_tdh_fields(er, render_pointer_size(er), &f))
		return;
	if (f.provider)
		plot_names(f.provider);
	if (f.event)
		plot_names(f.event);
	names = calloc(f.n + 1, sizeof(*names));
	if (!names)
		abort();
	for (i = 0; i < f.n; i++) {
		names[i] = render_fuzz_identifier(f.v[i].name ? f.v[i].name : "");
		if (!names[i])
			abort();
		plot_names(f.v[i].name ? f.v[i].name : "");
	}
	convert_names(names, f.n);
	render_fields_free(&f);
}

/* tdh_fuzz's input: a TraceLogging event (tl_event.h). */
static void tracelogging(const uint8_t *data, size_t size)
{
	struct tl_event t;

	if (size < 3 || (data[0] & 4))
		return;
	tl_event_build(&t, data, size, copy);
	t.er.EventHeader.Size = sizeof(EVENT_HEADER);
	t.er.EventHeader.Flags |= EVENT_HEADER_FLAG_EXTENDED_INFO;
	t.er.EventHeader.EventDescriptor.Channel = 11;
	render(&t.er);
	tl_event_free(&t);
}

/* tdh_manifest_fuzz's input: a manifest and an event of its first provider. */
static void manifest(const uint8_t *data, size_t size)
{
	const uint8_t *q = data + 3, *end = data + size;
	PROVIDER_ENUMERATION_INFO *pe;
	EVENT_RECORD er = { 0 };
	ULONG pe_size = 0;
	void *xml, *ud;
	size_t n, xml_n;

	if (size < 3)
		return;
	n = data[1] | data[2] << 8;
	if (n > (size_t)(end - q))
		n = end - q;
	xml = copy(q, n);
	xml_n = n;
	if (TdhLoadManifestFromMemory(xml, n)) {
		free(xml);
		return;
	}
	if (TdhEnumerateProviders(NULL, &pe_size) != ERROR_INSUFFICIENT_BUFFER)
		abort();
	pe = malloc(pe_size);
	if (!pe || TdhEnumerateProviders(pe, &pe_size))
		abort();
	q += n;
	if (pe->NumberOfProviders) {
		er.EventHeader.ProviderId = pe->TraceProviderInfoArray[0].ProviderGuid;
		er.EventHeader.EventDescriptor.Id = end - q >= 2 ? q[0] | q[1] << 8 : 0;
		er.EventHeader.EventDescriptor.Version = end - q >= 3 ? q[2] : 0;
		q = end - q >= 3 ? q + 3 : end;
		n = end - q > 0xFFFF ? 0xFFFF : end - q;
		ud = copy(q, n);
		er.UserData = ud;
		er.UserDataLength = n;
		er.EventHeader.Size = sizeof(EVENT_HEADER);
		er.EventHeader.Flags = data[0] & 1 ? EVENT_HEADER_FLAG_32_BIT_HEADER :
				       EVENT_HEADER_FLAG_64_BIT_HEADER;
		render(&er);
		free(ud);
	}
	free(pe);
	if (TdhUnloadManifestFromMemory(xml, xml_n))
		abort();
	free(xml);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int quiet;
	unsigned int n = 0;
	char **names, *text, *name, *save = NULL;

	if (!quiet) {
		/* What dump prints is not checked, only how it walks (RENDER_FUZZ_SHOW: shown). */
		if (!getenv("RENDER_FUZZ_SHOW") && !freopen("/dev/null", "w", stdout))
			abort();
		quiet = 1;
	}
	if (!size)
		return 0;
	switch (data[0]) {
	case 0:
		tracelogging(data + 1, size - 1);
		break;
	case 1:
		manifest(data + 1, size - 1);
		break;
	case 2:
		/* Names a line each: each as plot quotes it, all as convert names them. */
		text = copy(data + 1, size - 1);
		plot_names(text);
		names = calloc(size, sizeof(*names));
		if (!names)
			abort();
		for (name = strtok_r(text, "\n", &save); name; name = strtok_r(NULL, "\n", &save)) {
			plot_names(name);
			names[n] = render_fuzz_identifier(name);
			if (!names[n++])
				abort();
		}
		convert_names(names, n);
		free(text);
		break;
	}
	return 0;
}
