// SPDX-License-Identifier: LGPL-2.1
/*
 * A compiled manifest into a struct nttrace_man (tdh_man.h): the
 * WEVT_TEMPLATE resource the message compiler (mc.exe) makes of a manifest
 * (its NAMETEMP.BIN) and the message table beside it (MSG00001.bin, the
 * MESSAGETABLE resource), so that TDH decodes the provider's events as it
 * does with the manifest's XML (tdh_man_parse.c).
 *
 * The layout is libyal's "Windows Event manifest binary format" (libfwevt),
 * with what it leaves open as mc.exe's output has it. All numbers are
 * little-endian; every offset counts from the start of the resource.
 *
 *   CRIM  "CRIM", u32 size, u16 3, u16 1, u32 providers, then per provider
 *         its GUID and the offset of its WEVT
 *   WEVT  "WEVT", u32 size, u32 the provider's message ID, u32 lists, then
 *         per list { u32 kind, u32 offset }; a list is known by its
 *         signature, one of a kind a provider
 *   lists "XXXX", u32 size (0: empty), u32 entries, then the entries:
 *           CHAN { u32 flags (1: imported), u32 name, u32 value, u32 message }
 *           LEVL { u32 value, u32 message, u32 name }
 *           OPCO { u16 task, u16 value, u32 message, u32 name }
 *           TASK { u32 value, u32 message, GUID eventGUID, u32 name }
 *           KEYW { u64 mask, u32 message, u32 name }
 *         a name: u32 its size (with these 4 bytes), UTF-16 up to a NUL
 *   MAPS  the offsets of its maps, each "VMAP" or "BMAP", u32 size, u32
 *         name, u32 flags, u32 entries, then { u32 value, u32 message }
 *   TTBL  u32 templates, each "TEMP", u32 size, u32 top-level items, u32
 *         all items, u32 offset of the item descriptors, u32 1, GUID, the
 *         template as BinXML (not read: the descriptors say it all), the
 *         descriptors in property order (the top-level items, then each
 *         structure's members): u32 flags (1 structure, 2 fixed length,
 *         4 length of an item, 8 fixed count, 16 count of an item), u8
 *         inType, u8 outType, u16 0, u32 the map's offset (a structure:
 *         u16 its first member, u16 its members, u32 0), u16 count, u16
 *         length (a number, or the index of the item holding it), u32 name
 *   EVNT  u32 events, u32 0, then 48 bytes an event: its EVENT_DESCRIPTOR
 *         (16 bytes), u32 message, the offsets of its template, opcode,
 *         level and task entries (0: none), u32 keywords and the offset
 *         of their entries' offsets (not read: the mask says it), the
 *         offset of its channel's entry
 *   MESSAGETABLE  u32 blocks, each { u32 LowId, u32 HighId, u32 offset },
 *         at a block's offset one entry an ID from LowId to HighId: u16 its
 *         length, u16 flags (1: UTF-16LE, 0: ANSI), the text; mc.exe ends
 *         each text with "\r\n", which is taken off
 *
 * What the model gets is what the XML would have given it: a level, task,
 * opcode or keyword of winmeta.xml (a name and value of its own, "win:Error"
 * with 2) is winmeta's item (tdh_man_types.c), as the XML's references to
 * it resolve; the others are the provider's, with the message table's text
 * as message. Not in the resource, so absent from the model: the provider's
 * and the events' names, the symbols, the templates' tids and names, the
 * channels' types; an item without a message shows its name, as in XML.
 * Strings become UTF-8: an unpaired surrogate becomes U+FFFD, an ANSI text
 * is taken as code page 1252 (mc.exe writes UTF-16).
 *
 * Nothing of the input is trusted: every offset and size is checked
 * against the resource with 64-bit sums; a count is bounded by the room
 * its entries take; references go by offset to entries read before, so
 * nothing refers in a cycle; the bytes the entries, names and message
 * texts take are counted against twice the input's size, so that entries
 * sharing bytes (which mc.exe never writes) cost no more than linear time
 * and memory. Bad input is ERROR_INVALID_DATA (Microsoft documents no
 * error for a bad WEVT_TEMPLATE: nttrace's choice).
 */
#include <stdlib.h>
#include <string.h>

#include "tdh_man.h"

/* Entries a list, items a template, events a provider: what XML allows. */
#define MAX_ENTRIES	0x10000U

struct msg {
	uint32_t id;
	const char *text;
};

/* One list's entries by position, for the events' offsets. */
struct tab {
	uint64_t first;		/* offset of the first entry; 0: no list */
	uint32_t n, esize;
	const struct nttrace_man_item **v;
};

struct map_at {
	uint32_t off;
	const struct nttrace_man_map *map;
};

struct tmpl_at {
	uint32_t off;
	const struct nttrace_man_template *tmpl;
};

struct ws {
	struct nttrace_man *m;
	const uint8_t *b;
	uint64_t len;
	uint64_t budget;	/* bytes still to be read as entries, names and texts */
	ULONG err;
	struct msg *msgs;
	uint32_t nmsgs;
	/* The provider being read. */
	struct tab chan, levl, opco, task, keyw;
	struct map_at *maps;
	uint32_t nmaps;
	struct tmpl_at *tmpls;
	uint32_t ntmpls;
};

static int bad(struct ws *s)
{
	if (!s->err)
		s->err = ERROR_INVALID_DATA;
	return -1;
}

static int oom(struct ws *s)
{
	if (!s->err)
		s->err = ERROR_NOT_ENOUGH_MEMORY;
	return -1;
}

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
	return rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static GUID rdguid(const uint8_t *p)
{
	GUID g;

	g.Data1 = rd32(p);
	g.Data2 = rd16(p + 4);
	g.Data3 = rd16(p + 6);
	memcpy(g.Data4, p + 8, 8);
	return g;
}

/* Whether @n bytes at @off are inside the resource. */
static int in(const struct ws *s, uint64_t off, uint64_t n)
{
	return off <= s->len && n <= s->len - off;
}

/* @n more bytes read: 0, or -1 (ERROR_INVALID_DATA) past the budget. */
static int spend(struct ws *s, uint64_t n)
{
	if (n > s->budget)
		return bad(s);
	s->budget -= n;
	return 0;
}

static void *alloc(struct ws *s, size_t size)
{
	void *p = nttrace_man_alloc(s->m, size ? size : 1);

	if (!p)
		oom(s);
	return p;
}

static size_t put_cp(char *o, uint32_t c)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xC0 | c >> 6);
		o[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xE0 | c >> 12);
		o[1] = (char)(0x80 | (c >> 6 & 0x3F));
		o[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | c >> 18);
	o[1] = (char)(0x80 | (c >> 12 & 0x3F));
	o[2] = (char)(0x80 | (c >> 6 & 0x3F));
	o[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

/*
 * The UTF-16LE units at @p (@n of them, up to the first NUL) as UTF-8 in
 * the arena; an unpaired surrogate is U+FFFD. Each unit takes at most 3
 * bytes (a pair: 4 for 2).
 */
static char *utf8_of_utf16(struct ws *s, const uint8_t *p, size_t n)
{
	char *out = alloc(s, 3 * n + 1), *o = out;
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i < n; i++) {
		uint32_t c = rd16(p + 2 * i);

		if (!c)
			break;
		if (c >= 0xD800 && c < 0xDC00 && i + 1 < n &&
		    rd16(p + 2 * i + 2) >= 0xDC00 && rd16(p + 2 * i + 2) < 0xE000) {
			c = 0x10000 + ((c - 0xD800) << 10) + (rd16(p + 2 * i + 2) - 0xDC00);
			i++;
		} else if (c >= 0xD800 && c < 0xE000) {
			c = 0xFFFD;
		}
		o += put_cp(o, c);
	}
	*o = 0;
	return out;
}

/* Code page 1252's characters for 0x80 to 0x9F (0: none, U+FFFD). */
static const uint16_t cp1252[32] = {
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
};

static char *utf8_of_ansi(struct ws *s, const uint8_t *p, size_t n)
{
	char *out = alloc(s, 3 * n + 1), *o = out;
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i < n && p[i]; i++) {
		uint32_t c = p[i];

		if (c >= 0x80 && c < 0xA0)
			c = cp1252[c - 0x80] ? cp1252[c - 0x80] : 0xFFFD;
		o += put_cp(o, c);
	}
	*o = 0;
	return out;
}

/* The name at @off: u32 its size, then UTF-16 up to a NUL or that size. */
static const char *name_at(struct ws *s, uint32_t off)
{
	uint32_t size;

	if (!in(s, off, 4)) {
		bad(s);
		return NULL;
	}
	size = rd32(s->b + off);
	if (size < 4 || !in(s, off, size) || spend(s, size)) {
		bad(s);
		return NULL;
	}
	return utf8_of_utf16(s, s->b + off + 4, (size - 4) / 2);
}

/* ---- the message table ---- */

struct block {
	uint32_t low, high, off;
};

static int block_cmp(const void *a, const void *b)
{
	const struct block *x = a, *y = b;

	return x->low < y->low ? -1 : x->low > y->low;
}

/*
 * Every text of the message table @t (@len bytes) into s->msgs, by ID.
 * Blocks whose IDs overlap are refused: which text an ID has would depend
 * on the order of the search.
 */
static int messages(struct ws *s, const uint8_t *t, size_t len)
{
	struct block *bl = NULL;
	uint32_t nb, i, cap = 0;
	uint64_t budget = len;
	int ret = -1;

	if (len < 4)
		return bad(s);
	nb = rd32(t);
	if ((uint64_t)nb * 12 > len - 4)
		return bad(s);
	bl = malloc(((size_t)nb + 1) * sizeof(*bl));
	if (!bl)
		return oom(s);
	for (i = 0; i < nb; i++) {
		bl[i] = (struct block){ rd32(t + 4 + 12 * i), rd32(t + 8 + 12 * i),
					rd32(t + 12 + 12 * i) };
		if (bl[i].low > bl[i].high) {
			bad(s);
			goto out;
		}
	}
	qsort(bl, nb, sizeof(*bl), block_cmp);
	for (i = 0; i < nb; i++) {
		uint64_t at = bl[i].off, id;

		if (i && bl[i].low <= bl[i - 1].high) {
			bad(s);
			goto out;
		}
		for (id = bl[i].low; id <= bl[i].high; id++) {
			uint16_t elen, flags;
			char *text = NULL;
			size_t n;

			if (at > len || len - at < 4) {
				bad(s);
				goto out;
			}
			elen = rd16(t + at);
			flags = rd16(t + at + 2);
			/* A block's entries follow one another: each takes its length. */
			if (elen < 4 || len - at < elen || elen > budget) {
				bad(s);
				goto out;
			}
			budget -= elen;
			if (flags == 1)
				text = utf8_of_utf16(s, t + at + 4, (elen - 4) / 2);
			else if (flags == 0)
				text = utf8_of_ansi(s, t + at + 4, elen - 4);
			if ((flags == 0 || flags == 1) && !text)
				goto out;
			at += elen;
			if (!text)
				continue;	/* an encoding this does not know: no text */
			n = strlen(text);
			if (n >= 2 && !strcmp(text + n - 2, "\r\n"))
				text[n - 2] = 0;
			if (s->nmsgs == cap) {
				struct msg *v;

				cap = cap ? 2 * cap : 64;
				v = realloc(s->msgs, (size_t)cap * sizeof(*v));
				if (!v) {
					oom(s);
					goto out;
				}
				s->msgs = v;
			}
			s->msgs[s->nmsgs++] = (struct msg){ (uint32_t)id, text };
		}
	}
	ret = 0;
out:
	free(bl);
	return ret;
}

/* Message @id's text; NULL for none (0xFFFFFFFF) or one not in the table. */
static const char *message(const struct ws *s, uint32_t id)
{
	uint32_t lo = 0, hi = s->nmsgs;

	if (id == 0xFFFFFFFF)
		return NULL;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->msgs[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nmsgs && s->msgs[lo].id == id ? s->msgs[lo].text : NULL;
}

/* ---- the lists ---- */

/*
 * The header of the element at @off, signature @sig: its entries (@n, of
 * @esize bytes from @off + @hsize) checked to be inside it and paid for.
 */
static int element(struct ws *s, uint32_t off, uint32_t hsize, uint32_t esize, uint32_t *n,
		   uint32_t max)
{
	uint32_t size;

	if (!in(s, off, 12))
		return bad(s);
	size = rd32(s->b + off + 4);
	*n = rd32(s->b + off + 8);
	/* OPCO, LEVL, TASK and KEYW have size 0 when empty. */
	if (!size && !*n)
		return 0;
	if (size < hsize || !in(s, off, size) || *n > max ||
	    (uint64_t)*n * esize > size - hsize || spend(s, (uint64_t)*n * esize))
		return bad(s);
	return 0;
}

static int item_list(struct ws *s, struct nttrace_man_provider *p, const char *sig,
		     uint32_t off, struct tab *t)
{
	static const struct {
		char sig[5];
		uint32_t esize;
		enum nttrace_man_kind kind;
	} kinds[] = {
		{ "CHAN", 16, MAN_CHANNEL }, { "LEVL", 12, MAN_LEVEL }, { "OPCO", 12, MAN_OPCODE },
		{ "TASK", 28, MAN_TASK }, { "KEYW", 16, MAN_KEYWORD },
	};
	struct nttrace_man_list *l;
	enum nttrace_man_kind kind;
	uint32_t i, k, n;

	for (k = 0; strcmp(kinds[k].sig, sig); k++)
		;
	kind = kinds[k].kind;
	l = kind == MAN_CHANNEL ? &p->channels : kind == MAN_LEVEL ? &p->levels :
	    kind == MAN_OPCODE ? &p->opcodes : kind == MAN_TASK ? &p->tasks : &p->keywords;
	if (element(s, off, 12, kinds[k].esize, &n, MAX_ENTRIES))
		return -1;
	t->first = (uint64_t)off + 12;
	t->n = n;
	t->esize = kinds[k].esize;
	t->v = calloc((size_t)n + 1, sizeof(*t->v));
	l->v = alloc(s, (size_t)n * sizeof(*l->v));
	if (!t->v || !l->v)
		return oom(s);
	l->cap = n;
	for (i = 0; i < n; i++) {
		const uint8_t *e = s->b + t->first + (uint64_t)i * t->esize;
		struct nttrace_man_item it = { 0 };
		const struct nttrace_man_item *w;
		uint32_t msg, name;
		uint64_t max = 0xFF;

		switch (kind) {
		case MAN_CHANNEL:
			it.imported = rd32(e) & 1;
			name = rd32(e + 4);
			it.value = rd32(e + 8);
			msg = rd32(e + 12);
			break;
		case MAN_OPCODE:
			it.task = rd16(e);
			it.in_task = it.task != 0;
			it.value = rd16(e + 2);
			msg = rd32(e + 4);
			name = rd32(e + 8);
			break;
		case MAN_TASK:
			it.value = rd32(e);
			msg = rd32(e + 4);
			it.guid = rdguid(e + 8);
			it.has_guid = !!memcmp(&it.guid, &(GUID){ 0 }, sizeof(GUID));
			name = rd32(e + 24);
			max = 0xFFFF;
			break;
		case MAN_KEYWORD:
			it.value = rd64(e);
			msg = rd32(e + 8);
			name = rd32(e + 12);
			max = UINT64_MAX;
			break;
		default:
			it.value = rd32(e);
			msg = rd32(e + 4);
			name = rd32(e + 8);
			break;
		}
		/* The values a manifest's XML may give (tdh_man_parse.c). */
		if (it.value > max)
			return bad(s);
		it.has_value = 1;
		it.name = name_at(s, name);
		if (!it.name)
			return -1;
		w = kind == MAN_CHANNEL || it.in_task ? NULL : nttrace_man_winmeta(kind, it.name);
		if (w && w->value == it.value) {
			t->v[i] = w;
			continue;
		}
		it.message = message(s, msg);
		l->v[l->n] = it;
		t->v[i] = &l->v[l->n++];
	}
	return 0;
}

/* The entry of @t at @off: 0 and *@it NULL for offset 0, -1 for no entry. */
static int entry_at(struct ws *s, const struct tab *t, uint32_t off,
		    const struct nttrace_man_item **it)
{
	uint64_t i;

	*it = NULL;
	if (!off)
		return 0;
	if (!t->first || off < t->first || (off - t->first) % t->esize)
		return bad(s);
	i = (off - t->first) / t->esize;
	if (i >= t->n)
		return bad(s);
	*it = t->v[i];
	return 0;
}

/* winmeta.xml's item of @kind and value @v, for an event that names none. */
static const struct nttrace_man_item *winmeta_value(enum nttrace_man_kind kind, uint64_t v)
{
	const struct nttrace_man_item *w;
	uint32_t i;

	for (i = 0; v && (w = nttrace_man_winmeta_at(kind, i)); i++)
		if (w->value == v)
			return w;
	return NULL;
}

/* ---- maps ---- */

static int map_cmp(const void *a, const void *b)
{
	const struct map_at *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

static int is_map(const struct ws *s, uint64_t off)
{
	return in(s, off, 4) && (!memcmp(s->b + off, "VMAP", 4) || !memcmp(s->b + off, "BMAP", 4));
}

static int one_map(struct ws *s, uint32_t off, struct nttrace_man_map *mp)
{
	uint32_t size, n, k, at;

	if (!is_map(s, off) || !in(s, off, 20))
		return bad(s);
	size = rd32(s->b + off + 4);
	mp->bitmap = !memcmp(s->b + off, "BMAP", 4);
	mp->name = name_at(s, rd32(s->b + off + 8));
	if (!mp->name)
		return -1;
	/*
	 * mc.exe's: u32 flags, u32 entries, the entries (20 bytes before
	 * them); libyal describes them without the flags (16 bytes).
	 */
	n = rd32(s->b + off + 16);
	at = 20;
	if ((uint64_t)n * 8 + 20 != size && (uint64_t)rd32(s->b + off + 12) * 8 + 16 == size) {
		n = rd32(s->b + off + 12);
		at = 16;
	}
	if (size < at || !in(s, off, size) || n > MAX_ENTRIES || (uint64_t)n * 8 > size - at ||
	    spend(s, (uint64_t)n * 8))
		return bad(s);
	mp->v = alloc(s, (size_t)n * sizeof(*mp->v));
	if (!mp->v)
		return -1;
	mp->n = mp->cap = n;
	for (k = 0; k < n; k++) {
		const uint8_t *e = s->b + off + at + 8 * (uint64_t)k;

		mp->v[k].value = rd32(e);
		mp->v[k].message = message(s, rd32(e + 4));
	}
	return 0;
}

static int maps(struct ws *s, struct nttrace_man_provider *p, uint32_t off)
{
	uint32_t n, i, nslots;
	uint64_t first = 0;

	if (element(s, off, 12, 4, &n, MAX_ENTRIES))
		return -1;
	/*
	 * The maps' offsets follow the header; libyal saw one fewer, the
	 * first map right after them: a map's signature where the last
	 * offset would be says which.
	 */
	nslots = n;
	if (n && is_map(s, (uint64_t)off + 12 + 4 * ((uint64_t)n - 1))) {
		nslots = n - 1;
		first = (uint64_t)off + 12 + 4 * (uint64_t)nslots;
	}
	s->maps = calloc((size_t)n + 1, sizeof(*s->maps));
	p->maps = alloc(s, (size_t)n * sizeof(*p->maps));
	if (!s->maps || !p->maps)
		return oom(s);
	p->capmaps = n;
	for (i = 0; i < n; i++) {
		uint64_t at = i < nslots ? rd32(s->b + off + 12 + 4 * (uint64_t)i) : first;

		if (at > 0xFFFFFFFF || one_map(s, (uint32_t)at, &p->maps[i]))
			return bad(s);
		s->maps[i] = (struct map_at){ (uint32_t)at, &p->maps[i] };
		p->nmaps++;
	}
	s->nmaps = n;
	qsort(s->maps, n, sizeof(*s->maps), map_cmp);
	return 0;
}

static const struct nttrace_man_map *map_by_off(const struct ws *s, uint32_t off)
{
	uint32_t lo = 0, hi = s->nmaps;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->maps[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nmaps && s->maps[lo].off == off ? s->maps[lo].map : NULL;
}

/* ---- templates ---- */

/* Descriptor @j's fields but its count and length, into @d. */
static int item(struct ws *s, const uint8_t *e, struct nttrace_man_data *d, int32_t parent)
{
	uint32_t flags = rd32(e);

	d->parent = parent;
	d->is_struct = flags & 1;
	d->name = name_at(s, rd32(e + 16));
	if (!d->name)
		return -1;
	if (d->is_struct)
		return 0;
	d->in = e[4];
	d->in_s = nttrace_man_intype_name(d->in);
	/* As the XML's resolution refuses an inType it does not know. */
	if (!d->in_s)
		return bad(s);
	d->out_s = nttrace_man_outtype_name(e[5]);
	d->out = d->out_s ? e[5] : TDH_OUTTYPE_NULL;
	if (rd32(e + 8)) {
		d->map = map_by_off(s, rd32(e + 8));
		if (!d->map)
			return bad(s);
		d->map_s = d->map->name;
	}
	return 0;
}

/*
 * A count or length: fixed (@fixed_flag) or naming descriptor @v (@ref_flag),
 * which must be no structure before @d, in its structure or at the top
 * level, as the XML's resolution wants it (tdh_man_resolve.c).
 */
static int param(struct ws *s, const struct nttrace_man_template *t, const uint32_t *doc_of,
		 uint32_t nall, uint32_t di, uint32_t flags, uint32_t fixed_flag, uint32_t ref_flag,
		 uint16_t v, uint8_t *has, uint8_t *ref, uint32_t *out)
{
	const struct nttrace_man_data *d = &t->v[di], *r;

	if ((flags & fixed_flag) && (flags & ref_flag))
		return bad(s);
	if (flags & fixed_flag) {
		*has = 1;
		*out = v;
	} else if (flags & ref_flag) {
		if (v >= nall || doc_of[v] >= di)
			return bad(s);
		r = &t->v[doc_of[v]];
		if (r->is_struct || (r->parent >= 0 && r->parent != d->parent))
			return bad(s);
		*has = 1;
		*ref = 1;
		*out = doc_of[v];
	}
	return 0;
}

/*
 * The template at @off (@end: where its table ends) into @t: its items in
 * the XML's order (each structure's members after it), from descriptors in
 * property order (the top-level ones, then the members).
 */
static int one_template(struct ws *s, uint32_t off, uint64_t end, struct nttrace_man_template *t,
			uint32_t *size)
{
	uint32_t ntop, nall, items, i, k = 0, next;
	uint32_t *doc_of = NULL;
	const uint8_t *e;
	int ret = -1;

	if (end - off < 40 || memcmp(s->b + off, "TEMP", 4))
		return bad(s);
	*size = rd32(s->b + off + 4);
	ntop = rd32(s->b + off + 8);
	nall = rd32(s->b + off + 12);
	items = rd32(s->b + off + 16);
	if (*size < 40 || *size > end - off || ntop > nall || nall >= MAX_ENTRIES)
		return bad(s);
	if (!nall)
		return 0;
	if (items < (uint64_t)off + 40 || items > (uint64_t)off + *size ||
	    (uint64_t)nall * 20 > (uint64_t)off + *size - items || spend(s, (uint64_t)nall * 20))
		return bad(s);
	e = s->b + items;
	t->v = alloc(s, (size_t)nall * sizeof(*t->v));
	doc_of = malloc((size_t)nall * sizeof(*doc_of));
	if (!t->v || !doc_of) {
		oom(s);
		goto out;
	}
	t->n = t->cap = nall;
	next = ntop;	/* the first member of the next structure */
	for (i = 0; i < ntop; i++) {
		const uint8_t *d = e + 20 * (size_t)i;
		uint32_t top = k, j, first, members;

		doc_of[i] = k;
		if (item(s, d, &t->v[k++], -1))
			goto out;
		if (!t->v[top].is_struct)
			continue;
		first = rd16(d + 4);
		members = rd16(d + 6);
		if (members && (first != next || members > nall - next)) {
			bad(s);
			goto out;
		}
		for (j = 0; j < members; j++) {
			doc_of[next + j] = k;
			if (item(s, e + 20 * (size_t)(next + j), &t->v[k], (int32_t)top))
				goto out;
			/* The schema's structures hold data only. */
			if (t->v[k++].is_struct) {
				bad(s);
				goto out;
			}
		}
		next += members;
	}
	if (next != nall) {
		bad(s);
		goto out;
	}
	for (i = 0; i < nall; i++) {
		const uint8_t *d = e + 20 * (size_t)i;
		struct nttrace_man_data *x = &t->v[doc_of[i]];
		uint32_t flags = rd32(d);

		if (param(s, t, doc_of, nall, doc_of[i], flags, 8, 16, rd16(d + 12), &x->has_count,
			  &x->count_ref, &x->count) ||
		    param(s, t, doc_of, nall, doc_of[i], flags, 2, 4, rd16(d + 14), &x->has_length,
			  &x->length_ref, &x->length))
			goto out;
	}
	ret = 0;
out:
	free(doc_of);
	return ret;
}

static int templates(struct ws *s, struct nttrace_man_provider *p, uint32_t off)
{
	uint32_t n, i, size, tsize;
	uint64_t at, end;

	if (element(s, off, 12, 40, &n, MAX_ENTRIES))
		return -1;
	size = rd32(s->b + off + 4);
	at = (uint64_t)off + 12;
	end = (uint64_t)off + size;
	s->tmpls = calloc((size_t)n + 1, sizeof(*s->tmpls));
	p->tmpls = alloc(s, (size_t)n * sizeof(*p->tmpls));
	if (!s->tmpls || !p->tmpls)
		return oom(s);
	p->captmpls = n;
	for (i = 0; i < n; i++) {
		if (one_template(s, (uint32_t)at, end, &p->tmpls[i], &tsize))
			return -1;
		/* In the order of their offsets: events find them by a search. */
		s->tmpls[i] = (struct tmpl_at){ (uint32_t)at, &p->tmpls[i] };
		p->ntmpls++;
		at += tsize;
	}
	s->ntmpls = n;
	return 0;
}

static const struct nttrace_man_template *tmpl_by_off(const struct ws *s, uint32_t off)
{
	uint32_t lo = 0, hi = s->ntmpls;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->tmpls[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->ntmpls && s->tmpls[lo].off == off ? s->tmpls[lo].tmpl : NULL;
}

/* ---- events ---- */

static int events(struct ws *s, struct nttrace_man_provider *p, uint32_t off)
{
	uint32_t n, i;

	if (element(s, off, 16, 48, &n, MAX_ENTRIES))
		return -1;
	p->events = alloc(s, (size_t)n * sizeof(*p->events));
	if (!p->events)
		return -1;
	p->nevents = p->capevents = n;
	for (i = 0; i < n; i++) {
		const uint8_t *e = s->b + off + 16 + 48 * (uint64_t)i;
		struct nttrace_man_event *ev = &p->events[i];

		ev->id = rd16(e);
		ev->version = e[2];
		ev->channel = e[3];
		ev->level = e[4];
		ev->opcode = e[5];
		ev->task = rd16(e + 6);
		/* As the descriptor has it: with its channel's bit, if any. */
		ev->keywords = rd64(e + 8);
		ev->message = message(s, rd32(e + 16));
		if (rd32(e + 20)) {
			ev->tmpl = tmpl_by_off(s, rd32(e + 20));
			if (!ev->tmpl)
				return bad(s);
		}
		if (entry_at(s, &s->opco, rd32(e + 24), &ev->opcode_i) ||
		    entry_at(s, &s->levl, rd32(e + 28), &ev->level_i) ||
		    entry_at(s, &s->task, rd32(e + 32), &ev->task_i) ||
		    entry_at(s, &s->chan, rd32(e + 44), &ev->channel_i))
			return -1;
		if (!ev->level_i)
			ev->level_i = winmeta_value(MAN_LEVEL, ev->level);
		if (!ev->opcode_i)
			ev->opcode_i = winmeta_value(MAN_OPCODE, ev->opcode);
		if (!ev->channel_i)
			ev->channel_i = winmeta_value(MAN_CHANNEL, ev->channel);
	}
	return 0;
}

/* ---- providers ---- */

static void provider_done(struct ws *s)
{
	struct tab *t[] = { &s->chan, &s->levl, &s->opco, &s->task, &s->keyw };
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		free(t[i]->v);
		memset(t[i], 0, sizeof(*t[i]));
	}
	free(s->maps);
	free(s->tmpls);
	s->maps = NULL;
	s->tmpls = NULL;
	s->nmaps = s->ntmpls = 0;
}

enum { L_CHAN, L_LEVL, L_OPCO, L_TASK, L_KEYW, L_MAPS, L_TTBL, L_EVNT, L_N };

static const char sigs[L_N][5] = {
	"CHAN", "LEVL", "OPCO", "TASK", "KEYW", "MAPS", "TTBL", "EVNT",
};

static int provider(struct ws *s, struct nttrace_man_provider *p, uint32_t off)
{
	struct tab *tabs[] = { &s->chan, &s->levl, &s->opco, &s->task, &s->keyw };
	uint32_t at[L_N] = { 0 }, size, nlists, i, k;
	int ret = -1;

	if (!in(s, off, 16) || memcmp(s->b + off, "WEVT", 4))
		return bad(s);
	size = rd32(s->b + off + 4);
	nlists = rd32(s->b + off + 12);
	if (size < 16 || !in(s, off, size) || (uint64_t)nlists * 8 > size - 16 ||
	    spend(s, (uint64_t)nlists * 8))
		return bad(s);
	p->message = message(s, rd32(s->b + off + 8));
	for (i = 0; i < nlists; i++) {
		uint32_t eoff = rd32(s->b + off + 20 + 8 * (uint64_t)i);

		if (!in(s, eoff, 4))
			return bad(s);
		for (k = 0; k < L_N && memcmp(s->b + eoff, sigs[k], 4); k++)
			;
		if (k == L_N)
			continue;	/* a list this does not read */
		/* One list of a kind, not at offset 0 (the CRIM header). */
		if (at[k] || !eoff)
			return bad(s);
		at[k] = eoff;
	}
	/* What the later ones refer to first. */
	for (k = L_CHAN; k <= L_KEYW; k++)
		if (at[k] && item_list(s, p, sigs[k], at[k], tabs[k - L_CHAN]))
			goto out;
	if (at[L_MAPS] && maps(s, p, at[L_MAPS]))
		goto out;
	if (at[L_TTBL] && templates(s, p, at[L_TTBL]))
		goto out;
	if (at[L_EVNT] && events(s, p, at[L_EVNT]))
		goto out;
	if (nttrace_man_index_events(s->m, p)) {
		oom(s);
		goto out;
	}
	ret = 0;
out:
	provider_done(s);
	return ret;
}

ULONG nttrace_man_from_wevt(const void *crim, size_t len, const void *msgtable, size_t msglen,
			    struct nttrace_man **out)
{
	struct ws s = { .b = crim, .len = len };
	uint32_t size, n, i;

	*out = NULL;
	if (len > NTTRACE_MAN_MAX || msglen > NTTRACE_MAN_MAX)
		return ERROR_NOT_ENOUGH_MEMORY;
	if (!crim || len < 16 || memcmp(crim, "CRIM", 4))
		return ERROR_INVALID_DATA;
	size = rd32(s.b + 4);
	n = rd32(s.b + 12);
	/* Version 3.1 is all mc.exe has written; another major one is another layout. */
	if (rd16(s.b + 8) != 3 || size < 16 || size > len || (uint64_t)n * 20 > size - 16)
		return ERROR_INVALID_DATA;
	/* The size counts what belongs to it (mc.exe pads the resource after it). */
	s.len = size;
	s.budget = 2 * (uint64_t)size + 2 * (uint64_t)msglen;
	s.m = calloc(1, sizeof(*s.m));
	if (!s.m)
		return ERROR_NOT_ENOUGH_MEMORY;
	if (msgtable && messages(&s, msgtable, msglen))
		goto out;
	if (n > MAX_ENTRIES) {
		bad(&s);
		goto out;
	}
	s.m->provs = alloc(&s, (size_t)n * sizeof(*s.m->provs));
	if (!s.m->provs)
		goto out;
	s.m->capprovs = n;
	for (i = 0; i < n; i++) {
		const uint8_t *e = s.b + 16 + 20 * (size_t)i;
		struct nttrace_man_provider *p = &s.m->provs[i];

		p->guid = rdguid(e);
		s.m->nprovs++;
		if (provider(&s, p, rd32(e + 16)))
			goto out;
	}
out:
	free(s.msgs);
	if (s.err) {
		nttrace_man_free(s.m);
		return s.err;
	}
	*out = s.m;
	return ERROR_SUCCESS;
}
