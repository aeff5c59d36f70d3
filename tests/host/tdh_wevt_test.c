// SPDX-License-Identifier: GPL-2.0
/*
 * TDH over compiled manifests (userlib/tdh/tdh_man_wevt.c): a WEVT_TEMPLATE
 * resource and its message table, loaded from a file, from memory and from
 * an ELF file's sections, decode events as the manifest's XML does.
 *
 *  - With a real mc.exe's outputs (the directory NTTRACE_MC_DATA names, by
 *    default one beside the tree, below; skipped when it is not there): etwloggerTEMP.BIN and MSG00001.bin give, for each of the four
 *    events of etwlogger.man, the TRACE_EVENT_INFO the XML gives, field by
 *    field, and the same providers' fields; the provider's name is the one
 *    thing a compiled manifest does not hold.
 *  - A compiled manifest made here (a user level, a value map, a count that
 *    names a field, a structure) and its message table (UTF-16 and ANSI
 *    texts, an unpaired surrogate) decode as built; cut short, with an
 *    offset, count or reference out of range, a cycle of references or
 *    bytes changed one at a time, it fails (ERROR_INVALID_DATA) or loads,
 *    and never crashes.
 *  - Both, added to an ELF file with objcopy (skipped when there is none),
 *    load with TdhLoadManifestFromBinary and unload with TdhUnloadManifest.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nttrace/tdh.h>

#include "../vm/tap.h"

/* UTF-16 of an ASCII string, in one of a few static buffers. */
static WCHAR *w(const char *s)
{
	static WCHAR b[4][4096];
	static int k;
	WCHAR *o = b[k++ % 4];
	size_t i;

	for (i = 0; s[i] && i < 4095; i++)
		o[i] = (unsigned char)s[i];
	o[i] = 0;
	return o;
}

/* A UTF-16 string at @off of @base as ASCII ('?' else). */
static const char *ascii(const void *base, ULONG off)
{
	static char s[8][512];
	static int k;
	const uint8_t *p = (const uint8_t *)base + off;
	char *o = s[k++ % 8];
	size_t i;

	if (!off)
		return "(none)";
	for (i = 0; i < 511 && (p[2 * i] || p[2 * i + 1]); i++)
		o[i] = p[2 * i + 1] || p[2 * i] > 0x7E ? '?' : p[2 * i];
	o[i] = 0;
	return o;
}

static TRACE_EVENT_INFO *info(const GUID *g, uint16_t id, uint8_t version)
{
	EVENT_RECORD er = { 0 };
	TRACE_EVENT_INFO *tei;
	ULONG size = 0;

	er.EventHeader.ProviderId = *g;
	er.EventHeader.EventDescriptor.Id = id;
	er.EventHeader.EventDescriptor.Version = version;
	er.EventHeader.Flags = EVENT_HEADER_FLAG_64_BIT_HEADER;
	if (TdhGetEventInformation(&er, 0, NULL, NULL, &size) != ERROR_INSUFFICIENT_BUFFER)
		return NULL;
	tei = malloc(size);
	if (tei && TdhGetEventInformation(&er, 0, NULL, tei, &size)) {
		free(tei);
		return NULL;
	}
	return tei;
}

/* The keywords' names of @t, each followed by '|'. */
static const char *keywords(const TRACE_EVENT_INFO *t)
{
	static char s[2][1024];
	static int k;
	char *o = s[k++ % 2];
	ULONG off = t->KeywordsNameOffset;

	*o = 0;
	while (off && ((const uint8_t *)t)[off]) {
		const char *n = ascii(t, off);

		snprintf(o + strlen(o), 1024 - strlen(o), "%s|", n);
		off += 2 * (strlen(n) + 1);
	}
	return o;
}

static int same(const char *what, unsigned int id, const char *a, const char *b)
{
	if (!strcmp(a, b))
		return 1;
	printf("# event %u %s: \"%s\" (XML), \"%s\" (compiled)\n", id, what, a, b);
	return 0;
}

/* @a (from XML) and @b (compiled) alike, the provider's name apart. */
static int alike(unsigned int id, const TRACE_EVENT_INFO *a, const TRACE_EVENT_INFO *b)
{
	int ok = 1;
	ULONG i;

	ok &= !memcmp(&a->ProviderGuid, &b->ProviderGuid, sizeof(GUID));
	ok &= a->DecodingSource == b->DecodingSource;
	ok &= a->PropertyCount == b->PropertyCount;
	ok &= a->TopLevelPropertyCount == b->TopLevelPropertyCount;
	if (!ok) {
		printf("# event %u: the counts differ\n", id);
		return 0;
	}
	ok &= same("level", id, ascii(a, a->LevelNameOffset), ascii(b, b->LevelNameOffset));
	ok &= same("channel", id, ascii(a, a->ChannelNameOffset), ascii(b, b->ChannelNameOffset));
	ok &= same("task", id, ascii(a, a->TaskNameOffset), ascii(b, b->TaskNameOffset));
	ok &= same("opcode", id, ascii(a, a->OpcodeNameOffset), ascii(b, b->OpcodeNameOffset));
	ok &= same("keywords", id, keywords(a), keywords(b));
	ok &= same("message", id, ascii(a, a->EventMessageOffset), ascii(b, b->EventMessageOffset));
	ok &= same("provider message", id, ascii(a, a->ProviderMessageOffset),
		   ascii(b, b->ProviderMessageOffset));
	ok &= same("event name", id, ascii(a, a->EventNameOffset), ascii(b, b->EventNameOffset));
	for (i = 0; i < a->PropertyCount; i++) {
		const EVENT_PROPERTY_INFO *x = &a->EventPropertyInfoArray[i];
		const EVENT_PROPERTY_INFO *y = &b->EventPropertyInfoArray[i];

		ok &= same("property", id, ascii(a, x->NameOffset), ascii(b, y->NameOffset));
		if (x->Flags != y->Flags || x->count != y->count || x->length != y->length ||
		    memcmp(&x->nonStructType, &y->nonStructType, 4) ||
		    strcmp(ascii(a, x->nonStructType.MapNameOffset),
			   ascii(b, y->nonStructType.MapNameOffset))) {
			printf("# event %u property %u differs\n", id, i);
			ok = 0;
		}
	}
	return ok;
}

/* A provider's fields of @type as "name=description=value;" each. */
static char *fields(const GUID *g, EVENT_FIELD_TYPE type)
{
	PROVIDER_FIELD_INFOARRAY *fa;
	ULONG size = 0, i;
	char *s = calloc(1, 8192);

	if (!s || TdhEnumerateProviderFieldInformation((LPGUID)g, type, NULL, &size) !=
	    ERROR_INSUFFICIENT_BUFFER)
		return s;
	fa = malloc(size);
	if (fa && !TdhEnumerateProviderFieldInformation((LPGUID)g, type, fa, &size))
		for (i = 0; i < fa->NumberOfElements; i++)
			snprintf(s + strlen(s), 8192 - strlen(s), "%s=%s=%llx;",
				 ascii(fa, fa->FieldInfoArray[i].NameOffset),
				 ascii(fa, fa->FieldInfoArray[i].DescriptionOffset),
				 (unsigned long long)fa->FieldInfoArray[i].Value);
	free(fa);
	return s;
}

/* {4CCAA233-6675-4EC5-B3A6-1AA68B7C8AE9}, etwlogger.man's provider. */
static const GUID etw = { 0x4CCAA233, 0x6675, 0x4EC5,
			  { 0xB3, 0xA6, 0x1A, 0xA6, 0x8B, 0x7C, 0x8A, 0xE9 } };

static int read_all(const char *path, void **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	*data = malloc(n > 0 ? n : 1);
	*len = n;
	if (!*data || fread(*data, 1, n, f) != (size_t)n) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

static char mc_dir[512];

static int have_objcopy(void)
{
	return !system("objcopy --version >/dev/null 2>&1");
}

/* /proc/self/exe with the sections of @tmpl and @msg (may be NULL) at @out. */
static int elf_with(const char *out, const char *tmpl, const char *msg)
{
	static const char add[] = "--add-section .%s='%s' --set-section-flags .%s=noload,readonly";
	char cmd[2048], sec[2][700] = { "", "" };

	snprintf(sec[0], sizeof(sec[0]), add, "WEVT_TEMPLATE", tmpl, "WEVT_TEMPLATE");
	if (msg)
		snprintf(sec[1], sizeof(sec[1]), add, "MESSAGETABLE", msg, "MESSAGETABLE");
	snprintf(cmd, sizeof(cmd), "objcopy %s %s /proc/self/exe '%s'", sec[0], sec[1], out);
	return system(cmd);
}

static void real_mc(void)
{
	char man[600], bin[600], msgs[600];
	TRACE_EVENT_INFO *x[5] = { 0 }, *c[5] = { 0 };
	char *xf[EventInformationMax], *cf[EventInformationMax];
	unsigned int id, t;
	void *blob;
	size_t blen;

	snprintf(man, sizeof(man), "%s/azure-c-shared-utility-2017/etwlogger.man", mc_dir);
	snprintf(bin, sizeof(bin), "%s/azure-c-shared-utility-2017/etwloggerTEMP.BIN", mc_dir);
	snprintf(msgs, sizeof(msgs), "%s/azure-c-shared-utility-2017/MSG00001.bin", mc_dir);
	if (access(man, R_OK) || access(bin, R_OK) || access(msgs, R_OK)) {
		tap_ok(1, "# SKIP mc.exe's outputs: no %s (NTTRACE_MC_DATA)", bin);
		return;
	}
	tap_eq(TdhLoadManifest(w(man)), ERROR_SUCCESS, "etwlogger.man loads");
	for (id = 1; id <= 4; id++)
		x[id] = info(&etw, id, 0);
	for (t = 0; t < EventInformationMax; t++)
		xf[t] = fields(&etw, t);
	tap_eq(TdhUnloadManifest(w(man)), ERROR_SUCCESS, "... and unloads");
	tap_eq(TdhLoadManifestFromBinary(w(bin)), ERROR_SUCCESS,
	       "etwloggerTEMP.BIN loads, MSG00001.bin beside it");
	for (id = 1; id <= 4; id++)
		c[id] = info(&etw, id, 0);
	for (t = 0; t < EventInformationMax; t++)
		cf[t] = fields(&etw, t);
	tap_eq(TdhUnloadManifest(w(bin)), ERROR_SUCCESS, "... and unloads");
	for (id = 1; id <= 4; id++) {
		if (!tap_ok(x[id] && c[id], "event %u described by both", id))
			continue;
		tap_ok(alike(id, x[id], c[id]),
		       "event %u: the same TRACE_EVENT_INFO from both (%u properties)", id,
		       c[id]->PropertyCount);
		tap_ok(!c[id]->ProviderNameOffset && !strcmp(ascii(x[id],
		       x[id]->ProviderNameOffset), "Microsoft-ServiceBus"),
		       "event %u: the provider's name only in the XML", id);
	}
	for (t = 0; t < EventInformationMax; t++) {
		if (strcmp(xf[t], cf[t]))
			printf("# XML: %s\n# compiled: %s\n", xf[t], cf[t]);
		tap_ok(!strcmp(xf[t], cf[t]), "the provider's fields of type %u alike", t);
		free(xf[t]);
		free(cf[t]);
	}
	for (id = 1; id <= 4; id++) {
		free(x[id]);
		free(c[id]);
	}
	/* From memory: no message table, so names instead of messages. */
	if (!read_all(bin, &blob, &blen)) {
		tap_eq(TdhLoadManifestFromMemory(blob, blen), ERROR_SUCCESS,
		       "etwloggerTEMP.BIN's bytes load from memory");
		c[1] = info(&etw, 1, 0);
		tap_ok(c[1] && !strcmp(ascii(c[1], c[1]->TaskNameOffset), "Log") &&
		       !c[1]->EventMessageOffset && c[1]->PropertyCount == 1,
		       "... without messages: the task's name, no event message");
		free(c[1]);
		tap_eq(TdhUnloadManifestFromMemory(blob, blen), ERROR_SUCCESS, "... and unload");
		free(blob);
	}
	if (have_objcopy()) {
		char out[] = "/tmp/nttrace-wevt-elf-XXXXXX";
		int fd = mkstemp(out);

		close(fd);
		if (tap_ok(fd >= 0 && !elf_with(out, bin, msgs), "objcopy adds etwlogger's sections")) {
			tap_eq(TdhLoadManifestFromBinary(w(out)), ERROR_SUCCESS,
			       "the ELF file's .WEVT_TEMPLATE and .MESSAGETABLE load");
			c[4] = info(&etw, 4, 0);
			tap_ok(c[4] && !strcmp(ascii(c[4], c[4]->EventMessageOffset),
					       "This event is fired when LogLastError is called in C code")
			       && c[4]->PropertyCount == 6, "... and decode event 4");
			free(c[4]);
			tap_eq(TdhUnloadManifest(w(out)), ERROR_SUCCESS, "... and unload");
		}
		unlink(out);
	}
}

/* ---- a compiled manifest made here ---- */

struct buf {
	uint8_t b[4096];
	uint32_t n;
};

static uint32_t put(struct buf *b, const void *p, uint32_t n)
{
	uint32_t at = b->n;

	memcpy(b->b + b->n, p, n);
	b->n += n;
	return at;
}

static uint32_t p32(struct buf *b, uint32_t v)
{
	uint8_t x[4] = { v, v >> 8, v >> 16, v >> 24 };

	return put(b, x, 4);
}

static uint32_t p16(struct buf *b, uint16_t v)
{
	uint8_t x[2] = { v, v >> 8 };

	return put(b, x, 2);
}

static uint32_t p8(struct buf *b, uint8_t v)
{
	return put(b, &v, 1);
}

static void set16(struct buf *b, uint32_t at, uint16_t v)
{
	uint8_t x[2] = { v, v >> 8 };

	memcpy(b->b + at, x, 2);
}

static void set32(struct buf *b, uint32_t at, uint32_t v)
{
	uint8_t x[4] = { v, v >> 8, v >> 16, v >> 24 };

	memcpy(b->b + at, x, 4);
}

/* A name: u32 size, UTF-16, NUL, padded to 4 bytes. */
static uint32_t pname(struct buf *b, const char *s)
{
	uint32_t at = p32(b, 0), i;

	for (i = 0; s[i]; i++)
		p16(b, (unsigned char)s[i]);
	p16(b, 0);
	while (b->n % 4)
		p8(b, 0);
	set32(b, at, b->n - at);
	return at;
}

/* {11111111-2222-3333-4455-66778899AABB}, the provider made here. */
static const GUID mine = { 0x11111111, 0x2222, 0x3333,
			   { 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB } };

/* Offsets of what the bad cases change. */
static struct {
	uint32_t evnt, event, temp, items, vmap, levl, maps;
} at;

static void make(struct buf *b)
{
	uint32_t wevt, slots, name, e, tsize;

	memset(b, 0, sizeof(*b));
	put(b, "CRIM", 4);
	p32(b, 0);
	p16(b, 3);
	p16(b, 1);
	p32(b, 1);
	put(b, &mine, 16);
	p32(b, b->n + 4);
	wevt = put(b, "WEVT", 4);
	p32(b, 0);
	p32(b, 0xFFFFFFFF);
	p32(b, 4);
	slots = b->n;
	b->n += 4 * 8;
	/* LEVL: a level of the provider's own, 16. */
	at.levl = put(b, "LEVL", 4);
	p32(b, 0);
	p32(b, 1);
	p32(b, 16);
	p32(b, 0x50000010);
	name = p32(b, 0);
	set32(b, name, pname(b, "Sixteen"));
	set32(b, at.levl + 4, b->n - at.levl);
	set32(b, slots, 0);
	set32(b, slots + 4, at.levl);
	/* MAPS: one value map. */
	at.maps = put(b, "MAPS", 4);
	p32(b, 0);
	p32(b, 1);
	p32(b, 0);
	at.vmap = put(b, "VMAP", 4);
	set32(b, at.maps + 12, at.vmap);
	p32(b, 20 + 16);
	name = p32(b, 0);
	p32(b, 0);
	p32(b, 2);
	p32(b, 1);
	p32(b, 0x10000001);
	p32(b, 2);
	p32(b, 0x10000002);
	set32(b, name, pname(b, "Colors"));
	set32(b, at.maps + 4, b->n - at.maps);
	set32(b, slots + 8, 6);
	set32(b, slots + 12, at.maps);
	/* TTBL: n (UInt16), vals (UInt32[n], the map), s { x (UInt8) }. */
	e = put(b, "TTBL", 4);
	p32(b, 0);
	p32(b, 1);
	at.temp = put(b, "TEMP", 4);
	p32(b, 0);
	p32(b, 3);
	p32(b, 4);
	p32(b, 0);
	p32(b, 1);
	b->n += 16;
	at.items = b->n;
	set32(b, at.temp + 16, at.items);
	b->n += 4 * 20;
	{
		static const struct {
			uint32_t flags;
			uint8_t in, out;
			uint16_t a;
			uint16_t count, length;
			const char *name;
		} d[4] = {
			{ 0, 6, 0, 0, 0, 0, "n" },
			{ 16, 8, 0, 0, 0, 0, "vals" },
			{ 1, 0, 0, 0, 0, 0, "s" },
			{ 0, 4, 0x10, 0, 0, 0, "x" },
		};
		uint32_t i, k;

		for (i = 0; i < 4; i++) {
			struct buf one = { .n = 0 };

			p32(&one, d[i].flags);
			if (d[i].flags & 1) {
				p16(&one, 3);
				p16(&one, 1);
				p32(&one, 0);
			} else {
				p8(&one, d[i].in);
				p8(&one, d[i].out);
				p16(&one, 0);
				p32(&one, i == 1 ? at.vmap : 0);
			}
			p16(&one, d[i].count);
			p16(&one, d[i].length);
			k = pname(b, d[i].name);
			p32(&one, k);
			memcpy(b->b + at.items + 20 * i, one.b, 20);
		}
	}
	tsize = b->n - at.temp;
	set32(b, at.temp + 4, tsize);
	set32(b, e + 4, b->n - e);
	set32(b, slots + 16, 7);
	set32(b, slots + 20, e);
	/* EVNT: event 7 version 1, level 16, the template. */
	while (b->n % 8)
		p8(b, 0);
	at.evnt = put(b, "EVNT", 4);
	p32(b, 16 + 48);
	p32(b, 1);
	p32(b, 0);
	at.event = p16(b, 7);
	p8(b, 1);
	p8(b, 0);
	p8(b, 16);
	p8(b, 0);
	p16(b, 0);
	p32(b, 0);
	p32(b, 0);
	p32(b, 0xB0000007);
	p32(b, at.temp);
	p32(b, 0);
	p32(b, at.levl + 12);
	p32(b, 0);
	p32(b, 0);
	p32(b, 0);
	p32(b, 0);
	set32(b, slots + 24, 4);
	set32(b, slots + 28, at.evnt);
	set32(b, wevt + 4, b->n - wevt);
	set32(b, 4, b->n);
}

/* Its message table: UTF-16 and ANSI texts, one with an unpaired surrogate. */
static void make_msgs(struct buf *b)
{
	static const uint16_t ev[] = { 'E', 'v', ' ', '%', '1', ' ', 0xD800, '!', '\r', '\n', 0 };
	uint32_t e;

	memset(b, 0, sizeof(*b));
	p32(b, 3);
	p32(b, 0x10000001);
	p32(b, 0x10000002);
	p32(b, 0);
	p32(b, 0x50000010);
	p32(b, 0x50000010);
	p32(b, 0);
	p32(b, 0xB0000007);
	p32(b, 0xB0000007);
	p32(b, 0);
	set32(b, 12, b->n);
	p16(b, 4 + 8);
	p16(b, 0);
	put(b, "Red\r\n\0\0", 8);
	p16(b, 4 + 8);
	p16(b, 0);
	put(b, "Gr\351en\0\0", 8);
	set32(b, 24, b->n);
	e = p16(b, 0);
	p16(b, 1);
	put(b, (const uint16_t[]){ 'S', 'i', 'x', 't', 'e', 'e', 'n', '\r', '\n', 0 }, 20);
	set16(b, e, b->n - e);
	set32(b, 36, b->n);
	e = p16(b, 0);
	p16(b, 1);
	put(b, ev, sizeof(ev));
	set16(b, e, b->n - e);
}

static ULONG load_pair(const struct buf *t, uint32_t tlen, const struct buf *m, uint32_t mlen,
		       const char *tmpl_path)
{
	char msg_path[600];
	FILE *f = fopen(tmpl_path, "wb");

	if (!f || fwrite(t->b, 1, tlen, f) != tlen || fclose(f))
		return ERROR_WRITE_FAULT;
	snprintf(msg_path, sizeof(msg_path), "%.*s_MSG00001.bin",
		 (int)(strlen(tmpl_path) - strlen("TEMP.BIN")), tmpl_path);
	unlink(msg_path);
	if (m) {
		f = fopen(msg_path, "wb");
		if (!f || fwrite(m->b, 1, mlen, f) != mlen || fclose(f))
			return ERROR_WRITE_FAULT;
	}
	return TdhLoadManifestFromBinary(w(tmpl_path));
}

static char dir[] = "/tmp/nttrace-wevt-XXXXXX";
static char tpath[128], mpath[128];

static void own(void)
{
	struct buf t, m;
	TRACE_EVENT_INFO *tei;
	EVENT_MAP_INFO *mi;
	EVENT_RECORD er = { 0 };
	ULONG size = 0;

	make(&t);
	make_msgs(&m);
	tap_eq(load_pair(&t, t.n, &m, m.n, tpath), ERROR_SUCCESS,
	       "a compiled manifest made here loads, with NAME_MSG00001.bin");
	tei = info(&mine, 7, 1);
	if (!tap_ok(tei != NULL, "its event 7 version 1 is described"))
		return;
	tap_ok(!strcmp(ascii(tei, tei->LevelNameOffset), "Sixteen"),
	       "level 16: the message table's text, \"\\r\\n\" off");
	tap_ok(!strcmp(ascii(tei, tei->EventMessageOffset), "Ev %1 ?!"),
	       "the event's message, an unpaired surrogate as U+FFFD (%s)",
	       ascii(tei, tei->EventMessageOffset));
	tap_ok(tei->PropertyCount == 4 && tei->TopLevelPropertyCount == 3 &&
	       !strcmp(ascii(tei, tei->EventPropertyInfoArray[0].NameOffset), "n") &&
	       tei->EventPropertyInfoArray[0].nonStructType.InType == TDH_INTYPE_UINT16,
	       "4 properties, 3 at the top level, the first n (UInt16)");
	tap_ok((tei->EventPropertyInfoArray[1].Flags & PropertyParamCount) &&
	       tei->EventPropertyInfoArray[1].countPropertyIndex == 0 &&
	       !strcmp(ascii(tei, tei->EventPropertyInfoArray[1].nonStructType.MapNameOffset),
		       "Colors"), "vals: counted by n, mapped by Colors");
	tap_ok((tei->EventPropertyInfoArray[2].Flags & PropertyStruct) &&
	       tei->EventPropertyInfoArray[2].structType.StructStartIndex == 3 &&
	       tei->EventPropertyInfoArray[2].structType.NumOfStructMembers == 1 &&
	       tei->EventPropertyInfoArray[3].nonStructType.OutType == TDH_OUTTYPE_HEXINT8,
	       "s: a structure of x (UInt8 as HexInt8)");
	er.EventHeader.ProviderId = mine;
	er.EventHeader.EventDescriptor.Id = 7;
	er.EventHeader.EventDescriptor.Version = 1;
	if (TdhGetEventMapInformation(&er, w("Colors"), NULL, &size) == ERROR_INSUFFICIENT_BUFFER) {
		/*
		 * Filled before the check: the order in which a call's
		 * arguments are evaluated is unspecified, and the message
		 * below reads the buffer too.
		 */
		mi = malloc(size);
		if (mi && TdhGetEventMapInformation(&er, w("Colors"), mi, &size)) {
			free(mi);
			mi = NULL;
		}
		tap_ok(mi && mi->EntryCount == 2 &&
		       !strcmp(ascii(mi, mi->MapEntryArray[0].OutputOffset), "Red ") &&
		       !strcmp(ascii(mi, mi->MapEntryArray[1].OutputOffset), "Gr?en "),
		       "the map's texts: UTF-16 and ANSI (%s)",
		       mi ? ascii(mi, mi->MapEntryArray[1].OutputOffset) : "");
		free(mi);
	} else {
		tap_ok(0, "the map Colors is there");
	}
	free(tei);
	tap_eq(TdhUnloadManifest(w(tpath)), ERROR_SUCCESS, "... and unloads");
	tap_eq(load_pair(&t, t.n, NULL, 0, tpath), ERROR_SUCCESS, "... loads without messages");
	tei = info(&mine, 7, 1);
	tap_ok(tei && !strcmp(ascii(tei, tei->LevelNameOffset), "Sixteen") &&
	       !tei->EventMessageOffset, "... the level's name, no message");
	free(tei);
	tap_eq(TdhUnloadManifest(w(tpath)), ERROR_SUCCESS, "... and unloads");

	if (have_objcopy()) {
		char out[160], mp[160];
		FILE *f;

		snprintf(out, sizeof(out), "%s/prog", dir);
		snprintf(mp, sizeof(mp), "%s/m.bin", dir);
		f = fopen(mp, "wb");
		if (f) {
			fwrite(m.b, 1, m.n, f);
			fclose(f);
		}
		if (tap_ok(!elf_with(out, tpath, mp), "objcopy adds the sections to an ELF file")) {
			tap_eq(TdhLoadManifestFromBinary(w(out)), ERROR_SUCCESS,
			       "TdhLoadManifestFromBinary reads them");
			tei = info(&mine, 7, 1);
			tap_ok(tei && !strcmp(ascii(tei, tei->LevelNameOffset), "Sixteen"),
			       "... with the message table's texts");
			free(tei);
			tap_eq(TdhUnloadManifest(w(out)), ERROR_SUCCESS, "... and unloads");
			tap_eq(TdhUnloadManifest(w(out)), ERROR_FILE_NOT_FOUND, "... once");
		}
		unlink(out);
		unlink(mp);
	} else {
		tap_ok(1, "# SKIP no objcopy to add sections with");
	}
}

static ULONG mem(const struct buf *b, uint32_t n)
{
	ULONG err = TdhLoadManifestFromMemory(b->b, n);

	if (!err)
		TdhUnloadManifestFromMemory(b->b, n);
	return err;
}

static void bad(void)
{
	struct buf t, m, x;
	uint32_t cut, i, fails = 0, loads = 0;
	int v;

	make(&t);
	make_msgs(&m);
	tap_eq(mem(&t, t.n), ERROR_SUCCESS, "the made manifest loads from memory");
	for (cut = 0; cut < t.n; cut++) {
		x = t;
		if (cut >= 8)
			set32(&x, 4, cut);
		if (mem(&x, cut) == ERROR_SUCCESS)
			fails++;
	}
	tap_eq(fails, 0, "cut short anywhere (its size too): none loads");

	x = t;
	set32(&x, at.event + 20, 0xFFFFFFF0);
	tap_eq(mem(&x, x.n), ERROR_INVALID_DATA, "a template's offset out of range");
	x = t;
	set32(&x, at.event + 28, at.levl + 13);
	tap_eq(mem(&x, x.n), ERROR_INVALID_DATA, "a level's offset between entries");
	x = t;
	set32(&x, at.items + 16, t.n - 2);
	tap_eq(mem(&x, x.n), ERROR_INVALID_DATA, "a name past the end");
	x = t;
	set32(&x, at.evnt + 8, 0x7FFFFFFF);
	tap_eq(mem(&x, x.n), ERROR_INVALID_DATA, "too many events");
	x = t;
	set32(&x, at.temp + 12, 0xFFFFFFFF);
	tap_eq(mem(&x, x.n), ERROR_INVALID_DATA, "too many items");
	x = t;
	set32(&x, at.vmap + 16, 0x20000000);
	tap_eq(mem(&x, x.n), ERROR_INVALID_DATA, "too many map entries");
	x = t;
	set32(&x, 12, 0x10000000);
	tap_eq(mem(&x, x.n), ERROR_INVALID_DATA, "too many providers");
	x = t;
	set32(&x, at.items + 20 + 12, 1);
	tap_eq(mem(&x, x.n), ERROR_INVALID_DATA, "a count that names its own item (a cycle)");
	x = t;
	set32(&x, at.items + 12, 1);
	set32(&x, at.items, 16);
	tap_eq(mem(&x, x.n), ERROR_INVALID_DATA, "a count that names a later item");
	x = t;
	set32(&x, at.items + 40 + 4, 2 | 1 << 16);
	tap_eq(mem(&x, x.n), ERROR_INVALID_DATA, "a structure that holds itself");
	x = t;
	set32(&x, at.items + 60, 1);
	set32(&x, at.items + 64, 3 | 1 << 16);
	tap_eq(mem(&x, x.n), ERROR_INVALID_DATA, "a structure in a structure");
	x = t;
	set32(&x, at.items + 24, 0x99);
	tap_eq(mem(&x, x.n), ERROR_INVALID_DATA, "an unknown inType");
	x = t;
	set32(&x, at.items + 28, at.vmap + 4);
	tap_eq(mem(&x, x.n), ERROR_INVALID_DATA, "a map offset that is no map");
	x = t;
	set32(&x, at.temp + 4, 0x7FFFFFF0);
	tap_eq(mem(&x, x.n), ERROR_INVALID_DATA, "a template larger than its table");
	x = t;
	set32(&x, 8, 4);
	tap_eq(mem(&x, x.n), ERROR_INVALID_DATA, "version 4");

	/* The message table's own. */
	x = m;
	set32(&x, 16, 0x10000001);
	set32(&x, 20, 0x10000001);
	tap_eq(load_pair(&t, t.n, &x, x.n, tpath), ERROR_INVALID_DATA,
	       "message blocks whose IDs overlap");
	x = m;
	set32(&x, 0, 1);
	set32(&x, 4, 0);
	set32(&x, 8, 0xFFFFFFFF);
	tap_eq(load_pair(&t, t.n, &x, x.n, tpath), ERROR_INVALID_DATA,
	       "a message block of 2^32 IDs in a few bytes");
	x = m;
	x.b[m.b[12]] = 0;
	x.b[m.b[12] + 1] = 0;
	tap_eq(load_pair(&t, t.n, &x, x.n, tpath), ERROR_INVALID_DATA,
	       "a message entry of length 0");
	x = m;
	set32(&x, 0, 0x40000000);
	tap_eq(load_pair(&t, t.n, &x, x.n, tpath), ERROR_INVALID_DATA, "too many message blocks");

	/* Every byte changed, one at a time, to a few values. */
	fails = 0;
	for (i = 0; i < t.n; i++) {
		for (v = 0; v < 4; v++) {
			static const uint8_t vals[4] = { 0, 1, 0x80, 0xFF };
			ULONG err;

			x = t;
			x.b[i] = vals[v];
			err = mem(&x, x.n);
			if (err == ERROR_SUCCESS)
				loads++;
			else if (err != ERROR_INVALID_DATA && err != ERROR_XML_PARSE_ERROR)
				fails++;
		}
	}
	tap_eq(fails, 0, "bytes changed: each loads (%u times) or is ERROR_INVALID_DATA", loads);
}

/*
 * tests/fuzz/tdh_wevt_fuzz's seeds in @dir: the compiled manifest made here
 * with and without its message table, and event 7's data (n = 2, two
 * values, x).
 */
static int corpus(const char *out)
{
	static const uint8_t ev[] = { 7, 0, 1, 2, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0x5A };
	struct buf t, m;
	int k;

	make(&t);
	make_msgs(&m);
	for (k = 0; k < 2; k++) {
		char name[512];
		uint8_t hdr[3] = { 0, t.n, t.n >> 8 }, mh[2] = { k ? 0 : m.n, k ? 0 : m.n >> 8 };
		FILE *f;

		snprintf(name, sizeof(name), "%s/wevt%s", out, k ? "-nomsg" : "");
		f = fopen(name, "wb");
		if (!f)
			return 1;
		fwrite(hdr, 1, 3, f);
		fwrite(t.b, 1, t.n, f);
		fwrite(mh, 1, 2, f);
		if (!k)
			fwrite(m.b, 1, m.n, f);
		fwrite(ev, 1, sizeof(ev), f);
		if (fclose(f))
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *env = getenv("NTTRACE_MC_DATA");

	if (argc == 3 && !strcmp(argv[1], "--corpus"))
		return corpus(argv[2]);

	snprintf(mc_dir, sizeof(mc_dir), "%s", env && *env ? env : "../shared/data/mc");
	if (!mkdtemp(dir)) {
		perror("tdh_wevt_test: a temporary directory");
		return 2;
	}
	snprintf(tpath, sizeof(tpath), "%s/testTEMP.BIN", dir);
	snprintf(mpath, sizeof(mpath), "%s/test_MSG00001.bin", dir);
	real_mc();
	own();
	bad();
	unlink(tpath);
	unlink(mpath);
	rmdir(dir);
	return tap_done();
}
