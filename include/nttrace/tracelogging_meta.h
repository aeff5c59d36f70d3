/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * nttrace user library: how TraceLoggingWrite builds an event's metadata
 * at compile time and its data descriptors at run time
 * (<nttrace/traceloggingprovider.h>); not for direct use. Kernel mode
 * uses it as it is: what differs is the shim's (traceloggingprovider.h
 * says what it gives), the rest needs only the fixed-size integers of
 * <stdint.h> or <linux/types.h>.
 *
 * Every argument of TraceLoggingWrite expands to a tuple of one of two
 * shapes, whatever the wrapper macro:
 *
 *   (opt, haslevel, level, hasopcode, opcode, haschannel, channel, keyword, eventtag)
 *   (fld, fill, name, intype, outtype, tags, ccount, ndesc, a, b, c)
 *
 * An option sets the event descriptor (the last level, opcode and channel
 * given win; keywords and event tags are OR'ed, as the SDK documents). A
 * field adds its name and type bytes to the event's metadata and @ndesc
 * data descriptors, filled by NTTRACE_TL_FILL_<fill>(a, b, c). @intype
 * carries the count bits: 0x20 a constant count (@ccount, in the metadata),
 * 0x40 a variable count (a UINT16 before the values, in the data).
 *
 * TraceLoggingWrite runs NTTRACE_TL_FOR over the arguments once per
 * phase: the enumerators (level, opcode, channel and each field's first
 * descriptor, chained from argument to argument), the keyword and event
 * tag expressions, the metadata struct's members and their initialisers,
 * and the statements that fill the descriptors.
 *
 * The event metadata (TraceLoggingDynamic.h's EventMetadata, Microsoft's
 * public tracelogging repository): UINT16 size counting itself, the event
 * tags, the name (nul-terminated), then for each field its name, InType
 * byte (0x80: an OutType byte follows), OutType byte (0x80: field tags
 * follow), tags, and the UINT16 constant count. Tags are 28 bits sent 7 at
 * a time, most significant first, 0x80 on every byte but the last; an
 * event without tags has one 0x00 byte. They take as few bytes as the
 * value needs, as TraceLoggingDynamic.h's AddTags writes them (the SDK's
 * C++ macros use 4 bytes where 3 would do, its C macros always 2).
 */
#ifndef NTTRACE_TRACELOGGING_META_H
#define NTTRACE_TRACELOGGING_META_H

/* Its types and helpers (which include this file back: guarded). */
#include <nttrace/traceloggingprovider.h>

#include <nttrace/tracelogging_foreach.h>

#define NTTRACE_TL_CAT(a, b)		NTTRACE_TL_CAT_(a, b)
#define NTTRACE_TL_CAT_(a, b)		a##b
#define NTTRACE_TL_CALL(m, args)	m args
#define NTTRACE_TL_UNPAREN(x)		NTTRACE_TL_UNPAREN_ x
#define NTTRACE_TL_UNPAREN_(...)	__VA_ARGS__
#define NTTRACE_TL_PACKED		__attribute__((packed))

/* ---- the bytes after a name: InType, OutType, tags, constant count ---- */

/* The bytes a 28-bit tag value takes (0: none). */
#define NTTRACE_TL_TAGLEN(t)							\
	((t) == 0 ? 0 : ((t) & 0x1FFFFF) == 0 ? 1 : ((t) & 0x3FFF) == 0 ? 2 :	\
	 ((t) & 0x7F) == 0 ? 3 : 4)
/* Byte @j of tag @t's @tl bytes (the shift kept in range for unused @j). */
#define NTTRACE_TL_TAGBYTE(t, tl, j)						\
	((((t) >> (21 - 7 * ((j) & 3))) & 0x7F) | ((j) + 1 < (tl) ? 0x80 : 0))

#define NTTRACE_TL_HASOUT(o, t)		((o) != 0 || (t) != 0)
#define NTTRACE_TL_HASCC(i)		(((i) & 0x60) == 0x20)
#define NTTRACE_TL_TAIL_LEN(i, o, t)						\
	(1 + NTTRACE_TL_HASOUT(o, t) + NTTRACE_TL_TAGLEN(t) + 2 * NTTRACE_TL_HASCC(i))
/* Byte @n of a field's tail; H and T are the OutType's and tags' lengths. */
#define NTTRACE_TL_TAIL_BYTE(n, i, o, t, c)					\
	NTTRACE_TL_TAIL_BYTE_(n, i, o, t, c, NTTRACE_TL_HASOUT(o, t), NTTRACE_TL_TAGLEN(t))
#define NTTRACE_TL_TAIL_BYTE_(n, i, o, t, c, H, T)				\
	((uint8_t)((n) == 0 ? ((i) | ((H) ? 0x80 : 0)) :				\
		 (n) == 1 && (H) ? ((o) | ((t) ? 0x80 : 0)) :			\
		 (n) - 1 - (H) < (T) ? NTTRACE_TL_TAGBYTE(t, T, (n) - 1 - (H)) :	\
		 (n) - 1 - (H) == (T) ? ((c) & 0xFF) : (((c) >> 8) & 0xFF)))
/* The event's tags: one 0x00 byte for none. */
#define NTTRACE_TL_ETAG_LEN(t)		(NTTRACE_TL_TAGLEN(t) ? NTTRACE_TL_TAGLEN(t) : 1)
#define NTTRACE_TL_ETAG_BYTE(n, t)	((uint8_t)NTTRACE_TL_TAGBYTE(t, NTTRACE_TL_TAGLEN(t), n))

#ifdef __cplusplus
/*
 * C++: a tail is an nttrace_tl_bytes<L>, made by a constexpr function
 * with one initialiser per byte (an index pack of L). C cannot size an
 * initialiser list by a constant expression: see below.
 */
template <unsigned L> struct nttrace_tl_bytes {
	uint8_t b[L];
};
template <unsigned... N> struct nttrace_tl_ix {};
template <unsigned L, unsigned... N> struct nttrace_tl_mkix : nttrace_tl_mkix<L - 1, L - 1, N...> {};
template <unsigned... N> struct nttrace_tl_mkix<0, N...> {
	typedef nttrace_tl_ix<N...> type;
};
template <unsigned... N>
constexpr nttrace_tl_bytes<sizeof...(N)> nttrace_tl_tail(nttrace_tl_ix<N...>, unsigned i,
							 unsigned o, unsigned t, unsigned c)
{
	return { { NTTRACE_TL_TAIL_BYTE(N, i, o, t, c)... } };
}
template <unsigned... N>
constexpr nttrace_tl_bytes<sizeof...(N)> nttrace_tl_etag(nttrace_tl_ix<N...>, unsigned t)
{
	return { { NTTRACE_TL_ETAG_BYTE(N, t)... } };
}
#define NTTRACE_TL_BYTES_MEMBER(id, len)	nttrace_tl_bytes<(len)> id
#define NTTRACE_TL_TAIL_INIT(i, o, t, c)					\
	nttrace_tl_tail(nttrace_tl_mkix<NTTRACE_TL_TAIL_LEN(i, o, t)>::type(), i, o, t, c)
#define NTTRACE_TL_ETAG_INIT(t)							\
	nttrace_tl_etag(nttrace_tl_mkix<NTTRACE_TL_ETAG_LEN(t)>::type(), t)
#define NTTRACE_TL_INIT_BEGIN
#define NTTRACE_TL_INIT_END
#else
/*
 * C: a tail is a uint8_t array of its length, initialised by designators
 * 0 to 7 (the longest tail: InType, OutType, 4 tag bytes, a count; event
 * tags: 0 to 3), each
 * past the length pointing at byte 0 again with byte 0's value. The
 * repeats are what -Woverride-init (-Wextra) reports: silenced around the
 * metadata's definition only.
 */
#define NTTRACE_TL_BYTES_MEMBER(id, len)	uint8_t id[len]
#define NTTRACE_TL_IX(n, len)			((n) < (len) ? (n) : 0)
#define NTTRACE_TL_TB(n, L, i, o, t, c)						\
	[NTTRACE_TL_IX(n, L)] = NTTRACE_TL_TAIL_BYTE(NTTRACE_TL_IX(n, L), i, o, t, c)
#define NTTRACE_TL_TAIL_INIT(i, o, t, c)					\
	NTTRACE_TL_TAIL_INIT_(NTTRACE_TL_TAIL_LEN(i, o, t), i, o, t, c)
#define NTTRACE_TL_TAIL_INIT_(L, i, o, t, c)					\
	{ NTTRACE_TL_TB(0, L, i, o, t, c), NTTRACE_TL_TB(1, L, i, o, t, c),	\
	  NTTRACE_TL_TB(2, L, i, o, t, c), NTTRACE_TL_TB(3, L, i, o, t, c),	\
	  NTTRACE_TL_TB(4, L, i, o, t, c), NTTRACE_TL_TB(5, L, i, o, t, c),	\
	  NTTRACE_TL_TB(6, L, i, o, t, c), NTTRACE_TL_TB(7, L, i, o, t, c) }
#define NTTRACE_TL_EB(n, L, t)							\
	[NTTRACE_TL_IX(n, L)] = NTTRACE_TL_ETAG_BYTE(NTTRACE_TL_IX(n, L), t)
#define NTTRACE_TL_ETAG_INIT(t)		NTTRACE_TL_ETAG_INIT_(NTTRACE_TL_ETAG_LEN(t), t)
#define NTTRACE_TL_ETAG_INIT_(L, t)						\
	{ NTTRACE_TL_EB(0, L, t), NTTRACE_TL_EB(1, L, t), NTTRACE_TL_EB(2, L, t),	\
	  NTTRACE_TL_EB(3, L, t) }
#ifdef __clang__
#define NTTRACE_TL_INIT_BEGIN							\
	_Pragma("clang diagnostic push")					\
	_Pragma("clang diagnostic ignored \"-Winitializer-overrides\"")
#define NTTRACE_TL_INIT_END	_Pragma("clang diagnostic pop")
#else
#define NTTRACE_TL_INIT_BEGIN							\
	_Pragma("GCC diagnostic push")						\
	_Pragma("GCC diagnostic ignored \"-Woverride-init\"")
#define NTTRACE_TL_INIT_END	_Pragma("GCC diagnostic pop")
#endif
#endif /* __cplusplus */

/* ---- the phases: NTTRACE_TL_FOR(NTTRACE_TL_DO, phase, args...) ---- */

#define NTTRACE_TL_KIND(t)		NTTRACE_TL_KIND_ t
#define NTTRACE_TL_KIND_(kind, ...)	kind
#define NTTRACE_TL_REST_(kind, ...)	__VA_ARGS__
#define NTTRACE_TL_DO(p, k, j, t)						\
	NTTRACE_TL_CALL(NTTRACE_TL_CAT(p, NTTRACE_TL_KIND(t)), (k, j, NTTRACE_TL_REST_ t))

/* Level, opcode, channel: enumerators chained, the last one given wins. */
#define NTTRACE_TL_LV_opt(k, j, hl, l, ho, o, hc, c, kw, et)			\
	NTTRACE_TL_LV##k = (hl) ? (int)(l) : (int)NTTRACE_TL_LV##j,
#define NTTRACE_TL_LV_fld(k, j, ...)	NTTRACE_TL_LV##k = NTTRACE_TL_LV##j,
#define NTTRACE_TL_OP_opt(k, j, hl, l, ho, o, hc, c, kw, et)			\
	NTTRACE_TL_OP##k = (ho) ? (int)(o) : (int)NTTRACE_TL_OP##j,
#define NTTRACE_TL_OP_fld(k, j, ...)	NTTRACE_TL_OP##k = NTTRACE_TL_OP##j,
#define NTTRACE_TL_CH_opt(k, j, hl, l, ho, o, hc, c, kw, et)			\
	NTTRACE_TL_CH##k = (hc) ? (int)(c) : (int)NTTRACE_TL_CH##j,
#define NTTRACE_TL_CH_fld(k, j, ...)	NTTRACE_TL_CH##k = NTTRACE_TL_CH##j,
/* Keywords and event tags: OR'ed. */
#define NTTRACE_TL_KW_opt(k, j, hl, l, ho, o, hc, c, kw, et)	| (uint64_t)(kw)
#define NTTRACE_TL_KW_fld(k, j, ...)
#define NTTRACE_TL_ET_opt(k, j, hl, l, ho, o, hc, c, kw, et)	| (et)
#define NTTRACE_TL_ET_fld(k, j, ...)
/* Each field's first data descriptor (0 and 1 are the two metadata). */
#define NTTRACE_TL_DI_opt(k, j, ...)	NTTRACE_TL_DI##k = NTTRACE_TL_DI##j,
#define NTTRACE_TL_DI_fld(k, j, fill, name, i, o, t, cc, nd, a, b, c)		\
	NTTRACE_TL_DI##k = NTTRACE_TL_DI##j + (nd),
/* The metadata struct's members and their initialisers. */
#define NTTRACE_TL_MB_opt(k, j, ...)
#define NTTRACE_TL_MB_fld(k, j, fill, name, i, o, t, cc, nd, a, b, c)		\
	char NTTRACE_TL_N##k[sizeof(name)];					\
	NTTRACE_TL_BYTES_MEMBER(NTTRACE_TL_T##k, NTTRACE_TL_TAIL_LEN(i, o, t));
#define NTTRACE_TL_IN_opt(k, j, ...)
#define NTTRACE_TL_IN_fld(k, j, fill, name, i, o, t, cc, nd, a, b, c)		\
	, name, NTTRACE_TL_TAIL_INIT(i, o, t, cc)
/* The statements that fill the field's descriptors. */
#define NTTRACE_TL_FL_opt(k, j, ...)
#define NTTRACE_TL_FL_fld(k, j, fill, name, i, o, t, cc, nd, a, b, c)		\
	NTTRACE_TL_FILL_##fill(k, NTTRACE_TL_DI##j, a, b, c)

/*
 * The fills: @k the argument's position (for unique local names), @i its
 * first descriptor. Values are copied to locals that live until the write.
 */
#define NTTRACE_TL_D(i)			(&nttrace_tl_dd[i])
#define NTTRACE_TL_FILL_none(k, i, a, b, c)
/* A scalar by value, of C type @a. */
#define NTTRACE_TL_FILL_val(k, i, a, b, c)					\
	const a NTTRACE_TL_V##k = (b);						\
	nttrace_tl_desc(NTTRACE_TL_D(i), &NTTRACE_TL_V##k, sizeof(a));
/* A scalar by reference (GUID, FILETIME, SYSTEMTIME: an lvalue, as in the SDK). */
#define NTTRACE_TL_FILL_ref(k, i, a, b, c)					\
	const a *const NTTRACE_TL_V##k = &(b);					\
	nttrace_tl_desc(NTTRACE_TL_D(i), NTTRACE_TL_V##k, sizeof(a));
/* Nul-terminated strings, their nul included; NULL is the empty string. */
#define NTTRACE_TL_FILL_sz8(k, i, a, b, c)	nttrace_tl_sz8(NTTRACE_TL_D(i), (b));
#define NTTRACE_TL_FILL_sz16(k, i, a, b, c)	nttrace_tl_sz16(NTTRACE_TL_D(i), (b));
/* @c elements of @a at @b, after their UINT16 byte count (counted strings). */
#define NTTRACE_TL_FILL_cnt(k, i, a, b, c)					\
	const a *const NTTRACE_TL_V##k = (b);					\
	const uint16_t NTTRACE_TL_C##k = (uint16_t)((c) * sizeof(a));		\
	nttrace_tl_desc(NTTRACE_TL_D(i), &NTTRACE_TL_C##k, 2);			\
	nttrace_tl_desc(NTTRACE_TL_D((i) + 1), NTTRACE_TL_V##k, NTTRACE_TL_C##k);
/* @c bytes at @b after their UINT16 count (Binary). */
#define NTTRACE_TL_FILL_bin(k, i, a, b, c)					\
	const uint16_t NTTRACE_TL_C##k = (uint16_t)(c);				\
	nttrace_tl_desc(NTTRACE_TL_D(i), &NTTRACE_TL_C##k, 2);			\
	nttrace_tl_desc(NTTRACE_TL_D((i) + 1), (b), NTTRACE_TL_C##k);
/* A variable array: its UINT16 element count, then the elements. */
#define NTTRACE_TL_FILL_arr(k, i, a, b, c)					\
	const a *const NTTRACE_TL_V##k = (b);					\
	const uint16_t NTTRACE_TL_C##k = (uint16_t)(c);				\
	nttrace_tl_desc(NTTRACE_TL_D(i), &NTTRACE_TL_C##k, 2);			\
	nttrace_tl_desc(NTTRACE_TL_D((i) + 1), NTTRACE_TL_V##k,			\
			(uint32_t)(NTTRACE_TL_C##k * sizeof(a)));
/* A fixed array: the elements only (the count is in the metadata). */
#define NTTRACE_TL_FILL_farr(k, i, a, b, c)					\
	const a *const NTTRACE_TL_V##k = (b);					\
	nttrace_tl_desc(NTTRACE_TL_D(i), NTTRACE_TL_V##k, (uint32_t)((c) * sizeof(a)));
#define NTTRACE_TL_FILL_sid(k, i, a, b, c)	nttrace_tl_sid(NTTRACE_TL_D(i), (b));
/* C++'s TraceLoggingValue: the type's nttrace_tl_value<T> stores and fills. */
#define NTTRACE_TL_FILL_auto(k, i, a, b, c)					\
	const NTTRACE_TL_VT(b)::store NTTRACE_TL_V##k = NTTRACE_TL_VT(b)::get(b);	\
	NTTRACE_TL_VT(b)::fill(NTTRACE_TL_D(i), NTTRACE_TL_V##k);
#define NTTRACE_TL_VT(b)	nttrace_tl_value<std::decay<decltype((b))>::type>

/* ---- the argument tuples the wrapper macros make ---- */

#define NTTRACE_TL_OPT(hl, l, ho, o, hc, c, kw, et)	(opt, hl, l, ho, o, hc, c, kw, et)
/*
 * A field: @sname the value's spelling, the name when none is given; the
 * optional name, description (dropped: the SDK puts it in the PDB only)
 * and tags (their low 28 bits) follow.
 */
#define NTTRACE_TL_FIELD(fill, i, o, cc, nd, a, b, c, sname, ...)		\
	NTTRACE_TL_CALL(NTTRACE_TL_FIELD_,					\
			(fill, i, o, cc, nd, a, b, c, NTTRACE_TL_NT(sname, __VA_ARGS__)))
#define NTTRACE_TL_FIELD_(fill, i, o, cc, nd, a, b, c, name, tags)		\
	(fld, fill, name, i, o, tags, cc, nd, a, b, c)
#define NTTRACE_TL_NT(sname, ...)						\
	NTTRACE_TL_CAT(NTTRACE_TL_NT, NTTRACE_TL_N3(__VA_ARGS__))(sname __VA_OPT__(,) __VA_ARGS__)
#define NTTRACE_TL_N3(...)		NTTRACE_TL_N3_(0 __VA_OPT__(,) __VA_ARGS__, 3, 2, 1, 0)
#define NTTRACE_TL_N3_(z, a, b, c, n, ...)	n
#define NTTRACE_TL_NT0(s)		s, 0
#define NTTRACE_TL_NT1(s, n)		n, 0
#define NTTRACE_TL_NT2(s, n, d)		n, 0
#define NTTRACE_TL_NT3(s, n, d, t)	n, ((uint32_t)(t) & 0x0FFFFFFF)

/* ---- the write ---- */

/*
 * TraceLoggingWrite and TraceLoggingWriteActivity: the event descriptor
 * and the enable test from constants; past the test (taken only when a
 * session wants the level and keyword: the arguments are not evaluated
 * otherwise, as in the SDK), the metadata (static, built by the compiler),
 * the descriptors, and one call.
 */
#define NTTRACE_TL_WRITE(h, name, act, rel, ...)				\
	do {									\
		enum { NTTRACE_TL_LV0 = 5,					\
		       NTTRACE_TL_FOR(NTTRACE_TL_DO, NTTRACE_TL_LV_, __VA_ARGS__)	\
		       NTTRACE_TL_LVEND };					\
		enum { NTTRACE_TL_OP0 = 0,					\
		       NTTRACE_TL_FOR(NTTRACE_TL_DO, NTTRACE_TL_OP_, __VA_ARGS__)	\
		       NTTRACE_TL_OPEND };					\
		enum { NTTRACE_TL_CH0 = 11,					\
		       NTTRACE_TL_FOR(NTTRACE_TL_DO, NTTRACE_TL_CH_, __VA_ARGS__)	\
		       NTTRACE_TL_CHEND };					\
		enum { NTTRACE_TL_DI0 = 2,					\
		       NTTRACE_TL_FOR(NTTRACE_TL_DO, NTTRACE_TL_DI_, __VA_ARGS__)	\
		       NTTRACE_TL_DIEND };					\
		static const NTTRACE_TL_ED nttrace_tl_ed = {			\
			0, 0, (uint8_t)(NTTRACE_TL_CHEND - 1),			\
			(uint8_t)(NTTRACE_TL_LVEND - 1),			\
			(uint8_t)(NTTRACE_TL_OPEND - 1), 0,			\
			NTTRACE_TL_KEYWORDS(__VA_ARGS__) };			\
		TraceLoggingHProvider const nttrace_tl_h = (h);			\
		if (nttrace_tl_enabled(nttrace_tl_h, (uint8_t)(NTTRACE_TL_LVEND - 1),	\
				       NTTRACE_TL_KEYWORDS(__VA_ARGS__))) {	\
			NTTRACE_TL_INIT_BEGIN					\
			static const struct nttrace_tl_meta {			\
				uint16_t size;					\
				NTTRACE_TL_BYTES_MEMBER(tags,			\
					NTTRACE_TL_ETAG_LEN(NTTRACE_TL_ETAGS(__VA_ARGS__)));	\
				char ename[sizeof(name)];			\
				NTTRACE_TL_FOR(NTTRACE_TL_DO, NTTRACE_TL_MB_, __VA_ARGS__)	\
			} NTTRACE_TL_PACKED nttrace_tl_em = {			\
				sizeof(struct nttrace_tl_meta),			\
				NTTRACE_TL_ETAG_INIT(NTTRACE_TL_ETAGS(__VA_ARGS__)),	\
				name						\
				NTTRACE_TL_FOR(NTTRACE_TL_DO, NTTRACE_TL_IN_, __VA_ARGS__)	\
			};							\
			NTTRACE_TL_INIT_END					\
			NTTRACE_TL_DD nttrace_tl_dd[NTTRACE_TL_DIEND - 1];	\
			nttrace_tl_desc_typed(&nttrace_tl_dd[1], &nttrace_tl_em,	\
				sizeof(nttrace_tl_em),				\
				NTTRACE_EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA);	\
			NTTRACE_TL_FOR(NTTRACE_TL_DO, NTTRACE_TL_FL_, __VA_ARGS__)	\
			nttrace_tl_write(nttrace_tl_h, &nttrace_tl_ed, (act), (rel),	\
					 NTTRACE_TL_DIEND - 1, nttrace_tl_dd);	\
		}								\
	} while (0)
#define NTTRACE_TL_ETAGS(...)							\
	(0 NTTRACE_TL_FOR(NTTRACE_TL_DO, NTTRACE_TL_ET_, __VA_ARGS__))
/*
 * The keywords, for the descriptor and for the enable test: the shim's
 * descriptor names its members as its mode does, so the test does not
 * read them (a constant either way).
 */
#define NTTRACE_TL_KEYWORDS(...)						\
	((uint64_t)0 NTTRACE_TL_FOR(NTTRACE_TL_DO, NTTRACE_TL_KW_, __VA_ARGS__))

#endif /* NTTRACE_TRACELOGGING_META_H */
