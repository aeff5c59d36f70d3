// SPDX-License-Identifier: GPL-2.0
/*
 * NAMETEMP.BIN: the WEVT_TEMPLATE resource mc.exe makes of a manifest,
 * which Windows reads a provider's events, templates and names from. Its
 * layout is libyal's "Windows Event manifest binary format" (libfwevt's
 * documentation), checked byte for byte against a real mc.exe's output;
 * what that document leaves open (the order of the lists, their sorting,
 * the offset slots, the template IDs) is as the EventTraceKit project's
 * reimplementation of mc.exe writes it, checked against the same output.
 * All numbers are little-endian; every offset counts from the start of
 * the resource.
 *
 *   CRIM  "CRIM", u32 size (without the 2 bytes of zeros that end the
 *         resource), u16 3, u16 1 (version 3.1), u32 providers, then
 *         per provider its GUID and the offset of its WEVT
 *   WEVT  "WEVT", u32 size, u32 the provider's message ID, u32 the lists
 *         present, then 11 slots { u32 kind, u32 offset } (the unused
 *         zero), then the lists: CHAN (kind 5, when it has channels),
 *         MAPS (6, when maps), TTBL (7, when templates), OPCO (2), LEVL
 *         (0), TASK (1), KEYW (3) always, EVNT (4, when events; at an
 *         offset that is a multiple of 8)
 *   lists "XXXX", u32 size (OPCO, LEVL, TASK, KEYW: 0 when empty), u32
 *         entries, the entries, then the names they point to. A name is
 *         u32 its size (these 4 bytes and the padding with it), UTF-16LE
 *         with a NUL, zeros up to a multiple of 4.
 *           CHAN { u32 flags (1: imported), u32 name, u32 value, u32 message }
 *           OPCO { u16 task value, u16 value, u32 message, u32 name }
 *           LEVL { u32 value, u32 message, u32 name }
 *           TASK { u32 value, u32 message, GUID eventGUID, u32 name }
 *           KEYW { u64 mask, u32 message, u32 name }
 *   MAPS  after its header the offsets of the maps (in the order of their
 *         names), the maps in the manifest's order ("VMAP"/"BMAP", u32
 *         size, u32 name, u32 flags (1: bit map), u32 entries, then
 *         { u32 value, u32 message } by value), then the names, sorted
 *   TTBL  the templates in the manifest's order, each "TEMP", u32 size,
 *         u32 top-level items, u32 all items, u32 offset of the item
 *         descriptors, u32 1 (EventData), the template's ID (a GUID), its
 *         BinXML fragment (zeros up to a multiple of 4), the item
 *         descriptors (the top-level ones, then each structure's members)
 *         and their names. A descriptor: u32 flags (1 structure, 2 fixed
 *         length, 4 length of another item, 8 fixed count, 16 count of
 *         another item), u8 inType and u8 outType then u16 0 and u32 the
 *         map's offset (a structure: u16 its first member's index, u16 its
 *         members, u32 0), u16 count, u16 length (a value, or the index
 *         of the item that holds it), u32 name
 *   EVNT  "EVNT", u32 size, u32 events, u32 0, then by value 48-byte
 *         entries: the EVENT_DESCRIPTOR (16 bytes), u32 message, the
 *         offsets of its template, opcode, level and task entries (0:
 *         none), u32 keywords, u32 offset of their entries' offsets (by
 *         mask, after the entries), u32 its channel entry's offset
 *
 * The BinXML fragment (MS-EVEN6's tokens) is the template as XML:
 * <EventData [Name="the template's name"]><Data Name="item">%1</Data>...
 * </EventData>, a structure's item <ComplexData Name=...>. Element and
 * attribute names are inline (no offsets, unlike an EVTX file's): u16 a
 * hash of the name (h = h * 65599 + each UTF-16 unit, its low 16 bits:
 * "EventData" 0x8244, "Data" 0x6F8A, "Name" 0x954B), u16 its characters,
 * the UTF-16 name and a NUL. The items' values are substitutions (0x0D)
 * of the item's index and BinXML type: the inType for win:UnicodeString
 * to win:HexInt64 (1 to 21), the counted strings as their plain types,
 * a structure as binary data; 0x80 more for an array.
 *
 * A template's ID: the first 16 bytes of SHA-256 over "MS-WEVT" and a
 * NUL, the template's XML above without whitespace in UTF-16LE ("<Name/>"
 * for one without items) and, per top-level item, its BinXML type as a
 * u32; its byte 7's high nibble made 5 (a version-5 GUID's). SHA-256 is
 * implemented here: neither libnttrace nor the tool links a library that
 * has it (the tool's libraries are expat, elfutils and compressors).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mc_prov.h"

/* ---- SHA-256 (FIPS 180-4) ---- */

struct sha256 {
	uint32_t h[8];
	uint8_t buf[64];
	uint64_t len;
};

static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static uint32_t ror(uint32_t x, unsigned int n)
{
	return x >> n | x << (32 - n);
}

static void sha_block(struct sha256 *s, const uint8_t *p)
{
	uint32_t w[64], a[8], t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | p[4 * i + 1] << 16 | p[4 * i + 2] << 8 |
		       p[4 * i + 3];
	for (; i < 64; i++)
		w[i] = w[i - 16] + (ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ w[i - 15] >> 3) +
		       w[i - 7] + (ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ w[i - 2] >> 10);
	memcpy(a, s->h, sizeof(a));
	for (i = 0; i < 64; i++) {
		t1 = a[7] + (ror(a[4], 6) ^ ror(a[4], 11) ^ ror(a[4], 25)) +
		     ((a[4] & a[5]) ^ (~a[4] & a[6])) + sha_k[i] + w[i];
		t2 = (ror(a[0], 2) ^ ror(a[0], 13) ^ ror(a[0], 22)) +
		     ((a[0] & a[1]) ^ (a[0] & a[2]) ^ (a[1] & a[2]));
		memmove(a + 1, a, 7 * sizeof(a[0]));
		a[4] += t1;
		a[0] = t1 + t2;
	}
	for (i = 0; i < 8; i++)
		s->h[i] += a[i];
}

static void sha_init(struct sha256 *s)
{
	static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

	memcpy(s->h, h0, sizeof(h0));
	s->len = 0;
}

static void sha_update(struct sha256 *s, const void *data, size_t n)
{
	const uint8_t *p = data;

	while (n) {
		size_t at = s->len % 64, k = 64 - at < n ? 64 - at : n;

		memcpy(s->buf + at, p, k);
		s->len += k;
		p += k;
		n -= k;
		if (at + k == 64)
			sha_block(s, s->buf);
	}
}

static void sha_final(struct sha256 *s, uint8_t out[32])
{
	uint64_t bits = s->len * 8;
	uint8_t pad = 0x80, zero = 0, len[8];
	int i;

	sha_update(s, &pad, 1);
	while (s->len % 64 != 56)
		sha_update(s, &zero, 1);
	for (i = 0; i < 8; i++)
		len[i] = (uint8_t)(bits >> (56 - 8 * i));
	sha_update(s, len, 8);
	for (i = 0; i < 32; i++)
		out[i] = (uint8_t)(s->h[i / 4] >> (24 - 8 * (i % 4)));
}

/* ---- the resource ---- */

/* The WEVT's list kinds, its slots' numbers. */
enum kind { K_LEVEL, K_TASK, K_OPCODE, K_KEYWORD, K_EVENT, K_CHANNEL, K_MAPS, K_TEMPLATE };

#define SLOTS	11

struct w {
	struct mc_out *o;
	size_t base;		/* where the resource starts in o */
	ULONG err;
};

static uint32_t pos(const struct w *w)
{
	return (uint32_t)(w->o->len - w->base);
}

static void put(struct w *w, const void *p, size_t n)
{
	mc_out_bytes(w->o, p, n);
}

static void put8(struct w *w, uint8_t v)
{
	put(w, &v, 1);
}

static void put16(struct w *w, uint16_t v)
{
	uint8_t b[2] = { v, v >> 8 };

	put(w, b, 2);
}

static void put32(struct w *w, uint32_t v)
{
	uint8_t b[4] = { v, v >> 8, v >> 16, v >> 24 };

	put(w, b, 4);
}

static void put64(struct w *w, uint64_t v)
{
	put32(w, (uint32_t)v);
	put32(w, (uint32_t)(v >> 32));
}

static void zeros(struct w *w, size_t n)
{
	static const uint8_t z[64];

	for (; n > sizeof(z); n -= sizeof(z))
		put(w, z, sizeof(z));
	put(w, z, n);
}

static void put_guid(struct w *w, const GUID *g)
{
	static const GUID none;

	if (!g)
		g = &none;
	put32(w, g->Data1);
	put16(w, g->Data2);
	put16(w, g->Data3);
	put(w, g->Data4, 8);
}

/* @v at offset @at of the resource (written before). */
static void set32(struct w *w, uint32_t at, uint32_t v)
{
	uint8_t *p;

	if (w->o->oom)
		return;
	p = w->o->data + w->base + at;
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void magic(struct w *w, const char *m)
{
	put(w, m, 4);
}

static uint32_t name_size(const char *s)
{
	return (4 + 2 * (mc_utf16_units(s) + 1) + 3) & ~3U;
}

static void put_name(struct w *w, const char *s)
{
	uint32_t size = name_size(s), units;

	put32(w, size);
	units = mc_put_utf16(w->o, s);
	zeros(w, size - 4 - 2 * units);
}

/* A list of entries of @esize bytes, each followed (in the names area) by its name. */
static uint32_t list_names_start(const struct w *w, uint32_t n, uint32_t esize)
{
	return pos(w) + 12 + n * esize;
}

static void chan(struct w *w, struct mc_list *l)
{
	uint32_t start = pos(w), name = list_names_start(w, l->n, 16), i;

	magic(w, "CHAN");
	put32(w, 0);
	put32(w, l->n);
	for (i = 0; i < l->n; i++) {
		l->v[i].off = pos(w);
		put32(w, l->v[i].imported ? 1 : 0);
		put32(w, name);
		put32(w, (uint32_t)l->v[i].value);
		put32(w, l->v[i].msgid);
		name += name_size(l->v[i].name);
	}
	for (i = 0; i < l->n; i++)
		put_name(w, l->v[i].name);
	set32(w, start + 4, pos(w) - start);
}

static void items(struct w *w, const char *tag, enum kind kind, struct mc_list *l)
{
	static const uint32_t esize[] = { [K_LEVEL] = 12, [K_TASK] = 28, [K_OPCODE] = 12,
					  [K_KEYWORD] = 16 };
	uint32_t start = pos(w), name = list_names_start(w, l->n, esize[kind]), i;

	magic(w, tag);
	put32(w, 0);
	put32(w, l->n);
	for (i = 0; i < l->n; i++) {
		struct mc_item *it = &l->v[i];

		it->off = pos(w);
		switch (kind) {
		case K_LEVEL:
			put32(w, (uint32_t)it->value);
			put32(w, it->msgid);
			break;
		case K_TASK:
			put32(w, (uint32_t)it->value);
			put32(w, it->msgid);
			put_guid(w, it->guid);
			break;
		case K_OPCODE:
			put16(w, it->task);
			put16(w, (uint16_t)it->value);
			put32(w, it->msgid);
			break;
		default:
			put64(w, it->value);
			put32(w, it->msgid);
			break;
		}
		put32(w, name);
		name += name_size(it->name);
	}
	for (i = 0; i < l->n; i++)
		put_name(w, l->v[i].name);
	if (l->n)
		set32(w, start + 4, pos(w) - start);
}

/*
 * Map names in the order of .NET's culture-aware comparison, which
 * mc.exe's reimplementation sorts them by: letters without regard to case
 * first, a lowercase letter before its uppercase one on a tie.
 */
static int map_name_cmp(const char *a, const char *b)
{
	int c = strcasecmp(a, b);

	return c ? c : -strcmp(a, b);
}

struct map_order {
	const char *name;
	uint32_t i;
};

static int map_order_cmp(const void *a, const void *b)
{
	const struct map_order *x = a, *y = b;
	int c = map_name_cmp(x->name, y->name);

	return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

static void maps(struct w *w, struct mc_prov *v)
{
	const struct nttrace_man_provider *p = v->p;
	uint32_t start = pos(w), n = p->nmaps, i, k, name;
	struct map_order *ord = calloc((size_t)n + 1, sizeof(*ord));
	uint32_t *name_at = calloc((size_t)n + 1, sizeof(*name_at));

	if (!ord || !name_at) {
		w->err = ERROR_NOT_ENOUGH_MEMORY;
		goto out;
	}
	name = start + 12 + 4 * n;
	for (i = 0; i < n; i++) {
		name += 20 + 8 * p->maps[i].n;
		ord[i] = (struct map_order){ p->maps[i].name, i };
	}
	qsort(ord, n, sizeof(*ord), map_order_cmp);
	for (i = 0; i < n; i++) {
		name_at[ord[i].i] = name;
		name += name_size(ord[i].name);
	}
	magic(w, "MAPS");
	put32(w, 0);
	put32(w, n);
	zeros(w, 4 * (size_t)n);
	for (i = 0; i < n; i++) {
		const struct nttrace_man_map *mp = &p->maps[i];

		v->maps[i].off = pos(w);
		magic(w, mp->bitmap ? "BMAP" : "VMAP");
		put32(w, 20 + 8 * mp->n);
		put32(w, name_at[i]);
		put32(w, mp->bitmap ? 1 : 0);
		put32(w, mp->n);
		for (k = 0; k < mp->n; k++) {
			put32(w, v->maps[i].v[k].value);
			put32(w, v->maps[i].v[k].msgid);
		}
	}
	for (i = 0; i < n; i++) {
		put_name(w, ord[i].name);
		set32(w, start + 12 + 4 * i, v->maps[ord[i].i].off);
	}
	set32(w, start + 4, pos(w) - start);
out:
	free(ord);
	free(name_at);
}

/* The BinXML value type of an item of @d's kind; 0 for none. */
static uint8_t binxml_type(const struct nttrace_man_data *d)
{
	uint8_t t;

	if (d->is_struct)
		t = 0x0E;
	else if (d->in >= 1 && d->in <= 21)
		t = (uint8_t)d->in;
	else if (d->in == TDH_INTYPE_MANIFEST_COUNTEDSTRING)
		t = 0x01;
	else if (d->in == TDH_INTYPE_MANIFEST_COUNTEDANSISTRING)
		t = 0x02;
	else if (d->in == TDH_INTYPE_MANIFEST_COUNTEDBINARY)
		t = 0x0E;
	else
		return 0;
	return d->has_count ? t | 0x80 : t;
}

/* winmeta.xml's default outType of an inType (its <outType default="true">). */
static uint8_t default_out(USHORT in)
{
	static const uint8_t out[] = {
		[TDH_INTYPE_UNICODESTRING] = TDH_OUTTYPE_STRING,
		[TDH_INTYPE_ANSISTRING] = TDH_OUTTYPE_STRING,
		[TDH_INTYPE_INT8] = TDH_OUTTYPE_BYTE,
		[TDH_INTYPE_UINT8] = TDH_OUTTYPE_UNSIGNEDBYTE,
		[TDH_INTYPE_INT16] = TDH_OUTTYPE_SHORT,
		[TDH_INTYPE_UINT16] = TDH_OUTTYPE_UNSIGNEDSHORT,
		[TDH_INTYPE_INT32] = TDH_OUTTYPE_INT,
		[TDH_INTYPE_UINT32] = TDH_OUTTYPE_UNSIGNEDINT,
		[TDH_INTYPE_INT64] = TDH_OUTTYPE_LONG,
		[TDH_INTYPE_UINT64] = TDH_OUTTYPE_UNSIGNEDLONG,
		[TDH_INTYPE_FLOAT] = TDH_OUTTYPE_FLOAT,
		[TDH_INTYPE_DOUBLE] = TDH_OUTTYPE_DOUBLE,
		[TDH_INTYPE_BOOLEAN] = TDH_OUTTYPE_BOOLEAN,
		[TDH_INTYPE_BINARY] = TDH_OUTTYPE_HEXBINARY,
		[TDH_INTYPE_GUID] = TDH_OUTTYPE_GUID,
		[TDH_INTYPE_POINTER] = TDH_OUTTYPE_HEXINT64,
		[TDH_INTYPE_FILETIME] = TDH_OUTTYPE_DATETIME,
		[TDH_INTYPE_SYSTEMTIME] = TDH_OUTTYPE_DATETIME,
		[TDH_INTYPE_SID] = TDH_OUTTYPE_STRING,
		[TDH_INTYPE_HEXINT32] = TDH_OUTTYPE_HEXINT32,
		[TDH_INTYPE_HEXINT64] = TDH_OUTTYPE_HEXINT64,
		[TDH_INTYPE_MANIFEST_COUNTEDSTRING] = TDH_OUTTYPE_STRING,
		[TDH_INTYPE_MANIFEST_COUNTEDANSISTRING] = TDH_OUTTYPE_STRING,
		[TDH_INTYPE_MANIFEST_COUNTEDBINARY] = TDH_OUTTYPE_HEXBINARY,
	};

	return in < sizeof(out) ? out[in] : 0;
}

static uint16_t name_hash(const char *s)
{
	struct mc_out t = { 0 };
	uint32_t h = 0, n, i;

	n = mc_put_utf16(&t, s);
	for (i = 0; !t.oom && i < n; i++)
		h = h * 65599 + (t.data[2 * i] | t.data[2 * i + 1] << 8);
	mc_out_free(&t);
	return (uint16_t)h;
}

/* A BinXML name: hash, characters, UTF-16 with a NUL. */
static void bx_name(struct w *w, const char *s)
{
	put16(w, name_hash(s));
	put16(w, (uint16_t)mc_utf16_units(s));
	mc_put_utf16(w->o, s);
	put16(w, 0);
}

/* An element's start: its size's offset, to be set by bx_end(). */
static uint32_t bx_start(struct w *w, const char *name, const char *attr_value)
{
	uint32_t size_at;

	put8(w, attr_value ? 0x41 : 0x01);
	put16(w, 0xFFFF);
	size_at = pos(w);
	put32(w, 0);
	bx_name(w, name);
	if (attr_value) {
		uint32_t list_at = pos(w);

		put32(w, 0);
		put8(w, 0x06);
		bx_name(w, "Name");
		put8(w, 0x05);
		put8(w, 0x01);
		put16(w, (uint16_t)mc_utf16_units(attr_value));
		mc_put_utf16(w->o, attr_value);
		set32(w, list_at, pos(w) - list_at - 4);
	}
	return size_at;
}

static void bx_end(struct w *w, uint32_t size_at)
{
	set32(w, size_at, pos(w) - size_at - 4);
}

/* The template's XML as mc.exe hashes it, attribute values escaped as .NET's XmlWriter does. */
static void xml_text(struct mc_out *x, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			mc_out_printf(x, "&amp;");
			break;
		case '<':
			mc_out_printf(x, "&lt;");
			break;
		case '>':
			mc_out_printf(x, "&gt;");
			break;
		case '"':
			mc_out_printf(x, "&quot;");
			break;
		case '\t':
			mc_out_printf(x, "&#x9;");
			break;
		case '\n':
			mc_out_printf(x, "&#xA;");
			break;
		case '\r':
			mc_out_printf(x, "&#xD;");
			break;
		default:
			mc_out_bytes(x, s, 1);
		}
	}
}

static void template_id(struct w *w, const struct nttrace_man_template *t, uint8_t id[16])
{
	static const char magic_id[8] = "MS-WEVT";
	struct mc_out x = { 0 }, u = { 0 };
	struct sha256 s;
	uint8_t h[32], b[4];
	uint32_t i, k = 0;

	mc_out_printf(&x, "<EventData");
	if (t->name) {
		mc_out_printf(&x, " Name=\"");
		xml_text(&x, t->name);
		mc_out_printf(&x, "\"");
	}
	for (i = 0; i < t->n; i++) {
		const struct nttrace_man_data *d = &t->v[i];

		if (d->parent >= 0)
			continue;
		if (!k)
			mc_out_printf(&x, ">");
		mc_out_printf(&x, "<%s Name=\"", d->is_struct ? "ComplexData" : "Data");
		xml_text(&x, d->name);
		mc_out_printf(&x, "\">%%%u</%s>", ++k, d->is_struct ? "ComplexData" : "Data");
	}
	mc_out_printf(&x, k ? "</EventData>" : "/>");
	mc_out_bytes(&x, "", 1);
	if (!x.oom)
		mc_put_utf16(&u, (const char *)x.data);
	sha_init(&s);
	sha_update(&s, magic_id, sizeof(magic_id));
	sha_update(&s, u.data, u.len);
	for (i = 0; i < t->n; i++) {
		uint8_t ty = binxml_type(&t->v[i]);

		if (t->v[i].parent >= 0)
			continue;
		b[0] = ty;
		b[1] = b[2] = b[3] = 0;
		sha_update(&s, b, 4);
	}
	sha_final(&s, h);
	memcpy(id, h, 16);
	id[7] = (id[7] & 0x0F) | 0x50;
	if (x.oom || u.oom)
		w->err = ERROR_NOT_ENOUGH_MEMORY;
	mc_out_free(&x);
	mc_out_free(&u);
}

static void template(struct w *w, struct mc_prov *v, const struct nttrace_man_template *t,
		     uint32_t *off)
{
	uint32_t start = pos(w), i, ntop = 0, nextm, ed, *entry = NULL, *order = NULL;
	uint8_t id[16];

	if (t->n > 0xFFFF) {
		w->err = ERROR_INVALID_DATA;
		return;
	}
	entry = calloc((size_t)t->n + 1, sizeof(*entry));
	order = calloc((size_t)t->n + 1, sizeof(*order));
	if (!entry || !order) {
		w->err = ERROR_NOT_ENOUGH_MEMORY;
		goto out;
	}
	/* The descriptors: the top-level items, then the members, in order. */
	for (i = 0; i < t->n; i++) {
		if (!binxml_type(&t->v[i])) {
			w->err = ERROR_INVALID_DATA;
			goto out;
		}
		if (t->v[i].parent < 0)
			ntop++;
	}
	for (i = 0, nextm = ntop, ed = 0; i < t->n; i++) {
		entry[i] = t->v[i].parent < 0 ? ed++ : nextm++;
		order[entry[i]] = i;
	}
	*off = start;
	template_id(w, t, id);
	magic(w, "TEMP");
	put32(w, 0);
	put32(w, ntop);
	put32(w, t->n);
	put32(w, 0);
	put32(w, 1);
	put(w, id, 16);
	/* The BinXML fragment. */
	put8(w, 0x0F);
	put8(w, 1);
	put8(w, 1);
	put8(w, 0);
	ed = bx_start(w, "EventData", t->name);
	if (ntop)
		put8(w, 0x02);
	for (i = 0, nextm = 0; i < t->n; i++) {
		const struct nttrace_man_data *d = &t->v[i];
		uint32_t at;

		if (d->parent >= 0)
			continue;
		at = bx_start(w, d->is_struct ? "ComplexData" : "Data", d->name);
		put8(w, 0x02);
		put8(w, 0x0D);
		put16(w, (uint16_t)nextm++);
		put8(w, binxml_type(d));
		put8(w, 0x04);
		bx_end(w, at);
	}
	put8(w, ntop ? 0x04 : 0x03);
	bx_end(w, ed);
	put8(w, 0x00);
	zeros(w, (4 - (pos(w) - start) % 4) % 4);
	set32(w, start + 16, pos(w));
	/* The item descriptors and their names. */
	nextm = pos(w) + 20 * t->n;
	for (i = 0; i < t->n; i++) {
		const struct nttrace_man_data *d = &t->v[order[i]];
		uint32_t flags = 0, k, members = 0;
		uint32_t count = d->count_ref ? entry[d->count] : d->count;
		uint32_t length = d->length_ref ? entry[d->length] : d->length;

		if (d->is_struct)
			flags |= 1;
		if (d->has_length)
			flags |= d->length_ref ? 4 : 2;
		if (d->has_count)
			flags |= d->count_ref ? 0x10 : 8;
		put32(w, flags);
		if (d->is_struct) {
			for (k = order[i] + 1; k < t->n && t->v[k].parent == (int32_t)order[i]; k++)
				members++;
			put16(w, (uint16_t)(members ? entry[order[i] + 1] : 0));
			put16(w, (uint16_t)members);
			put32(w, 0);
		} else {
			put8(w, (uint8_t)d->in);
			put8(w, d->out_s ? (uint8_t)d->out : default_out(d->in));
			put16(w, 0);
			put32(w, d->map ? v->maps[d->map - v->p->maps].off : 0);
		}
		put16(w, (uint16_t)count);
		put16(w, (uint16_t)length);
		put32(w, nextm);
		nextm += name_size(d->name);
	}
	for (i = 0; i < t->n; i++)
		put_name(w, t->v[order[i]].name);
	set32(w, start + 4, pos(w) - start);
out:
	free(entry);
	free(order);
}

static void templates(struct w *w, struct mc_prov *v, uint32_t *toff)
{
	const struct nttrace_man_provider *p = v->p;
	uint32_t start = pos(w), i;

	magic(w, "TTBL");
	put32(w, 0);
	put32(w, p->ntmpls);
	for (i = 0; i < p->ntmpls && !w->err; i++)
		template(w, v, &p->tmpls[i], &toff[i]);
	set32(w, start + 4, pos(w) - start);
}

static uint32_t off_of(const struct mc_list *l, int32_t i)
{
	return i >= 0 ? l->v[i].off : 0;
}

static void events(struct w *w, struct mc_prov *v, const uint32_t *toff)
{
	const struct nttrace_man_provider *p = v->p;
	uint32_t start = pos(w), kw = start + 16 + 48 * p->nevents, i, k;

	magic(w, "EVNT");
	put32(w, 0);
	put32(w, p->nevents);
	put32(w, 0);
	for (i = 0; i < p->nevents; i++) {
		const struct mc_ev *d = &v->ev[i];
		const struct nttrace_man_event *e = d->e;

		put16(w, e->id);
		put8(w, e->version);
		put8(w, e->channel);
		put8(w, e->level);
		put8(w, e->opcode);
		put16(w, e->task);
		put64(w, d->keywords);
		put32(w, d->msgid);
		put32(w, e->tmpl ? toff[e->tmpl - p->tmpls] : 0);
		put32(w, off_of(&v->opcodes, d->opcode));
		put32(w, off_of(&v->levels, d->level));
		put32(w, off_of(&v->tasks, d->task));
		put32(w, d->nkw);
		put32(w, d->nkw ? kw : 0);
		put32(w, off_of(&v->channels, d->channel));
		kw += 4 * d->nkw;
	}
	for (i = 0; i < p->nevents; i++)
		for (k = 0; k < v->ev[i].nkw; k++)
			put32(w, v->keywords.v[v->kws[v->ev[i].kw + k]].off);
	set32(w, start + 4, pos(w) - start);
}

static void wevt(struct w *w, struct mc_prov *v)
{
	const struct nttrace_man_provider *p = v->p;
	uint32_t start = pos(w), slot[SLOTS][2], n = 0, i;
	uint32_t *toff = calloc((size_t)p->ntmpls + 1, sizeof(*toff));

	if (!toff) {
		w->err = ERROR_NOT_ENOUGH_MEMORY;
		return;
	}
	magic(w, "WEVT");
	zeros(w, 12 + 8 * SLOTS);
#define SLOT(k)	(slot[n][0] = (k), slot[n++][1] = pos(w))
	if (v->channels.n) {
		SLOT(K_CHANNEL);
		chan(w, &v->channels);
	}
	if (p->nmaps) {
		SLOT(K_MAPS);
		maps(w, v);
	}
	if (p->ntmpls && !w->err) {
		SLOT(K_TEMPLATE);
		templates(w, v, toff);
	}
	SLOT(K_OPCODE);
	items(w, "OPCO", K_OPCODE, &v->opcodes);
	SLOT(K_LEVEL);
	items(w, "LEVL", K_LEVEL, &v->levels);
	SLOT(K_TASK);
	items(w, "TASK", K_TASK, &v->tasks);
	SLOT(K_KEYWORD);
	items(w, "KEYW", K_KEYWORD, &v->keywords);
	if (p->nevents) {
		zeros(w, (8 - pos(w) % 8) % 8);
		SLOT(K_EVENT);
		events(w, v, toff);
	}
#undef SLOT
	set32(w, start + 4, pos(w) - start);
	set32(w, start + 8, v->msgid);
	set32(w, start + 12, n);
	for (i = 0; i < n; i++) {
		set32(w, start + 16 + 8 * i, slot[i][0]);
		set32(w, start + 20 + 8 * i, slot[i][1]);
	}
	free(toff);
}

ULONG mc_write_wevt(const struct nttrace_man *m, const struct mc_msgs *msgs, struct mc_out *o)
{
	struct w w = { o, o->len, ERROR_SUCCESS };
	struct mc_ctx ctx;
	uint32_t i;

	/* The IDs are made again by mc_prov.c as mc_messages() made those of @msgs. */
	(void)msgs;
	if (m->nprovs > (UINT32_MAX - 16) / 20)
		return ERROR_INVALID_DATA;
	mc_ctx_init(&ctx, m);
	magic(&w, "CRIM");
	put32(&w, 0);
	put16(&w, 3);
	put16(&w, 1);
	put32(&w, m->nprovs);
	for (i = 0; i < m->nprovs; i++) {
		put_guid(&w, &m->provs[i].guid);
		put32(&w, 0);
	}
	for (i = 0; i < m->nprovs && !w.err && !o->oom; i++) {
		struct mc_prov v;

		w.err = mc_prov_make(&ctx, i, &v);
		if (w.err)
			break;
		set32(&w, 16 + 20 * i + 16, pos(&w));
		wevt(&w, &v);
		mc_prov_free(&v);
	}
	mc_ctx_free(&ctx);
	set32(&w, 4, pos(&w));
	put16(&w, 0);
	if (!w.err && o->oom)
		w.err = ERROR_NOT_ENOUGH_MEMORY;
	/* Offsets are 32 bits. */
	if (!w.err && o->len - w.base > UINT32_MAX)
		w.err = ERROR_INVALID_DATA;
	if (w.err)
		o->len = w.base;
	return w.err;
}
