// SPDX-License-Identifier: GPL-2.0
/*
 * NAME.h of `nttrace mc` (mc.h): the header mc.exe 10.0.18362 writes for
 * -um, with the same names, over libnttrace's EventRegister and
 * EventWriteTransfer; for -km, over the kernel-mode API's EtwRegister and
 * EtwWriteTransfer (<nttrace/wdm.h>), for a Linux kernel module. Only the
 * text before the providers differs (mc_prelude.c). It declares, per
 * provider of the manifest:
 *   the provider GUID (EXTERN_C __declspec(selectany) const GUID SYMBOL),
 *   #defines of the symbols of its channels, levels, opcodes, tasks (and
 *   a task's eventGUID as SYMBOLId) and keywords,
 *   each event's EVENT_DESCRIPTOR and SYMBOL_value,
 *   the enable bits (NAMEEnableBits), the keyword and level of each bit,
 *   the MCGEN_TRACE_CONTEXT (SYMBOL_Context) and NAMEHandle,
 *   EventRegisterNAME(), EventRegisterByGuidNAME(), EventUnregisterNAME(),
 *   EventEnabledEVENT(), EventWriteEVENT(...) and _AssumeEnabled,
 * and once: MCGEN_TRACE_CONTEXT, McGenLevelKeywordEnabled,
 * McGenEventEnabled, McGenControlCallbackV2 (which sets the enable bits),
 * McGenEventRegister/Unregister, McGenEventWrite, MCGEN_ENABLE_CHECK,
 * MCGEN_EVENT_ENABLED, the MCGEN_EVENTREGISTER-style API names, and the
 * McTemplateU0... functions that build the EVENT_DATA_DESCRIPTORs; last,
 * MSG_ defines of the message IDs.
 *
 * A disabled EventWriteEVENT() is a test of one bit of NAMEEnableBits, a
 * global the control callback keeps, as mc.exe's is.
 *
 * -um's compiles against nttrace's Windows layer (nttrace-windows.pc: then it
 * includes <windows.h>, <wmistr.h>, <evntrace.h> and <evntprov.h>) and
 * against libnttrace's own <nttrace/evntprov.h> (then it defines the few
 * Windows words it writes, EXTERN_C and __declspec, as the layer does).
 * Its functions are static (one copy per translation unit); the objects
 * are selectany (one per program).
 *
 * A template's data become the arguments of EventWriteEVENT, in order, as
 * mc.exe makes them: a number by value; a GUID, FILETIME or SYSTEMTIME by
 * address; a NUL-terminated string (NULL is written as "NULL"); an array
 * (count) by address, its size the count (a number, or the argument it
 * names) times the element's; a string or binary of a length likewise; a
 * structure, and a binary or string array with no length, as a byte or
 * character count and an address. The function's name spells its data:
 * the letters mc.exe uses for the types its headers show (z s c h d q x f
 * t y p), this file's own for the rest, upper case for an array, Rn for a
 * count that is argument n.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc.h"

/* What one template's data become: the function's name and arguments. */
struct arg {
	const struct nttrace_man_data *d;
	const char *ctype;	/* the argument's C type */
	char letter;
	uint8_t by_value;	/* a number: its address is taken */
	uint8_t len_arg;	/* preceded by a count argument, NAME_Len_ */
	uint8_t string;		/* 1: UTF-16, 2: ANSI, NUL-terminated */
	uint32_t size_const;	/* the size of one element, or 0: sizeof(ctype) */
	const char *elem;	/* sizeof of one element, for arrays */
	const char *arr_ctype;	/* an array's element type, when not ctype */
};

struct sig {
	char name[512];
	struct arg *v;
	uint32_t n;
};

/* @s as a C identifier: what is no letter, digit or '_' becomes '_'. */
static void ident(char *buf, size_t size, const char *s)
{
	size_t i;

	for (i = 0; s && s[i] && i + 1 < size; i++) {
		char c = s[i];

		buf[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '_' ? c : '_';
	}
	buf[i] = 0;
	if (buf[0] >= '0' && buf[0] <= '9' && i + 1 < size) {
		memmove(buf + 1, buf, i + 1);
		buf[0] = '_';
	}
}

static void guid_init(struct mc_out *o, const GUID *g)
{
	mc_out_printf(o, "{0x%08" PRIx32 ", 0x%04x, 0x%04x, {0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x}}",
		      (uint32_t)g->Data1, g->Data2, g->Data3, g->Data4[0], g->Data4[1],
		      g->Data4[2], g->Data4[3], g->Data4[4], g->Data4[5], g->Data4[6],
		      g->Data4[7]);
}

/* The keyword of an event as the header and the binaries give it. */
uint64_t mc_event_keyword(const struct nttrace_man_provider *p, const struct nttrace_man_event *e)
{
	uint64_t k = e->keywords;
	uint32_t i;

	/* mc.exe gives the provider's n-th channel keyword bit 63 - n. */
	if (e->channel_i) {
		i = (uint32_t)(e->channel_i - p->channels.v);
		if (i < p->channels.n && i < 64)
			k |= 1ULL << (63 - i);
	}
	return k;
}

/* The argument index of top-level data @i of @t (structures' members are none). */
static int arg_index(const struct nttrace_man_template *t, uint32_t i)
{
	uint32_t k, n = 0;

	if (i >= t->n || t->v[i].parent >= 0)
		return -1;
	for (k = 0; k < i; k++)
		if (t->v[k].parent < 0)
			n++;
	return (int)n;
}

/*
 * One data's argument: 0, or -1 with @why set (a type a header cannot
 * take).
 */
static int arg_of(const struct nttrace_man_data *d, int kernel, struct arg *a,
		  const char **why)
{
	memset(a, 0, sizeof(*a));
	a->d = d;
	if (d->is_struct) {
		a->letter = 'U';
		a->ctype = "const void *";
		a->len_arg = 1;
		return 0;
	}
	a->by_value = 1;
	switch (d->in) {
	case TDH_INTYPE_UNICODESTRING:
		a->letter = 'z', a->ctype = "PCWSTR", a->elem = "WCHAR", a->string = 1;
		a->by_value = 0;
		break;
	case TDH_INTYPE_ANSISTRING:
		a->letter = 's', a->ctype = "LPCSTR", a->elem = "CHAR", a->string = 2;
		a->by_value = 0;
		break;
	case TDH_INTYPE_INT8:
		/*
		 * One is a signed char; an array is of char, as mc.exe's are
		 * (Microsoft's samples pass a CHAR * to them).
		 */
		a->letter = 'b', a->ctype = "const signed char", a->arr_ctype = "const char";
		break;
	case TDH_INTYPE_UINT8:
		a->letter = 'c', a->ctype = "const UCHAR";
		break;
	case TDH_INTYPE_INT16:
		a->letter = 'l', a->ctype = "const signed short";
		break;
	case TDH_INTYPE_UINT16:
		a->letter = 'h', a->ctype = "const unsigned short";
		break;
	case TDH_INTYPE_INT32:
		a->letter = 'd', a->ctype = "const signed int";
		break;
	case TDH_INTYPE_UINT32:
	case TDH_INTYPE_HEXINT32:
		a->letter = 'q', a->ctype = "const unsigned int";
		break;
	case TDH_INTYPE_INT64:
		a->letter = 'i', a->ctype = "const LONGLONG";
		break;
	case TDH_INTYPE_UINT64:
	case TDH_INTYPE_HEXINT64:
		a->letter = 'x', a->ctype = "const ULONGLONG";
		break;
	case TDH_INTYPE_FLOAT:
	case TDH_INTYPE_DOUBLE:
		/*
		 * Linux kernel code may not use the FPU's registers, which
		 * a float argument is passed in: a kernel module passes one
		 * inside a structure (its bytes), never by value.
		 */
		if (kernel) {
			*why = "a Float or Double argument in kernel mode (put it in a struct)";
			return -1;
		}
		if (d->in == TDH_INTYPE_FLOAT)
			a->letter = 'f', a->ctype = "const float";
		else
			a->letter = 'g', a->ctype = "const double";
		break;
	case TDH_INTYPE_BOOLEAN:
		a->letter = 't', a->ctype = "const BOOL";
		break;
	case TDH_INTYPE_POINTER:
		a->letter = 'p', a->ctype = "const void *", a->elem = "PVOID";
		break;
	case TDH_INTYPE_GUID:
		a->letter = 'j', a->ctype = "const GUID *", a->elem = "GUID", a->by_value = 0;
		break;
	case TDH_INTYPE_FILETIME:
		a->letter = 'm', a->ctype = "const FILETIME *", a->elem = "FILETIME";
		a->by_value = 0;
		break;
	case TDH_INTYPE_SYSTEMTIME:
		a->letter = 'y', a->ctype = "const SYSTEMTIME *", a->elem = "SYSTEMTIME";
		a->by_value = 0;
		break;
	case TDH_INTYPE_BINARY:
		a->letter = 'n', a->ctype = "const void *", a->elem = "UCHAR", a->by_value = 0;
		if (!d->has_length)
			a->len_arg = 1;
		break;
	case TDH_INTYPE_SID:
		a->letter = 'r', a->ctype = "const void *", a->by_value = 0;
		if (d->has_count) {
			*why = "an array of SIDs";
			return -1;
		}
		break;
	default:
		*why = "this inType (counted strings and binaries are not written by generated code)";
		return -1;
	}
	if (a->string && d->has_count && !d->has_length)
		a->len_arg = 1;
	return 0;
}

/*
 * The arguments and name of template @t: 0, or -1 and @why (with the
 * data it is about in *@bad).
 */
static int sig_of(const struct nttrace_man_template *t, int kernel, struct sig *s,
		  const char **why, const struct nttrace_man_data **bad)
{
	size_t at;
	uint32_t i;

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "McTemplateU0");
	if (!t)
		return 0;
	s->v = calloc(t->n + 1, sizeof(*s->v));
	if (!s->v) {
		*why = "out of memory";
		return -1;
	}
	for (i = 0; i < t->n; i++) {
		const struct nttrace_man_data *d = &t->v[i];
		struct arg *a = &s->v[s->n];
		int ref;

		if (d->parent >= 0)
			continue;
		*bad = d;
		if (arg_of(d, kernel, a, why))
			return -1;
		/* A count or length naming a field: that field must be a number. */
		if ((d->has_count && d->count_ref) || (d->has_length && d->length_ref)) {
			uint32_t r = d->has_count && d->count_ref ? d->count : d->length;
			USHORT in = t->v[r].in;

			if (t->v[r].is_struct || arg_index(t, r) < 0 ||
			    !(in == TDH_INTYPE_UINT8 || in == TDH_INTYPE_UINT16 ||
			      in == TDH_INTYPE_UINT32 || in == TDH_INTYPE_INT8 ||
			      in == TDH_INTYPE_INT16 || in == TDH_INTYPE_INT32 ||
			      in == TDH_INTYPE_HEXINT32)) {
				*why = "its count or length names a field that is no integer before it";
				return -1;
			}
		}
		at = strlen(s->name);
		if (at + 32 >= sizeof(s->name)) {
			*why = "the template has too many data";
			return -1;
		}
		s->name[at++] = d->has_count ? (char)(a->letter & ~0x20) : a->letter;
		s->name[at] = 0;
		if (d->has_count) {
			ref = d->count_ref ? arg_index(t, d->count) : -1;
			if (ref >= 0)
				snprintf(s->name + at, sizeof(s->name) - at, "R%d", ref);
			else
				snprintf(s->name + at, sizeof(s->name) - at, "%" PRIu32, d->count);
		}
		at = strlen(s->name);
		if (d->has_length && !d->is_struct) {
			ref = d->length_ref ? arg_index(t, d->length) : -1;
			if (ref >= 0)
				snprintf(s->name + at, sizeof(s->name) - at, "_LR%d", ref);
			else
				snprintf(s->name + at, sizeof(s->name) - at, "_L%" PRIu32, d->length);
		}
		s->n++;
	}
	*bad = NULL;
	return 0;
}

static void sig_free(struct sig *s)
{
	free(s->v);
	s->v = NULL;
}

int mc_header_check_template(const struct nttrace_man_template *t, int kernel,
			     const char **why, const struct nttrace_man_data **bad)
{
	struct sig s;
	int r = sig_of(t, kernel, &s, why, bad);

	sig_free(&s);
	return r;
}

/* "* count" or "* length" of an array or a sized string, "" for one. */
static void multiplier(struct mc_out *o, const struct nttrace_man_template *t,
		       const struct nttrace_man_data *d)
{
	if (d->has_count) {
		if (d->count_ref)
			mc_out_printf(o, " * _Arg%d", arg_index(t, d->count));
		else
			mc_out_printf(o, " * %" PRIu32, d->count);
	}
	if (d->has_length && !d->is_struct) {
		if (d->length_ref)
			mc_out_printf(o, " * _Arg%d", arg_index(t, d->length));
		else
			mc_out_printf(o, " * %" PRIu32, d->length);
	}
}

static void template_fn(struct mc_out *o, const struct nttrace_man_template *t,
			const struct sig *s)
{
	uint32_t i;

	mc_out_printf(o, "//\n// Template from manifest: %s\n//\n", t ? t->tid : "(none)");
	mc_out_printf(o, "#ifndef %s_def\n#define %s_def\nETW_INLINE\nULONG\n%s(\n", s->name, s->name,
		      s->name);
	mc_out_printf(o, "    PMCGEN_TRACE_CONTEXT Context,\n    PCEVENT_DESCRIPTOR Descriptor");
	for (i = 0; i < s->n; i++) {
		const struct arg *a = &s->v[i];
		int arr = a->d->has_count && a->letter != 'U';

		if (a->len_arg)
			mc_out_printf(o, ",\n    const ULONG _Arg%" PRIu32 "_Len_", i);
		if (arr && a->by_value)
			mc_out_printf(o, ",\n    %s%s*_Arg%" PRIu32, a->letter == 'p' ?
				      "const void * const " :
				      a->arr_ctype ? a->arr_ctype : a->ctype,
				      a->letter == 'p' ? "" : " ", i);
		else
			mc_out_printf(o, ",\n    %s%s_Arg%" PRIu32, a->ctype,
				      a->ctype[strlen(a->ctype) - 1] == '*' ? "" : " ", i);
	}
	mc_out_printf(o, "\n    )\n{\n#define %s_ARGCOUNT %" PRIu32 "\n", s->name, s->n);
	mc_out_printf(o, "    EVENT_DATA_DESCRIPTOR EventData[%s_ARGCOUNT + 1];\n\n", s->name);
	for (i = 0; i < s->n; i++) {
		const struct arg *a = &s->v[i];
		const struct nttrace_man_data *d = a->d;
		uint32_t k = i + 1;

		if (a->letter == 'U' || (a->len_arg && !a->string)) {
			mc_out_printf(o, "    EventDataDescCreate(&EventData[%" PRIu32 "], _Arg%" PRIu32
				      ", _Arg%" PRIu32 "_Len_);\n", k, i, i);
		} else if (a->len_arg) {
			mc_out_printf(o, "    EventDataDescCreate(&EventData[%" PRIu32 "], _Arg%" PRIu32
				      ", (ULONG)(_Arg%" PRIu32 "_Len_ * sizeof(%s)));\n", k, i, i,
				      a->elem);
		} else if (a->string && !d->has_count && !d->has_length) {
			mc_out_printf(o, "    EventDataDescCreate(&EventData[%" PRIu32 "],\n"
				      "                        (_Arg%" PRIu32 " != NULL) ? (const void *)_Arg%" PRIu32 " : (const void *)%s,\n"
				      "                        (_Arg%" PRIu32 " != NULL) ? (ULONG)((%s(_Arg%" PRIu32 ") + 1) * sizeof(%s)) : (ULONG)sizeof(%s));\n",
				      k, i, i, a->string == 1 ? "_mcgen_NullW" : "\"NULL\"", i,
				      a->string == 1 ? "_mcgen_wcslen" : "strlen", i, a->elem,
				      a->string == 1 ? "_mcgen_NullW" : "\"NULL\"");
		} else if (a->letter == 'r') {
			mc_out_printf(o, "    EventDataDescCreate(&EventData[%" PRIu32 "], _Arg%" PRIu32
				      ", _mcgen_SidLength(_Arg%" PRIu32 "));\n", k, i, i);
		} else if (d->has_count || d->has_length || !a->by_value) {
			mc_out_printf(o, "    EventDataDescCreate(&EventData[%" PRIu32 "], _Arg%" PRIu32
				      ", (ULONG)(sizeof(%s)", k, i,
				      a->elem ? a->elem : a->ctype + strlen("const "));
			multiplier(o, t, d);
			mc_out_printf(o, "));\n");
		} else {
			mc_out_printf(o, "    EventDataDescCreate(&EventData[%" PRIu32 "], &_Arg%" PRIu32
				      ", sizeof(%s));\n", k, i, a->ctype);
		}
	}
	mc_out_printf(o, "\n    return McGenEventWrite(Context, Descriptor, NULL, %s_ARGCOUNT + 1, EventData);\n}\n#endif\n\n",
		      s->name);
}

/* An enable bit: one per distinct level and keyword of the events. */
struct bit {
	uint8_t level;
	uint64_t keyword;
};

static uint32_t bit_of(struct bit *bits, uint32_t *n, uint8_t level, uint64_t kw)
{
	uint32_t i;

	for (i = 0; i < *n; i++)
		if (bits[i].level == level && bits[i].keyword == kw)
			return i;
	bits[*n].level = level;
	bits[*n].keyword = kw;
	return (*n)++;
}

static void defines(struct mc_out *o, const char *title, const struct nttrace_man_list *l)
{
	uint32_t i, n = 0;

	for (i = 0; i < l->n; i++)
		n += l->v[i].symbol != NULL;
	if (!n)
		return;
	mc_out_printf(o, "//\n// %s\n//\n", title);
	for (i = 0; i < l->n; i++) {
		const struct nttrace_man_item *it = &l->v[i];

		if (!it->symbol)
			continue;
		mc_out_printf(o, "#define %s 0x%" PRIx64 "\n", it->symbol, it->value);
		if (it->has_guid) {
			mc_out_printf(o, "EXTERN_C __declspec(selectany) const GUID %sId = ", it->symbol);
			guid_init(o, &it->guid);
			mc_out_printf(o, ";\n");
		}
	}
	mc_out_printf(o, "\n");
}

/*
 * A value map's or bit map's entries that have symbols, as an enum named
 * by the map's symbol, each member the map's symbol and the entry's
 * (mc.exe's names: a map VMapSymbol's entry VMapValue_1 is
 * VMapSymbolVMapValue_1).
 */
static void map_enums(struct mc_out *o, const struct nttrace_man_provider *p)
{
	uint32_t i, k, n;

	for (i = 0; i < p->nmaps; i++) {
		const struct nttrace_man_map *mp = &p->maps[i];

		for (k = n = 0; k < mp->n; k++)
			n += mp->v[k].symbol != NULL;
		if (!mp->symbol || !n)
			continue;
		mc_out_printf(o, "//\n// %s %s\n//\n#ifndef %s_def\n#define %s_def\n"
			      "typedef enum _%s {\n", mp->bitmap ? "Bit map" : "Value map",
			      mp->name, mp->symbol, mp->symbol, mp->symbol);
		for (k = 0; k < mp->n; k++)
			if (mp->v[k].symbol)
				mc_out_printf(o, "    %s%s = 0x%" PRIx32 ",\n", mp->symbol,
					      mp->v[k].symbol, mp->v[k].value);
		mc_out_printf(o, "} %s;\n#endif\n\n", mp->symbol);
	}
}

/*
 * The macro arguments of an event: its template's data names, made C
 * names; one that would replace a token of the expansion takes a '_', a
 * name taken before gets its argument's number.
 */
static void macro_args(struct mc_out *o, const struct sig *s, const char *avoid)
{
	char name[256];
	uint32_t i, k;

	for (i = 0; i < s->n; i++) {
		ident(name, sizeof(name) - 16, s->v[i].d->name);
		if (!name[0] || !strcmp(name, avoid) || !strncmp(name, "_mcgen", 6) ||
		    !strncmp(name, "MCGEN", 5) || !strcmp(name, "Guid"))
			strcat(name, "_");
		for (k = 0; k < i; k++)
			if (!strcmp(s->v[k].d->name, s->v[i].d->name))
				break;
		if (k < i)
			snprintf(name + strlen(name), 16, "_%" PRIu32, i);
		if (s->v[i].len_arg)
			mc_out_printf(o, "%s%s_Len_", i ? ", " : "", name);
		mc_out_printf(o, "%s%s", i || s->v[i].len_arg ? ", " : "", name);
	}
}

static ULONG provider(struct mc_out *o, const struct nttrace_man_provider *p, int kernel,
		      struct sig **done, uint32_t *ndone)
{
	char name[256], gsym[256];
	struct bit *bits;
	uint32_t *evbit, i, nbits = 0, nsym = 0;
	const char *why;
	const struct nttrace_man_data *bad;

	ident(name, sizeof(name), p->name ? p->name : "Provider");
	ident(gsym, sizeof(gsym), p->symbol ? p->symbol : name);
	bits = calloc(p->nevents + 1, sizeof(*bits));
	evbit = calloc(p->nevents + 1, sizeof(*evbit));
	if (!bits || !evbit) {
		free(bits);
		free(evbit);
		return ERROR_NOT_ENOUGH_MEMORY;
	}
	for (i = 0; i < p->nevents; i++) {
		const struct nttrace_man_event *e = &p->events[i];

		if (!e->symbol)
			continue;
		nsym++;
		evbit[i] = bit_of(bits, &nbits, e->level, mc_event_keyword(p, e));
	}
	mc_out_printf(o, "//+\n// Provider %s Event Count %" PRIu32 "\n//+\n", p->name ? p->name : "",
		      nsym);
	mc_out_printf(o, "EXTERN_C __declspec(selectany) const GUID %s = ", gsym);
	guid_init(o, &p->guid);
	mc_out_printf(o, ";\n\n#ifndef %s_Traits\n#define %s_Traits NULL\n#endif\n\n", gsym, gsym);
	defines(o, "Channel", &p->channels);
	defines(o, "Levels", &p->levels);
	defines(o, "Opcodes", &p->opcodes);
	defines(o, "Tasks", &p->tasks);
	defines(o, "Keyword", &p->keywords);
	map_enums(o, p);
	if (nsym)
		mc_out_printf(o, "//\n// Event Descriptors\n//\n");
	for (i = 0; i < p->nevents; i++) {
		const struct nttrace_man_event *e = &p->events[i];

		if (!e->symbol)
			continue;
		mc_out_printf(o, "EXTERN_C __declspec(selectany) const EVENT_DESCRIPTOR %s = {0x%x, 0x%x, 0x%x, 0x%x, 0x%x, 0x%x, 0x%" PRIx64 "};\n",
			      e->symbol, e->id, e->version, e->channel, e->level, e->opcode,
			      e->task, mc_event_keyword(p, e));
		mc_out_printf(o, "#define %s_value 0x%x\n", e->symbol, e->id);
	}
	mc_out_printf(o, "\n#ifndef MCGEN_DISABLE_PROVIDER_CODE_GENERATION\n\n");
	mc_out_printf(o, "//\n// Event Enablement Bits\n//\n");
	mc_out_printf(o, "EXTERN_C __declspec(selectany) DECLSPEC_CACHEALIGN ULONG %sEnableBits[%" PRIu32 "];\n",
		      name, nbits ? (nbits + 31) / 32 : 1);
	mc_out_printf(o, "EXTERN_C __declspec(selectany) const ULONGLONG %sKeywords[%" PRIu32 "] = {",
		      name, nbits ? nbits : 1);
	for (i = 0; i < nbits || (!nbits && !i); i++)
		mc_out_printf(o, "%s0x%" PRIx64, i ? ", " : "", nbits ? bits[i].keyword : 0);
	mc_out_printf(o, "};\nEXTERN_C __declspec(selectany) const UCHAR %sLevels[%" PRIu32 "] = {",
		      name, nbits ? nbits : 1);
	for (i = 0; i < nbits || (!nbits && !i); i++)
		mc_out_printf(o, "%s%u", i ? ", " : "", nbits ? bits[i].level : 0);
	mc_out_printf(o, "};\n");
	mc_out_printf(o, "EXTERN_C __declspec(selectany) MCGEN_TRACE_CONTEXT %s_Context = {0, (ULONG_PTR)%s_Traits, 0, 0, 0, 0, 0, 0, %" PRIu32 ", %sEnableBits, %sKeywords, %sLevels};\n\n",
		      gsym, gsym, nbits, name, name, name);
	mc_out_printf(o, "#define %sHandle (%s_Context.RegistrationHandle)\n\n", name, gsym);
	mc_out_printf(o, "#ifndef EventRegister%s\n#define EventRegister%s() McGenEventRegister(&%s, McGenControlCallbackV2, &%s_Context, &%sHandle)\n#endif\n",
		      name, name, gsym, gsym, name);
	mc_out_printf(o, "#ifndef EventRegisterByGuid%s\n#define EventRegisterByGuid%s(Guid) McGenEventRegister(&(Guid), McGenControlCallbackV2, &%s_Context, &%sHandle)\n#endif\n",
		      name, name, gsym, name);
	mc_out_printf(o, "#ifndef EventUnregister%s\n#define EventUnregister%s() McGenEventUnregister(&%sHandle)\n#endif\n\n",
		      name, name, name);
	for (i = 0; i < p->nevents; i++) {
		const struct nttrace_man_event *e = &p->events[i];
		struct sig s;
		uint32_t k;

		if (!e->symbol)
			continue;
		if (sig_of(e->tmpl, kernel, &s, &why, &bad)) {
			sig_free(&s);
			free(bits);
			free(evbit);
			return ERROR_NOT_SUPPORTED;
		}
		mc_out_printf(o, "//\n// Enablement check macro for %s\n//\n", e->symbol);
		mc_out_printf(o, "#define EventEnabled%s() _mcgen_EVENT_BIT_SET(%sEnableBits, %" PRIu32 ")\n\n",
			      e->symbol, name, evbit[i]);
		mc_out_printf(o, "//\n// Event write macros for %s\n//\n", e->symbol);
		mc_out_printf(o, "#define EventWrite%s(", e->symbol);
		macro_args(o, &s, e->symbol);
		mc_out_printf(o, ") \\\n        MCGEN_EVENT_ENABLED(%s) \\\n        ? _mcgen_TEMPLATE_FOR_%s(&%s_Context, &%s",
			      e->symbol, e->symbol, gsym, e->symbol);
		if (s.n)
			mc_out_printf(o, ", ");
		macro_args(o, &s, e->symbol);
		mc_out_printf(o, ") : 0\n");
		mc_out_printf(o, "#define EventWrite%s_AssumeEnabled(", e->symbol);
		macro_args(o, &s, e->symbol);
		mc_out_printf(o, ") \\\n        _mcgen_TEMPLATE_FOR_%s(&%s_Context, &%s", e->symbol, gsym,
			      e->symbol);
		if (s.n)
			mc_out_printf(o, ", ");
		macro_args(o, &s, e->symbol);
		mc_out_printf(o, ")\n#define _mcgen_TEMPLATE_FOR_%s %s\n\n", e->symbol, s.name);
		for (k = 0; k < *ndone; k++)
			if (!strcmp((*done)[k].name, s.name))
				break;
		if (k < *ndone) {
			sig_free(&s);
			continue;
		}
		(*done)[(*ndone)++] = s;
	}
	mc_out_printf(o, "#endif /* MCGEN_DISABLE_PROVIDER_CODE_GENERATION */\n\n");
	free(bits);
	free(evbit);
	return ERROR_SUCCESS;
}

/* The template of each signature, found again by name (for its tid). */
static const struct nttrace_man_template *tmpl_of(const struct nttrace_man *m, int kernel,
						   const char *sig)
{
	const char *why;
	const struct nttrace_man_data *bad;
	uint32_t i, k;

	for (i = 0; i < m->nprovs; i++)
		for (k = 0; k < m->provs[i].nevents; k++) {
			const struct nttrace_man_event *e = &m->provs[i].events[k];
			struct sig s;
			int same;

			if (!e->symbol || sig_of(e->tmpl, kernel, &s, &why, &bad)) {
				sig_free(&s);
				continue;
			}
			same = !strcmp(s.name, sig);
			sig_free(&s);
			if (same)
				return e->tmpl;
		}
	return NULL;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct mc_msg *x = *(const struct mc_msg *const *)a;
	const struct mc_msg *y = *(const struct mc_msg *const *)b;
	int c = strcmp(x->symbol, y->symbol);

	return c ? c : (x->id > y->id) - (x->id < y->id);
}

/*
 * A MSG_ define for each message with a name, by ID. Events that share a
 * string share its name: it is defined once, for the lowest of their IDs
 * (the rest are in the message table, unnamed), so that no define is
 * made twice. Duplicates are found by sorting the names.
 */
static void msg_defines(struct mc_out *o, const struct mc_msgs *msgs)
{
	const struct mc_msg **by = NULL;
	uint8_t *dup = NULL;
	size_t i, n = 0;

	if (!msgs || !msgs->n)
		return;
	by = calloc(msgs->n, sizeof(*by));
	dup = calloc(msgs->n, 1);
	if (!by || !dup) {
		o->oom = 1;
		goto out;
	}
	for (i = 0; i < msgs->n; i++)
		if (msgs->v[i].symbol)
			by[n++] = &msgs->v[i];
	qsort(by, n, sizeof(*by), sym_cmp);
	for (i = 1; i < n; i++)
		if (!strcmp(by[i]->symbol, by[i - 1]->symbol))
			dup[by[i] - msgs->v] = 1;
	for (i = 0; i < msgs->n; i++)
		if (msgs->v[i].symbol && !dup[i])
			mc_out_printf(o, "#define MSG_%-30s 0x%08" PRIX32 "L\n",
				      msgs->v[i].symbol, msgs->v[i].id);
out:
	free(by);
	free(dup);
}

ULONG mc_write_header(const struct nttrace_man *m, const struct mc_opts *opts,
		      const struct mc_msgs *msgs, struct mc_out *o)
{
	struct sig *done;
	uint32_t i, n = 0, nev = 0;
	ULONG err = ERROR_SUCCESS;

	for (i = 0; i < m->nprovs; i++)
		nev += m->provs[i].nevents;
	done = calloc(nev + 1, sizeof(*done));
	if (!done)
		return ERROR_NOT_ENOUGH_MEMORY;
	mc_out_printf(o, "//**********************************************************************\n");
	mc_out_printf(o, "//* This is an include file generated by nttrace mc from a manifest.   *\n");
	mc_out_printf(o, "//* It declares what the Message Compiler's (mc.exe %s) header does. *\n",
		      opts->kernel ? "-km" : "-um");
	mc_out_printf(o, "//**********************************************************************\n");
	mc_write_prelude(o, opts->kernel);
	for (i = 0; i < m->nprovs && !err; i++)
		err = provider(o, &m->provs[i], opts->kernel, &done, &n);
	if (!err) {
		mc_out_printf(o, "#ifndef MCGEN_DISABLE_PROVIDER_CODE_GENERATION\n\n");
		mc_out_printf(o, "//\n// Template Functions\n//\n");
		for (i = 0; i < n; i++)
			template_fn(o, tmpl_of(m, opts->kernel, done[i].name), &done[i]);
		mc_out_printf(o, "#endif /* MCGEN_DISABLE_PROVIDER_CODE_GENERATION */\n\n");
		mc_out_printf(o, "#if defined(__cplusplus)\n}\n#endif\n\n");
		msg_defines(o, msgs);
	}
	for (i = 0; i < n; i++)
		sig_free(&done[i]);
	free(done);
	if (!err && o->oom)
		err = ERROR_NOT_ENOUGH_MEMORY;
	return err;
}
