// SPDX-License-Identifier: LGPL-2.1
/*
 * Finding a property in an event's data, as a TRACE_EVENT_INFO describes
 * it (TdhGetPropertySize, TdhGetProperty). The data holds the top-level
 * properties one after the other, each as many values as its count says;
 * a structure's value is its members' values in turn. A count or a length
 * may be another property's value (PropertyParamCount, PropertyParamLength),
 * one met before in the same walk.
 *
 * How big a value of each type is: the Windows SDK's tdh.h says it for
 * each TDH_INTYPE (its comments on enum _TDH_IN_TYPE). Nothing here
 * trusts the description or the data: every read is bounded by the data's
 * length, indices by PropertyCount, recursion by NTTRACE_TDH_MAX_DEPTH,
 * and the number of values visited by a budget (values of size 0, in
 * arrays of structures of arrays, could otherwise take forever).
 */
#include <stdlib.h>
#include <string.h>

#include "tdh_internal.h"

unsigned int nttrace_tdh_fixed_size(USHORT in, uint32_t psz)
{
	switch (in) {
	case TDH_INTYPE_INT8: case TDH_INTYPE_UINT8:
		return 1;
	case TDH_INTYPE_INT16: case TDH_INTYPE_UINT16:
		return 2;
	case TDH_INTYPE_INT32: case TDH_INTYPE_UINT32: case TDH_INTYPE_HEXINT32:
	case TDH_INTYPE_FLOAT: case TDH_INTYPE_BOOLEAN:
		return 4;
	case TDH_INTYPE_INT64: case TDH_INTYPE_UINT64: case TDH_INTYPE_HEXINT64:
	case TDH_INTYPE_DOUBLE: case TDH_INTYPE_FILETIME:
		return 8;
	case TDH_INTYPE_GUID: case TDH_INTYPE_SYSTEMTIME:
		return 16;
	case TDH_INTYPE_POINTER:
		return psz;
	}
	return 0;
}

ULONG nttrace_tdh_item_size(USHORT in, USHORT out, uint32_t length, const uint8_t *d,
			    uint32_t room, uint32_t psz, uint32_t *size)
{
	uint32_t n, i;

	switch (in) {
	case TDH_INTYPE_INT8: case TDH_INTYPE_UINT8: case TDH_INTYPE_ANSICHAR:
		n = 1;
		break;
	case TDH_INTYPE_INT16: case TDH_INTYPE_UINT16: case TDH_INTYPE_UNICODECHAR:
		n = 2;
		break;
	case TDH_INTYPE_INT32: case TDH_INTYPE_UINT32: case TDH_INTYPE_HEXINT32:
	case TDH_INTYPE_FLOAT: case TDH_INTYPE_BOOLEAN:
		n = 4;
		break;
	case TDH_INTYPE_INT64: case TDH_INTYPE_UINT64: case TDH_INTYPE_HEXINT64:
	case TDH_INTYPE_DOUBLE: case TDH_INTYPE_FILETIME:
		n = 8;
		break;
	case TDH_INTYPE_GUID: case TDH_INTYPE_SYSTEMTIME:
		n = 16;
		break;
	case TDH_INTYPE_POINTER: case TDH_INTYPE_SIZET:
		n = psz;
		break;
	case TDH_INTYPE_UNICODESTRING:
		if (length) {
			n = 2 * length;
			break;
		}
		/* To its NUL; a last string without one, to the data's end. */
		for (i = 0; i + 1 < room && (d[i] || d[i + 1]); i += 2)
			;
		n = i + 1 < room ? i + 2 : room;
		break;
	case TDH_INTYPE_ANSISTRING:
		if (length) {
			n = length;
			break;
		}
		for (i = 0; i < room && d[i]; i++)
			;
		n = i < room ? i + 1 : room;
		break;
	case TDH_INTYPE_NONNULLTERMINATEDSTRING: case TDH_INTYPE_NONNULLTERMINATEDANSISTRING:
		n = room;
		break;
	case TDH_INTYPE_BINARY:
		/* With no length, only an IPv6 address has a size of its own. */
		n = !length && out == TDH_OUTTYPE_IPV6 ? 16 : length;
		break;
	case TDH_INTYPE_MANIFEST_COUNTEDSTRING: case TDH_INTYPE_MANIFEST_COUNTEDANSISTRING:
	case TDH_INTYPE_MANIFEST_COUNTEDBINARY: case TDH_INTYPE_COUNTEDSTRING:
	case TDH_INTYPE_COUNTEDANSISTRING:
		if (room < 2)
			return ERROR_EVT_INVALID_EVENT_DATA;
		n = 2 + (uint32_t)nttrace_tdh_le(d, 2);
		break;
	case TDH_INTYPE_REVERSEDCOUNTEDSTRING: case TDH_INTYPE_REVERSEDCOUNTEDANSISTRING:
		if (room < 2)
			return ERROR_EVT_INVALID_EVENT_DATA;
		n = 2 + (d[0] << 8 | d[1]);
		break;
	case TDH_INTYPE_HEXDUMP:
		if (room < 4)
			return ERROR_EVT_INVALID_EVENT_DATA;
		n = (uint32_t)nttrace_tdh_le(d, 4);
		if (n > room - 4)
			return ERROR_EVT_INVALID_EVENT_DATA;
		n += 4;
		break;
	case TDH_INTYPE_SID: case TDH_INTYPE_WBEMSID:
		/*
		 * A SID: revision, count of sub-authorities, 6 bytes of
		 * authority, 4 bytes a sub-authority. WBEMSID puts a
		 * TOKEN_USER (a pointer and a DWORD, padded to pointers)
		 * first.
		 */
		i = in == TDH_INTYPE_WBEMSID ? 2 * psz : 0;
		/*
		 * A WBEMSID whose first ULONG is 0 is no SID and is that
		 * ULONG alone (the kernel's MOF events; the size PerfView
		 * takes, as userlib/etl/kernel_classes.c does).
		 */
		if (i && room >= 4 && !nttrace_tdh_le(d, 4)) {
			n = 4;
			break;
		}
		if (room < i + 8)
			return ERROR_EVT_INVALID_EVENT_DATA;
		n = i + 8 + 4 * d[i + 1];
		break;
	default:
		return ERROR_INVALID_PARAMETER;
	}
	if (n > room)
		return ERROR_EVT_INVALID_EVENT_DATA;
	*size = n;
	return ERROR_SUCCESS;
}

struct walk {
	const TRACE_EVENT_INFO *tei;
	const uint8_t *d;
	uint32_t len;
	uint32_t psz;
	uint32_t visits;
	uint64_t *vals;	/* each property's value when last met (counts, lengths) */
};

static int is_integer(USHORT in)
{
	switch (in) {
	case TDH_INTYPE_INT8: case TDH_INTYPE_UINT8: case TDH_INTYPE_INT16:
	case TDH_INTYPE_UINT16: case TDH_INTYPE_INT32: case TDH_INTYPE_UINT32:
	case TDH_INTYPE_INT64: case TDH_INTYPE_UINT64: case TDH_INTYPE_HEXINT32:
	case TDH_INTYPE_HEXINT64: case TDH_INTYPE_POINTER: case TDH_INTYPE_SIZET:
		return 1;
	}
	return 0;
}

/* The value another property gave: a count or a length. */
static ULONG param(struct walk *w, USHORT index, uint32_t *v)
{
	if (index >= w->tei->PropertyCount)
		return ERROR_INVALID_DATA;
	*v = w->vals[index] > 0xFFFF ? 0xFFFF : (uint32_t)w->vals[index];
	return ERROR_SUCCESS;
}

static ULONG count_of(struct walk *w, const EVENT_PROPERTY_INFO *p, uint32_t *count)
{
	if (p->Flags & PropertyParamCount)
		return param(w, p->countPropertyIndex, count);
	*count = p->count;
	return ERROR_SUCCESS;
}

static ULONG extent(struct walk *w, ULONG i, uint32_t off, int depth, uint32_t first,
		    uint32_t *skip, uint32_t *size);

/* The size of one value of property @i at @off. */
static ULONG element(struct walk *w, ULONG i, uint32_t off, int depth, uint32_t *size)
{
	const EVENT_PROPERTY_INFO *p = &w->tei->EventPropertyInfoArray[i];
	uint32_t length, pos = off, s, j;
	ULONG err;

	if (++w->visits > NTTRACE_TDH_MAX_VISITS)
		return ERROR_EVT_INVALID_EVENT_DATA;
	if (p->Flags & PropertyStruct) {
		ULONG first = p->structType.StructStartIndex;
		ULONG n = p->structType.NumOfStructMembers;

		if (depth >= NTTRACE_TDH_MAX_DEPTH || first + n > w->tei->PropertyCount)
			return ERROR_INVALID_DATA;
		for (j = first; j < first + n; j++) {
			err = extent(w, j, pos, depth + 1, 0, NULL, &s);
			if (err)
				return err;
			pos += s;
		}
		*size = pos - off;
		return ERROR_SUCCESS;
	}
	length = p->length;
	if (p->Flags & PropertyParamLength) {
		err = param(w, p->lengthPropertyIndex, &length);
		if (err)
			return err;
	}
	err = nttrace_tdh_item_size(p->nonStructType.InType, p->nonStructType.OutType, length,
				    w->d + off, w->len - off, w->psz, size);
	/* A type with no size, in a description: the description's fault. */
	return err == ERROR_INVALID_PARAMETER ? ERROR_INVALID_DATA : err;
}

/*
 * The bytes property @i takes at @off: all its values, or, with @skip, the
 * @first values (*skip) and the one after them (*size).
 */
static ULONG extent(struct walk *w, ULONG i, uint32_t off, int depth, uint32_t first,
		    uint32_t *skip, uint32_t *size)
{
	const EVENT_PROPERTY_INFO *p = &w->tei->EventPropertyInfoArray[i];
	uint32_t count, pos = off, s = 0, e;
	ULONG err = count_of(w, p, &count);

	if (err)
		return err;
	if (skip && first >= count)
		return ERROR_INVALID_PARAMETER;
	for (e = 0; e < count; e++) {
		err = element(w, i, pos, depth, &s);
		if (err)
			return err;
		if (skip && e == first) {
			*skip = pos - off;
			*size = s;
			return ERROR_SUCCESS;
		}
		pos += s;
	}
	/* A scalar integer: what a later count or length may refer to. */
	if (count == 1 && !(p->Flags & PropertyStruct) && is_integer(p->nonStructType.InType) &&
	    s <= 8)
		w->vals[i] = nttrace_tdh_le(w->d + off, s);
	*size = pos - off;
	return ERROR_SUCCESS;
}

static int same_name(const TRACE_EVENT_INFO *tei, ULONG offset, const WCHAR *name)
{
	const uint8_t *s = (const uint8_t *)tei + offset;
	size_t i;

	if (!offset)
		return 0;
	for (i = 0;; i++) {
		WCHAR c;

		memcpy(&c, s + 2 * i, sizeof(c));
		if (c != name[i])
			return 0;
		if (!c)
			return 1;
	}
}

ULONG nttrace_tdh_locate(const TRACE_EVENT_INFO *tei, const uint8_t *d, uint32_t len,
			 uint32_t psz, const PROPERTY_DATA_DESCRIPTOR *path, ULONG n,
			 uint32_t *off, uint32_t *size)
{
	struct walk w = { tei, d, len, psz, 0, NULL };
	ULONG first = 0, members = tei->TopLevelPropertyCount, k, i;
	uint32_t pos = 0, s, skip;
	ULONG err = ERROR_SUCCESS;

	if (members > tei->PropertyCount)
		return ERROR_INVALID_DATA;
	w.vals = calloc(tei->PropertyCount ? tei->PropertyCount : 1, sizeof(*w.vals));
	if (!w.vals)
		return ERROR_NOT_ENOUGH_MEMORY;
	for (k = 0; k < n && !err; k++) {
		const WCHAR *name = (const WCHAR *)(uintptr_t)path[k].PropertyName;
		ULONG index = path[k].ArrayIndex;
		const EVENT_PROPERTY_INFO *p;

		if (!name) {
			err = ERROR_INVALID_PARAMETER;
			break;
		}
		/* The properties before it, in this structure's value. */
		for (i = first; i < first + members; i++) {
			if (same_name(tei, tei->EventPropertyInfoArray[i].NameOffset, name))
				break;
			err = extent(&w, i, pos, k, 0, NULL, &s);
			if (err)
				break;
			pos += s;
		}
		if (err)
			break;
		if (i == first + members) {
			err = ERROR_NOT_FOUND;
			break;
		}
		p = &tei->EventPropertyInfoArray[i];
		if (k + 1 == n && index == NTTRACE_TDH_ALL) {
			err = extent(&w, i, pos, k, 0, NULL, size);
			*off = pos;
			break;
		}
		if (k + 1 < n && !(p->Flags & PropertyStruct)) {
			err = ERROR_INVALID_PARAMETER;
			break;
		}
		/* One value: of the last step, or the structure to go into. */
		err = extent(&w, i, pos, k, index == NTTRACE_TDH_ALL ? 0 : index, &skip, &s);
		if (err)
			break;
		pos += skip;
		if (k + 1 == n) {
			*off = pos;
			*size = s;
		} else if (k + 1 >= NTTRACE_TDH_MAX_DEPTH) {
			err = ERROR_INVALID_PARAMETER;
		} else {
			first = p->structType.StructStartIndex;
			members = p->structType.NumOfStructMembers;
			if (first + members > tei->PropertyCount)
				err = ERROR_INVALID_DATA;
		}
	}
	free(w.vals);
	return err;
}
