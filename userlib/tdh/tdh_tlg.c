// SPDX-License-Identifier: LGPL-2.1
/*
 * A TraceLogging event's description as TRACE_EVENT_INFO
 * (TdhGetEventInformation with DecodingSourceTlg), from the metadata the
 * event carries in its EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL item and its
 * provider's in the EVENT_HEADER_EXT_TYPE_PROV_TRAITS item.
 *
 * The metadata's format is TraceLogging's (microsoft/tracelogging,
 * TraceLoggingDynamic.h, the comments of EventMetadataBuilder and
 * ProviderMetadataBuilder):
 *   event:    UINT16 size (counting itself), tags, name (UTF-8, NUL), fields
 *   field:    name (UTF-8, NUL), InType byte, [OutType byte], [tags],
 *             [UINT16 constant count], [UINT16 schema size, schema]
 *   tags:     1 to 4 bytes of 7 bits, most significant first; 0x80: more
 *   InType:   bits 0-4 the type; 0x20 a constant count follows, 0x40 the
 *             data holds a UINT16 count before the values, 0x60 custom
 *             serialisation; 0x80 an OutType byte follows
 *   OutType:  bits 0-6 the format; 0x80 field tags follow
 *   provider: UINT16 size, name (UTF-8, NUL), traits
 * A structure is InType 24 whose OutType is the number of the following
 * fields (structures too, maybe) that are its members. InTypes 1 to 25 are
 * TDH_INTYPE values of the same numbers.
 *
 * What TDH does with them, as far as Microsoft says (TraceLoggingDynamic.h
 * on InTypeBinary and InTypeCountedBinary; tdh.h's comments on
 * TRACE_EVENT_INFO): a Binary field is a UINT16 length property
 * "Name.Length" followed by the Binary property (PropertyParamLength);
 * TaskNameOffset and EventNameOffset both give the event's name;
 * ProviderGuid is the provider's. Chosen here, where Microsoft says
 * nothing:
 *  - a variable-count array is likewise a synthesized UINT16 "Name.Count"
 *    property followed by the array (PropertyParamCount), which is where
 *    the count is in the data;
 *  - an array of Binary (which TraceLogging does not support, but encodes
 *    as an array of UINT16 lengths and bytes) is an array of
 *    TDH_INTYPE_MANIFEST_COUNTEDBINARY, which decodes it;
 *  - a custom-serialised field (data: UINT16 size and bytes) is
 *    TDH_INTYPE_MANIFEST_COUNTEDBINARY with PropertyHasCustomSchema, its
 *    schema's protocol being the InType bits;
 *  - OutTypes, which TraceLogging numbers its own way, become the
 *    TDH_OUTTYPE of the same meaning (Hex, Signed and Unsigned by the
 *    InType's size); one TDH has none for becomes TDH_OUTTYPE_NULL;
 *  - Level, channel, keyword and opcode names are not given (offset 0).
 * Top-level properties come first, then each structure's members, level by
 * level, as Windows lays out manifest structures.
 */
#include <stdlib.h>
#include <string.h>

#include "tdh_internal.h"

#define TLG_TYPE	0x1F
#define TLG_ARITY	0x60
#define TLG_CCOUNT	0x20
#define TLG_VCOUNT	0x40
#define TLG_CUSTOM	0x60
#define TLG_CHAIN	0x80
#define TLG_BINARY	14
#define TLG_STRUCT	24
#define TLG_LAST	25	/* CountedBinary, the last type */

/* One field as the metadata has it (structures: their members follow). */
struct field {
	const uint8_t *name;
	size_t name_len;
	uint8_t type;		/* InType bits 0-4 */
	uint8_t arity;		/* 0, TLG_CCOUNT, TLG_VCOUNT or TLG_CUSTOM */
	uint8_t out;		/* OutType bits 0-6; a structure's member count */
	uint8_t tagged;
	uint32_t tags;
	uint16_t ccount;
	uint16_t schema_len;
	const uint8_t *schema;
	uint32_t end;		/* the index after its members */
};

/* A property of the TRACE_EVENT_INFO: a field, or a count or length of one. */
enum kind { REAL, LENGTH, COUNT };
struct prop {
	uint32_t field;
	enum kind kind;
};

struct schema {
	const EVENT_RECORD *er;
	uint32_t psz;
	uint32_t tags;
	const uint8_t *name, *prov;
	size_t name_len, prov_len;
	struct field *f;
	uint32_t nf;
	struct prop *p;
	uint32_t np, top;
};

static ULONG tags_at(const uint8_t **p, const uint8_t *end, uint32_t *tags)
{
	uint32_t t = 0;
	int i;

	for (i = 0; i < 4 && *p < end; i++) {
		uint8_t b = *(*p)++;

		t |= (uint32_t)(b & 0x7F) << (21 - 7 * i);
		if (!(b & 0x80)) {
			*tags = t;
			return ERROR_SUCCESS;
		}
	}
	return ERROR_INVALID_DATA;	/* cut short, or more than 28 bits */
}

static ULONG string_at(const uint8_t **p, const uint8_t *end, const uint8_t **s, size_t *len)
{
	const uint8_t *nul = memchr(*p, 0, end - *p);

	if (!nul)
		return ERROR_INVALID_DATA;
	*s = *p;
	*len = nul - *p;
	*p = nul + 1;
	return ERROR_SUCCESS;
}

static ULONG u16_at(const uint8_t **p, const uint8_t *end, uint16_t *v)
{
	if (end - *p < 2)
		return ERROR_INVALID_DATA;
	*v = (uint16_t)nttrace_tdh_le(*p, 2);
	*p += 2;
	return ERROR_SUCCESS;
}

static ULONG field_at(const uint8_t **p, const uint8_t *end, struct field *f)
{
	ULONG err = string_at(p, end, &f->name, &f->name_len);
	uint16_t v = 0;
	uint8_t in;

	if (err)
		return err;
	if (*p >= end)
		return ERROR_INVALID_DATA;
	in = *(*p)++;
	f->type = in & TLG_TYPE;
	f->arity = in & TLG_ARITY;
	if (in & TLG_CHAIN) {
		if (*p >= end)
			return ERROR_INVALID_DATA;
		f->out = **p & 0x7F;
		if (*(*p)++ & TLG_CHAIN) {
			f->tagged = 1;
			err = tags_at(p, end, &f->tags);
			if (err)
				return err;
		}
	}
	if (f->arity == TLG_CCOUNT || f->arity == TLG_CUSTOM) {
		err = u16_at(p, end, &v);
		if (err)
			return err;
	}
	if (f->arity == TLG_CCOUNT)
		f->ccount = v;
	if (f->arity == TLG_CUSTOM) {
		if (end - *p < v)
			return ERROR_INVALID_DATA;
		f->schema = *p;
		f->schema_len = v;
		*p += v;
		return ERROR_SUCCESS;	/* its type bits are the protocol */
	}
	if (!f->type || f->type > TLG_LAST || (f->type == TLG_STRUCT && !f->out))
		return ERROR_INVALID_DATA;
	return ERROR_SUCCESS;
}

static int is_struct(const struct field *f)
{
	return f->type == TLG_STRUCT && f->arity != TLG_CUSTOM;
}

/* Where field @i's members end; structures deeper than allowed are refused. */
static ULONG members_end(struct schema *s, uint32_t i, int depth)
{
	uint32_t j = i + 1, k;
	ULONG err;

	if (depth > NTTRACE_TDH_MAX_DEPTH)
		return ERROR_INVALID_DATA;
	if (is_struct(&s->f[i])) {
		for (k = 0; k < s->f[i].out; k++) {
			if (j >= s->nf)
				return ERROR_INVALID_DATA;	/* fewer fields than it says */
			err = members_end(s, j, depth + 1);
			if (err)
				return err;
			j = s->f[j].end;
		}
	}
	s->f[i].end = j;
	return ERROR_SUCCESS;
}

static ULONG parse(struct schema *s, const uint8_t *meta, uint16_t size)
{
	const uint8_t *p = meta + 2, *end = meta + size;
	ULONG err = tags_at(&p, end, &s->tags);
	uint32_t i;

	if (!err)
		err = string_at(&p, end, &s->name, &s->name_len);
	if (err)
		return err;
	/* A field takes at least 2 bytes (its name's NUL and its InType). */
	s->f = calloc((end - p) / 2 + 1, sizeof(*s->f));
	if (!s->f)
		return ERROR_NOT_ENOUGH_MEMORY;
	while (p < end) {
		err = field_at(&p, end, &s->f[s->nf]);
		if (err)
			return err;
		s->nf++;
	}
	for (i = 0; i < s->nf; i = s->f[i].end) {
		err = members_end(s, i, 0);
		if (err)
			return err;
	}
	return ERROR_SUCCESS;
}

static void add(struct schema *s, uint32_t field, enum kind kind)
{
	s->p[s->np].field = field;
	s->p[s->np++].kind = kind;
}

/*
 * The properties, level by level: the top-level fields, then the members
 * of each structure met, in order; a field that needs a count or length
 * property has it just before itself. @owner[g] is the property whose
 * members group g holds, @start and @size where they are.
 */
static ULONG lay_out(struct schema *s, uint32_t *first, uint32_t *count)
{
	uint32_t *group = malloc((s->nf + 1) * sizeof(*group));
	uint32_t groups = 1, g, j, k;

	s->p = malloc((2 * s->nf + 1) * sizeof(*s->p));
	if (!group || !s->p) {
		free(group);
		return ERROR_NOT_ENOUGH_MEMORY;
	}
	group[0] = 0;	/* the top level starts at field 0 */
	for (g = 0; g < groups; g++) {
		uint32_t at = s->np, n;

		j = group[g];
		n = g ? s->f[j - 1].out : UINT32_MAX;
		for (k = 0; k < n && j < s->nf; k++, j = s->f[j].end) {
			const struct field *f = &s->f[j];

			if (f->arity == TLG_VCOUNT)
				add(s, j, COUNT);
			else if (f->type == TLG_BINARY && !f->arity)
				add(s, j, LENGTH);
			add(s, j, REAL);
			if (is_struct(f))
				group[groups++] = j + 1;
		}
		if (!g)
			s->top = s->np;
		first[g] = at;
		count[g] = s->np - at;
	}
	free(group);
	return s->np > 0xFFFF ? ERROR_INVALID_DATA : ERROR_SUCCESS;
}

static USHORT tdh_in(const struct field *f)
{
	if (f->arity == TLG_CUSTOM || (f->type == TLG_BINARY && f->arity))
		return TDH_INTYPE_MANIFEST_COUNTEDBINARY;
	return f->type;
}

/* TraceLogging's OutType @out as the TDH_OUTTYPE of the same meaning. */
static USHORT tdh_out(uint8_t out, USHORT in, uint32_t psz)
{
	static const USHORT same[] = {
		[1] = TDH_OUTTYPE_NOPRINT, [2] = TDH_OUTTYPE_STRING, [3] = TDH_OUTTYPE_BOOLEAN,
		[5] = TDH_OUTTYPE_PID, [6] = TDH_OUTTYPE_TID, [7] = TDH_OUTTYPE_PORT,
		[8] = TDH_OUTTYPE_IPV4, [9] = TDH_OUTTYPE_IPV6, [10] = TDH_OUTTYPE_SOCKETADDRESS,
		[11] = TDH_OUTTYPE_XML, [12] = TDH_OUTTYPE_JSON, [13] = TDH_OUTTYPE_WIN32ERROR,
		[14] = TDH_OUTTYPE_NTSTATUS, [15] = TDH_OUTTYPE_HRESULT,
		[16] = TDH_OUTTYPE_DATETIME,
		[0x21] = TDH_OUTTYPE_CULTURE_INSENSITIVE_DATETIME, [0x23] = TDH_OUTTYPE_UTF8,
		[0x24] = TDH_OUTTYPE_PKCS7_WITH_TYPE_INFO, [0x25] = TDH_OUTTYPE_CODE_POINTER,
		[0x26] = TDH_OUTTYPE_DATETIME_UTC,
	};
	static const USHORT hex[] = { [1] = TDH_OUTTYPE_HEXINT8, [2] = TDH_OUTTYPE_HEXINT16,
				      [4] = TDH_OUTTYPE_HEXINT32, [8] = TDH_OUTTYPE_HEXINT64 };
	static const USHORT sig[] = { [1] = TDH_OUTTYPE_BYTE, [2] = TDH_OUTTYPE_SHORT,
				      [4] = TDH_OUTTYPE_INT, [8] = TDH_OUTTYPE_LONG };
	static const USHORT uns[] = { [1] = TDH_OUTTYPE_UNSIGNEDBYTE,
				      [2] = TDH_OUTTYPE_UNSIGNEDSHORT,
				      [4] = TDH_OUTTYPE_UNSIGNEDINT,
				      [8] = TDH_OUTTYPE_UNSIGNEDLONG };
	unsigned int size = nttrace_tdh_fixed_size(in, psz);
	int binary = in == TDH_INTYPE_BINARY || in == TDH_INTYPE_MANIFEST_COUNTEDBINARY;

	switch (out) {
	case 4:		/* Hex */
		return binary ? TDH_OUTTYPE_HEXBINARY : size <= 8 ? hex[size] : 0;
	case 17:	/* Signed */
		return size <= 8 ? sig[size] : 0;
	case 18:	/* Unsigned */
		return size <= 8 ? uns[size] : 0;
	}
	return out < sizeof(same) / sizeof(same[0]) ? same[out] : 0;
}

/* The UTF-16 size in bytes, NUL included, of a UTF-8 name and a suffix. */
static size_t name_size(const uint8_t *s, size_t len, const char *suffix)
{
	struct nttrace_tdh_text t = { NULL, 0, 0 };

	nttrace_tdh_put_utf8(&t, s, len, 0);
	nttrace_tdh_puts(&t, suffix);
	return 2 * (t.n + 1);
}

static ULONG put_name(uint8_t *base, size_t *at, const uint8_t *s, size_t len, const char *suffix)
{
	struct nttrace_tdh_text t = { (WCHAR *)(base + *at), SIZE_MAX, 0 };
	ULONG off = *at;

	nttrace_tdh_put_utf8(&t, s, len, 0);
	nttrace_tdh_puts(&t, suffix);
	nttrace_tdh_put(&t, 0);
	*at += 2 * t.n;
	return off;
}

static const char *suffix_of(enum kind kind)
{
	return kind == LENGTH ? ".Length" : kind == COUNT ? ".Count" : "";
}

static void fill_property(struct schema *s, uint32_t i, EVENT_PROPERTY_INFO *e,
			  const uint32_t *first, const uint32_t *count, uint32_t *group)
{
	const struct field *f = &s->f[s->p[i].field];
	USHORT in;

	if (s->p[i].kind != REAL) {
		e->nonStructType.InType = TDH_INTYPE_UINT16;
		e->count = 1;
		e->length = 2;
		return;
	}
	if (f->tagged) {
		e->Flags |= PropertyHasTags;
		e->Tags = f->tags;
	}
	e->count = 1;
	if (f->arity == TLG_CCOUNT) {
		e->Flags |= PropertyParamFixedCount;
		e->count = f->ccount;
	} else if (f->arity == TLG_VCOUNT) {
		e->Flags |= PropertyParamCount;
		e->countPropertyIndex = i - 1;
	}
	if (is_struct(f)) {
		/* Groups were made in the order their structures come. */
		e->Flags |= PropertyStruct;
		e->structType.StructStartIndex = first[*group];
		e->structType.NumOfStructMembers = count[*group];
		(*group)++;
		return;
	}
	in = tdh_in(f);
	e->nonStructType.InType = in;
	e->nonStructType.OutType = tdh_out(f->out, in, s->psz);
	if (f->arity == TLG_CUSTOM) {
		e->Flags |= PropertyHasCustomSchema;
	} else if (in == TDH_INTYPE_BINARY) {
		e->Flags |= PropertyParamLength;
		e->lengthPropertyIndex = i - 1;
	} else {
		e->length = nttrace_tdh_fixed_size(in, s->psz);
	}
}

static ULONG build(struct schema *s, TRACE_EVENT_INFO **out, ULONG *out_size)
{
	uint32_t *first = malloc((s->nf + 1) * sizeof(*first));
	uint32_t *count = malloc((s->nf + 1) * sizeof(*count));
	size_t size, at, i;
	uint32_t group = 1;
	TRACE_EVENT_INFO *tei = NULL;
	ULONG err = first && count ? lay_out(s, first, count) : ERROR_NOT_ENOUGH_MEMORY;

	if (err)
		goto out;
	size = offsetof(TRACE_EVENT_INFO, EventPropertyInfoArray) +
	       (size_t)s->np * sizeof(EVENT_PROPERTY_INFO);
	if (size < sizeof(TRACE_EVENT_INFO))
		size = sizeof(TRACE_EVENT_INFO);
	at = size;
	if (s->prov)
		size += name_size(s->prov, s->prov_len, "");
	size += name_size(s->name, s->name_len, "");
	for (i = 0; i < s->np; i++) {
		const struct field *f = &s->f[s->p[i].field];

		size += name_size(f->name, f->name_len, suffix_of(s->p[i].kind));
		if (s->p[i].kind == REAL && f->arity == TLG_CUSTOM)
			size += (4 + f->schema_len + 1) & ~(size_t)1;
	}
	tei = size <= 0xFFFFFFFF ? calloc(1, size) : NULL;
	if (!tei) {
		err = size <= 0xFFFFFFFF ? ERROR_NOT_ENOUGH_MEMORY : ERROR_INVALID_DATA;
		goto out;
	}
	tei->ProviderGuid = s->er->EventHeader.ProviderId;
	tei->EventDescriptor = s->er->EventHeader.EventDescriptor;
	tei->DecodingSource = DecodingSourceTlg;
	tei->PropertyCount = s->np;
	tei->TopLevelPropertyCount = s->top;
	tei->Tags = s->tags;
	if (s->prov)
		tei->ProviderNameOffset = put_name((uint8_t *)tei, &at, s->prov, s->prov_len, "");
	tei->EventNameOffset = put_name((uint8_t *)tei, &at, s->name, s->name_len, "");
	tei->TaskNameOffset = tei->EventNameOffset;
	for (i = 0; i < s->np; i++) {
		EVENT_PROPERTY_INFO *e = &tei->EventPropertyInfoArray[i];
		const struct field *f = &s->f[s->p[i].field];

		e->NameOffset = put_name((uint8_t *)tei, &at, f->name, f->name_len,
					 suffix_of(s->p[i].kind));
		fill_property(s, i, e, first, count, &group);
		if (e->Flags & PropertyHasCustomSchema) {
			uint8_t *c = (uint8_t *)tei + at;

			/* UINT16 protocol, UINT16 length, the schema. */
			e->customSchemaType.CustomSchemaOffset = at;
			c[0] = f->type;
			c[2] = f->schema_len & 0xFF;
			c[3] = f->schema_len >> 8;
			memcpy(c + 4, f->schema, f->schema_len);
			at += (4 + f->schema_len + 1) & ~(size_t)1;
		}
	}
	*out = tei;
	*out_size = size;
out:
	free(first);
	free(count);
	return err;
}

/* The provider's name, when its traits item holds one that is whole. */
static void provider_name(struct schema *s, const uint8_t *d, uint16_t len)
{
	const uint8_t *p;
	uint16_t size;

	if (!d || len < 3)
		return;
	p = d + 2;
	size = (uint16_t)nttrace_tdh_le(d, 2);
	if (size < 3 || size > len)
		return;
	if (string_at(&p, d + size, &s->prov, &s->prov_len))
		s->prov = NULL;
}

ULONG nttrace_tdh_tlg_info(const EVENT_RECORD *er, uint32_t psz, TRACE_EVENT_INFO **tei,
			   ULONG *size)
{
	struct schema s = { .er = er, .psz = psz };
	const uint8_t *meta = NULL, *traits = NULL;
	uint16_t meta_len = 0, traits_len = 0, n;
	ULONG err, i;

	if (er->ExtendedDataCount && !er->ExtendedData)
		return ERROR_INVALID_PARAMETER;
	for (i = 0; i < er->ExtendedDataCount; i++) {
		const EVENT_HEADER_EXTENDED_DATA_ITEM *x = &er->ExtendedData[i];
		const uint8_t *d = (const uint8_t *)(uintptr_t)x->DataPtr;

		if (x->DataSize && !d)
			return ERROR_INVALID_PARAMETER;
		if (x->ExtType == EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL && !meta) {
			meta = d ? d : (const uint8_t *)"";
			meta_len = x->DataSize;
		} else if (x->ExtType == EVENT_HEADER_EXT_TYPE_PROV_TRAITS && !traits) {
			traits = d;
			traits_len = x->DataSize;
		}
	}
	if (!meta)
		return ERROR_NOT_FOUND;
	/* Its size counts itself, and may not claim more than the item has. */
	if (meta_len < 2)
		return ERROR_INVALID_DATA;
	n = (uint16_t)nttrace_tdh_le(meta, 2);
	if (n < 2 || n > meta_len)
		return ERROR_INVALID_DATA;
	provider_name(&s, traits, traits_len);
	err = parse(&s, meta, n);
	if (!err)
		err = build(&s, tei, size);
	free(s.f);
	free(s.p);
	return err;
}
