// SPDX-License-Identifier: LGPL-2.1
/*
 * TDH's DecodingSourceWbem: a classic event of the NT Kernel Logger's MOF
 * classes (Process, Thread, Image, DiskIo, ...), described from the table
 * `nttrace dump` reads them with (userlib/etl/kernel_classes.c: one layout
 * per class version, each from Microsoft's documentation of the class).
 * As Windows describes such an event: ProviderGuid and EventGuid the
 * class's GUID, TaskNameOffset the class ("Process"), OpcodeNameOffset the
 * event type ("DCStart"), ProviderNameOffset "MSNT_SystemTrace" (the
 * kernel's MOF provider class), EventNameOffset is ActivityIDNameOffset for
 * WBEM and stays 0; one property per MOF property.
 *
 * The table's types as TDH's: the integers as such (hex ones with the hex
 * out-type), the Pointer qualifier as TDH_INTYPE_POINTER, SizeT as
 * TDH_INTYPE_SIZET, Sid as TDH_INTYPE_WBEMSID (a TOKEN_USER, then the SID),
 * strings as ANSI or UTF-16 strings (of fixed length when the MOF gives
 * Max), bytes as binary of that length, addresses and ports with their
 * out-types, WmiTime as a 64-bit integer. A stack (StackWalk's pointers to
 * the end of the payload) is an array of pointers whose count this event's
 * size gives, when the fields before it have fixed sizes; else the event
 * is not described (ERROR_NOT_FOUND: no partial layout).
 */
#include <stdlib.h>
#include <string.h>

#include <nttrace/etl.h>

#include "tdh_internal.h"

struct mof_type {
	USHORT in, out;
};

static struct mof_type mof_type(uint8_t t)
{
	switch (t) {
	case NTTRACE_KT_U8: return (struct mof_type){ TDH_INTYPE_UINT8, 0 };
	case NTTRACE_KT_I8: return (struct mof_type){ TDH_INTYPE_INT8, 0 };
	case NTTRACE_KT_X8: return (struct mof_type){ TDH_INTYPE_UINT8, TDH_OUTTYPE_HEXINT8 };
	case NTTRACE_KT_U16: return (struct mof_type){ TDH_INTYPE_UINT16, 0 };
	case NTTRACE_KT_I16: return (struct mof_type){ TDH_INTYPE_INT16, 0 };
	case NTTRACE_KT_X16: return (struct mof_type){ TDH_INTYPE_UINT16, TDH_OUTTYPE_HEXINT16 };
	case NTTRACE_KT_U32: return (struct mof_type){ TDH_INTYPE_UINT32, 0 };
	case NTTRACE_KT_I32: return (struct mof_type){ TDH_INTYPE_INT32, 0 };
	case NTTRACE_KT_X32: return (struct mof_type){ TDH_INTYPE_HEXINT32, 0 };
	case NTTRACE_KT_U64: return (struct mof_type){ TDH_INTYPE_UINT64, 0 };
	case NTTRACE_KT_I64: return (struct mof_type){ TDH_INTYPE_INT64, 0 };
	case NTTRACE_KT_X64: return (struct mof_type){ TDH_INTYPE_HEXINT64, 0 };
	case NTTRACE_KT_POINTER: return (struct mof_type){ TDH_INTYPE_POINTER, 0 };
	case NTTRACE_KT_SIZET: return (struct mof_type){ TDH_INTYPE_SIZET, 0 };
	case NTTRACE_KT_SID: return (struct mof_type){ TDH_INTYPE_WBEMSID, 0 };
	case NTTRACE_KT_STRING: return (struct mof_type){ TDH_INTYPE_ANSISTRING, 0 };
	case NTTRACE_KT_WSTRING: return (struct mof_type){ TDH_INTYPE_UNICODESTRING, 0 };
	case NTTRACE_KT_WCHARS: return (struct mof_type){ TDH_INTYPE_UNICODESTRING, 0 };
	case NTTRACE_KT_BYTES: return (struct mof_type){ TDH_INTYPE_BINARY, 0 };
	case NTTRACE_KT_GUID: return (struct mof_type){ TDH_INTYPE_GUID, 0 };
	case NTTRACE_KT_IPV4: return (struct mof_type){ TDH_INTYPE_UINT32, TDH_OUTTYPE_IPV4 };
	case NTTRACE_KT_IPV6: return (struct mof_type){ TDH_INTYPE_BINARY, TDH_OUTTYPE_IPV6 };
	case NTTRACE_KT_PORT: return (struct mof_type){ TDH_INTYPE_UINT16, TDH_OUTTYPE_PORT };
	case NTTRACE_KT_WMITIME: return (struct mof_type){ TDH_INTYPE_UINT64, 0 };
	case NTTRACE_KT_POINTERS: return (struct mof_type){ TDH_INTYPE_POINTER, 0 };
	default: return (struct mof_type){ 0, 0 };
	}
}

/* A field's bytes when they do not depend on the data; 0 when they do. */
static uint32_t fixed_size(const struct nttrace_kernel_field *f, uint32_t psz)
{
	switch (f->type) {
	case NTTRACE_KT_U8: case NTTRACE_KT_I8: case NTTRACE_KT_X8:
		return 1;
	case NTTRACE_KT_U16: case NTTRACE_KT_I16: case NTTRACE_KT_X16: case NTTRACE_KT_PORT:
		return 2;
	case NTTRACE_KT_U32: case NTTRACE_KT_I32: case NTTRACE_KT_X32: case NTTRACE_KT_IPV4:
		return 4;
	case NTTRACE_KT_U64: case NTTRACE_KT_I64: case NTTRACE_KT_X64: case NTTRACE_KT_WMITIME:
		return 8;
	case NTTRACE_KT_POINTER: case NTTRACE_KT_SIZET:
		return psz;
	case NTTRACE_KT_GUID: case NTTRACE_KT_IPV6:
		return 16;
	case NTTRACE_KT_WCHARS:
		return 2U * f->count;
	case NTTRACE_KT_BYTES:
		return f->count;
	default:
		return 0;
	}
}

/* @s (ASCII) as UTF-16 at @base + *@at; its offset. */
static ULONG put(uint8_t *base, size_t *at, const char *s, size_t n)
{
	struct nttrace_tdh_text t = { .buf = (WCHAR *)(base + *at), .cap = n + 1 };
	ULONG off = (ULONG)*at;

	nttrace_tdh_put_utf8(&t, (const uint8_t *)s, n, 1);
	nttrace_tdh_put(&t, 0);
	*at += 2 * (n + 1);
	return off;
}

ULONG nttrace_tdh_mof_info(const EVENT_RECORD *er, uint32_t psz, TRACE_EVENT_INFO **out,
			   ULONG *out_size)
{
	static const char provider[] = "MSNT_SystemTrace";
	const EVENT_HEADER *eh = &er->EventHeader;
	const struct nttrace_kernel_class *c;
	const char *slash;
	uint32_t at_data = 0, stack = 0;
	TRACE_EVENT_INFO *tei;
	size_t size, at, i;

	if (!(eh->Flags & EVENT_HEADER_FLAG_CLASSIC_HEADER))
		return ERROR_NOT_FOUND;
	c = nttrace_kernel_class_by_guid(&eh->ProviderId, eh->EventDescriptor.Opcode,
					 eh->EventDescriptor.Version);
	if (!c || !c->fields || !c->nr_fields)
		return ERROR_NOT_FOUND;
	/* The stack's count, from the fixed fields before it. */
	for (i = 0; i < c->nr_fields; i++) {
		const struct nttrace_kernel_field *f = &c->fields[i];

		if (f->type == NTTRACE_KT_POINTERS) {
			if (i + 1 != c->nr_fields || at_data > er->UserDataLength)
				return ERROR_NOT_FOUND;
			stack = (er->UserDataLength - at_data) / psz;
			if (stack > 0xFFFF)
				return ERROR_NOT_FOUND;
			break;
		}
		if (!fixed_size(f, psz))
			at_data = UINT32_MAX;
		else if (at_data != UINT32_MAX)
			at_data += fixed_size(f, psz);
	}
	slash = strchr(c->event_name, '/');
	size = offsetof(TRACE_EVENT_INFO, EventPropertyInfoArray) +
	       c->nr_fields * sizeof(EVENT_PROPERTY_INFO);
	if (size < sizeof(TRACE_EVENT_INFO))
		size = sizeof(TRACE_EVENT_INFO);
	at = size;
	size += 2 * (sizeof(provider) + strlen(c->event_name) + 2);
	for (i = 0; i < c->nr_fields; i++)
		size += 2 * (strlen(c->fields[i].name) + 1);
	tei = calloc(1, size);
	if (!tei)
		return ERROR_NOT_ENOUGH_MEMORY;
	tei->ProviderGuid = eh->ProviderId;
	tei->EventGuid = eh->ProviderId;
	tei->EventDescriptor = eh->EventDescriptor;
	tei->DecodingSource = DecodingSourceWbem;
	tei->PropertyCount = c->nr_fields;
	tei->TopLevelPropertyCount = c->nr_fields;
	tei->ProviderNameOffset = put((uint8_t *)tei, &at, provider, sizeof(provider) - 1);
	if (slash) {
		tei->TaskNameOffset = put((uint8_t *)tei, &at, c->event_name,
					  slash - c->event_name);
		tei->OpcodeNameOffset = put((uint8_t *)tei, &at, slash + 1, strlen(slash + 1));
	} else {
		tei->TaskNameOffset = put((uint8_t *)tei, &at, c->event_name,
					  strlen(c->event_name));
	}
	for (i = 0; i < c->nr_fields; i++) {
		const struct nttrace_kernel_field *f = &c->fields[i];
		EVENT_PROPERTY_INFO *e = &tei->EventPropertyInfoArray[i];
		struct mof_type t = mof_type(f->type);

		e->NameOffset = put((uint8_t *)tei, &at, f->name, strlen(f->name));
		e->nonStructType.InType = t.in;
		e->nonStructType.OutType = t.out;
		e->count = 1;
		if (f->type == NTTRACE_KT_POINTERS) {
			e->Flags = PropertyParamFixedCount;
			e->count = (USHORT)stack;
		} else if (f->type == NTTRACE_KT_WCHARS || f->type == NTTRACE_KT_BYTES) {
			e->Flags = PropertyParamFixedLength;
			e->length = f->count;
		} else if (f->type == NTTRACE_KT_IPV6) {
			e->length = 16;
		} else {
			e->length = (USHORT)fixed_size(f, psz);
		}
	}
	*out = tei;
	*out_size = (ULONG)size;
	return ERROR_SUCCESS;
}
