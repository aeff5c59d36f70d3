// SPDX-License-Identifier: LGPL-2.1
/*
 * Windows' event log file (.evtx): what `nttrace tracerpt -of EVTX`
 * writes, laid out as Windows' tracerpt lays out its rendering of a trace.
 *
 * The file is a 4096-byte header (signature "ElfFile", the first and last
 * chunk numbers, the next record identifier, format 3.1, the number of
 * chunks, a CRC32 of its first 120 bytes) and then chunks of 64 KiB. A
 * chunk is a 512-byte header (signature "ElfChnk", its first and last
 * record numbers and identifiers, the offsets of its last record and of
 * its free space, a CRC32 of the records, the common string table: 64
 * buckets of names by hash, the template table: 32 buckets of template
 * definitions, and a CRC32 of the header) and records. A record is
 * "**\0\0", its size, its identifier (from 1), the time it was written
 * (here the event's), the event as binary XML (MS-EVEN6), zero bytes to a
 * multiple of 8, and its size again.
 *
 * Each event is a template instance, as Windows writes it: the template
 * is Windows' System template (Provider with this provider's name and
 * GUID, EventID with Qualifiers, Version, Level, Task, Opcode, Keywords,
 * TimeCreated, EventRecordID, Correlation, Execution, Channel, Computer,
 * Security) whose values are the event's, typed as Windows types them
 * (UInt8 Level, Opcode, Version and ProcessorID, UInt16 Task and EventID,
 * HexInt64 Keywords, FileTime TimeCreated, UInt64 EventRecordID, GUID
 * ActivityID and RelatedActivityID, UInt32 process and thread IDs and
 * CPU times, UInt64 ProcessorTime; a null value leaves its attribute
 * out); its last value is binary XML, itself a template instance: the
 * EventData with a <Data Name="..."> for each field, or
 * ProcessingErrorData, or BinaryEventData. A field's value is typed by
 * the rules of the event XML (tracerpt.h): an integer as its input type,
 * a pointer as HexInt32 or HexInt64 (its template says Size), binary data
 * as Binary, other values as String (AnsiString for ASCII text of an ANSI
 * string field) holding TDH's text, C0 controls as U+FFFD.
 *
 * A template is defined once a chunk, inline where it is first used, and
 * referenced by its offset after that; names likewise. The template's GUID
 * is a hash of what it holds; two templates are the same only when all
 * they hold is. A record that does not fit in what is left of a chunk
 * starts the next one; one that does not fit an empty chunk (a string
 * longer than 64 KiB, say) is not written: said on stderr and counted.
 * Neither is an event after the 65535th chunk (the header counts chunks
 * in 16 bits).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <nttrace/evntrace.h>
#include <nttrace/tdh.h>
#include <nttrace/winerror.h>

#include "evtx.h"
#include "tracerpt.h"

#define FILE_HEADER	4096
#define CHUNK		65536
#define CHUNK_HEADER	512
#define MAX_CHUNKS	65535	/* the file header counts them in 16 bits */
#define NAME_BUCKETS	64
#define TEMPLATE_BUCKETS 32
#define SAY_DROPPED	10	/* the events not written said one by one */

/* MS-EVEN6's tokens: | 0x40 "more follow" for some. */
enum {
	T_EOF = 0x00, T_OPEN = 0x01, T_CLOSE_START = 0x02, T_CLOSE_EMPTY = 0x03,
	T_END = 0x04, T_VALUE = 0x05, T_ATTR = 0x06, T_TEMPLATE = 0x0c,
	T_NORMAL_SUBST = 0x0d, T_OPTIONAL_SUBST = 0x0e, T_FRAGMENT = 0x0f,
	T_MORE = 0x40,
};

/* Value types: TDH's input types are the same numbers. */
enum {
	V_NULL = 0x00, V_STRING = 0x01, V_ANSI = 0x02, V_UINT8 = 0x04, V_UINT16 = 0x06,
	V_UINT32 = 0x08, V_UINT64 = 0x0a, V_BINARY = 0x0e, V_GUID = 0x0f, V_SIZE = 0x10,
	V_FILETIME = 0x11, V_SID = 0x13, V_HEX32 = 0x14, V_HEX64 = 0x15, V_BINXML = 0x21,
};

/* The System template's substitutions, numbered as Windows numbers them. */
enum {
	S_LEVEL, S_OPCODE, S_TASK, S_EVENTID, S_QUALIFIERS, S_KEYWORDS, S_TIME,
	S_ACTIVITY, S_PID, S_TID, S_RECORDID, S_VERSION, S_USERID, S_SESSION,
	S_PROCESSOR, S_KERNEL, S_USER, S_CPUTIME, S_RELATED, S_DATA, S_COUNT
};

#define NO_DEPENDENCY	0xffff

struct template {
	uint32_t off;		/* its definition in the chunk */
	uint8_t guid[16];
	char *key;		/* what it holds, @klen bytes */
	size_t klen;
};

struct evtx {
	FILE *f;
	char *computer;
	uint8_t c[CHUNK];	/* the chunk being filled */
	uint32_t at;		/* where the next byte goes */
	int over;		/* something did not fit: the record is void */
	uint32_t names[NAME_BUCKETS], templates[TEMPLATE_BUCKETS];
	struct template *tpl;
	size_t ntpl, captpl;
	uint64_t first;		/* the chunk's first record identifier; 0: empty */
	uint32_t last;		/* the chunk's last record */
	uint64_t next;		/* the next record identifier */
	uint64_t chunks, dropped;
	int failed;		/* a write failed: errno */
};

/* A value of a template instance: @type, @size bytes at @data. */
struct value {
	uint8_t type;
	uint32_t size;
	const void *data;
};

/* ---- bytes ---- */

static uint32_t crc32(uint32_t crc, const uint8_t *p, size_t n)
{
	static uint32_t table[256];
	uint32_t c;
	int k;

	if (!table[1]) {
		for (c = 0; c < 256; c++) {
			uint32_t r = c;

			for (k = 0; k < 8; k++)
				r = r & 1 ? 0xedb88320 ^ (r >> 1) : r >> 1;
			table[c] = r;
		}
	}
	crc = ~crc;
	while (n--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static void le(uint8_t *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put(struct evtx *x, const void *p, size_t n)
{
	if (x->over || n > CHUNK - x->at) {
		x->over = 1;
		return;
	}
	memcpy(x->c + x->at, p, n);
	x->at += (uint32_t)n;
}

static void put_le(struct evtx *x, uint64_t v, int n)
{
	uint8_t b[8];

	le(b, v, n);
	put(x, b, (size_t)n);
}

static void put8(struct evtx *x, unsigned int v)
{
	put_le(x, v, 1);
}

static void put16(struct evtx *x, unsigned int v)
{
	put_le(x, v, 2);
}

static void put32(struct evtx *x, uint32_t v)
{
	put_le(x, v, 4);
}

/* A 32-bit size at @off: the bytes from @from to here. */
static void patch_size(struct evtx *x, uint32_t off, uint32_t from)
{
	if (!x->over)
		le(x->c + off, x->at - from, 4);
}

/* ---- text ---- */

/*
 * The next code point of UTF-8 @*s, moving past it: a bad sequence as
 * U+FFFD, and C0 controls but tab, line feed and carriage return too, as
 * the event XML writes them.
 */
static uint32_t next_char(const unsigned char **s)
{
	const unsigned char *p = *s;
	uint32_t c = *p++, min = 0;
	int more = 0;

	if (c >= 0xc2 && c < 0xe0) {
		more = 1;
		c &= 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c < 0xf0) {
		more = 2;
		c &= 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c < 0xf5) {
		more = 3;
		c &= 0x07;
		min = 0x10000;
	} else if (c >= 0x80) {
		*s = p;
		return 0xfffd;
	}
	for (; more; more--, p++) {
		if ((*p & 0xc0) != 0x80) {
			*s = p;
			return 0xfffd;
		}
		c = c << 6 | (*p & 0x3f);
	}
	*s = p;
	if (c < min || (c >= 0xd800 && c < 0xe000) || c > 0x10ffff ||
	    (c < 0x20 && c != '\t' && c != '\n' && c != '\r'))
		return 0xfffd;
	return c;
}

/* @s's length in UTF-16 units. */
static size_t utf16_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	while (p && *p)
		n += next_char(&p) > 0xffff ? 2 : 1;
	return n;
}

/* @s as UTF-16LE, no NUL. */
static void put_utf16(struct evtx *x, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t c;

	while (p && *p) {
		c = next_char(&p);
		if (c > 0xffff) {
			c -= 0x10000;
			put16(x, 0xd800 | c >> 10);
			put16(x, 0xdc00 | (c & 0x3ff));
		} else {
			put16(x, c);
		}
	}
}

/* Whether the chunk's name at @off is @s. */
static int name_is(const struct evtx *x, uint32_t off, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	const uint8_t *w = x->c + off + 8;
	uint32_t c;
	size_t i = 0;

	if (off + 8 + 2 * n > CHUNK || (size_t)(x->c[off + 6] | x->c[off + 7] << 8) != n)
		return 0;
	while (*p) {
		c = next_char(&p);
		if (c > 0xffff) {
			c -= 0x10000;
			if ((uint32_t)(w[2 * i] | w[2 * i + 1] << 8) != (0xd800 | c >> 10))
				return 0;
			i++;
			c = 0xdc00 | (c & 0x3ff);
		}
		if ((uint32_t)(w[2 * i] | w[2 * i + 1] << 8) != c)
			return 0;
		i++;
	}
	return 1;
}

/*
 * A reference to name @s: to the chunk's copy, or to a copy written here
 * (the next name of its bucket, the hash Windows uses, the length, the
 * UTF-16 text and a NUL) and put in the common string table.
 */
static void put_name(struct evtx *x, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = utf16_len(s);
	uint32_t hash = 0, c, off;
	unsigned int b;

	while (*p) {
		c = next_char(&p);
		if (c > 0xffff) {
			c -= 0x10000;
			hash = hash * 65599 + (0xd800 | c >> 10);
			c = 0xdc00 | (c & 0x3ff);
		}
		hash = hash * 65599 + c;
	}
	b = hash % NAME_BUCKETS;
	for (off = x->names[b]; off; off = x->c[off] | x->c[off + 1] << 8 |
	     x->c[off + 2] << 16 | (uint32_t)x->c[off + 3] << 24) {
		if (off + 8 > CHUNK)
			break;
		if (name_is(x, off, s, n)) {
			put32(x, off);
			return;
		}
	}
	if (n > 0xffff) {
		x->over = 1;
		return;
	}
	off = x->at + 4;
	put32(x, off);
	put32(x, x->names[b]);
	put16(x, hash & 0xffff);
	put16(x, (unsigned int)n);
	put_utf16(x, s);
	put16(x, 0);
	if (!x->over)
		x->names[b] = off;
}

/* Value text: a String of @s's characters. */
static void put_text(struct evtx *x, const char *s)
{
	size_t n = utf16_len(s);

	if (n > 0xffff) {
		x->over = 1;
		return;
	}
	put8(x, T_VALUE);
	put8(x, V_STRING);
	put16(x, (unsigned int)n);
	put_utf16(x, s);
}

/* ---- binary XML ---- */

/*
 * An element's start: its token (with attributes or not), the
 * substitution it depends on, a size to fill in (end_element()) and its
 * name. Returns where the size is.
 */
static uint32_t open_element(struct evtx *x, const char *name, int attrs, unsigned int dep)
{
	uint32_t size;

	put8(x, attrs ? T_OPEN | T_MORE : T_OPEN);
	put16(x, dep);
	size = x->at;
	put32(x, 0);
	put_name(x, name);
	return size;
}

/* The element's size: what follows it, to here. */
static void end_element(struct evtx *x, uint32_t size)
{
	patch_size(x, size, size + 4);
}

static void attribute(struct evtx *x, const char *name, int more)
{
	put8(x, more ? T_ATTR | T_MORE : T_ATTR);
	put_name(x, name);
}

static void subst(struct evtx *x, int optional, unsigned int id, unsigned int type)
{
	put8(x, optional ? T_OPTIONAL_SUBST : T_NORMAL_SUBST);
	put16(x, id);
	put8(x, type);
}

/* <NAME>%id</NAME>, an optional substitution it depends on. */
static void subst_element(struct evtx *x, const char *name, unsigned int id,
			  unsigned int type)
{
	uint32_t size = open_element(x, name, 0, id);

	put8(x, T_CLOSE_START);
	subst(x, 1, id, type);
	put8(x, T_END);
	end_element(x, size);
}

/* ---- templates ---- */

/* A 64-bit FNV-1a hash of @p, from @h. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ULL;
	return h;
}

/* What a template holds, as bytes: its kind, then its names and types. */
struct key {
	char *p;
	size_t n, cap;
	int oom;
};

static void key_add(struct key *k, const void *p, size_t n)
{
	if (k->oom)
		return;
	if (k->n + n > k->cap) {
		size_t cap = (k->n + n) * 2 + 64;
		char *grown = realloc(k->p, cap);

		if (!grown) {
			k->oom = 1;
			return;
		}
		k->p = grown;
		k->cap = cap;
	}
	memcpy(k->p + k->n, p, n);
	k->n += n;
}

static void key_str(struct key *k, const char *s)
{
	key_add(k, s ? s : "", s ? strlen(s) + 1 : 1);
}

typedef void (*body_fn)(struct evtx *x, const void *arg);

/*
 * A template instance's start: the token, the template's identifier and
 * the offset of its definition, and the definition itself (the next of
 * its bucket, its GUID, its size, then a fragment: @body and the end)
 * when the chunk has none yet. Returns 0, or -1 without memory.
 */
static int put_template(struct evtx *x, struct key *k, body_fn body, const void *arg)
{
	struct template *t = NULL;
	uint64_t h1, h2;
	uint8_t guid[16];
	uint32_t size;
	size_t i;
	unsigned int b;

	if (k->oom)
		return -1;
	for (i = 0; i < x->ntpl; i++) {
		t = &x->tpl[i];
		if (t->klen == k->n && !memcmp(t->key, k->p, k->n))
			break;
	}
	put8(x, T_TEMPLATE);
	put8(x, 1);
	if (i < x->ntpl) {
		put(x, t->guid, 4);
		put32(x, t->off);
		return 0;
	}
	h1 = fnv(0xcbf29ce484222325ULL, k->p, k->n);
	h2 = fnv(0x84222325cbf29ce4ULL, k->p, k->n);
	le(guid, h1, 8);
	le(guid + 8, h2, 8);
	b = (guid[0] | guid[1] << 8 | guid[2] << 16 | (uint32_t)guid[3] << 24) %
	    TEMPLATE_BUCKETS;
	if (x->ntpl == x->captpl) {
		size_t cap = x->captpl ? 2 * x->captpl : 32;
		struct template *grown = realloc(x->tpl, cap * sizeof(*grown));

		if (!grown)
			return -1;
		x->tpl = grown;
		x->captpl = cap;
	}
	t = &x->tpl[x->ntpl];
	t->key = malloc(k->n ? k->n : 1);
	if (!t->key)
		return -1;
	memcpy(t->key, k->p, k->n);
	t->klen = k->n;
	memcpy(t->guid, guid, 16);
	put(x, guid, 4);
	t->off = x->at + 4;
	put32(x, t->off);
	put32(x, x->templates[b]);
	put(x, guid, 16);
	size = x->at;
	put32(x, 0);
	put8(x, T_FRAGMENT);
	put8(x, 1);
	put8(x, 1);
	put8(x, 0);
	body(x, arg);
	put8(x, T_EOF);
	patch_size(x, size, size + 4);
	if (x->over) {
		free(t->key);
		return 0;
	}
	x->templates[b] = t->off;
	x->ntpl++;
	return 0;
}

/*
 * The template instance's values: their count, then each one's size and
 * type. Returns where the sizes are.
 */
static uint32_t put_descriptors(struct evtx *x, const struct value *v, unsigned int n)
{
	uint32_t at;
	unsigned int i;

	put32(x, n);
	at = x->at;
	for (i = 0; i < n; i++) {
		if (v[i].size > 0xffff)
			x->over = 1;
		put16(x, v[i].size & 0xffff);
		put8(x, v[i].type);
		put8(x, 0);
	}
	return at;
}

static void put_values(struct evtx *x, const struct value *v, unsigned int n)
{
	unsigned int i;

	put_descriptors(x, v, n);
	for (i = 0; i < n; i++)
		put(x, v[i].data, v[i].size);
}

/* ---- the System template ---- */

struct system_args {
	const char *provider, *guid, *computer;
	unsigned int processor_type;
};

static void system_body(struct evtx *x, const void *arg)
{
	const struct system_args *a = arg;
	uint32_t event, system, e, attrs;

	/* Windows' System template names EventData's substitution here. */
	event = open_element(x, "Event", 1, S_DATA);
	attrs = x->at;
	put32(x, 0);
	attribute(x, "xmlns", 0);
	put_text(x, "http://schemas.microsoft.com/win/2004/08/events/event");
	patch_size(x, attrs, attrs + 4);
	put8(x, T_CLOSE_START);

	system = open_element(x, "System", 0, NO_DEPENDENCY);
	put8(x, T_CLOSE_START);

	e = open_element(x, "Provider", 1, NO_DEPENDENCY);
	attrs = x->at;
	put32(x, 0);
	if (a->provider) {
		attribute(x, "Name", 1);
		put_text(x, a->provider);
	}
	attribute(x, "Guid", 0);
	put_text(x, a->guid);
	patch_size(x, attrs, attrs + 4);
	put8(x, T_CLOSE_EMPTY);
	end_element(x, e);

	e = open_element(x, "EventID", 1, S_EVENTID);
	attrs = x->at;
	put32(x, 0);
	attribute(x, "Qualifiers", 0);
	subst(x, 1, S_QUALIFIERS, V_UINT16);
	patch_size(x, attrs, attrs + 4);
	put8(x, T_CLOSE_START);
	subst(x, 1, S_EVENTID, V_UINT16);
	put8(x, T_END);
	end_element(x, e);

	subst_element(x, "Version", S_VERSION, V_UINT8);
	subst_element(x, "Level", S_LEVEL, V_UINT8);
	subst_element(x, "Task", S_TASK, V_UINT16);
	subst_element(x, "Opcode", S_OPCODE, V_UINT8);
	subst_element(x, "Keywords", S_KEYWORDS, V_HEX64);

	e = open_element(x, "TimeCreated", 1, NO_DEPENDENCY);
	attrs = x->at;
	put32(x, 0);
	attribute(x, "SystemTime", 0);
	subst(x, 1, S_TIME, V_FILETIME);
	patch_size(x, attrs, attrs + 4);
	put8(x, T_CLOSE_EMPTY);
	end_element(x, e);

	subst_element(x, "EventRecordID", S_RECORDID, V_UINT64);

	e = open_element(x, "Correlation", 1, NO_DEPENDENCY);
	attrs = x->at;
	put32(x, 0);
	attribute(x, "ActivityID", 1);
	subst(x, 1, S_ACTIVITY, V_GUID);
	attribute(x, "RelatedActivityID", 0);
	subst(x, 1, S_RELATED, V_GUID);
	patch_size(x, attrs, attrs + 4);
	put8(x, T_CLOSE_EMPTY);
	end_element(x, e);

	e = open_element(x, "Execution", 1, NO_DEPENDENCY);
	attrs = x->at;
	put32(x, 0);
	attribute(x, "ProcessID", 1);
	subst(x, 1, S_PID, V_UINT32);
	attribute(x, "ThreadID", 1);
	subst(x, 1, S_TID, V_UINT32);
	attribute(x, "SessionID", 1);
	subst(x, 1, S_SESSION, V_UINT32);
	attribute(x, "ProcessorID", 1);
	subst(x, 1, S_PROCESSOR, a->processor_type);
	attribute(x, "KernelTime", 1);
	subst(x, 1, S_KERNEL, V_UINT32);
	attribute(x, "UserTime", 1);
	subst(x, 1, S_USER, V_UINT32);
	attribute(x, "ProcessorTime", 0);
	subst(x, 1, S_CPUTIME, V_UINT64);
	patch_size(x, attrs, attrs + 4);
	put8(x, T_CLOSE_EMPTY);
	end_element(x, e);

	e = open_element(x, "Channel", 0, NO_DEPENDENCY);
	put8(x, T_CLOSE_START);
	put8(x, T_END);
	end_element(x, e);

	e = open_element(x, "Computer", 0, NO_DEPENDENCY);
	put8(x, T_CLOSE_START);
	put_text(x, a->computer);
	put8(x, T_END);
	end_element(x, e);

	e = open_element(x, "Security", 1, NO_DEPENDENCY);
	attrs = x->at;
	put32(x, 0);
	attribute(x, "UserID", 0);
	subst(x, 1, S_USERID, V_SID);
	patch_size(x, attrs, attrs + 4);
	put8(x, T_CLOSE_EMPTY);
	end_element(x, e);

	put8(x, T_END);
	end_element(x, system);
	subst(x, 1, S_DATA, V_BINXML);
	put8(x, T_END);
	end_element(x, event);
}

/* ---- the data templates ---- */

/* A Data field: its name and the type its substitution says. */
struct field {
	const char *name;
	uint8_t type;
};

struct data_args {
	const struct field *f;
	unsigned int n;
};

static void event_data_body(struct evtx *x, const void *arg)
{
	const struct data_args *a = arg;
	uint32_t data, e, attrs;
	unsigned int i;

	data = open_element(x, "EventData", 0, NO_DEPENDENCY);
	if (!a->n) {
		put8(x, T_CLOSE_EMPTY);
		end_element(x, data);
		return;
	}
	put8(x, T_CLOSE_START);
	for (i = 0; i < a->n; i++) {
		e = open_element(x, "Data", 1, NO_DEPENDENCY);
		attrs = x->at;
		put32(x, 0);
		attribute(x, "Name", 0);
		put_text(x, a->f[i].name);
		patch_size(x, attrs, attrs + 4);
		put8(x, T_CLOSE_START);
		subst(x, 0, i, a->f[i].type);
		put8(x, T_END);
		end_element(x, e);
	}
	put8(x, T_END);
	end_element(x, data);
}

static void error_body(struct evtx *x, const void *arg)
{
	uint32_t e;

	(void)arg;
	e = open_element(x, "ProcessingErrorData", 0, NO_DEPENDENCY);
	put8(x, T_CLOSE_START);
	subst_element(x, "ErrorCode", 0, V_UINT32);
	subst_element(x, "DataItemName", 1, V_STRING);
	subst_element(x, "EventPayload", 2, V_BINARY);
	put8(x, T_END);
	end_element(x, e);
}

static void binary_body(struct evtx *x, const void *arg)
{
	(void)arg;
	subst_element(x, "BinaryEventData", 0, V_BINARY);
}

/* ---- one event ---- */

/* @s as UTF-16LE in a buffer of its own (*@size bytes), or NULL. */
static uint8_t *utf16_of(const char *s, uint32_t *size)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = utf16_len(s), i = 0;
	uint8_t *w = malloc(2 * n + 1);
	uint32_t c;

	if (!w)
		return NULL;
	while (p && *p) {
		c = next_char(&p);
		if (c > 0xffff) {
			c -= 0x10000;
			le(w + 2 * i++, 0xd800 | c >> 10, 2);
			c = 0xdc00 | (c & 0x3ff);
		}
		le(w + 2 * i++, c, 2);
	}
	*size = (uint32_t)(2 * n > UINT32_MAX ? UINT32_MAX : 2 * n);
	return w;
}

/* Whether @s is ASCII text the XML writes as it is. */
static int plain_ascii(const char *s)
{
	for (; s && *s; s++)
		if ((unsigned char)*s >= 0x80 ||
		    ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' && *s != '\r'))
			return 0;
	return 1;
}

/*
 * The EventData template instance of @er's fields: each typed by the
 * event XML's rules. Returns 0, or -1 without memory.
 */
static int event_data(struct evtx *x, const EVENT_RECORD *er, const struct render_fields *v)
{
	const uint8_t *d = er->UserData;
	struct field *f = calloc(v->n + 1, sizeof(*f));
	struct value *val = calloc(v->n + 1, sizeof(*val));
	uint8_t **text = calloc(v->n + 1, sizeof(*text));
	struct key k = { 0 };
	struct data_args a = { f, v->n };
	unsigned int i;
	int ret = -1;

	if (!f || !val || !text)
		goto out;
	if (v->n > 0xffff)
		x->over = 1;
	key_str(&k, "EventData");
	for (i = 0; i < v->n; i++) {
		const struct render_field *r = &v->v[i];

		f[i].name = r->name ? r->name : "";
		val[i].data = d + r->off;
		val[i].size = r->size;
		switch (tracerpt_kind(r)) {
		case TRACERPT_POINTER:
			f[i].type = V_SIZE;
			val[i].type = r->size == 8 ? V_HEX64 : V_HEX32;
			break;
		case TRACERPT_BINARY:
			f[i].type = val[i].type = V_BINARY;
			break;
		case TRACERPT_INTEGER:
			f[i].type = val[i].type = (uint8_t)r->in_type;
			break;
		default:
			if (r->single && r->in_type == TDH_INTYPE_ANSISTRING && plain_ascii(r->text)) {
				f[i].type = val[i].type = V_ANSI;
				val[i].data = r->text ? r->text : "";
				val[i].size = r->text ? (uint32_t)strlen(r->text) : 0;
				break;
			}
			f[i].type = val[i].type = V_STRING;
			text[i] = utf16_of(r->text, &val[i].size);
			if (!text[i])
				goto out;
			val[i].data = text[i];
		}
		key_str(&k, f[i].name);
		key_add(&k, &f[i].type, 1);
	}
	if (put_template(x, &k, event_data_body, &a))
		goto out;
	put_values(x, val, v->n);
	ret = 0;
out:
	for (i = 0; text && i < v->n; i++)
		free(text[i]);
	free(text);
	free(val);
	free(f);
	free(k.p);
	return ret;
}

static int processing_error(struct evtx *x, const EVENT_RECORD *er,
			    const struct render_field *bad)
{
	uint8_t code[4];
	struct value val[3];
	struct key k = { 0 };
	uint8_t *name;
	int ret = -1;

	le(code, ERROR_EVT_INVALID_EVENT_DATA, 4);
	name = utf16_of(bad->name, &val[1].size);
	if (!name)
		return -1;
	val[0] = (struct value){ V_UINT32, 4, code };
	val[1].type = V_STRING;
	val[1].data = name;
	val[2] = (struct value){ V_BINARY, er->UserDataLength, er->UserData };
	key_str(&k, "ProcessingErrorData");
	if (!put_template(x, &k, error_body, NULL)) {
		put_values(x, val, 3);
		ret = 0;
	}
	free(k.p);
	free(name);
	return ret;
}

static int binary_data(struct evtx *x, const EVENT_RECORD *er)
{
	struct value val = { V_BINARY, er->UserDataLength, er->UserData };
	struct key k = { 0 };
	int ret = -1;

	key_str(&k, "BinaryEventData");
	if (!put_template(x, &k, binary_body, NULL)) {
		put_values(x, &val, 1);
		ret = 0;
	}
	free(k.p);
	return ret;
}

/* One record of @er at the chunk's end: 0, or -1 without memory. */
static int record(struct evtx *x, const EVENT_RECORD *er, const struct render_fields *v,
		  int decoded, const char *provider)
{
	static const GUID zero;
	const EVENT_HEADER *h = &er->EventHeader;
	const EVENT_HEADER_EXTENDED_DATA_ITEM *rel;
	const struct render_field *bad = NULL;
	uint8_t level = h->EventDescriptor.Level, opcode = h->EventDescriptor.Opcode;
	uint8_t version = h->EventDescriptor.Version, b[11][8];
	uint16_t processor = er->BufferContext.ProcessorIndex;
	struct value val[S_COUNT];
	struct system_args a;
	struct key k = { 0 };
	char guid[NTTRACE_GUID_STRING + 2];
	uint32_t start = x->at, size, data, desc;
	unsigned int i;
	int cputime = !!(h->Flags & (EVENT_HEADER_FLAG_PRIVATE_SESSION |
				     EVENT_HEADER_FLAG_NO_CPUTIME));
	int ret;

	memset(val, 0, sizeof(val));
	guid[0] = '{';
	nttrace_guid_string((const uint8_t *)&h->ProviderId, guid + 1);
	strcat(guid, "}");
	a.provider = provider;
	a.guid = guid;
	a.computer = x->computer;
	a.processor_type = processor > 0xff ? V_UINT16 : V_UINT8;

	put32(x, 0x00002a2a);
	put32(x, 0);
	put_le(x, x->next, 8);
	put_le(x, (uint64_t)h->TimeStamp.QuadPart, 8);
	put8(x, T_FRAGMENT);
	put8(x, 1);
	put8(x, 1);
	put8(x, 0);

	key_str(&k, "System");
	key_add(&k, provider ? "P" : "-", 1);
	key_str(&k, provider);
	key_str(&k, guid);
	key_str(&k, x->computer);
	key_add(&k, &a.processor_type, 1);
	ret = put_template(x, &k, system_body, &a);
	free(k.p);
	if (ret)
		return -1;

	val[S_LEVEL] = (struct value){ V_UINT8, 1, &level };
	val[S_OPCODE] = (struct value){ V_UINT8, 1, &opcode };
	le(b[0], h->EventDescriptor.Task, 2);
	val[S_TASK] = (struct value){ V_UINT16, 2, b[0] };
	le(b[1], h->EventDescriptor.Id, 2);
	val[S_EVENTID] = (struct value){ V_UINT16, 2, b[1] };
	le(b[2], (uint64_t)h->EventDescriptor.Keyword, 8);
	val[S_KEYWORDS] = (struct value){ V_HEX64, 8, b[2] };
	le(b[3], (uint64_t)h->TimeStamp.QuadPart, 8);
	val[S_TIME] = (struct value){ V_FILETIME, 8, b[3] };
	if (memcmp(&h->ActivityId, &zero, sizeof(zero)))
		val[S_ACTIVITY] = (struct value){ V_GUID, 16, &h->ActivityId };
	le(b[4], h->ProcessId, 4);
	val[S_PID] = (struct value){ V_UINT32, 4, b[4] };
	le(b[5], h->ThreadId, 4);
	val[S_TID] = (struct value){ V_UINT32, 4, b[5] };
	/* Windows counts EventRecordID from 0, its records from 1. */
	le(b[6], x->next - 1, 8);
	val[S_RECORDID] = (struct value){ V_UINT64, 8, b[6] };
	val[S_VERSION] = (struct value){ V_UINT8, 1, &version };
	le(b[8], processor, 2);
	val[S_PROCESSOR] = (struct value){ (uint8_t)a.processor_type,
					   processor > 0xff ? 2U : 1U, b[8] };
	if (cputime) {
		le(b[7], (uint64_t)h->ProcessorTime, 8);
		val[S_CPUTIME] = (struct value){ V_UINT64, 8, b[7] };
	} else {
		le(b[9], h->KernelTime, 4);
		val[S_KERNEL] = (struct value){ V_UINT32, 4, b[9] };
		le(b[10], h->UserTime, 4);
		val[S_USER] = (struct value){ V_UINT32, 4, b[10] };
	}
	rel = render_ext_item(er, EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID, sizeof(GUID));
	if (rel)
		val[S_RELATED] = (struct value){ V_GUID, 16,
						 (const void *)(uintptr_t)rel->DataPtr };
	if (decoded)
		bad = tracerpt_unterminated(er, v);
	if (decoded || er->UserDataLength)
		val[S_DATA].type = V_BINXML;
	/*
	 * The values; the last, binary XML of the data (a fragment), has its
	 * size filled in once it is written.
	 */
	desc = put_descriptors(x, val, S_COUNT);
	for (i = 0; i < S_DATA; i++)
		put(x, val[i].data, val[i].size);
	if (val[S_DATA].type) {
		data = x->at;
		put8(x, T_FRAGMENT);
		put8(x, 1);
		put8(x, 1);
		put8(x, 0);
		if (bad)
			ret = processing_error(x, er, bad);
		else if (decoded)
			ret = event_data(x, er, v);
		else
			ret = binary_data(x, er);
		if (ret)
			return -1;
		put8(x, T_EOF);
		if (x->at - data > 0xffff)
			x->over = 1;
		else if (!x->over)
			le(x->c + desc + 4 * S_DATA, x->at - data, 2);
	}
	put8(x, T_EOF);
	/* Records are a multiple of 8 bytes, as Windows writes them. */
	size = (x->at - start + 4 + 7) & ~7U;
	while (!x->over && x->at - start + 4 < size)
		put8(x, 0);
	put32(x, size);
	if (!x->over)
		le(x->c + start + 4, size, 4);
	return 0;
}

/* ---- chunks and the file ---- */

/* An empty chunk: no records, names or templates. */
static void chunk_reset(struct evtx *x)
{
	size_t i;

	for (i = 0; i < x->ntpl; i++)
		free(x->tpl[i].key);
	x->ntpl = 0;
	memset(x->c, 0, sizeof(x->c));
	memset(x->names, 0, sizeof(x->names));
	memset(x->templates, 0, sizeof(x->templates));
	x->at = CHUNK_HEADER;
	x->over = 0;
	x->first = 0;
	x->last = 0;
}

/*
 * The chunk's header, then the chunk to the file; an empty one only with
 * @empty (a file of no chunks is a damaged one to libevtx; one of an
 * empty chunk, records 0 to 0, is not).
 */
static void chunk_flush(struct evtx *x, int empty)
{
	uint64_t last = x->first ? x->next - 1 : 0;
	uint8_t *c = x->c;
	uint32_t crc;
	int i;

	if (!x->first && !empty)
		return;
	memcpy(c, "ElfChnk", 8);
	le(c + 8, x->first, 8);		/* record numbers: the identifiers */
	le(c + 16, last, 8);
	le(c + 24, x->first, 8);
	le(c + 32, last, 8);
	le(c + 40, 128, 4);
	le(c + 44, x->last, 4);
	le(c + 48, x->at, 4);
	le(c + 52, crc32(0, c + CHUNK_HEADER, x->at - CHUNK_HEADER), 4);
	for (i = 0; i < NAME_BUCKETS; i++)
		le(c + 128 + 4 * i, x->names[i], 4);
	for (i = 0; i < TEMPLATE_BUCKETS; i++)
		le(c + 384 + 4 * i, x->templates[i], 4);
	/* Windows' chunks have 1 here. */
	le(c + 120, 1, 4);
	crc = crc32(0, c, 120);
	crc = crc32(crc, c + 128, CHUNK_HEADER - 128);
	le(c + 124, crc, 4);
	if (!x->failed && fwrite(c, CHUNK, 1, x->f) != 1)
		x->failed = errno ? errno : EIO;
	x->chunks++;
	chunk_reset(x);
}

static int is_log_header(const EVENT_RECORD *er)
{
	return !memcmp(&er->EventHeader.ProviderId, &EventTraceGuid, sizeof(GUID)) &&
	       er->EventHeader.EventDescriptor.Opcode == EVENT_TRACE_TYPE_INFO;
}

static void drop(struct evtx *x, const EVENT_RECORD *er, const char *why)
{
	char g[NTTRACE_GUID_STRING];

	if (x->dropped++ >= SAY_DROPPED)
		return;
	nttrace_guid_string((const uint8_t *)&er->EventHeader.ProviderId, g);
	fprintf(stderr, "nttrace: tracerpt: event %u of {%s} at %lld not written to the .evtx: %s\n",
		er->EventHeader.EventDescriptor.Id, g,
		(long long)er->EventHeader.TimeStamp.QuadPart, why);
}

int evtx_event(struct evtx *x, const EVENT_RECORD *er, const struct render_fields *v,
	       int decoded, const char *provider)
{
	uint32_t names[NAME_BUCKETS], templates[TEMPLATE_BUCKETS], start;
	size_t ntpl, i;
	int tries, oom;

	if (is_log_header(er))
		return 0;
	for (tries = 0; tries < 2; tries++) {
		if (x->chunks >= MAX_CHUNKS) {
			drop(x, er, "the file has as many chunks as it can count");
			return -1;
		}
		start = x->at;
		ntpl = x->ntpl;
		memcpy(names, x->names, sizeof(names));
		memcpy(templates, x->templates, sizeof(templates));
		oom = record(x, er, v, decoded, provider);
		if (!oom && !x->over) {
			if (!x->first)
				x->first = x->next;
			x->last = start;
			x->next++;
			return 0;
		}
		/* Undo the record: the chunk as it was. */
		for (i = ntpl; i < x->ntpl; i++)
			free(x->tpl[i].key);
		x->ntpl = ntpl;
		memcpy(x->names, names, sizeof(names));
		memcpy(x->templates, templates, sizeof(templates));
		memset(x->c + start, 0, x->at - start);
		x->at = start;
		x->over = 0;
		if (oom) {
			drop(x, er, "out of memory");
			return -1;
		}
		if (!x->first)
			break;
		chunk_flush(x, 0);
	}
	drop(x, er, "its record is larger than a chunk");
	return -1;
}

struct evtx *evtx_open(FILE *f, const char *computer)
{
	static const uint8_t none[FILE_HEADER];
	struct evtx *x = calloc(1, sizeof(*x));

	if (x)
		x->computer = strdup(computer ? computer : "");
	if (!x || !x->computer) {
		free(x);
		return NULL;
	}
	x->f = f;
	x->next = 1;
	chunk_reset(x);
	/* The header's place: it is written at the end. */
	if (fwrite(none, sizeof(none), 1, f) != 1)
		x->failed = errno ? errno : EIO;
	return x;
}

int evtx_close(struct evtx *x, uint64_t *dropped)
{
	uint8_t h[128] = "ElfFile";
	int failed;

	*dropped = 0;
	if (!x)
		return 0;
	chunk_flush(x, !x->chunks);
	le(h + 8, 0, 8);
	le(h + 16, x->chunks ? x->chunks - 1 : 0, 8);
	le(h + 24, x->next, 8);
	le(h + 32, 128, 4);
	le(h + 36, 1, 2);	/* format 3.1 */
	le(h + 38, 3, 2);
	le(h + 40, FILE_HEADER, 2);
	le(h + 42, x->chunks, 2);
	le(h + 124, crc32(0, h, 120), 4);
	if (!x->failed && (fseek(x->f, 0, SEEK_SET) || fwrite(h, sizeof(h), 1, x->f) != 1 ||
			   fseek(x->f, 0, SEEK_END)))
		x->failed = errno ? errno : EIO;
	*dropped = x->dropped;
	if (x->dropped > SAY_DROPPED)
		fprintf(stderr, "nttrace: tracerpt: %llu events not written to the .evtx\n",
			(unsigned long long)x->dropped);
	failed = x->failed;
	chunk_reset(x);
	free(x->tpl);
	free(x->computer);
	free(x);
	if (failed) {
		errno = failed;
		return -1;
	}
	return 0;
}
