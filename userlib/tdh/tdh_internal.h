/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What the files of the TDH implementation (userlib/tdh/tdh*.c) share:
 * UTF-16 text building, the sizes of fields by type, the walk through an
 * event's data, and the TraceLogging schema decoder.
 */
#ifndef NTTRACE_TDH_INTERNAL_H
#define NTTRACE_TDH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <nttrace/tdh.h>

#include "../nt/nt_internal.h"

/*
 * Structures nested in structures: how deep a TraceLogging schema may go
 * (top-level fields are at depth 0). Windows documents no limit; this one
 * bounds the decoder's recursion.
 */
#define NTTRACE_TDH_MAX_DEPTH	16

/*
 * Values visited in one walk through an event's data, and in one
 * rendering of it (userlib/tools/render_tdh.c): far more than 64 KB of
 * data can hold. Values of size 0 (structures of nothing, arrays of none)
 * in arrays of structures of arrays, each of up to 65535, could otherwise
 * make a few bytes of schema take 65535 to the power of its depth steps.
 */
#define NTTRACE_TDH_MAX_VISITS	(1U << 20)

/* PROPERTY_DATA_DESCRIPTOR.ArrayIndex for "the whole property". */
#define NTTRACE_TDH_ALL		0xFFFFFFFFU

/*
 * UTF-16 text written into @buf (up to @cap WCHARs), or only counted when
 * @buf is NULL; @n counts every unit, written or not, so that one pass
 * with no buffer gives the size the second needs.
 */
struct nttrace_tdh_text {
	WCHAR *buf;
	size_t cap;
	size_t n;
};

void nttrace_tdh_put(struct nttrace_tdh_text *t, uint32_t cp);
void nttrace_tdh_puts(struct nttrace_tdh_text *t, const char *ascii);
/*
 * @n bytes of UTF-8. A byte that starts no valid sequence becomes U+FFFD,
 * or, with @latin1, the character of its value (text in an unknown
 * single-byte code page reads best that way).
 */
void nttrace_tdh_put_utf8(struct nttrace_tdh_text *t, const uint8_t *s, size_t n, int latin1);

/*
 * @w (UTF-16, as every PWSTR) as UTF-8, newly allocated: for paths handed
 * to Linux. ERROR_INVALID_PARAMETER when NULL, empty or of @max units or
 * more; an unpaired surrogate becomes U+FFFD.
 */
ULONG nttrace_tdh_utf8(const WCHAR *w, size_t max, char **out);

/* Little-endian integers of @n (1, 2, 4 or 8) bytes. */
uint64_t nttrace_tdh_le(const uint8_t *p, unsigned int n);

/*
 * The size of a value of type @in when it is fixed (EVENT_PROPERTY_INFO's
 * length for such a type), @psz being the event's pointer size; 0 else.
 */
unsigned int nttrace_tdh_fixed_size(USHORT in, uint32_t psz);

/*
 * The bytes one value of type @in takes at @d (@room bytes left), @length
 * being the property's length (characters for UTF-16 strings, bytes
 * otherwise; 0: none) and @psz the event's pointer size.
 * ERROR_EVT_INVALID_EVENT_DATA when it runs past @room,
 * ERROR_INVALID_PARAMETER for a type that has no size.
 */
ULONG nttrace_tdh_item_size(USHORT in, USHORT out, uint32_t length, const uint8_t *d,
			    uint32_t room, uint32_t psz, uint32_t *size);

/*
 * Where the property @path (@n steps, as TdhGetProperty takes them) is in
 * the event's data @d (@len bytes), as @tei describes it: its offset and
 * size. ERROR_NOT_FOUND for a name @tei does not have,
 * ERROR_INVALID_PARAMETER for an ArrayIndex past the array or a path going
 * on below a field that is no structure, ERROR_EVT_INVALID_EVENT_DATA when
 * the data ends before the property does.
 */
ULONG nttrace_tdh_locate(const TRACE_EVENT_INFO *tei, const uint8_t *d, uint32_t len,
			 uint32_t psz, const PROPERTY_DATA_DESCRIPTOR *path, ULONG n,
			 uint32_t *off, uint32_t *size);

/*
 * The TRACE_EVENT_INFO of a TraceLogging event (one with an
 * EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL item), newly allocated, and its
 * size. ERROR_NOT_FOUND when @er has no such item, ERROR_INVALID_DATA when
 * it is damaged, ERROR_NOT_ENOUGH_MEMORY.
 */
ULONG nttrace_tdh_tlg_info(const EVENT_RECORD *er, uint32_t psz, TRACE_EVENT_INFO **tei,
			   ULONG *size);

/*
 * The TRACE_EVENT_INFO of a classic event of the kernel's MOF classes
 * (DecodingSourceWbem, from userlib/etl/kernel_classes.c's table), newly
 * allocated. ERROR_NOT_FOUND for another event or a class version whose
 * layout is not known, ERROR_NOT_ENOUGH_MEMORY.
 */
ULONG nttrace_tdh_mof_info(const EVENT_RECORD *er, uint32_t psz, TRACE_EVENT_INFO **tei,
			   ULONG *size);

#endif /* NTTRACE_TDH_INTERNAL_H */
