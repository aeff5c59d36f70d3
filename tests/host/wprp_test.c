// SPDX-License-Identifier: GPL-2.0
/*
 * `nttrace wpr`'s profiles (userlib/tools/wprp*.c, wpr_*.c), linked in:
 * the built-in profiles resolved by name, detail and mode; a profile file
 * of this test's own with Bases, Operations, filters and a Memory variant
 * over its File one; profiles started together merged; every error a bad
 * file gives, by WPR's code; and hostile files: a Base loop, and many
 * references to a long chain, which must fail on the visit budget rather
 * than cost the file's size squared (counted, never timed).
 *
 * With NTTRACE_WPRP_SAMPLES naming a directory of .wprp files (public
 * profiles written for Windows' WPR; none is in the tree), every profile
 * of each, in both modes, must resolve. TAP.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../vm/tap.h"
#include "wprp.h"

static struct wprp_doc builtin;

static int has_keyword(const struct wprp_collector *c, const char *name)
{
	int i = wpr_keyword_index(name);

	return i >= 0 && (c->keywords[i / 64] >> (i % 64) & 1);
}

static int has_stack(const struct wprp_collector *c, const char *name)
{
	int i = wpr_stack_index(name);

	return i >= 0 && (c->stacks[i / 64] >> (i % 64) & 1);
}

static int n_stacks(const struct wprp_collector *c)
{
	int i, n = 0;

	for (i = 0; i < WPRP_STACK_WORDS; i++)
		n += __builtin_popcountll(c->stacks[i]);
	return n;
}

static void builtins(void)
{
	struct wprp_plan plan = { .file_mode = 0 };
	const struct wprp_collector *c;

	tap_eq(wprp_add_profile(&plan, NULL, &builtin, "CPU"), 0, "built-in CPU, memory mode");
	tap_eq(plan.n_col, 1, "... one collector");
	c = &plan.col[0];
	tap_ok(c->system && !strcmp(c->name, "WPR System Collector"), "... the system collector");
	tap_ok(!strcmp(plan.profiles[0], "CPU.Verbose.Memory"), "... CPU.Verbose.Memory (%s)",
	       plan.profiles[0]);
	tap_ok(has_keyword(c, "ProcessThread") && has_keyword(c, "Loader") &&
	       has_keyword(c, "CpuConfig") && has_keyword(c, "CSwitch") &&
	       has_keyword(c, "SampledProfile") && has_keyword(c, "ReadyThread"),
	       "... its keywords, the base's and its own");
	tap_ok(!has_keyword(c, "DiskIO"), "... and no other profile's");
	tap_ok(has_stack(c, "CSwitch") && has_stack(c, "SampledProfile") &&
	       has_stack(c, "ReadyThread") && n_stacks(c) == 3, "... three stacks");
	tap_ok(c->buffer_kb == 1024 && c->buffers_pct == 5 && !c->buffers,
	       "... 1024 KB buffers, 5%% of memory (%u, %g, %llu)", c->buffer_kb, c->buffers_pct,
	       (unsigned long long)c->buffers);
	wprp_plan_free(&plan);

	memset(&plan, 0, sizeof(plan));
	plan.file_mode = 1;
	tap_eq(wprp_add_profile(&plan, NULL, &builtin, "cpu.light"), 0, "cpu.light, file mode");
	c = &plan.col[0];
	tap_ok(!strcmp(plan.profiles[0], "CPU.Light.File"), "... CPU.Light.File");
	tap_ok(has_keyword(c, "CSwitch") && !n_stacks(c), "... the keywords, no stacks");
	tap_ok(c->buffers == 20 && c->buffers_pct == 0, "... 20 buffers");
	tap_eq(wprp_add_profile(&plan, NULL, &builtin, "DiskIO"), 0, "... and DiskIO with it");
	tap_eq(plan.n_col, 1, "... one system collector still");
	tap_ok(has_keyword(c, "CSwitch") && has_keyword(c, "DiskIOInit") &&
	       has_stack(c, "DiskReadInit"), "... the union of both");
	tap_eq(plan.n_profiles, 2, "... two profiles");
	wprp_plan_free(&plan);

	memset(&plan, 0, sizeof(plan));
	tap_eq(wprp_add_profile(&plan, NULL, &builtin, NULL), 0, "no name: the Default profile");
	tap_ok(!strcmp(plan.names[0], "GeneralProfile"), "... GeneralProfile (%s)", plan.names[0]);
	tap_eq(wprp_add_profile(&plan, NULL, &builtin, "Heap"), -1, "Heap: not built in");
	tap_eq(plan.code, WPR_E_NO_PROFILE, "... 0xC5580704 (%s)", plan.why);
	wprp_plan_free(&plan);
}

/* This test's own profile file. */
static const char own[] =
	"<?xml version='1.0' encoding='utf-8'?>\r\n"
	"<!-- a comment -->\r\n"
	"<WindowsPerformanceRecorder Version=\"1\" xmlns:x=\"urn:x\">\r\n"
	"<Profiles>\n"
	"<SystemCollector Id=\"Sys\" Name=\"NT Kernel Logger\"><BufferSize Value=\"256\"/>"
	"<Buffers Value=\"64\"/></SystemCollector>\n"
	"<EventCollector Id=\"Ev\" Name=\"Test Event Collector\"><BufferSize Value=\"128\"/>"
	"<Buffers Value=\"32\"/></EventCollector>\n"
	"<EventCollector Id=\"Ev2\" Base=\"Ev\" Name=\"Second\"><Buffers Value=\"8\"/></EventCollector>\n"
	"<SystemProvider Id=\"SysBase\"><Keywords><Keyword Value=\"ProcessThread\"/>"
	"<Keyword Value=\"Loader\"/><Keyword Value=\"CSwitch\"/></Keywords>"
	"<Stacks><Stack Value=\"CSwitch\"/></Stacks></SystemProvider>\n"
	"<SystemProvider Id=\"SysMore\" Base=\"SysBase\"><Keywords Operation=\"Add\">"
	"<Keyword Value=\"SampledProfile\"/></Keywords><Keywords Operation=\"Remove\">"
	"<Keyword Value=\"CSwitch\"/></Keywords><Stacks Operation=\"Add\">"
	"<Stack Value=\"SampledProfile\"/><CustomStack Value=\"0x0F2E\"/></Stacks>"
	"<PoolTags><PoolTag Value=\"Abcd\"/></PoolTags></SystemProvider>\n"
	"<EventProvider Id=\"P1\" Name=\"11111111-2222-3333-4444-555555555555\" Level=\"4\">"
	"<Keywords><Keyword Value=\"0x10\"/><Keyword Value=\"3\"/></Keywords></EventProvider>\n"
	"<EventProvider Id=\"P2\" Base=\"P1\" Stack=\"true\"><Keywords Operation=\"Add\">"
	"<Keyword Value=\"0x100\"/></Keywords>"
	"<EventFilters FilterIn=\"false\"><EventId Value=\"7\"/><EventId Value=\"0x9\"/>"
	"</EventFilters></EventProvider>\n"
	"<EventProvider Id=\"P3\" Name=\"*Some-Provider\"><EventNameFilters FilterIn=\"true\">"
	"<EventName Value=\"x\"/></EventNameFilters></EventProvider>\n"
	"<Profile Id=\"Mine.Verbose.File\" Name=\"Mine\" Description=\"Mine &amp; more\""
	" DetailLevel=\"Verbose\" LoggingMode=\"File\"><Collectors>"
	"<SystemCollectorId Value=\"Sys\"><SystemProviderId Value=\"SysMore\"/></SystemCollectorId>"
	"<EventCollectorId Value=\"Ev\"><EventProviders><EventProviderId Value=\"P1\"/>"
	"<EventProviderId Value=\"P2\"/><EventProviderId Value=\"P3\"/>"
	"<EventProvider Id=\"Inline\" Name=\"Inline-Provider\" Level=\"0x5\"/>"
	"</EventProviders></EventCollectorId>"
	"<HeapEventCollectorId Value=\"Heap\"/>"
	"</Collectors></Profile>\n"
	"<Profile Id=\"Mine.Verbose.Memory\" Base=\"Mine.Verbose.File\" Name=\"Mine\""
	" Description=\"Mine &amp; more\" DetailLevel=\"Verbose\" LoggingMode=\"Memory\">"
	"<Collectors Operation=\"Add\"><SystemCollectorId Value=\"Sys\">"
	"<Buffers Value=\"2.5\" PercentageOfTotalMemory=\"true\" MaximumBufferSpace=\"100\"/>"
	"</SystemCollectorId><EventCollectorId Value=\"Ev\"><EventProviders>"
	"<EventProviderId Value=\"P1\" Operation=\"Remove\"/></EventProviders>"
	"</EventCollectorId></Collectors></Profile>\n"
	"<Profile Id=\"Other.Light.File\" Base=\"Mine.Verbose.File\" Name=\"Other\""
	" Description=\"Replaces\" DetailLevel=\"Light\" LoggingMode=\"File\"><Collectors>"
	"<EventCollectorId Value=\"Ev\"><EventProviders><EventProviderId Value=\"P1\">"
	"<Keywords Operation=\"Add\"><Keyword Value=\"0x8000\"/></Keywords></EventProviderId>"
	"</EventProviders></EventCollectorId><EventCollectorId Value=\"Ev2\"><EventProviders>"
	"<EventProvider Id=\"Q\" Name=\"Q-Provider\"/></EventProviders></EventCollectorId>"
	"</Collectors></Profile>\n"
	"<Profile Id=\"Hidden.Verbose.File\" Name=\"Hidden\" Description=\"x\" Internal=\"true\""
	" DetailLevel=\"Verbose\" LoggingMode=\"File\"/>\n"
	"</Profiles></WindowsPerformanceRecorder>\n";

static const struct wprp_provider *prov(const struct wprp_collector *c, const char *id)
{
	unsigned int i;

	for (i = 0; i < c->n_prov; i++)
		if (!strcmp(c->prov[i].id, id))
			return &c->prov[i];
	return NULL;
}

static const struct wprp_collector *col(const struct wprp_plan *p, const char *id)
{
	unsigned int i;

	for (i = 0; i < p->n_col; i++)
		if (!strcmp(p->col[i].id, id))
			return &p->col[i];
	return NULL;
}

static int skipped(const struct wprp_plan *p, const char *start)
{
	unsigned int i;

	for (i = 0; i < p->n_skipped; i++)
		if (!strncmp(p->skipped[i], start, strlen(start)))
			return 1;
	return 0;
}

static void own_file(void)
{
	struct wprp_doc doc;
	struct wprp_plan plan = { .file_mode = 1 };
	const struct wprp_collector *s, *e;
	const struct wprp_provider *p;

	tap_eq(wprp_xml_parse(own, sizeof(own) - 1, &doc), 0, "own file parsed (%s)", doc.why);
	tap_eq(wprp_index(&doc), 0, "... indexed");
	doc.path = "own.wprp";
	tap_eq(wprp_add_profile(&plan, &doc, &builtin, "Mine"), 0, "Mine, file mode (%s)", plan.why);
	s = col(&plan, "Sys");
	e = col(&plan, "Ev");
	tap_ok(s && e && plan.n_col == 2, "... a system and an event collector");
	if (!s || !e)
		return;
	tap_ok(s->buffer_kb == 256 && s->buffers == 64, "... the system collector's buffers");
	tap_ok(has_keyword(s, "ProcessThread") && has_keyword(s, "SampledProfile") &&
	       !has_keyword(s, "CSwitch"), "... keywords: Base, Add, Remove");
	tap_ok(has_stack(s, "CSwitch") && has_stack(s, "SampledProfile"), "... stacks: Base and Add");
	tap_ok(s->n_custom_stacks == 1 && s->custom_stacks[0] == 0x0F2E, "... a CustomStack");
	tap_ok(skipped(&plan, "PoolTags") && skipped(&plan, "heap tracing"),
	       "... pool tags and the heap collector listed as skipped");
	tap_eq(e->n_prov, 4, "... four event providers");
	p = prov(e, "P1");
	tap_ok(p && p->level == 4 && p->keywords == 0x13 && !p->stack,
	       "... P1: level 4, keywords 0x10|3");
	p = prov(e, "P2");
	tap_ok(p && p->level == 4 && p->keywords == 0x113 && p->stack &&
	       !strcmp(p->name, "11111111-2222-3333-4444-555555555555"),
	       "... P2: P1's, with 0x100 added and stacks");
	tap_ok(p && p->filter == -1 && p->n_ids == 2 && p->ids[0] == 7 && p->ids[1] == 9,
	       "... P2: event IDs 7 and 9 filtered out");
	p = prov(e, "P3");
	tap_ok(p && p->unsupported && !strcmp(p->unsupported, "EventNameFilters"),
	       "... P3: what it asks that nttrace cannot do, named");
	p = prov(e, "Inline");
	tap_ok(p && p->level == 5 && !strcmp(p->name, "Inline-Provider"), "... an inline provider");
	wprp_plan_free(&plan);

	memset(&plan, 0, sizeof(plan));
	tap_eq(wprp_add_profile(&plan, &doc, &builtin, "mine.verbose"), 0, "Mine, memory mode");
	s = col(&plan, "Sys");
	e = col(&plan, "Ev");
	tap_ok(s && s->buffers_pct == 2.5 && s->max_buffer_mb == 100 && s->buffer_kb == 256,
	       "... the Memory variant's buffers over the File one's");
	tap_ok(s && has_keyword(s, "SampledProfile"), "... and the File one's keywords");
	tap_ok(e && e->n_prov == 3 && !prov(e, "P1"), "... P1 removed, the rest kept");
	wprp_plan_free(&plan);

	memset(&plan, 0, sizeof(plan));
	plan.file_mode = 1;
	tap_eq(wprp_add_profile(&plan, &doc, &builtin, "Other"), 0, "Other: Light, only variant");
	e = col(&plan, "Ev");
	tap_ok(e && e->n_prov == 1 && prov(e, "P1") && prov(e, "P1")->keywords == 0x8013,
	       "... a plain Collectors replaces the providers of the collector it names");
	tap_ok(col(&plan, "Ev2") && col(&plan, "Ev2")->buffers == 8 &&
	       col(&plan, "Ev2")->buffer_kb == 128, "... a collector with a Base");
	tap_ok(col(&plan, "Sys") != NULL, "... and keeps the collectors it does not name");
	tap_eq(wprp_add_profile(&plan, &doc, &builtin, "Hidden"), -1, "Hidden: Internal");
	tap_eq(plan.code, WPR_E_INTERNAL, "... 0xC558101C");
	wprp_plan_free(&plan);

	memset(&plan, 0, sizeof(plan));
	tap_eq(wprp_add_profile(&plan, &doc, &builtin, "Other"), 0, "Other in memory mode: its File");
	tap_ok(skipped(&plan, "memory mode"), "... said");
	wprp_plan_free(&plan);
	wprp_doc_free(&doc);
}

/* @body in a file: resolving "T" fails with @code. */
static void bad(const char *what, const char *defs, const char *collectors, uint32_t code)
{
	char xml[4096];
	struct wprp_doc doc;
	struct wprp_plan plan = { .file_mode = 1 };
	int ret;

	snprintf(xml, sizeof(xml),
		 "<WindowsPerformanceRecorder Version=\"1\"><Profiles>%s"
		 "<Profile Id=\"T.Verbose.File\" Name=\"T\" Description=\"t\" DetailLevel=\"Verbose\""
		 " LoggingMode=\"File\"><Collectors>%s</Collectors></Profile>"
		 "</Profiles></WindowsPerformanceRecorder>", defs, collectors);
	if (wprp_xml_parse(xml, strlen(xml), &doc) || wprp_index(&doc)) {
		tap_eq(code, 0, "%s: refused reading (%s)", what, doc.why);
		wprp_doc_free(&doc);
		return;
	}
	ret = wprp_add_profile(&plan, &doc, &builtin, "T");
	tap_ok(ret == -1 && plan.code == code, "%s: 0x%08X (%s)", what, plan.code, plan.why);
	wprp_plan_free(&plan);
	wprp_doc_free(&doc);
}

#define SYSC "<SystemCollector Id=\"S\"/>"
#define EVC "<EventCollector Id=\"E\" Name=\"e\"/>"

static void errors(void)
{
	struct wprp_doc doc;
	static const char *const not_xml[] = {
		"", "<a>", "<WindowsPerformanceRecorder><Profiles></WindowsPerformanceRecorder>",
		"<!DOCTYPE a [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">"
		"<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;\">"
		"<!ENTITY e \"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\"><!ENTITY f \"&e;&e;&e;&e;&e;&e;&e;&e;\">"
		"<!ENTITY g \"&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;\">]><a x=\"&g;&g;&g;&g;&g;&g;&g;\"/>",
	};
	unsigned int i;

	for (i = 0; i < sizeof(not_xml) / sizeof(not_xml[0]); i++) {
		int ret = wprp_xml_parse(not_xml[i], strlen(not_xml[i]), &doc);

		if (!ret)
			ret = wprp_index(&doc);
		tap_eq(ret, -1, "not a profile file %u refused: %s", i, doc.why);
		wprp_doc_free(&doc);
	}
	bad("an unknown keyword",
	    SYSC "<SystemProvider Id=\"P\"><Keywords><Keyword Value=\"Nope\"/></Keywords></SystemProvider>",
	    "<SystemCollectorId Value=\"S\"><SystemProviderId Value=\"P\"/></SystemCollectorId>",
	    WPR_E_KEYWORD);
	bad("an unknown stack",
	    SYSC "<SystemProvider Id=\"P\"><Stacks><Stack Value=\"Nope\"/></Stacks></SystemProvider>",
	    "<SystemCollectorId Value=\"S\"><SystemProviderId Value=\"P\"/></SystemCollectorId>",
	    WPR_E_STACK);
	bad("a collector named nowhere", "", "<SystemCollectorId Value=\"S\"/>", WPR_E_NO_ELEMENT);
	bad("an Id of another kind", EVC, "<SystemCollectorId Value=\"E\"/>", WPR_E_SCHEMA);
	bad("a Base loop",
	    EVC "<EventProvider Id=\"A\" Base=\"B\" Name=\"a\"/><EventProvider Id=\"B\" Base=\"A\" Name=\"b\"/>",
	    "<EventCollectorId Value=\"E\"><EventProviders><EventProviderId Value=\"A\"/>"
	    "</EventProviders></EventCollectorId>", WPR_E_SCHEMA);
	bad("a bad Operation", EVC,
	    "<EventCollectorId Value=\"E\"><EventProviders Operation=\"Replace\"/></EventCollectorId>",
	    WPR_E_OPERATION);
	bad("a bad Level", EVC "<EventProvider Id=\"A\" Name=\"a\" Level=\"256\"/>",
	    "<EventCollectorId Value=\"E\"><EventProviders><EventProviderId Value=\"A\"/>"
	    "</EventProviders></EventCollectorId>", WPR_E_LEVEL);
	bad("a bad keyword number", EVC "<EventProvider Id=\"A\" Name=\"a\"><Keywords>"
	    "<Keyword Value=\"0x1g\"/></Keywords></EventProvider>",
	    "<EventCollectorId Value=\"E\"><EventProviders><EventProviderId Value=\"A\"/>"
	    "</EventProviders></EventCollectorId>", WPR_E_SCHEMA);
	bad("a provider without Name", EVC "<EventProvider Id=\"A\"/>",
	    "<EventCollectorId Value=\"E\"><EventProviders><EventProviderId Value=\"A\"/>"
	    "</EventProviders></EventCollectorId>", WPR_E_SCHEMA);
	bad("Remove on filters", EVC "<EventProvider Id=\"A\" Name=\"a\"><EventFilters "
	    "FilterIn=\"true\" Operation=\"Remove\"/></EventProvider>",
	    "<EventCollectorId Value=\"E\"><EventProviders><EventProviderId Value=\"A\"/>"
	    "</EventProviders></EventCollectorId>", WPR_E_OPERATION);
	bad("a bad percentage", SYSC, "<SystemCollectorId Value=\"S\"><Buffers Value=\"200\" "
	    "PercentageOfTotalMemory=\"true\"/></SystemCollectorId>", WPR_E_SCHEMA);
	bad("an Id twice", SYSC SYSC, "", 0);
}

/*
 * Hostile: @n references to a provider whose Base chain is 16 deep, each
 * link holding @k keywords. Resolving must fail on the budget, having
 * visited at most its bound.
 */
static void hostile(void)
{
	unsigned int n = 20000, k = 200, i, j;
	size_t cap = 64 * 1024 * 1024, len = 0;
	char *xml = malloc(cap);
	struct wprp_doc doc;
	struct wprp_plan plan = { .file_mode = 1 };
	int ret;

	if (!xml)
		abort();
	len += sprintf(xml + len, "<WindowsPerformanceRecorder><Profiles>" EVC);
	for (i = 0; i < WPRP_MAX_BASES; i++) {
		len += sprintf(xml + len, "<EventProvider Id=\"L%u\" Name=\"x\"", i);
		if (i)
			len += sprintf(xml + len, " Base=\"L%u\"", i - 1);
		len += sprintf(xml + len, "><Keywords Operation=\"Add\">");
		for (j = 0; j < k; j++)
			len += sprintf(xml + len, "<Keyword Value=\"%u\"/>", j);
		len += sprintf(xml + len, "</Keywords></EventProvider>");
	}
	len += sprintf(xml + len, "<Profile Id=\"T.Verbose.File\" Name=\"T\" Description=\"t\" "
		       "DetailLevel=\"Verbose\" LoggingMode=\"File\"><Collectors>"
		       "<EventCollectorId Value=\"E\"><EventProviders>");
	for (i = 0; i < n; i++)
		len += sprintf(xml + len, "<EventProviderId Value=\"L%u\"/>", WPRP_MAX_BASES - 1);
	len += sprintf(xml + len, "</EventProviders></EventCollectorId></Collectors></Profile>"
		       "</Profiles></WindowsPerformanceRecorder>");
	tap_ok(wprp_xml_parse(xml, len, &doc) == 0 && wprp_index(&doc) == 0,
	       "hostile file: %u references to a chain of %u x %u keywords (%zu bytes)", n,
	       WPRP_MAX_BASES, k, len);
	ret = wprp_add_profile(&plan, &doc, &builtin, "T");
	tap_ok(ret == -1 && plan.code == WPR_E_SCHEMA && strstr(plan.why, "too much"),
	       "... refused on the visit budget (%s)", plan.why);
	wprp_plan_free(&plan);
	wprp_doc_free(&doc);

	/* Nested too deep, and too many elements: refused while reading. */
	len = 0;
	for (i = 0; i < WPRP_MAX_DEPTH + 1; i++)
		len += sprintf(xml + len, "<a>");
	for (i = 0; i < WPRP_MAX_DEPTH + 1; i++)
		len += sprintf(xml + len, "</a>");
	tap_eq(wprp_xml_parse(xml, len, &doc), -1, "%u elements deep: refused (%s)",
	       WPRP_MAX_DEPTH + 1, doc.why);
	len = sprintf(xml, "<a>");
	for (i = 0; i < WPRP_MAX_ELEMENTS; i++)
		len += sprintf(xml + len, "<b/>");
	len += sprintf(xml + len, "</a>");
	tap_eq(wprp_xml_parse(xml, len, &doc), -1, "%u elements: refused (%s)",
	       WPRP_MAX_ELEMENTS + 1, doc.why);
	free(xml);
}

/*
 * -profiles: each Name once, what the file says shown without its control
 * characters (XML lets only line breaks and tabs into an attribute).
 */
static void listing(void)
{
	static const char xml[] =
		"<WindowsPerformanceRecorder><Profiles>"
		"<Profile Id=\"A.Verbose.File\" Name=\"A\" Description=\"x&#10;y&#13;z\""
		" DetailLevel=\"Verbose\" LoggingMode=\"File\"/>"
		"<Profile Id=\"A.Light.File\" Name=\"A\" Description=\"again\""
		" DetailLevel=\"Light\" LoggingMode=\"File\"/>"
		"<Profile Id=\"B.Light.File\" Name=\"B\" Description=\"b\" Internal=\"true\""
		" DetailLevel=\"Light\" LoggingMode=\"File\"/>"
		"</Profiles></WindowsPerformanceRecorder>";
	struct wprp_doc doc;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	if (wprp_xml_parse(xml, sizeof(xml) - 1, &doc) || wprp_index(&doc)) {
		tap_ok(0, "listing: parsed (%s)", doc.why);
		return;
	}
	f = open_memstream(&out, &len);
	wprp_list_profiles(&doc, f);
	fclose(f);
	tap_ok(out && !strcmp(out, "\tA                           x?y?z\n"),
	       "-profiles: A once on one line (a newline in its description shown as ?), Internal B left out");
	if (out && strcmp(out, "\tA                           x?y?z\n"))
		printf("# got: %s", out);
	free(out);
	wprp_doc_free(&doc);
}

/* Every profile Id of @path, in its own mode, resolves. */
static void sample(const char *path)
{
	struct wprp_doc doc;
	struct wprp_el *p, *e;
	unsigned int ok = 0, n = 0;

	if (wprp_load(path, &doc) || wprp_index(&doc)) {
		tap_ok(0, "%s: read (%s)", path, doc.why);
		wprp_doc_free(&doc);
		return;
	}
	for (p = doc.root->first; p && strcmp(p->name, "Profiles"); p = p->next)
		;
	for (e = p ? p->first : NULL; e; e = e->next) {
		const char *id = wprp_attr(e, "Id"), *mode = wprp_attr(e, "LoggingMode");
		const char *internal = wprp_attr(e, "Internal");
		struct wprp_plan plan = { .file_mode = mode && !strcmp(mode, "File") };
		char spec[256];

		if (strcmp(e->name, "Profile") || !id || (internal && !strcmp(internal, "true")))
			continue;
		/* "Name.Detail" of Id "Name.Detail.Mode". */
		snprintf(spec, sizeof(spec), "%s", id);
		if (strrchr(spec, '.'))
			*strrchr(spec, '.') = 0;
		n++;
		if (!wprp_add_profile(&plan, &doc, &builtin, spec) &&
		    !strcmp(plan.profiles[0], id))
			ok++;
		else
			printf("# %s: %s: 0x%08X %s\n", path, id, plan.code, plan.why);
		wprp_plan_free(&plan);
	}
	tap_ok(n && ok == n, "%s: %u of %u profiles resolve", path, ok, n);
	wprp_doc_free(&doc);
}

static void samples(void)
{
	const char *dir = getenv("NTTRACE_WPRP_SAMPLES");
	struct dirent *d;
	DIR *dp;

	if (!dir || !(dp = opendir(dir))) {
		printf("ok %u - public profiles # SKIP no NTTRACE_WPRP_SAMPLES directory\n",
		       ++tap_counts->n);
		return;
	}
	while ((d = readdir(dp))) {
		char path[4096];
		size_t n = strlen(d->d_name);

		if (n < 5 || strcmp(d->d_name + n - 5, ".wprp"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		sample(path);
	}
	closedir(dp);
}

/* `--corpus DIR`: this test's profile files as seeds for tests/fuzz/wprp_fuzz.c. */
static int corpus(const char *dir)
{
	static const char loop[] =
		"<WindowsPerformanceRecorder><Profiles>" EVC
		"<EventProvider Id=\"A\" Base=\"B\" Name=\"a\"/><EventProvider Id=\"B\" Base=\"A\" Name=\"b\"/>"
		"<Profile Id=\"T.Verbose.File\" Name=\"T\" Description=\"t\" DetailLevel=\"Verbose\""
		" LoggingMode=\"File\" Default=\"true\" Base=\"GeneralProfile.Verbose.File\"><Collectors>"
		"<EventCollectorId Value=\"E\"><EventProviders><EventProviderId Value=\"A\"/>"
		"</EventProviders></EventCollectorId></Collectors></Profile></Profiles>"
		"</WindowsPerformanceRecorder>";
	static const struct {
		const char *name, *text;
		size_t len;
	} seeds[] = {
		{ "own.wprp", own, sizeof(own) - 1 },
		{ "loop.wprp", loop, sizeof(loop) - 1 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		char path[4096];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, seeds[i].name);
		f = fopen(path, "w");
		if (!f || fwrite(seeds[i].text, 1, seeds[i].len, f) != seeds[i].len || fclose(f)) {
			perror(path);
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--corpus"))
		return corpus(argv[2]);
	if (wprp_load_builtin(&builtin)) {
		printf("Bail out! the built-in profiles: %s\n", builtin.why);
		return 1;
	}
	builtins();
	own_file();
	errors();
	hostile();
	listing();
	samples();
	wprp_doc_free(&builtin);
	return tap_done();
}
