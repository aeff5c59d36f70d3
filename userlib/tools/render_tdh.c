// SPDX-License-Identifier: LGPL-2.1
/*
 * `nttrace dump` and `nttrace show`: an event TDH can decode (today the
 * TraceLogging events, from their schema item), shown as its provider's
 * and its own name and its fields, through the calls a Windows consumer
 * makes: TdhGetEventInformation for the layout, TdhFormatProperty for each
 * value, walking the data in order (the sizes of arrays and of binary
 * fields are the values of the earlier fields they name, read on the way,
 * as Microsoft's TdhFormatProperty sample does).
 *
 * Text: " Provider/Event name=value ...", structures as name={a=1 b=2},
 * arrays as name=[1,2]. JSON: "provider_name", "event", and "fields", an
 * object of the same shape whose values are the strings TdhFormatProperty
 * gives (one form for every type). A field the data ends inside stops the
 * walk: text says "cut short at NAME", JSON has "cut"; both then show the
 * bytes left (as for kernel events), and JSON says how many the fields
 * took ("decoded").
 *
 * One budget bounds an event's whole rendering, TDH's own for its walks
 * (NTTRACE_TDH_MAX_VISITS values): each count is at most 65535, but
 * arrays of structures of arrays multiply, and a schema of a few bytes
 * with values of no size would otherwise print 65535 to the power of its
 * depth values. Past it the walk stops where it is, and says so: text
 * "stopped at NAME: more than N values", JSON "stopped" (NAME) and
 * "max_values" (N); the bytes left are shown as for a cut.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nttrace/tdh.h>

#include "cli.h"
#include "../tdh/tdh_internal.h"

struct walk {
	const TRACE_EVENT_INFO *info;
	const uint8_t *data;
	uint32_t len, at;
	ULONG psz;
	uint64_t *values;	/* each integer property's last value */
	char *cut;		/* the field the data ended inside */
	WCHAR *buf;
	ULONG buf_size;		/* bytes */
	FILE *out;		/* where the walk writes: stdout, or a field's text */
	int json;
	uint32_t visits;	/* values and structures visited, at most the budget */
	int stopped;		/* the budget ran out: @cut names where */
};

static char *name_at(const TRACE_EVENT_INFO *info, ULONG offset)
{
	return offset ? render_utf16((const WCHAR *)((const uint8_t *)info + offset)) : NULL;
}

/* An integer's value, little-endian, for the counts and lengths naming it. */
static uint64_t int_value(USHORT in_type, const uint8_t *p, uint32_t n)
{
	uint32_t size = in_type == TDH_INTYPE_INT8 || in_type == TDH_INTYPE_UINT8 ? 1 :
			in_type == TDH_INTYPE_INT16 || in_type == TDH_INTYPE_UINT16 ? 2 :
			in_type == TDH_INTYPE_INT32 || in_type == TDH_INTYPE_UINT32 ||
			in_type == TDH_INTYPE_HEXINT32 ? 4 :
			in_type == TDH_INTYPE_INT64 || in_type == TDH_INTYPE_UINT64 ||
			in_type == TDH_INTYPE_HEXINT64 ? 8 : 0;
	uint64_t v = 0;

	if (size > n)
		return 0;
	while (size--)
		v = v << 8 | p[size];
	return v;
}

static TDHSTATUS format(struct walk *w, const EVENT_PROPERTY_INFO *p, USHORT length,
			ULONG *size, USHORT *used)
{
	uint32_t left = w->len - w->at;

	*size = w->buf_size;
	return TdhFormatProperty((PTRACE_EVENT_INFO)w->info, NULL, w->psz,
				 p->nonStructType.InType, p->nonStructType.OutType, length,
				 left > 0xFFFF ? 0xFFFF : (USHORT)left, (PBYTE)w->data + w->at,
				 size, w->buf, used);
}

/* One value at the walk's place; 0 when it cannot be read. */
static int print_value(struct walk *w, const EVENT_PROPERTY_INFO *p, USHORT length)
{
	USHORT used = 0;
	TDHSTATUS st;
	ULONG size;
	char *text;

	st = format(w, p, length, &size, &used);
	if (st == ERROR_INSUFFICIENT_BUFFER) {
		WCHAR *b = realloc(w->buf, size);

		if (!b)
			return 0;
		w->buf = b;
		w->buf_size = size;
		st = format(w, p, length, &size, &used);
	}
	if (st != ERROR_SUCCESS)
		return 0;
	text = render_utf16(w->buf);
	/* In JSON, render_text_to() writes the quotes too. */
	render_text_to(w->out, text ? text : "", w->json);
	free(text);
	w->at += used;
	return 1;
}

static int print_members(struct walk *w, USHORT first, USHORT count);

/* Property @i and each of its elements; 0 when the data ended inside it. */
static int print_prop(struct walk *w, USHORT i, int named)
{
	const EVENT_PROPERTY_INFO *p = &w->info->EventPropertyInfoArray[i];
	ULONG np = w->info->PropertyCount;
	int counted = p->Flags & PropertyParamCount;
	int array = counted || (p->Flags & PropertyParamFixedCount) || p->count != 1;
	/* A count or length names an earlier property (TDH checks; so do we). */
	uint64_t n = !counted ? p->count :
		     p->countPropertyIndex < np ? w->values[p->countPropertyIndex] : 0;
	USHORT length = !(p->Flags & PropertyParamLength) ? p->length :
			p->lengthPropertyIndex < np ? (USHORT)w->values[p->lengthPropertyIndex] :
			0;
	char *name = name_at(w->info, p->NameOffset);
	uint32_t start = w->at;
	uint64_t k;
	int ok = 1;

	/* Without its name: the value alone (render_tdh_fields()). */
	if (named && w->json) {
		render_text_to(w->out, name ? name : "", 1);
		fputc(':', w->out);
	} else if (named) {
		fprintf(w->out, "%s=", name ? name : "");
	}
	/*
	 * A count from the data may be huge while its elements take no
	 * bytes (structures of nothing): at most 65535, TDH's own bound
	 * (EVENT_PROPERTY_INFO's counts are 16 bits).
	 */
	if (n > 0xFFFF)
		n = 0xFFFF;
	if (array)
		fputc('[', w->out);
	for (k = 0; k < n && ok; k++) {
		if (++w->visits > NTTRACE_TDH_MAX_VISITS) {
			w->stopped = 1;
			ok = 0;
			break;
		}
		if (k)
			fputc(',', w->out);
		if (p->Flags & PropertyStruct) {
			fputc('{', w->out);
			ok = print_members(w, p->structType.StructStartIndex,
					   p->structType.NumOfStructMembers);
			fputc('}', w->out);
		} else {
			ok = print_value(w, p, length);
		}
	}
	if (array)
		fputc(']', w->out);
	if (!(p->Flags & PropertyStruct) && !array)
		w->values[i] = int_value(p->nonStructType.InType, w->data + start, w->at - start);
	if (!ok && !w->cut)
		w->cut = name ? name : strdup("");
	else
		free(name);
	return ok;
}

static int print_members(struct walk *w, USHORT first, USHORT count)
{
	USHORT i;

	for (i = 0; i < count; i++) {
		if (i)
			fputc(w->json ? ',' : ' ', w->out);
		if (first + i >= w->info->PropertyCount || !print_prop(w, first + i, 1))
			return 0;
	}
	return 1;
}

/*
 * A path (UTF-8) as the PWSTR TdhLoadManifest takes: UTF-16, surrogate
 * pairs past U+FFFF. NULL for bytes that are not UTF-8.
 */
static WCHAR *utf16_of(const char *s)
{
	size_t n = strlen(s), k = 0, i = 0;
	WCHAR *w = calloc(n + 1, sizeof(*w));

	while (w && i < n) {
		unsigned char c = s[i];
		int more = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 :
			   (c & 0xF8) == 0xF0 ? 3 : -1;
		uint32_t cp = more == 0 ? c : more == 1 ? c & 0x1F : more == 2 ? c & 0x0F : c & 0x07;

		if (more < 0 || i + more >= n + (more == 0))
			goto bad;
		for (i++; more > 0; more--, i++) {
			if ((s[i] & 0xC0) != 0x80)
				goto bad;
			cp = cp << 6 | (s[i] & 0x3F);
		}
		if (cp >= 0x10000) {
			cp -= 0x10000;
			w[k++] = (WCHAR)(0xD800 | cp >> 10);
			w[k++] = (WCHAR)(0xDC00 | (cp & 0x3FF));
		} else {
			w[k++] = (WCHAR)cp;
		}
	}
	return w;
bad:
	free(w);
	return NULL;
}

int render_load_manifests(char *list)
{
	char *path, *save = NULL;

	for (path = strtok_r(list, ",", &save); path; path = strtok_r(NULL, ",", &save)) {
		WCHAR *w = utf16_of(path);
		ULONG err;

		if (!w)
			return render_fail(ERROR_BAD_PATHNAME, path, "TdhLoadManifest");
		err = TdhLoadManifest(w);
		free(w);
		if (err != ERROR_SUCCESS)
			return render_fail(err, path, "TdhLoadManifest");
	}
	return 0;
}

/*
 * The event's name: its own (TraceLogging, manifests that give one), else
 * its task's and opcode's, "Task/Opcode" (WBEM has no event name, and most
 * manifests name none).
 */
static char *event_name(const TRACE_EVENT_INFO *info)
{
	char *task, *op, *both;

	if (info->DecodingSource != DecodingSourceWbem && info->EventNameOffset)
		return name_at(info, info->EventNameOffset);
	task = name_at(info, info->TaskNameOffset);
	op = name_at(info, info->OpcodeNameOffset);
	if (!op)
		return task;
	if (!task)
		return op;
	both = malloc(strlen(task) + strlen(op) + 2);
	if (both)
		sprintf(both, "%s/%s", task, op);
	free(task);
	free(op);
	return both;
}

int render_tdh_knows(const EVENT_RECORD *er)
{
	ULONG size = 0;

	return TdhGetEventInformation((PEVENT_RECORD)er, 0, NULL, NULL, &size) ==
	       ERROR_INSUFFICIENT_BUFFER;
}

/* A walk over @er's data: its layout from TDH; 0 if TDH cannot describe it. */
static int walk_start(struct walk *w, const EVENT_RECORD *er, int psz, FILE *out, int json)
{
	TRACE_EVENT_INFO *info;
	ULONG size = 0;

	memset(w, 0, sizeof(*w));
	if (TdhGetEventInformation((PEVENT_RECORD)er, 0, NULL, NULL, &size) !=
	    ERROR_INSUFFICIENT_BUFFER)
		return 0;
	info = malloc(size);
	if (!info || TdhGetEventInformation((PEVENT_RECORD)er, 0, NULL, info, &size)) {
		free(info);
		return 0;
	}
	w->values = calloc(info->PropertyCount + 1, sizeof(*w->values));
	if (!w->values) {
		free(info);
		return 0;
	}
	w->info = info;
	w->data = er->UserData;
	w->len = er->UserDataLength;
	w->psz = psz;
	w->out = out;
	w->json = json;
	return 1;
}

static void walk_end(struct walk *w)
{
	free(w->cut);
	free(w->buf);
	free(w->values);
	free((void *)w->info);
}

int render_tdh(const EVENT_RECORD *er, int psz)
{
	struct walk w;
	char *provider, *event;

	if (!walk_start(&w, er, psz, stdout, render_json))
		return 0;
	provider = name_at(w.info, w.info->ProviderNameOffset);
	event = event_name(w.info);
	if (render_json) {
		if (provider) {
			printf(",\"provider_name\":");
			render_text(provider, 1);
		}
		printf(",\"event\":");
		render_text(event ? event : "", 1);
		printf(",\"fields\":{");
		print_members(&w, 0, w.info->TopLevelPropertyCount);
		printf("},\"decoded\":%u", w.at);
		if (w.cut) {
			printf(w.stopped ? ",\"stopped\":" : ",\"cut\":");
			render_text(w.cut, 1);
		}
		if (w.stopped)
			printf(",\"max_values\":%u", NTTRACE_TDH_MAX_VISITS);
	} else {
		printf(" %s%s%s", provider ? provider : "", provider ? "/" : "",
		       event ? event : "");
		if (w.info->TopLevelPropertyCount)
			putchar(' ');
		print_members(&w, 0, w.info->TopLevelPropertyCount);
		if (w.cut) {
			printf(w.stopped ? " stopped at " : " cut short at ");
			render_text(w.cut, 0);
			if (w.stopped)
				printf(": more than %u values", NTTRACE_TDH_MAX_VISITS);
		} else if (w.at < w.len) {
			printf(" extra");
		}
		if (w.at < w.len)
			render_hex("data", w.data + w.at, w.len - w.at);
	}
	free(provider);
	free(event);
	walk_end(&w);
	return 1;
}

/*
 * A property is a plain integer when TDH would print it in decimal: an
 * integer in-type with no out-type but its own, one of it, not a count's
 * array. Its width in bits and sign, else 0.
 */
static int plain_integer(const EVENT_PROPERTY_INFO *p, int *is_signed)
{
	USHORT in = p->nonStructType.InType, out = p->nonStructType.OutType;
	int bits;

	if (p->Flags & (PropertyStruct | PropertyParamCount | PropertyParamFixedCount) ||
	    p->count != 1)
		return 0;
	/* INT8, UINT8, INT16, ... UINT64: 1 to 10, signed and unsigned in turn. */
	if (in < TDH_INTYPE_INT8 || in > TDH_INTYPE_UINT64)
		return 0;
	bits = 8 << (in - TDH_INTYPE_INT8) / 2;
	switch (out) {
	case TDH_OUTTYPE_NULL: case TDH_OUTTYPE_BYTE: case TDH_OUTTYPE_UNSIGNEDBYTE:
	case TDH_OUTTYPE_SHORT: case TDH_OUTTYPE_UNSIGNEDSHORT: case TDH_OUTTYPE_INT:
	case TDH_OUTTYPE_UNSIGNEDINT: case TDH_OUTTYPE_LONG: case TDH_OUTTYPE_UNSIGNEDLONG:
		break;
	default:
		return 0;
	}
	*is_signed = (in - TDH_INTYPE_INT8) % 2 == 0;
	return bits;
}

int render_tdh_fields(const EVENT_RECORD *er, int psz, struct render_fields *f)
{
	struct walk w;
	USHORT i;
	int ok = 1;

	memset(f, 0, sizeof(*f));
	if (!walk_start(&w, er, psz, NULL, 0))
		return 0;
	f->provider = name_at(w.info, w.info->ProviderNameOffset);
	f->event = event_name(w.info);
	f->v = calloc(w.info->TopLevelPropertyCount + 1, sizeof(*f->v));
	for (i = 0; f->v && ok && i < w.info->TopLevelPropertyCount; i++) {
		const EVENT_PROPERTY_INFO *p = &w.info->EventPropertyInfoArray[i];
		struct render_field *v = &f->v[f->n];
		uint32_t start = w.at;
		size_t len = 0;

		w.out = open_memstream(&v->text, &len);
		if (!w.out) {
			/* No memory: not described, rather than fields left out. */
			walk_end(&w);
			render_fields_free(f);
			return 0;
		}
		ok = print_prop(&w, i, 0);
		fclose(w.out);
		v->name = name_at(w.info, p->NameOffset);
		if (!ok) {
			/*
			 * The value the data ended inside is not a field: its
			 * bytes, those of its elements read too, are left over.
			 */
			free(v->text);
			free(v->name);
			v->text = v->name = NULL;
			w.at = start;
			break;
		}
		v->off = start;
		v->size = w.at - start;
		v->single = !(p->Flags & (PropertyStruct | PropertyParamCount |
					  PropertyParamFixedCount)) && p->count == 1;
		if (!(p->Flags & PropertyStruct)) {
			v->in_type = p->nonStructType.InType;
			v->out_type = p->nonStructType.OutType;
		}
		v->bits = plain_integer(p, &v->is_signed);
		if (v->bits) {
			v->value = w.values[i];
			if (v->is_signed && v->bits < 64 && v->value >> (v->bits - 1) & 1)
				v->value |= ~0ULL << v->bits;
		}
		f->n++;
	}
	f->decoded = w.at;
	f->stopped = w.stopped;
	f->cut = w.cut;
	w.cut = NULL;
	walk_end(&w);
	return f->v != NULL;
}

void render_fields_free(struct render_fields *f)
{
	unsigned int i;

	for (i = 0; f->v && i < f->n; i++) {
		free(f->v[i].name);
		free(f->v[i].text);
	}
	free(f->v);
	free(f->provider);
	free(f->event);
	free(f->cut);
	memset(f, 0, sizeof(*f));
}
