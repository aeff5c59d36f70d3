// SPDX-License-Identifier: LGPL-2.1
/*
 * `nttrace tracerpt -export FILE`: Windows' tracerpt "event schema export
 * file" (default schema.man), an instrumentation manifest (the EventManifest
 * schema, http://schemas.microsoft.com/win/2004/08/events) of the providers
 * whose events the log files hold, as far as TDH describes them.
 *
 * What is written, a provider each in the order its first event came:
 *  - manifest-based events (TDH's DecodingSourceXMLFile: a manifest given
 *    with -import, on NTTRACE_MANIFEST_PATH or installed): the events the
 *    log holds, by value and version, not every event of the manifest. The
 *    export describes the log, as TraceLogging's part can only do, and
 *    stays in proportion to it; the manifest itself is the whole. With
 *    them the provider's own levels, tasks (and their opcodes), opcodes and
 *    keywords (TdhEnumerateProviderFieldInformation) and their messages,
 *    the value and bit maps the events' fields name
 *    (TdhGetEventMapInformation), a template an event with its fields
 *    (TdhGetEventInformation's), the event's message;
 *  - TraceLogging events (DecodingSourceTlg): the provider by its
 *    TraceLogging name, each distinct event (name, level, opcode, keyword
 *    and fields) an event numbered 1 up in the order met (TraceLogging's
 *    events carry no ID of their own: their IDs are all 0), named, with a
 *    template of its fields. Levels, opcodes and keywords that winmeta.xml
 *    does not define are declared as Level_N, Opcode_N, Keyword_0xM.
 * A field a manifest cannot describe (an inType winmeta.xml lacks, a
 * custom schema) is written as win:Binary with a comment saying so.
 *
 * Not written, each provider named on stderr with its count of events:
 * classic events of MOF classes (the kernel's, the log's header) and WPP
 * messages, which no manifest event can describe (they have no event
 * descriptor of that kind: an event type in a class, a message GUID and
 * number), and events of which TDH knows nothing (no manifest found).
 * Channels are left out (TDH does not tell a channel's type or whether it
 * is enabled), each noted in a comment.
 *
 * The XML is deterministic for a log: providers in order of first event,
 * manifest events by value then version, TraceLogging events in order of
 * first appearance, maps by name. Every attribute and text is escaped
 * (& < > " '), characters XML 1.0 cannot hold (C0 controls, U+FFFE,
 * U+FFFF) are written as U+FFFD; GUIDs are in braces, uppercase; symbols
 * are C identifiers made of the names, distinct across the manifest.
 *
 * Each record costs a hash lookup: distinct events are kept once (their
 * TRACE_EVENT_INFO and maps), up to EXPORT_MAX_BYTES and, per provider,
 * EXPORT_MAX_EVENTS; what is past those limits is counted and said, not
 * kept. The hash is seeded per run, since keys come from the file.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/tmf.h>
#include <nttrace/winmeta.h>

#include "cli.h"
#include "tracerpt.h"

#define EXPORT_MAX_BYTES	(64u << 20)	/* events' descriptions kept */
#define EXPORT_MAX_EVENTS	65535u		/* a provider's: event values 1 up */
#define SYMBOL_MAX		96		/* a name's part of a symbol */
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/* Why a provider's events were not written. */
enum why {
	WHY_NONE,		/* written */
	WHY_MOF,		/* a classic event of a MOF class */
	WHY_WPP,		/* a WPP message */
	WHY_UNKNOWN,		/* no description TDH knows */
	WHY_LIMIT,		/* past EXPORT_MAX_BYTES or EXPORT_MAX_EVENTS */
	WHY_N
};

static const char *const why_text[WHY_N] = {
	[WHY_MOF] = "classic events of a MOF class, which a manifest cannot describe",
	[WHY_WPP] = "WPP messages, which a manifest cannot describe",
	[WHY_UNKNOWN] = "events TDH has no description of (no manifest found)",
	[WHY_LIMIT] = "distinct events past the export's limits",
};

struct xevent {
	uint32_t prov;
	int tlg;			/* TraceLogging's, else a manifest's */
	uint64_t hash;
	unsigned char *key;
	size_t keylen;
	TRACE_EVENT_INFO *t;
	EVENT_MAP_INFO **maps;		/* PropertyCount of them, or NULL */
	USHORT value;			/* in the export */
	UCHAR version;
};

struct xprov {
	GUID guid;
	char *name;
	uint32_t *ev;			/* indices into X.ev */
	uint32_t nev, capev;
	uint64_t skipped[WHY_N];	/* records not written, by why */
};

static struct {
	struct xprov *prov;
	uint32_t nprov, capprov;
	uint32_t *provslot;		/* index + 1, open addressing */
	size_t provcap;
	struct xevent *ev;
	uint32_t nev, capev;
	uint32_t *evslot;
	size_t evcap;
	size_t bytes;
	uint64_t seed;
	unsigned char *scratch;
	size_t scratchcap;
} X;

/* ---- hashing ---- */

static uint64_t hash_bytes(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ULL ^ X.seed;

	while (n--) {
		h ^= *b++;
		h *= 0x100000001b3ULL;
	}
	return h ^ (h >> 29);
}

static void seed(void)
{
	if (X.seed)
		return;
	X.seed = cli_seed() | 1;
}

/* Grow an open-addressed table of indices (+1) to twice its size: 0 or -1. */
static int rehash(uint32_t **slot, size_t *cap, uint32_t n,
		  uint64_t (*hash_of)(uint32_t idx))
{
	size_t ncap = *cap ? 2 * *cap : 64, i;
	uint32_t *ns = calloc(ncap, sizeof(*ns));

	if (!ns)
		return -1;
	for (i = 0; i < n; i++) {
		size_t at = hash_of((uint32_t)i) & (ncap - 1);

		while (ns[at])
			at = (at + 1) & (ncap - 1);
		ns[at] = (uint32_t)i + 1;
	}
	free(*slot);
	*slot = ns;
	*cap = ncap;
	return 0;
}

static uint64_t prov_hash(uint32_t i)
{
	return hash_bytes(&X.prov[i].guid, sizeof(GUID));
}

static uint64_t ev_hash(uint32_t i)
{
	return X.ev[i].hash;
}

/* ---- text ---- */

/* A TRACE_EVENT_INFO string as UTF-8 (NULL: none, or out of memory). */
static char *tei_string(const void *base, ULONG offset)
{
	return offset ? render_utf16((const WCHAR *)((const char *)base + offset)) : NULL;
}

/*
 * @s as XML attribute value or text: the five markup characters as
 * entities, tab, line feed and carriage return as character references
 * (an attribute keeps them so), the characters XML 1.0 does not allow
 * (other C0 controls, U+FFFE, U+FFFF) as U+FFFD.
 */
static void xml_put(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; p && *p; p++) {
		static const char *const ent[128] = {
			['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;",
			['\''] = "&apos;", ['\t'] = "&#9;", ['\n'] = "&#10;", ['\r'] = "&#13;",
		};

		if (*p < 128 && ent[*p]) {
			fputs(ent[*p], f);
		} else if (*p < 0x20) {
			fputs("\xef\xbf\xbd", f);
		} else if (p[0] == 0xef && p[1] == 0xbf && (p[2] == 0xbe || p[2] == 0xbf)) {
			fputs("\xef\xbf\xbd", f);
			p += 2;
		} else {
			fputc(*p, f);
		}
	}
}

/* Text inside <!-- -->: escaped as above, and "--" never written. */
static void comment_put(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '-' && (s[1] == '-' || !s[1]))
			fputs("- ", f);
		else
			xml_put(f, (char[]){ *s, 0 });
	}
}

static void attr(FILE *f, const char *name, const char *value)
{
	if (!value)
		return;
	fprintf(f, " %s=\"", name);
	xml_put(f, value);
	fputc('"', f);
}

/* "{GUID}" in uppercase, as Windows' manifests write it. */
static void guid_upper(char out[40], const GUID *g)
{
	char s[NTTRACE_GUID_STRING];
	size_t i;

	nttrace_guid_string((const uint8_t *)g, s);
	for (i = 0; s[i]; i++)
		if (s[i] >= 'a' && s[i] <= 'f')
			s[i] = (char)(s[i] - 'a' + 'A');
	snprintf(out, 40, "{%s}", s);
}

/*
 * A C identifier made of @prefix, "_" and @name: letters, digits and "_"
 * kept, anything else "_", at most SYMBOL_MAX of the name's bytes; @upper
 * in capitals. Never empty, never starting with a digit or "_" and a
 * capital (names C reserves).
 */
static char *symbol_of(const char *prefix, const char *name, int upper)
{
	size_t lp = prefix ? strlen(prefix) : 0, i, n = 0;
	char *s = malloc(lp + SYMBOL_MAX + 4);

	if (!s)
		return NULL;
	if (prefix) {
		memcpy(s, prefix, lp);
		n = lp;
		s[n++] = '_';
	}
	for (i = 0; name && name[i] && i < SYMBOL_MAX; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9')))
			c = '_';
		if (upper && c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		s[n++] = c;
	}
	if (!n || (!prefix && (s[0] == '_' || (s[0] >= '0' && s[0] <= '9')))) {
		memmove(s + 1, s, n);
		s[0] = 'P';
		n++;
	}
	s[n] = 0;
	return s;
}

/* ---- the records ---- */

static struct xprov *provider_of(const GUID *g, const TRACE_EVENT_INFO *t)
{
	uint64_t h = hash_bytes(g, sizeof(*g));
	struct xprov *p;
	size_t at;

	if (X.provcap) {
		for (at = h & (X.provcap - 1); X.provslot[at]; at = (at + 1) & (X.provcap - 1))
			if (!memcmp(&X.prov[X.provslot[at] - 1].guid, g, sizeof(*g)))
				return &X.prov[X.provslot[at] - 1];
	}
	if (X.nprov == X.capprov) {
		uint32_t ncap = X.capprov ? 2 * X.capprov : 16;

		p = realloc(X.prov, ncap * sizeof(*p));
		if (!p)
			return NULL;
		X.prov = p;
		X.capprov = ncap;
	}
	p = &X.prov[X.nprov];
	memset(p, 0, sizeof(*p));
	p->guid = *g;
	if (t)
		p->name = tei_string(t, t->ProviderNameOffset);
	X.nprov++;
	if (2 * (size_t)X.nprov > X.provcap) {
		if (rehash(&X.provslot, &X.provcap, X.nprov, prov_hash)) {
			X.nprov--;
			free(p->name);
			return NULL;
		}
	} else {
		for (at = h & (X.provcap - 1); X.provslot[at]; at = (at + 1) & (X.provcap - 1))
			;
		X.provslot[at] = X.nprov;
	}
	return p;
}

static int scratch_room(size_t n)
{
	unsigned char *s;
	size_t cap = X.scratchcap ? X.scratchcap : 256;

	if (n <= X.scratchcap)
		return 0;
	while (cap < n)
		cap *= 2;
	s = realloc(X.scratch, cap);
	if (!s)
		return -1;
	X.scratch = s;
	X.scratchcap = cap;
	return 0;
}

/* The length in bytes of the UTF-16 string at @offset of @t, its NUL included. */
static size_t wlen(const TRACE_EVENT_INFO *t, ULONG offset)
{
	const WCHAR *w = (const WCHAR *)((const char *)t + offset);
	size_t n = 0;

	if (!offset)
		return 0;
	while (w[n])
		n++;
	return 2 * (n + 1);
}

/*
 * What tells @t's event apart from the provider's others, into
 * X.scratch: a manifest's, its value and version (the manifest's key);
 * TraceLogging's, its level, opcode, keyword, name and fields.
 */
static int event_key(const TRACE_EVENT_INFO *t, size_t *len)
{
	const EVENT_DESCRIPTOR *d = &t->EventDescriptor;
	size_t n = 0, need;
	ULONG i;

	need = sizeof(GUID) + 16 + wlen(t, t->EventNameOffset);
	if (t->DecodingSource == DecodingSourceTlg)
		for (i = 0; i < t->PropertyCount; i++)
			need += sizeof(EVENT_PROPERTY_INFO) +
				wlen(t, t->EventPropertyInfoArray[i].NameOffset);
	if (scratch_room(need))
		return -1;
	memcpy(X.scratch, &t->ProviderGuid, sizeof(GUID));
	n = sizeof(GUID);
	if (t->DecodingSource != DecodingSourceTlg) {
		X.scratch[n++] = 'M';
		memcpy(X.scratch + n, &d->Id, sizeof(d->Id));
		n += sizeof(d->Id);
		X.scratch[n++] = d->Version;
		*len = n;
		return 0;
	}
	X.scratch[n++] = 'T';
	X.scratch[n++] = d->Level;
	X.scratch[n++] = d->Opcode;
	memcpy(X.scratch + n, &d->Keyword, sizeof(d->Keyword));
	n += sizeof(d->Keyword);
	memcpy(X.scratch + n, (const char *)t + t->EventNameOffset, wlen(t, t->EventNameOffset));
	n += wlen(t, t->EventNameOffset);
	for (i = 0; i < t->PropertyCount; i++) {
		EVENT_PROPERTY_INFO pi = t->EventPropertyInfoArray[i];
		size_t l = wlen(t, pi.NameOffset);

		memcpy(X.scratch + n, (const char *)t + pi.NameOffset, l);
		n += l;
		pi.NameOffset = 0;
		memcpy(X.scratch + n, &pi, sizeof(pi));
		n += sizeof(pi);
	}
	*len = n;
	return 0;
}

static ULONG tei_size(const TRACE_EVENT_INFO *t)
{
	/* TDH's buffer: the structure, the properties, then the strings. */
	ULONG end = (ULONG)(offsetof(TRACE_EVENT_INFO, EventPropertyInfoArray) +
			    (size_t)t->PropertyCount * sizeof(EVENT_PROPERTY_INFO));
	const ULONG *offs[] = {
		&t->ProviderNameOffset, &t->LevelNameOffset, &t->ChannelNameOffset,
		&t->TaskNameOffset, &t->OpcodeNameOffset, &t->EventMessageOffset,
		&t->ProviderMessageOffset, &t->EventNameOffset,
	};
	ULONG i, e;

	for (i = 0; i < ARRAY_SIZE(offs); i++) {
		e = *offs[i] ? *offs[i] + (ULONG)wlen(t, *offs[i]) : 0;
		if (e > end)
			end = e;
	}
	if (t->KeywordsNameOffset) {
		const WCHAR *k = (const WCHAR *)((const char *)t + t->KeywordsNameOffset);

		while (*k) {
			while (*k)
				k++;
			k++;
		}
		e = (ULONG)((const char *)(k + 1) - (const char *)t);
		if (e > end)
			end = e;
	}
	for (i = 0; i < t->PropertyCount; i++) {
		const EVENT_PROPERTY_INFO *pi = &t->EventPropertyInfoArray[i];

		e = pi->NameOffset ? pi->NameOffset + (ULONG)wlen(t, pi->NameOffset) : 0;
		if (e > end)
			end = e;
		if (pi->Flags & PropertyStruct)
			continue;
		e = pi->nonStructType.MapNameOffset ? pi->nonStructType.MapNameOffset +
		    (ULONG)wlen(t, pi->nonStructType.MapNameOffset) : 0;
		if (e > end)
			end = e;
	}
	return end;
}

/* The maps @t's fields name, as TdhGetEventMapInformation gives them. */
static EVENT_MAP_INFO **maps_of(const EVENT_RECORD *er, const TRACE_EVENT_INFO *t,
				size_t *bytes)
{
	EVENT_MAP_INFO **m = NULL;
	ULONG i, size;

	for (i = 0; i < t->PropertyCount; i++) {
		const EVENT_PROPERTY_INFO *pi = &t->EventPropertyInfoArray[i];
		PWSTR name;

		if ((pi->Flags & PropertyStruct) || !pi->nonStructType.MapNameOffset)
			continue;
		name = (PWSTR)((const char *)t + pi->nonStructType.MapNameOffset);
		size = 0;
		if (TdhGetEventMapInformation((PEVENT_RECORD)er, name, NULL, &size) !=
		    ERROR_INSUFFICIENT_BUFFER)
			continue;
		if (!m)
			m = calloc(t->PropertyCount, sizeof(*m));
		if (!m)
			return NULL;
		m[i] = malloc(size);
		if (m[i] && TdhGetEventMapInformation((PEVENT_RECORD)er, name, m[i], &size)) {
			free(m[i]);
			m[i] = NULL;
		}
		if (m[i])
			*bytes += size;
	}
	return m;
}

static int add_event(struct xprov *p, const EVENT_RECORD *er, const TRACE_EVENT_INFO *t,
		     size_t keylen, uint64_t h)
{
	struct xevent *e;
	size_t at, bytes = keylen;
	ULONG size = tei_size(t);

	bytes += size;
	if (p->nev >= EXPORT_MAX_EVENTS || X.bytes + bytes > EXPORT_MAX_BYTES) {
		p->skipped[WHY_LIMIT]++;
		return 0;
	}
	if (X.nev == X.capev) {
		uint32_t ncap = X.capev ? 2 * X.capev : 64;

		e = realloc(X.ev, ncap * sizeof(*e));
		if (!e)
			return -1;
		X.ev = e;
		X.capev = ncap;
	}
	if (p->nev == p->capev) {
		uint32_t ncap = p->capev ? 2 * p->capev : 16, *v;

		v = realloc(p->ev, ncap * sizeof(*v));
		if (!v)
			return -1;
		p->ev = v;
		p->capev = ncap;
	}
	e = &X.ev[X.nev];
	memset(e, 0, sizeof(*e));
	e->prov = (uint32_t)(p - X.prov);
	e->tlg = t->DecodingSource == DecodingSourceTlg;
	e->hash = h;
	e->keylen = keylen;
	e->key = malloc(keylen);
	e->t = malloc(size);
	if (!e->key || !e->t) {
		free(e->key);
		free(e->t);
		return -1;
	}
	memcpy(e->key, X.scratch, keylen);
	memcpy(e->t, t, size);
	e->maps = maps_of(er, t, &bytes);
	X.bytes += bytes;
	p->ev[p->nev++] = X.nev;
	X.nev++;
	if (2 * (size_t)X.nev > X.evcap)
		return rehash(&X.evslot, &X.evcap, X.nev, ev_hash);
	for (at = h & (X.evcap - 1); X.evslot[at]; at = (at + 1) & (X.evcap - 1))
		;
	X.evslot[at] = X.nev;
	return 0;
}

int tracerpt_export_record(const EVENT_RECORD *er, const TRACE_EVENT_INFO *t)
{
	const EVENT_HEADER *h = &er->EventHeader;
	struct xprov *p;
	size_t keylen, at;
	uint64_t hv;

	seed();
	p = provider_of(&h->ProviderId, t);
	if (!p)
		return -1;
	if (!p->name && t)
		p->name = tei_string(t, t->ProviderNameOffset);
	if (!t || (t->DecodingSource != DecodingSourceXMLFile &&
		   t->DecodingSource != DecodingSourceTlg)) {
		if ((t && t->DecodingSource == DecodingSourceWPP) ||
		    (h->Flags & EVENT_HEADER_FLAG_TRACE_MESSAGE))
			p->skipped[WHY_WPP]++;
		else if ((t && t->DecodingSource == DecodingSourceWbem) ||
			 (h->Flags & EVENT_HEADER_FLAG_CLASSIC_HEADER))
			p->skipped[WHY_MOF]++;
		else
			p->skipped[WHY_UNKNOWN]++;
		return 0;
	}
	if (event_key(t, &keylen))
		return -1;
	hv = hash_bytes(X.scratch, keylen);
	if (X.evcap) {
		for (at = hv & (X.evcap - 1); X.evslot[at]; at = (at + 1) & (X.evcap - 1)) {
			const struct xevent *e = &X.ev[X.evslot[at] - 1];

			if (e->hash == hv && e->keylen == keylen && !memcmp(e->key, X.scratch, keylen))
				return 0;
		}
	}
	return add_event(p, er, t, keylen, hv);
}

/* ---- the manifest ---- */

struct string {
	char *id, *value;
};

/* What the writing of a provider needs. */
struct out {
	FILE *f;
	struct string *str;
	uint32_t nstr, capstr;
	int oom;
	/* TdhEnumerateProviderFieldInformation's, by EVENT_FIELD_TYPE */
	PROVIDER_FIELD_INFOARRAY *fields[EventInformationMax];
	/* Levels and opcodes used that nothing defines, keyword bits likewise */
	uint8_t new_level[32], new_opcode[32];
	uint64_t new_keywords;
	uint8_t *new_task;		/* 65536 bits */
	uint32_t prov;			/* the provider's number, 1 up */
};

/* A string for the string table; its "$(string.ID)" reference, or NULL. */
static char *string_ref(struct out *o, const char *kind, uint64_t n, const char *value)
{
	struct string *s;
	char id[96], *ref;

	if (!value || !*value)
		return NULL;
	if (o->nstr == o->capstr) {
		uint32_t ncap = o->capstr ? 2 * o->capstr : 64;

		s = realloc(o->str, ncap * sizeof(*s));
		if (!s) {
			o->oom = 1;
			return NULL;
		}
		o->str = s;
		o->capstr = ncap;
	}
	snprintf(id, sizeof(id), "P%u.%s.%" PRIu64, o->prov, kind, n);
	s = &o->str[o->nstr];
	s->id = strdup(id);
	s->value = strdup(value);
	ref = malloc(strlen(id) + 12);
	if (!s->id || !s->value || !ref) {
		free(s->id);
		free(s->value);
		free(ref);
		o->oom = 1;
		return NULL;
	}
	o->nstr++;
	sprintf(ref, "$(string.%s)", id);
	return ref;
}

static void attr_message(FILE *f, struct out *o, const char *kind, uint64_t n, const char *text)
{
	char *ref = string_ref(o, kind, n, text);

	attr(f, "message", ref);
	free(ref);
}

static PROVIDER_FIELD_INFOARRAY *field_info(const GUID *g, EVENT_FIELD_TYPE type)
{
	PROVIDER_FIELD_INFOARRAY *a;
	ULONG size = 0;

	if (TdhEnumerateProviderFieldInformation((LPGUID)g, type, NULL, &size) !=
	    ERROR_INSUFFICIENT_BUFFER)
		return NULL;
	a = malloc(size);
	if (a && TdhEnumerateProviderFieldInformation((LPGUID)g, type, a, &size)) {
		free(a);
		a = NULL;
	}
	return a;
}

static char *field_name(const PROVIDER_FIELD_INFOARRAY *a, ULONG i)
{
	return tei_string(a, a->FieldInfoArray[i].NameOffset);
}

/* The name of the item of @type whose value is @v, or NULL. */
static char *named(struct out *o, EVENT_FIELD_TYPE type, uint64_t v)
{
	const PROVIDER_FIELD_INFOARRAY *a = o->fields[type];
	ULONG i;

	for (i = 0; a && i < a->NumberOfElements; i++)
		if (a->FieldInfoArray[i].Value == v)
			return field_name(a, i);
	return NULL;
}

static const char *const win_levels[] = {
	"win:LogAlways", "win:Critical", "win:Error", "win:Warning", "win:Informational",
	"win:Verbose",
};

static const char *const win_opcodes[] = {
	"win:Info", "win:Start", "win:Stop", "win:DC_Start", "win:DC_Stop", "win:Extension",
	"win:Reply", "win:Resume", "win:Suspend", "win:Send",
};

static const struct {
	uint64_t mask;
	const char *name;
} win_keywords[] = {
	{ WINEVENT_KEYWORD_RESPONSE_TIME, "win:ResponseTime" },
	{ WINEVENT_KEYWORD_WDI_DIAG, "win:WDIDiag" },
	{ WINEVENT_KEYWORD_SQM, "win:SQM" },
	{ WINEVENT_KEYWORD_AUDIT_FAILURE, "win:AuditFailure" },
	{ WINEVENT_KEYWORD_AUDIT_SUCCESS, "win:AuditSuccess" },
	{ WINEVENT_KEYWORD_CORRELATION_HINT, "win:CorrelationHint" },
	{ WINEVENT_KEYWORD_EVENTLOG_CLASSIC, "win:EventlogClassic" },
};

/* The bits 56-63 of a keyword: those of the event's channel. */
#define CHANNEL_KEYWORD_BITS	0xFF00000000000000ULL

static char *level_name(struct out *o, UCHAR v)
{
	char *s = named(o, EventLevelInformation, v), buf[16];

	if (s)
		return s;
	if (v < ARRAY_SIZE(win_levels))
		return strdup(win_levels[v]);
	o->new_level[v / 8] |= (uint8_t)(1u << (v % 8));
	snprintf(buf, sizeof(buf), "Level_%u", v);
	return strdup(buf);
}

static char *task_name(struct out *o, USHORT v)
{
	char *s, buf[16];

	if (!v)
		return NULL;
	s = named(o, EventTaskInformation, v);
	if (s)
		return s;
	o->new_task[v / 8] |= (uint8_t)(1u << (v % 8));
	snprintf(buf, sizeof(buf), "Task_%u", v);
	return strdup(buf);
}

static char *opcode_name(struct out *o, UCHAR v, USHORT task)
{
	char *s, buf[16];

	if (!v)
		return NULL;
	s = named(o, EventOpcodeInformation, (uint64_t)v << 16 | task);
	if (!s)
		s = named(o, EventOpcodeInformation, v);
	if (s)
		return s;
	if (v < ARRAY_SIZE(win_opcodes))
		return strdup(win_opcodes[v]);
	if (v == WINEVENT_OPCODE_RECEIVE)
		return strdup("win:Receive");
	o->new_opcode[v / 8] |= (uint8_t)(1u << (v % 8));
	snprintf(buf, sizeof(buf), "Opcode_%u", v);
	return strdup(buf);
}

/* Append @w to the space-separated list *@s (*@len of *@cap bytes): 0, or -1. */
static int add_word(char **s, size_t *len, size_t *cap, const char *w)
{
	size_t l = strlen(w);
	char *g;

	while (*len + l + 2 > *cap) {
		g = realloc(*s, *cap * 2);
		if (!g)
			return -1;
		*s = g;
		*cap *= 2;
	}
	if (*len)
		(*s)[(*len)++] = ' ';
	memcpy(*s + *len, w, l + 1);
	*len += l;
	return 0;
}

/* The names of @kw's keywords, space-separated; NULL for none. */
static char *keyword_names(struct out *o, uint64_t kw)
{
	const PROVIDER_FIELD_INFOARRAY *a = o->fields[EventKeywordInformation];
	uint64_t left = kw & ~CHANNEL_KEYWORD_BITS;
	size_t len = 0, cap = 64, k;
	char *s = malloc(cap), *name, buf[40];
	int b, bad = 0;
	ULONG i;

	if (!s)
		return NULL;
	s[0] = 0;
	for (i = 0; a && i < a->NumberOfElements && left; i++) {
		uint64_t m = a->FieldInfoArray[i].Value;

		if (!m || (kw & m) != m || !(left & m))
			continue;
		name = field_name(a, i);
		if (!name)
			continue;
		bad |= add_word(&s, &len, &cap, name);
		free(name);
		left &= ~m;
	}
	for (b = 0; b < 64 && left; b++) {
		uint64_t m = 1ULL << b;

		if (!(left & m))
			continue;
		left &= ~m;
		for (k = 0; k < ARRAY_SIZE(win_keywords); k++)
			if (win_keywords[k].mask == m)
				break;
		if (k < ARRAY_SIZE(win_keywords)) {
			bad |= add_word(&s, &len, &cap, win_keywords[k].name);
			continue;
		}
		o->new_keywords |= m;
		snprintf(buf, sizeof(buf), "Keyword_0x%" PRIx64, m);
		bad |= add_word(&s, &len, &cap, buf);
	}
	if (!len || bad) {
		o->oom |= bad;
		free(s);
		return NULL;
	}
	return s;
}

/* ---- templates ---- */

static const char *const in_types[] = {
	[TDH_INTYPE_UNICODESTRING] = "win:UnicodeString",
	[TDH_INTYPE_ANSISTRING] = "win:AnsiString",
	[TDH_INTYPE_INT8] = "win:Int8",
	[TDH_INTYPE_UINT8] = "win:UInt8",
	[TDH_INTYPE_INT16] = "win:Int16",
	[TDH_INTYPE_UINT16] = "win:UInt16",
	[TDH_INTYPE_INT32] = "win:Int32",
	[TDH_INTYPE_UINT32] = "win:UInt32",
	[TDH_INTYPE_INT64] = "win:Int64",
	[TDH_INTYPE_UINT64] = "win:UInt64",
	[TDH_INTYPE_FLOAT] = "win:Float",
	[TDH_INTYPE_DOUBLE] = "win:Double",
	[TDH_INTYPE_BOOLEAN] = "win:Boolean",
	[TDH_INTYPE_BINARY] = "win:Binary",
	[TDH_INTYPE_GUID] = "win:GUID",
	[TDH_INTYPE_POINTER] = "win:Pointer",
	[TDH_INTYPE_FILETIME] = "win:FILETIME",
	[TDH_INTYPE_SYSTEMTIME] = "win:SYSTEMTIME",
	[TDH_INTYPE_SID] = "win:SID",
	[TDH_INTYPE_HEXINT32] = "win:HexInt32",
	[TDH_INTYPE_HEXINT64] = "win:HexInt64",
	[TDH_INTYPE_MANIFEST_COUNTEDSTRING] = "win:CountedUnicodeString",
	[TDH_INTYPE_MANIFEST_COUNTEDANSISTRING] = "win:CountedAnsiString",
	[TDH_INTYPE_MANIFEST_COUNTEDBINARY] = "win:CountedBinary",
};

static const char *const out_types[] = {
	[TDH_OUTTYPE_STRING] = "xs:string",
	[TDH_OUTTYPE_DATETIME] = "xs:dateTime",
	[TDH_OUTTYPE_BYTE] = "xs:byte",
	[TDH_OUTTYPE_UNSIGNEDBYTE] = "xs:unsignedByte",
	[TDH_OUTTYPE_SHORT] = "xs:short",
	[TDH_OUTTYPE_UNSIGNEDSHORT] = "xs:unsignedShort",
	[TDH_OUTTYPE_INT] = "xs:int",
	[TDH_OUTTYPE_UNSIGNEDINT] = "xs:unsignedInt",
	[TDH_OUTTYPE_LONG] = "xs:long",
	[TDH_OUTTYPE_UNSIGNEDLONG] = "xs:unsignedLong",
	[TDH_OUTTYPE_FLOAT] = "xs:float",
	[TDH_OUTTYPE_DOUBLE] = "xs:double",
	[TDH_OUTTYPE_BOOLEAN] = "xs:boolean",
	[TDH_OUTTYPE_GUID] = "xs:GUID",
	[TDH_OUTTYPE_HEXBINARY] = "xs:hexBinary",
	[TDH_OUTTYPE_HEXINT8] = "win:HexInt8",
	[TDH_OUTTYPE_HEXINT16] = "win:HexInt16",
	[TDH_OUTTYPE_HEXINT32] = "win:HexInt32",
	[TDH_OUTTYPE_HEXINT64] = "win:HexInt64",
	[TDH_OUTTYPE_PID] = "win:PID",
	[TDH_OUTTYPE_TID] = "win:TID",
	[TDH_OUTTYPE_PORT] = "win:Port",
	[TDH_OUTTYPE_IPV4] = "win:IPv4",
	[TDH_OUTTYPE_IPV6] = "win:IPv6",
	[TDH_OUTTYPE_SOCKETADDRESS] = "win:SocketAddress",
	[TDH_OUTTYPE_CIMDATETIME] = "win:CIMDateTime",
	[TDH_OUTTYPE_ETWTIME] = "win:ETWTIME",
	[TDH_OUTTYPE_XML] = "win:Xml",
	[TDH_OUTTYPE_ERRORCODE] = "win:ErrorCode",
	[TDH_OUTTYPE_WIN32ERROR] = "win:Win32Error",
	[TDH_OUTTYPE_NTSTATUS] = "win:NTSTATUS",
	[TDH_OUTTYPE_HRESULT] = "win:HResult",
	[TDH_OUTTYPE_CULTURE_INSENSITIVE_DATETIME] = "win:DateTimeCultureInsensitive",
	[TDH_OUTTYPE_JSON] = "win:Json",
	[TDH_OUTTYPE_UTF8] = "win:Utf8",
	[TDH_OUTTYPE_PKCS7_WITH_TYPE_INFO] = "win:Pkcs7WithTypeInfo",
	[TDH_OUTTYPE_CODE_POINTER] = "win:CodePointer",
	[TDH_OUTTYPE_DATETIME_UTC] = "win:DateTimeUtc",
};

#define MAX_DEPTH	32	/* structures in structures */

struct tmpl {
	FILE *f;
	const struct xevent *e;
	ULONG budget;		/* fields left to write: each once */
};

static void indent(FILE *f, int depth)
{
	fprintf(f, "%*s", 10 + 2 * depth, "");
}

/* count= and length= of @pi: numbers, or the names of the fields that hold them. */
static void sizes(struct tmpl *w, const EVENT_PROPERTY_INFO *pi, USHORT in, int binary)
{
	const TRACE_EVENT_INFO *t = w->e->t;
	char num[16], *name;

	if (pi->Flags & PropertyParamCount) {
		if (pi->countPropertyIndex < t->PropertyCount) {
			name = tei_string(t, t->EventPropertyInfoArray[pi->countPropertyIndex]
					  .NameOffset);
			attr(w->f, "count", name);
			free(name);
		}
	} else if ((pi->Flags & PropertyParamFixedCount) || pi->count > 1) {
		snprintf(num, sizeof(num), "%u", pi->count);
		attr(w->f, "count", num);
	}
	if (pi->Flags & PropertyStruct)
		return;
	if (pi->Flags & PropertyParamLength) {
		if (pi->lengthPropertyIndex < t->PropertyCount) {
			name = tei_string(t, t->EventPropertyInfoArray[pi->lengthPropertyIndex]
					  .NameOffset);
			attr(w->f, "length", name);
			free(name);
		}
	} else if (pi->length && ((pi->Flags & PropertyParamFixedLength) || binary ||
				  in == TDH_INTYPE_UNICODESTRING || in == TDH_INTYPE_ANSISTRING)) {
		snprintf(num, sizeof(num), "%u", pi->length);
		attr(w->f, "length", num);
	}
}

static void fields_of(struct tmpl *w, ULONG first, ULONG n, int depth);

static void field_of(struct tmpl *w, ULONG i, int depth)
{
	const TRACE_EVENT_INFO *t = w->e->t;
	const EVENT_PROPERTY_INFO *pi = &t->EventPropertyInfoArray[i];
	char *name = tei_string(t, pi->NameOffset), *map;
	USHORT in, out;
	int custom;

	if (pi->Flags & PropertyStruct) {
		indent(w->f, depth);
		fputs("<struct", w->f);
		attr(w->f, "name", name ? name : "");
		sizes(w, pi, 0, 0);
		fputs(">\n", w->f);
		/* Members follow the structure: a walk that always ends. */
		if (pi->structType.StructStartIndex > i && depth < MAX_DEPTH)
			fields_of(w, pi->structType.StructStartIndex,
				  pi->structType.NumOfStructMembers, depth + 1);
		indent(w->f, depth);
		fputs("</struct>\n", w->f);
		free(name);
		return;
	}
	in = pi->nonStructType.InType;
	out = pi->nonStructType.OutType;
	custom = !!(pi->Flags & PropertyHasCustomSchema);
	if (custom || in >= ARRAY_SIZE(in_types) || !in_types[in]) {
		indent(w->f, depth);
		fputs("<!-- ", w->f);
		comment_put(w->f, name);
		fprintf(w->f, ": inType %u%s, which a manifest has no type for: written as "
			"win:Binary -->\n", in, custom ? " with a custom schema" : "");
	}
	indent(w->f, depth);
	fputs("<data", w->f);
	attr(w->f, "name", name ? name : "");
	if (custom || in >= ARRAY_SIZE(in_types) || !in_types[in]) {
		attr(w->f, "inType", "win:Binary");
		sizes(w, pi, TDH_INTYPE_BINARY, 1);
	} else {
		attr(w->f, "inType", in_types[in]);
		if (out && out < ARRAY_SIZE(out_types) && out_types[out])
			attr(w->f, "outType", out_types[out]);
		map = pi->nonStructType.MapNameOffset && w->e->maps && w->e->maps[i] ?
		      tei_string(t, pi->nonStructType.MapNameOffset) : NULL;
		attr(w->f, "map", map);
		free(map);
		sizes(w, pi, in, in == TDH_INTYPE_BINARY);
	}
	fputs("/>\n", w->f);
	free(name);
}

static void fields_of(struct tmpl *w, ULONG first, ULONG n, int depth)
{
	const TRACE_EVENT_INFO *t = w->e->t;
	ULONG i;

	for (i = first; i < first + n && i < t->PropertyCount; i++) {
		if (!w->budget) {
			indent(w->f, depth);
			fputs("<!-- the fields stop here: more than the event has -->\n", w->f);
			return;
		}
		w->budget--;
		field_of(w, i, depth);
	}
}

/* ---- a provider ---- */

static int by_value(const void *a, const void *b)
{
	const struct xevent *x = &X.ev[*(const uint32_t *)a], *y = &X.ev[*(const uint32_t *)b];

	if (x->tlg != y->tlg)
		return x->tlg ? 1 : -1;
	if (x->tlg)	/* in the order met */
		return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
	if (x->t->EventDescriptor.Id != y->t->EventDescriptor.Id)
		return x->t->EventDescriptor.Id < y->t->EventDescriptor.Id ? -1 : 1;
	return (int)x->t->EventDescriptor.Version - (int)y->t->EventDescriptor.Version;
}

/* Number the events: a manifest's keep theirs, TraceLogging's take 1 up, unused. */
static int number_events(struct xprov *p)
{
	uint8_t *used = calloc(65536 / 8, 1);
	uint32_t k, next = 1;

	if (!used)
		return -1;
	for (k = 0; k < p->nev; k++) {
		struct xevent *e = &X.ev[p->ev[k]];

		if (!e->tlg) {
			e->value = e->t->EventDescriptor.Id;
			e->version = e->t->EventDescriptor.Version;
			if (!e->version)
				used[e->value / 8] |= (uint8_t)(1u << (e->value % 8));
		}
	}
	for (k = 0; k < p->nev; k++) {
		struct xevent *e = &X.ev[p->ev[k]];

		if (!e->tlg)
			continue;
		while (next < 65536 && (used[next / 8] & (1u << (next % 8))))
			next++;
		e->value = (USHORT)(next < 65536 ? next++ : 0);
		e->version = 0;
	}
	free(used);
	return 0;
}

struct map_ref {
	char *name;
	const EVENT_MAP_INFO *m;
};

static int by_map_name(const void *a, const void *b)
{
	return strcmp(((const struct map_ref *)a)->name, ((const struct map_ref *)b)->name);
}

static void write_maps(struct out *o, const struct xprov *p)
{
	struct map_ref *v;
	size_t n = 0, cap = 0, i, j;
	uint32_t k;
	ULONG q;

	for (k = 0; k < p->nev; k++) {
		const struct xevent *e = &X.ev[p->ev[k]];

		for (q = 0; e->maps && q < e->t->PropertyCount; q++)
			cap += !!e->maps[q];
	}
	if (!cap)
		return;
	v = calloc(cap, sizeof(*v));
	if (!v) {
		o->oom = 1;
		return;
	}
	for (k = 0; k < p->nev; k++) {
		const struct xevent *e = &X.ev[p->ev[k]];

		for (q = 0; e->maps && q < e->t->PropertyCount; q++) {
			if (!e->maps[q])
				continue;
			v[n].name = tei_string(e->t, e->t->EventPropertyInfoArray[q]
					       .nonStructType.MapNameOffset);
			v[n].m = e->maps[q];
			if (v[n].name)
				n++;
		}
	}
	qsort(v, n, sizeof(*v), by_map_name);
	fputs("        <maps>\n", o->f);
	for (i = 0; i < n; i++) {
		const EVENT_MAP_INFO *m = v[i].m;
		int bits = !!(m->Flag & EVENTMAP_INFO_FLAG_MANIFEST_BITMAP);

		if (i && !strcmp(v[i].name, v[i - 1].name))
			continue;
		if (!(m->Flag & (EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP |
				 EVENTMAP_INFO_FLAG_MANIFEST_BITMAP)) ||
		    m->MapEntryValueType != EVENTMAP_ENTRY_VALUETYPE_ULONG) {
			fputs("          <!-- the map ", o->f);
			comment_put(o->f, v[i].name);
			fputs(": neither a value map nor a bit map, not exported -->\n", o->f);
			continue;
		}
		fprintf(o->f, "          <%s", bits ? "bitMap" : "valueMap");
		attr(o->f, "name", v[i].name);
		fputs(">\n", o->f);
		for (j = 0; j < m->EntryCount; j++) {
			char num[16], *text = tei_string(m, m->MapEntryArray[j].OutputOffset);

			fputs("            <map", o->f);
			snprintf(num, sizeof(num), bits ? "0x%x" : "%u",
				 (unsigned int)m->MapEntryArray[j].Value);
			attr(o->f, "value", num);
			attr_message(o->f, o, "Map", (uint64_t)i << 32 | j, text ? text : "");
			fputs("/>\n", o->f);
			free(text);
		}
		fprintf(o->f, "          </%s>\n", bits ? "bitMap" : "valueMap");
	}
	fputs("        </maps>\n", o->f);
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

/* The provider's own items of @type (winmeta.xml's, "win:", are not written). */
static void write_own(struct out *o, EVENT_FIELD_TYPE type)
{
	static const char *const kind[] = {
		[EventKeywordInformation] = "Keyword", [EventLevelInformation] = "Level",
		[EventTaskInformation] = "Task", [EventOpcodeInformation] = "Opcode",
	};
	const PROVIDER_FIELD_INFOARRAY *a = o->fields[type];
	ULONG i, j;
	char num[24];

	for (i = 0; a && i < a->NumberOfElements; i++) {
		const PROVIDER_FIELD_INFO *fi = &a->FieldInfoArray[i];
		char *name = field_name(a, i), *msg = tei_string(a, fi->DescriptionOffset);
		int nested = 0;

		if (!name || !strncmp(name, "win:", 4) ||
		    (type == EventOpcodeInformation && fi->Value > 0xFF)) {
			free(name);
			free(msg);
			continue;
		}
		fprintf(o->f, "          <%c%s", kind[type][0] + 'a' - 'A', kind[type] + 1);
		attr(o->f, "name", name);
		if (type == EventKeywordInformation)
			snprintf(num, sizeof(num), "0x%" PRIx64, (uint64_t)fi->Value);
		else
			snprintf(num, sizeof(num), "%" PRIu64, (uint64_t)fi->Value);
		attr(o->f, type == EventKeywordInformation ? "mask" : "value", num);
		attr_message(o->f, o, kind[type], fi->Value, msg);
		/* A task's own opcodes: TDH gives them the value opcode << 16 | task. */
		for (j = 0; type == EventTaskInformation && o->fields[EventOpcodeInformation] &&
		     j < o->fields[EventOpcodeInformation]->NumberOfElements; j++) {
			const PROVIDER_FIELD_INFOARRAY *op = o->fields[EventOpcodeInformation];
			const PROVIDER_FIELD_INFO *oi = &op->FieldInfoArray[j];
			char *on, *om;

			if (oi->Value <= 0xFF || (oi->Value & 0xFFFF) != fi->Value)
				continue;
			on = field_name(op, j);
			om = tei_string(op, oi->DescriptionOffset);
			if (!nested++)
				fputs(">\n            <opcodes>\n", o->f);
			fputs("              <opcode", o->f);
			attr(o->f, "name", on ? on : "");
			snprintf(num, sizeof(num), "%u", (unsigned int)(oi->Value >> 16 & 0xFF));
			attr(o->f, "value", num);
			attr_message(o->f, o, "TaskOpcode", oi->Value, om);
			fputs("/>\n", o->f);
			free(on);
			free(om);
		}
		if (nested)
			fputs("            </opcodes>\n          </task>\n", o->f);
		else
			fputs("/>\n", o->f);
		free(name);
		free(msg);
	}
}

/* Levels, tasks, opcodes, keywords: the provider's own, then those made up. */
static void write_items(struct out *o)
{
	static const struct {
		EVENT_FIELD_TYPE type;
		const char *list;
	} lists[] = {
		{ EventLevelInformation, "levels" }, { EventTaskInformation, "tasks" },
		{ EventOpcodeInformation, "opcodes" }, { EventKeywordInformation, "keywords" },
	};
	FILE *f = o->f;
	unsigned int k, v;
	size_t len;
	char *text;

	/* Each list into memory first: an empty one is not written. */
	for (k = 0; k < ARRAY_SIZE(lists); k++) {
		text = NULL;
		o->f = open_memstream(&text, &len);
		if (!o->f) {
			o->f = f;
			o->oom = 1;
			return;
		}
		write_own(o, lists[k].type);
		switch (lists[k].type) {
		case EventLevelInformation:
			for (v = 0; v < 256; v++)
				if (o->new_level[v / 8] & (1u << (v % 8)))
					fprintf(o->f, "          <level name=\"Level_%u\" value=\"%u\"/>\n",
						v, v);
			break;
		case EventTaskInformation:
			for (v = 1; v < 65536; v++)
				if (o->new_task[v / 8] & (1u << (v % 8)))
					fprintf(o->f, "          <task name=\"Task_%u\" value=\"%u\"/>\n",
						v, v);
			break;
		case EventOpcodeInformation:
			for (v = 0; v < 256; v++)
				if (o->new_opcode[v / 8] & (1u << (v % 8)))
					fprintf(o->f, "          <opcode name=\"Opcode_%u\" "
						"value=\"%u\"/>\n", v, v);
			break;
		default:
			for (v = 0; v < 64; v++)
				if (o->new_keywords & (1ULL << v))
					fprintf(o->f, "          <keyword name=\"Keyword_0x%" PRIx64
						"\" mask=\"0x%" PRIx64 "\"/>\n", (uint64_t)1 << v, (uint64_t)1 << v);
			break;
		}
		if (fclose(o->f))
			o->oom = 1;
		o->f = f;
		if (text && len)
			fprintf(f, "        <%s>\n%s        </%s>\n", lists[k].list, text,
				lists[k].list);
		free(text);
	}
}

struct resolved {
	char *level, *task, *opcode, *keywords, *symbol;
};

static int write_provider(struct out *o, struct xprov *p, const char *base, char *psym,
			  char **esym)
{
	struct resolved *r = calloc(p->nev ? p->nev : 1, sizeof(*r));
	char g[40], tid[32], num[16];
	uint32_t k;
	int t;

	if (!r)
		return -1;
	for (t = 0; t < EventInformationMax; t++)
		o->fields[t] = t == EventChannelInformation ? NULL : field_info(&p->guid, t);
	memset(o->new_level, 0, sizeof(o->new_level));
	memset(o->new_opcode, 0, sizeof(o->new_opcode));
	memset(o->new_task, 0, 65536 / 8);
	o->new_keywords = 0;
	for (k = 0; k < p->nev; k++) {
		const EVENT_DESCRIPTOR *d = &X.ev[p->ev[k]].t->EventDescriptor;

		r[k].level = level_name(o, d->Level);
		r[k].task = X.ev[p->ev[k]].tlg ? NULL : task_name(o, d->Task);
		r[k].opcode = opcode_name(o, d->Opcode, d->Task);
		r[k].keywords = keyword_names(o, d->Keyword);
		r[k].symbol = esym[k];
	}
	guid_upper(g, &p->guid);
	fputs("      <provider", o->f);
	attr(o->f, "name", p->name ? p->name : g);
	attr(o->f, "guid", g);
	attr(o->f, "symbol", psym);
	attr(o->f, "resourceFileName", base);
	attr(o->f, "messageFileName", base);
	if (p->nev) {
		const TRACE_EVENT_INFO *t0 = X.ev[p->ev[0]].t;
		char *m = tei_string(t0, t0->ProviderMessageOffset);

		attr_message(o->f, o, "Provider", 0, m);
		free(m);
	}
	fputs(">\n", o->f);
	write_items(o);
	write_maps(o, p);
	fputs("        <templates>\n", o->f);
	for (k = 0; k < p->nev; k++) {
		const struct xevent *e = &X.ev[p->ev[k]];
		struct tmpl w = { o->f, e, e->t->PropertyCount };

		if (!e->t->TopLevelPropertyCount || !e->value)
			continue;
		snprintf(tid, sizeof(tid), "T%u_%u", e->value, e->version);
		fprintf(o->f, "          <template tid=\"%s\">\n", tid);
		fields_of(&w, 0, e->t->TopLevelPropertyCount, 1);
		fputs("          </template>\n", o->f);
	}
	fputs("        </templates>\n        <events>\n", o->f);
	for (k = 0; k < p->nev; k++) {
		const struct xevent *e = &X.ev[p->ev[k]];
		const EVENT_DESCRIPTOR *d = &e->t->EventDescriptor;
		char *name = tei_string(e->t, e->t->EventNameOffset);
		char *msg = tei_string(e->t, e->t->EventMessageOffset);

		if (d->Channel && !(e->tlg && d->Channel == WINEVENT_CHANNEL_TRACELOGGING))
			fprintf(o->f, "          <!-- event %u version %u: channel %u not exported "
				"(TDH does not tell its type) -->\n", e->value, e->version,
				d->Channel);
		if (!e->value) {
			fputs("          <!-- a TraceLogging event past the 65535 values an event "
			      "can have: not exported -->\n", o->f);
			free(name);
			free(msg);
			continue;
		}
		fputs("          <event", o->f);
		snprintf(num, sizeof(num), "%u", e->value);
		attr(o->f, "value", num);
		snprintf(num, sizeof(num), "%u", e->version);
		attr(o->f, "version", num);
		attr(o->f, "level", r[k].level);
		attr(o->f, "task", r[k].task);
		attr(o->f, "opcode", r[k].opcode);
		attr(o->f, "keywords", r[k].keywords);
		if (e->t->TopLevelPropertyCount) {
			snprintf(tid, sizeof(tid), "T%u_%u", e->value, e->version);
			attr(o->f, "template", tid);
		}
		attr(o->f, "symbol", r[k].symbol);
		attr_message(o->f, o, "Event", (uint64_t)e->value << 8 | e->version, msg);
		attr(o->f, "name", name);
		fputs("/>\n", o->f);
		free(name);
		free(msg);
	}
	fputs("        </events>\n      </provider>\n", o->f);
	for (k = 0; k < p->nev; k++) {
		free(r[k].level);
		free(r[k].task);
		free(r[k].opcode);
		free(r[k].keywords);
	}
	free(r);
	for (t = 0; t < EventInformationMax; t++) {
		free(o->fields[t]);
		o->fields[t] = NULL;
	}
	return 0;
}

/* Say what of @p was not written: one line. */
static int say_skipped(const struct xprov *p)
{
	uint64_t n = 0;
	char g[40];
	int w, first = 1;

	for (w = 1; w < WHY_N; w++)
		n += p->skipped[w];
	if (!n)
		return 0;
	guid_upper(g, &p->guid);
	fprintf(stderr, "nttrace: tracerpt: -export: %s %s%s%s: ", p->nev ? "partly" : "skipped",
		g, p->name ? " " : "", p->name ? p->name : "");
	for (w = 1; w < WHY_N; w++) {
		if (!p->skipped[w])
			continue;
		fprintf(stderr, "%s%" PRIu64 " %s", first ? "" : "; ", p->skipped[w], why_text[w]);
		first = 0;
	}
	fputc('\n', stderr);
	return !p->nev;
}

int tracerpt_export_write(FILE *f, const char *base)
{
	struct out o = { .f = f };
	char **psym = NULL, **esym = NULL;
	uint32_t k, j, nsym = 0, written = 0, skipped = 0, n;
	int ret = -1;

	o.new_task = calloc(65536 / 8, 1);
	psym = calloc(X.nprov + 1, sizeof(*psym));
	esym = calloc(X.nprov + X.nev + 1, sizeof(*esym));
	if (!o.new_task || !psym || !esym)
		goto out;
	/* Symbols: the provider's name in capitals, then PROVIDER_EventName. */
	for (k = 0; k < X.nprov; k++) {
		struct xprov *p = &X.prov[k];

		if (number_events(p))
			goto out;
		if (p->nev)
			qsort(p->ev, p->nev, sizeof(*p->ev), by_value);
		if (!p->nev)
			continue;
		esym[nsym] = symbol_of(NULL, p->name ? p->name : "PROVIDER", 1);
		if (!esym[nsym++])
			goto out;
	}
	n = nsym;
	if (cli_unique_names(esym, n))
		goto out;
	for (k = 0, j = 0; k < X.nprov; k++)
		if (X.prov[k].nev)
			psym[k] = esym[j++];
	for (k = 0; k < X.nprov; k++) {
		struct xprov *p = &X.prov[k];

		for (j = 0; j < p->nev; j++) {
			const struct xevent *e = &X.ev[p->ev[j]];
			char *name = tei_string(e->t, e->t->EventNameOffset), v[16];

			if (!name)
				snprintf(v, sizeof(v), "EVENT_%u_%u", e->value, e->version);
			esym[nsym] = symbol_of(psym[k], name ? name : v, 0);
			free(name);
			if (!esym[nsym++])
				goto out;
		}
	}
	if (cli_unique_names(esym, nsym))
		goto out;

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	      "<!-- The providers of the log's events, as TDH describes them: written by "
	      "`nttrace tracerpt -export`. -->\n"
	      "<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\"\n"
	      "    xmlns:win=\"http://manifests.microsoft.com/win/2004/08/windows/events\"\n"
	      "    xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n"
	      "  <instrumentation>\n    <events>\n", f);
	for (k = 0, j = n; k < X.nprov; k++) {
		struct xprov *p = &X.prov[k];

		skipped += say_skipped(p);
		if (!p->nev)
			continue;
		o.prov = ++written;
		if (write_provider(&o, p, base, psym[k], esym + j))
			goto out;
		j += p->nev;
	}
	fputs("    </events>\n  </instrumentation>\n  <localization>\n"
	      "    <resources culture=\"en-US\">\n      <stringTable>\n", f);
	for (k = 0; k < o.nstr; k++) {
		fputs("        <string", f);
		attr(f, "id", o.str[k].id);
		attr(f, "value", o.str[k].value);
		fputs("/>\n", f);
	}
	fputs("      </stringTable>\n    </resources>\n  </localization>\n"
	      "</instrumentationManifest>\n", f);
	if (skipped)
		fprintf(stderr, "nttrace: tracerpt: -export: %u provider%s skipped, %u written\n",
			skipped, skipped == 1 ? "" : "s", written);
	ret = o.oom ? -1 : 0;
out:
	for (k = 0; esym && k < nsym; k++)
		free(esym[k]);
	free(esym);
	free(psym);
	for (k = 0; k < o.nstr; k++) {
		free(o.str[k].id);
		free(o.str[k].value);
	}
	free(o.str);
	free(o.new_task);
	return ret;
}

void tracerpt_export_free(void)
{
	uint32_t k, q;

	for (k = 0; k < X.nev; k++) {
		struct xevent *e = &X.ev[k];

		for (q = 0; e->maps && q < e->t->PropertyCount; q++)
			free(e->maps[q]);
		free(e->maps);
		free(e->t);
		free(e->key);
	}
	for (k = 0; k < X.nprov; k++) {
		free(X.prov[k].name);
		free(X.prov[k].ev);
	}
	free(X.ev);
	free(X.prov);
	free(X.provslot);
	free(X.evslot);
	free(X.scratch);
	memset(&X, 0, sizeof(X));
}
