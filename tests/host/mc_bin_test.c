// SPDX-License-Identifier: GPL-2.0
/*
 * The binary outputs of `nttrace mc` (userlib/tools/mc_msg.c, mc_wevt.c,
 * mc_rc.c), linked in. Against a real mc.exe's outputs when they are at
 * hand: the data directory is argv[1], else $NTTRACE_MC_DATA, else the
 * default below (relative to the repository's top, where make runs the
 * test); without it those cases are skipped. There:
 *   azure-c-shared-utility-2017/: etwlogger.man and mc.exe's message
 *     table (MSG00001.bin), WEVT_TEMPLATE (etwloggerTEMP.BIN), resource
 *     script and header, whose MSG_ defines name the messages' IDs
 *   perfview-ETWClrProfiler/: another manifest and its header's MSG_
 *     defines (value maps, bit maps, tasks)
 * The outputs must be those files byte for byte (the resource script
 * names the message table NAME_MSG00001.bin, as mc.exe 10.0.18362 does).
 * Without the data: the numbering rules on a manifest of the test's own,
 * manifests that cannot be compiled (an error and no output), and a
 * large manifest. TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../vm/tap.h"
#include "mc.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static char *slurp(const char *dir, const char *sub, const char *name, size_t *len)
{
	char path[4096];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		abort();
	buf[n] = 0;
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Whether @got is @want (@n bytes); the first difference printed if not. */
static int same(const char *what, const uint8_t *got, size_t got_n, const uint8_t *want,
		size_t want_n)
{
	size_t i;

	for (i = 0; i < got_n && i < want_n && got[i] == want[i]; i++)
		;
	if (i == got_n && i == want_n)
		return tap_ok(1, "%s: %zu bytes, as mc.exe's", what, got_n);
	return tap_ok(0, "%s: first difference at offset 0x%zx (got %zu bytes, want %zu)", what,
		      i, got_n, want_n);
}

static struct nttrace_man *parse(const char *xml, size_t len)
{
	struct nttrace_man *m = NULL;
	ULONG err = nttrace_man_parse(xml, len, &m);

	if (err)
		tap_ok(0, "the manifest parses (error %u)", (unsigned int)err);
	return m;
}

/* The header's "#define MSG_name 0x...L" lines against @msgs. */
static void header_ids(const char *what, const char *h, const struct mc_msgs *msgs)
{
	size_t found = 0, bad = 0, k;
	const char *p = h;

	while ((p = strstr(p, "#define MSG_"))) {
		char sym[512];
		unsigned long id;
		int ok = 0;

		if (sscanf(p + 12, "%511s %lx", sym, &id) == 2) {
			found++;
			for (k = 0; k < msgs->n; k++)
				if (msgs->v[k].id == id && msgs->v[k].symbol &&
				    !strcmp(msgs->v[k].symbol, sym))
					ok = 1;
			if (!ok) {
				printf("# %s: MSG_%s 0x%lX not made\n", what, sym, id);
				bad++;
			}
		}
		p += 12;
	}
	tap_ok(found && !bad && found == msgs->n,
	       "%s: the header's %zu MSG_ defines are the %zu messages made, by ID and name",
	       what, found, msgs->n);
	if (found != msgs->n)
		for (k = 0; k < msgs->n; k++)
			printf("# made: 0x%08X %s\n", msgs->v[k].id,
			       msgs->v[k].symbol ? msgs->v[k].symbol : "(none)");
}

static void sample_etwlogger(const char *dir)
{
	static const char sub[] = "azure-c-shared-utility-2017";
	size_t n_man, n_msg, n_temp, n_rc, n_h;
	char *man = slurp(dir, sub, "etwlogger.man", &n_man);
	char *msg = slurp(dir, sub, "MSG00001.bin", &n_msg);
	char *temp = slurp(dir, sub, "etwloggerTEMP.BIN", &n_temp);
	char *rc = slurp(dir, sub, "etwlogger.rc", &n_rc);
	char *h = slurp(dir, sub, "etwlogger.h", &n_h);
	struct mc_opts opts = { .name = "etwlogger" };
	struct mc_out o = { 0 };
	struct mc_msgs msgs;
	struct nttrace_man *m;
	char want_rc[512];
	const char *at;

	if (!man || !msg || !temp || !rc || !h) {
		tap_ok(1, "# SKIP %s/%s: not there", dir, sub);
		goto out;
	}
	m = parse(man, n_man);
	if (!m)
		goto out;
	tap_eq(mc_messages(m, &msgs), ERROR_SUCCESS, "etwlogger.man: its messages numbered");
	header_ids("etwlogger.h", h, &msgs);
	tap_eq(mc_write_msg_table(&msgs, &o), ERROR_SUCCESS, "etwlogger: the message table");
	same("etwlogger: NAME_MSG00001.bin", o.data, o.len, (const uint8_t *)msg, n_msg);
	mc_out_free(&o);
	tap_eq(mc_write_wevt(m, &msgs, &o), ERROR_SUCCESS, "etwlogger: the WEVT_TEMPLATE");
	same("etwlogger: NAMETEMP.BIN", o.data, o.len, (const uint8_t *)temp, n_temp);
	mc_out_free(&o);
	tap_eq(mc_write_rc(&opts, &o), ERROR_SUCCESS, "etwlogger: the resource script");
	/* mc.exe 10.0.18362 names the message table NAME_MSG00001.bin. */
	at = strstr(rc, "\"MSG00001.bin\"");
	if (at)
		snprintf(want_rc, sizeof(want_rc), "%.*s\"etwlogger_%s", (int)(at - rc), rc,
			 at + 1);
	same("etwlogger: NAME.rc", o.data, o.len, (const uint8_t *)want_rc,
	     at ? strlen(want_rc) : 0);
	mc_out_free(&o);
	mc_msgs_free(&msgs);
	nttrace_man_free(m);
out:
	free(man);
	free(msg);
	free(temp);
	free(rc);
	free(h);
}

static void sample_clrprofiler(const char *dir)
{
	static const char sub[] = "perfview-ETWClrProfiler";
	size_t n_man, n_h;
	char *man = slurp(dir, sub, "ETWClrProfiler.man", &n_man);
	char *h = slurp(dir, sub, "ETWClrProfiler.h", &n_h);
	struct mc_out o = { 0 };
	struct nttrace_man *m;
	struct mc_msgs msgs;

	if (!man || !h) {
		tap_ok(1, "# SKIP %s/%s: not there", dir, sub);
		goto out;
	}
	m = parse(man, n_man);
	if (!m)
		goto out;
	tap_eq(mc_messages(m, &msgs), ERROR_SUCCESS, "ETWClrProfiler.man: its messages numbered");
	header_ids("ETWClrProfiler.h", h, &msgs);
	tap_eq(mc_write_wevt(m, &msgs, &o), ERROR_SUCCESS,
	       "ETWClrProfiler: a WEVT_TEMPLATE (maps, structures of no kind: %zu bytes)", o.len);
	mc_out_free(&o);
	mc_msgs_free(&msgs);
	nttrace_man_free(m);
out:
	free(man);
	free(h);
}

static const struct mc_msg *by_id(const struct mc_msgs *msgs, uint32_t id)
{
	size_t i;

	for (i = 0; i < msgs->n; i++)
		if (msgs->v[i].id == id)
			return &msgs->v[i];
	return NULL;
}

static const char own_manifest[] =
	"<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">"
	"<instrumentation><events>"
	"<provider name=\"P\" guid=\"{01234567-89ab-cdef-0123-456789abcdef}\" symbol=\"P\""
	" message=\"$(string.p)\">"
	"<channels><importChannel name=\"Application\" chid=\"app\"/>"
	"<channel name=\"P/Debug\" chid=\"dbg\" type=\"Debug\" message=\"$(string.c)\"/>"
	"</channels>"
	"<tasks><task name=\"T\" value=\"5\" message=\"$(string.t)\"><opcodes>"
	"<opcode name=\"O\" value=\"20\" message=\"$(string.o)\"/></opcodes></task></tasks>"
	"<keywords><keyword name=\"K\" mask=\"0x800000000000\" message=\"$(string.k)\"/>"
	"</keywords>"
	"<maps><valueMap name=\"V\"><map value=\"3\" message=\"$(string.v3)\"/>"
	"<map value=\"1\" message=\"$(string.v1)\"/></valueMap>"
	"<bitMap name=\"B\"><map value=\"0x1\" message=\"$(string.b1)\"/></bitMap></maps>"
	"<templates><template tid=\"tt\"><data name=\"n\" inType=\"win:UInt32\" map=\"V\"/>"
	"<struct name=\"s\" count=\"n\"><data name=\"a\" inType=\"win:Int8\"/></struct>"
	"</template></templates>"
	"<events>"
	"<event value=\"7\" version=\"2\" task=\"T\" opcode=\"O\" keywords=\"K\" channel=\"dbg\""
	" template=\"tt\" message=\"$(string.e7)\"/>"
	"<event value=\"8\" version=\"1\" channel=\"app\" level=\"win:Error\""
	" message=\"$(string.e8)\"/>"
	"</events></provider></events></instrumentation>"
	"<localization><resources culture=\"en-US\"><stringTable>"
	"<string id=\"p\" value=\"provider\"/><string id=\"c\" value=\"debug\"/>"
	"<string id=\"t\" value=\"task\"/><string id=\"o\" value=\"op\"/>"
	"<string id=\"k\" value=\"kw\"/><string id=\"v3\" value=\"three\"/>"
	"<string id=\"v1\" value=\"one\"/><string id=\"b1\" value=\"bit\"/>"
	"<string id=\"e7\" value=\"seven\"/><string id=\"e8\" value=\"eight\"/>"
	"<string id=\"level.Error\" value=\"Error\"/>"
	"</stringTable></resources></localization></instrumentationManifest>";

/* The numbering rules on the test's own manifest. */
static void numbering(void)
{
	static const struct { uint32_t id; const char *symbol, *text; } want[] = {
		{ 0x10000030, "k", "kw" },		/* keyword: bit 47's length, 48 */
		{ 0x30050014, "o", "op" },		/* opcode 20 of task 5 */
		{ 0x50000002, "level_Error", "Error" },	/* winmeta.xml's level */
		{ 0x70000005, "t", "task" },
		{ 0x90000001, "p", "provider" },	/* the provider's first */
		{ 0x90000002, "c", "debug" },		/* then its channels' */
		{ 0xB0020007, "e7", "seven" },		/* version 2, value 7 */
		{ 0x00000008, "e8", "eight" },		/* Application: no tag, no version */
		{ 0xD0000001, "v3", "three" },		/* value maps, in the manifest's order */
		{ 0xD0000002, "v1", "one" },
		{ 0xF0000001, "b1", "bit" },
	};
	struct nttrace_man *m = parse(own_manifest, sizeof(own_manifest) - 1);
	struct mc_out o = { 0 }, o2 = { 0 };
	struct mc_msgs msgs;
	size_t i, ok = 0;

	if (!m)
		return;
	tap_eq(mc_messages(m, &msgs), ERROR_SUCCESS, "own manifest: messages numbered");
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const struct mc_msg *g = by_id(&msgs, want[i].id);

		if (g && g->symbol && !strcmp(g->symbol, want[i].symbol) &&
		    !strcmp(g->text, want[i].text))
			ok++;
		else
			printf("# 0x%08X %s: %s\n", want[i].id, want[i].symbol,
			       g ? "another name or text" : "missing");
	}
	tap_ok(ok == i && msgs.n == i, "own manifest: the %zu IDs of the rules", i);
	tap_eq(mc_write_wevt(m, &msgs, &o), ERROR_SUCCESS, "own manifest: a WEVT_TEMPLATE");
	tap_eq(mc_write_wevt(m, &msgs, &o2), ERROR_SUCCESS, "... and again");
	tap_ok(o.len > 16 && o.len == o2.len && !memcmp(o.data, o2.data, o.len) &&
	       !memcmp(o.data, "CRIM", 4), "... the same bytes, a CRIM block");
	/* The event of the channel P/Debug (the second): bit 62 with K's. */
	tap_ok(o.len && memmem(o.data, o.len, "\x07\x00\x02\x10", 4) &&
	       memmem(o.data, o.len, "\x07\x00\x02\x10\x00\x14\x05\x00\x00\x00\x00\x00\x00\x80\x00\x40",
		  16),
	       "... event 7: version 2, channel 16, opcode 20, task 5, keywords 0x4000800000000000");
	mc_out_free(&o);
	mc_out_free(&o2);
	mc_msgs_free(&msgs);
	nttrace_man_free(m);
}

/* A manifest of @nprov providers, each with one event of a message. */
static char *providers(unsigned int nprov)
{
	struct mc_out o = { 0 };
	unsigned int i;

	mc_out_printf(&o, "<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/"
		      "2004/08/events\"><instrumentation><events>");
	for (i = 0; i < nprov; i++)
		mc_out_printf(&o, "<provider name=\"P%u\" guid=\"{%08x-0000-0000-0000-000000000000}"
			      "\"><events><event value=\"1\" message=\"$(string.m)\"/></events>"
			      "</provider>", i, i);
	mc_out_printf(&o, "</events></instrumentation><localization><resources culture="
		      "\"en-US\"><stringTable><string id=\"m\" value=\"x\"/></stringTable>"
		      "</resources></localization></instrumentationManifest>");
	mc_out_bytes(&o, "", 1);
	return (char *)o.data;
}

/* Manifests that cannot be compiled: an error, and nothing written. */
static void refused(void)
{
	static const char dup[] =
		"<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">"
		"<instrumentation><events>"
		"<provider name=\"P\" guid=\"{01234567-89ab-cdef-0123-456789abcdef}\">"
		"<keywords><keyword name=\"a\" mask=\"0x3\" message=\"$(string.a)\"/>"
		"<keyword name=\"b\" mask=\"0x2\" message=\"$(string.a)\"/></keywords>"
		"</provider></events></instrumentation>"
		"<localization><resources culture=\"en-US\"><stringTable>"
		"<string id=\"a\" value=\"a\"/></stringTable></resources></localization>"
		"</instrumentationManifest>";
	struct mc_msgs msgs = { (struct mc_msg *)1, 1 };
	struct mc_out o = { 0 };
	struct nttrace_man *m;
	char *x = providers(17), *big;
	struct mc_msg one;

	m = x ? parse(x, strlen(x)) : NULL;
	tap_eq(m ? mc_messages(m, &msgs) : 0, ERROR_INVALID_DATA,
	       "17 providers with messages: ERROR_INVALID_DATA (IDs have 4 bits for it)");
	tap_ok(!msgs.v && !msgs.n, "... and no messages");
	tap_eq(m ? mc_write_wevt(m, &msgs, &o) : 0, ERROR_INVALID_DATA,
	       "... the WEVT_TEMPLATE too");
	tap_ok(!o.len, "... nothing written");
	nttrace_man_free(m);
	free(x);
	x = providers(16);
	m = x ? parse(x, strlen(x)) : NULL;
	tap_eq(m ? mc_messages(m, &msgs) : 1, ERROR_SUCCESS, "16 providers: compiled");
	tap_ok(msgs.n == 16 && msgs.v[15].id == 0xBF000001, "... the 16th's event is 0xBF000001");
	mc_msgs_free(&msgs);
	nttrace_man_free(m);
	free(x);

	m = parse(dup, sizeof(dup) - 1);
	tap_eq(m ? mc_messages(m, &msgs) : 0, ERROR_INVALID_DATA,
	       "keywords 0x3 and 0x2 (both ID 0x10000002): ERROR_INVALID_DATA");
	nttrace_man_free(m);

	/* A message past the 16-bit entry length. */
	big = malloc(40001);
	if (!big)
		abort();
	memset(big, 'x', 40000);
	big[40000] = 0;
	one = (struct mc_msg){ 0x10000001, NULL, big };
	msgs = (struct mc_msgs){ &one, 1 };
	mc_out_bytes(&o, "keep", 4);
	tap_eq(mc_write_msg_table(&msgs, &o), ERROR_INVALID_DATA,
	       "a message of 40000 characters: ERROR_INVALID_DATA");
	tap_ok(o.len == 4 && !memcmp(o.data, "keep", 4), "... the buffer as it was");
	mc_out_free(&o);
	free(big);
	tap_eq(mc_write_rc(&(struct mc_opts){ .name = "a\"b" }, &o), ERROR_INVALID_PARAMETER,
	       "a name with a '\"' in the resource script: ERROR_INVALID_PARAMETER");
	tap_ok(!o.len, "... nothing written");
	mc_out_free(&o);
}

/* n events of n keywords and n templates: made in about n log n. */
static void large(unsigned int n)
{
	struct mc_out x = { 0 }, o = { 0 };
	struct nttrace_man *m;
	struct mc_msgs msgs;
	unsigned int i;
	clock_t t0;
	double s;

	mc_out_printf(&x, "<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/"
		      "2004/08/events\"><instrumentation><events><provider name=\"P\" "
		      "guid=\"{01234567-89ab-cdef-0123-456789abcdef}\"><keywords>");
	for (i = 0; i < 64; i++)
		mc_out_printf(&x, "<keyword name=\"k%u\" mask=\"0x%llx\"/>", i, 1ULL << i);
	mc_out_printf(&x, "</keywords><templates>");
	for (i = 0; i < n; i++)
		mc_out_printf(&x, "<template tid=\"t%u\"><data name=\"d\" inType=\"win:UInt32\"/>"
			      "</template>", i);
	mc_out_printf(&x, "</templates><events>");
	for (i = 0; i < n; i++)
		mc_out_printf(&x, "<event value=\"%u\" template=\"t%u\" keywords=\"k%u k%u\" "
			      "message=\"$(string.e%u)\"/>", n - i, i, i % 64, (i * 7) % 64, i);
	mc_out_printf(&x, "</events></provider></events></instrumentation><localization>"
		      "<resources culture=\"en-US\"><stringTable>");
	for (i = 0; i < n; i++)
		mc_out_printf(&x, "<string id=\"e%u\" value=\"event %u\"/>", i, i);
	mc_out_printf(&x, "</stringTable></resources></localization></instrumentationManifest>");
	if (x.oom)
		abort();
	m = parse((const char *)x.data, x.len);
	if (!m)
		return;
	t0 = clock();
	tap_eq(mc_messages(m, &msgs), ERROR_SUCCESS, "%u events: numbered", n);
	tap_eq(mc_write_msg_table(&msgs, &o), ERROR_SUCCESS, "... a message table");
	mc_out_free(&o);
	tap_eq(mc_write_wevt(m, &msgs, &o), ERROR_SUCCESS, "... a WEVT_TEMPLATE (%zu bytes)",
	       o.len);
	s = (double)(clock() - t0) / CLOCKS_PER_SEC;
	printf("# %u events, 64 keywords, %u templates: %.3f s\n", n, n, s);
	tap_ok(msgs.n == n && msgs.v[0].id == 0xB0000001 && msgs.v[n - 1].id == 0xB0000000 + n,
	       "... the events' IDs 0xB0000001 to 0x%08X", 0xB0000000 + n);
	mc_out_free(&o);
	mc_out_free(&x);
	mc_msgs_free(&msgs);
	nttrace_man_free(m);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : getenv("NTTRACE_MC_DATA");

	if (!dir || !*dir)
		dir = "../shared/data/mc";
	unsetenv("LC_ALL");
	unsetenv("LC_MESSAGES");
	setenv("LANG", "C", 1);
#ifdef NTTRACE_NO_EXPAT
	tap_ok(1, "# SKIP this library was built without expat: no manifest is read");
	return tap_done();
#endif
	sample_etwlogger(dir);
	sample_clrprofiler(dir);
	numbering();
	refused();
	large(50000);
	return tap_done();
}
