/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * nttrace user library: WPP-style message tracing.
 *
 *   #include <nttrace/wpp.h>
 *   DoTraceMessage(handle, "opened %s: %d entries at %p", path, n, table);
 *
 * What Windows' WPP preprocessor does with a tool and the PDB, this header
 * does with the C compiler and an ELF section:
 *   - each source file has a message GUID: by default derived from its name
 *     (__FILE__ as the compiler was given it; nttrace_wpp_file_guid() says
 *     how), or the one the file defines as WPP_FILE_GUID before including
 *     this header (eleven comma-separated numbers, a GUID's initializer
 *     without braces);
 *   - each call site has a message number: __COUNTER__ + 10 (WPP also
 *     numbers from 10), so numbers are unique within a file and stable for
 *     a build, as WPP's are;
 *   - each call site puts one entry in the "nttrace_wpp" section of the
 *     binary: the number, the pointer size, the argument types (below), the
 *     file and line and the printf format. `nttrace dump --formats BINARY`
 *     reads them back to render events as text (<nttrace/tmf.h>).
 *
 * The arguments are traced as TraceMessage pairs, one per argument, each
 * evaluated once: numbers and pointers by value in their own size (after
 * the usual promotions: char and short travel as int, float stays float),
 * char strings with their NUL (a NULL string as "(null)"). Flags are
 * NTTRACE_WPP_FLAGS (sequence, GUID, time stamp, thread/process IDs) plus
 * TRACE_MESSAGE_POINTER64 or POINTER32 for this build, as WPP sets them.
 * At most 12 arguments; the format must be a string literal. Errors are
 * TraceMessage's, left in GetLastError(): DoTraceMessage is a statement.
 *
 * Deviation from Windows: WPP's DoTraceMessage takes a trace flag and finds
 * the logger through the provider's control block; nttrace has no provider
 * registration yet, so the first argument is the logger handle.
 */
#ifndef NTTRACE_WPP_H
#define NTTRACE_WPP_H

#include <stdint.h>
#include <string.h>

#include <nttrace/evntrace.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NTTRACE_WPP_SECTION	"nttrace_wpp"
#define NTTRACE_WPP_MAGIC	0x5057544EU	/* "NTWP" */
#define NTTRACE_WPP_FIRST_NUMBER 10
#define NTTRACE_WPP_MAX_ARGS	12

#ifndef NTTRACE_WPP_FLAGS
#define NTTRACE_WPP_FLAGS (TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_GUID | \
			   TRACE_MESSAGE_TIMESTAMP | TRACE_MESSAGE_SYSTEMINFO)
#endif
#define NTTRACE_WPP_POINTER_FLAG \
	(sizeof(void *) == 8 ? TRACE_MESSAGE_POINTER64 : TRACE_MESSAGE_POINTER32)

/*
 * Argument types, one character each (a format file uses the same):
 *   b B  int8 / uint8      h H  int16 / uint16
 *   i I  int32 / uint32    q Q  int64 / uint64
 *   f    float (4 bytes)   d    double (8 bytes)
 *   p    pointer: 4 or 8 bytes, by the event's POINTER32/POINTER64 flag
 *        (the entry's pointer size when the event has neither)
 *   s    char string with its NUL
 */
#define NTTRACE_WPP_TYPE_(v) _Generic((v),				\
	_Bool: 'I', char: 'i', signed char: 'i', unsigned char: 'I',	\
	short: 'i', unsigned short: 'I', int: 'i', unsigned int: 'I',	\
	long: (sizeof(long) == 8 ? 'q' : 'i'),				\
	unsigned long: (sizeof(long) == 8 ? 'Q' : 'I'),		\
	long long: 'q', unsigned long long: 'Q',			\
	float: 'f', double: 'd', long double: 0,			\
	char *: 's', const char *: 's', default: 'p')

/*
 * One section entry, 8-byte aligned, little-endian as the machine is:
 *   0x00 magic, 0x04 size of the whole entry, 0x08 line,
 *   0x0C message number (u16), 0x0E pointer size, 0x0F argument count,
 *   0x10 flags (bit 0: @guid holds the file's GUID; else derived from the
 *   file name), 0x14 zero, 0x18 GUID as stored in memory (16 bytes),
 *   0x28 the types (count + 1 bytes, NUL-terminated), the file name, the
 *   format (both NUL-terminated); zero padding to a multiple of 8.
 */
struct nttrace_wpp_entry {
	uint32_t magic;
	uint32_t size;
	uint32_t line;
	uint16_t number;
	uint8_t ptr_size;
	uint8_t nargs;
	uint32_t flags;
	uint32_t zero;
	uint8_t guid[16];
} __attribute__((aligned(8)));

#define NTTRACE_WPP_ENTRY_SIZE	0x28
#define NTTRACE_WPP_GUID_GIVEN	0x1

/*
 * The GUID of a file named @file: two FNV-1a 64-bit hashes of the name
 * (offset bases 0xcbf29ce484222325 and that value with its bytes
 * reversed), the first as Data1-Data3 and the second as Data4, marked as
 * an RFC 9562 version 8 (vendor-defined) UUID. Decoders recompute it.
 */
void nttrace_wpp_file_guid(const char *file, GUID *guid);
/* The GUID of entry @e: given, or derived from its file name. */
void nttrace_wpp_entry_guid(const struct nttrace_wpp_entry *e, GUID *guid);

/*
 * For DoTraceMessage: @e's GUID, computed once per call site into @cache
 * (@state: 0 not yet, 1 being written, 2 ready); a thread that finds it
 * being written computes its own into @tmp.
 */
const GUID *nttrace_wpp_guid_(const struct nttrace_wpp_entry *e, GUID *cache,
			      int *state, GUID *tmp);

/*
 * A string argument, from the address of its local copy (read through
 * memcpy: the copy's type is only known to be a char pointer in the
 * _Generic branch that calls these).
 */
static inline const char *nttrace_wpp_str_(const void *copy)
{
	const char *s;

	memcpy(&s, copy, sizeof(s));
	return s ? s : "(null)";
}

static inline size_t nttrace_wpp_strsize_(const void *copy)
{
	return strlen(nttrace_wpp_str_(copy)) + 1;
}

#ifdef WPP_FILE_GUID
#define NTTRACE_WPP_GUID_FLAGS_ NTTRACE_WPP_GUID_GIVEN
#define NTTRACE_WPP_GUID_BYTES_ NTTRACE_WPP_GUID_BYTES_X_(WPP_FILE_GUID)
#define NTTRACE_WPP_GUID_BYTES_X_(...) NTTRACE_WPP_GUID_BYTES_Y_(__VA_ARGS__)
#define NTTRACE_WPP_GUID_BYTES_Y_(d1, d2, d3, b0, b1, b2, b3, b4, b5, b6, b7) \
	{ (d1) & 0xFF, ((d1) >> 8) & 0xFF, ((d1) >> 16) & 0xFF,	\
	  ((d1) >> 24) & 0xFF, (d2) & 0xFF, ((d2) >> 8) & 0xFF,		\
	  (d3) & 0xFF, ((d3) >> 8) & 0xFF, b0, b1, b2, b3, b4, b5, b6, b7 }
#else
#define NTTRACE_WPP_GUID_FLAGS_ 0
#define NTTRACE_WPP_GUID_BYTES_ { 0 }
#endif

/* Apply m(index, arg) to each argument; 0 to 12 of them. */
#define NTTRACE_WPP_NARGS_(...) NTTRACE_WPP_NTH_(_, ##__VA_ARGS__, \
	12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define NTTRACE_WPP_NTH_(_, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, \
			 a12, n, ...) n
#define NTTRACE_WPP_CAT_(a, b) NTTRACE_WPP_CAT2_(a, b)
#define NTTRACE_WPP_CAT2_(a, b) a##b
#define NTTRACE_WPP_MAP_(m, ...) \
	NTTRACE_WPP_CAT_(NTTRACE_WPP_MAP, NTTRACE_WPP_NARGS_(__VA_ARGS__))(m, ##__VA_ARGS__)
#define NTTRACE_WPP_MAP0(m)
#define NTTRACE_WPP_MAP1(m, a) m(1, a)
#define NTTRACE_WPP_MAP2(m, a, ...) m(2, a) NTTRACE_WPP_MAP1(m, __VA_ARGS__)
#define NTTRACE_WPP_MAP3(m, a, ...) m(3, a) NTTRACE_WPP_MAP2(m, __VA_ARGS__)
#define NTTRACE_WPP_MAP4(m, a, ...) m(4, a) NTTRACE_WPP_MAP3(m, __VA_ARGS__)
#define NTTRACE_WPP_MAP5(m, a, ...) m(5, a) NTTRACE_WPP_MAP4(m, __VA_ARGS__)
#define NTTRACE_WPP_MAP6(m, a, ...) m(6, a) NTTRACE_WPP_MAP5(m, __VA_ARGS__)
#define NTTRACE_WPP_MAP7(m, a, ...) m(7, a) NTTRACE_WPP_MAP6(m, __VA_ARGS__)
#define NTTRACE_WPP_MAP8(m, a, ...) m(8, a) NTTRACE_WPP_MAP7(m, __VA_ARGS__)
#define NTTRACE_WPP_MAP9(m, a, ...) m(9, a) NTTRACE_WPP_MAP8(m, __VA_ARGS__)
#define NTTRACE_WPP_MAP10(m, a, ...) m(10, a) NTTRACE_WPP_MAP9(m, __VA_ARGS__)
#define NTTRACE_WPP_MAP11(m, a, ...) m(11, a) NTTRACE_WPP_MAP10(m, __VA_ARGS__)
#define NTTRACE_WPP_MAP12(m, a, ...) m(12, a) NTTRACE_WPP_MAP11(m, __VA_ARGS__)

/*
 * Per argument: a local copy (arrays decay, small integers promote: the
 * type of `1 ? a : a`), its type code, and its TraceMessage pair.
 */
#define NTTRACE_WPP_DECL_(i, a)						\
	__typeof__(1 ? (a) : (a)) nttrace_wpp_a##i = (a);		\
	_Static_assert(NTTRACE_WPP_TYPE_(nttrace_wpp_a##i) != 0,	\
		       "DoTraceMessage: argument type not supported");	\
	_Static_assert(NTTRACE_WPP_TYPE_(nttrace_wpp_a##i) != 'p' ||	\
		       sizeof(nttrace_wpp_a##i) == sizeof(void *),	\
		       "DoTraceMessage: not a number, string or pointer");
#define NTTRACE_WPP_CODE_(i, a) NTTRACE_WPP_TYPE_(nttrace_wpp_a##i),
#define NTTRACE_WPP_PAIR_(i, a)						\
	_Generic(nttrace_wpp_a##i,					\
		 char *: (const void *)nttrace_wpp_str_(&nttrace_wpp_a##i), \
		 const char *: (const void *)nttrace_wpp_str_(&nttrace_wpp_a##i), \
		 default: (const void *)&nttrace_wpp_a##i),		\
	_Generic(nttrace_wpp_a##i,					\
		 char *: nttrace_wpp_strsize_(&nttrace_wpp_a##i), \
		 const char *: nttrace_wpp_strsize_(&nttrace_wpp_a##i), \
		 default: sizeof(nttrace_wpp_a##i)),

#define DoTraceMessage(handle_, format_, ...)				\
	NTTRACE_WPP_CALL_(handle_, __COUNTER__ + NTTRACE_WPP_FIRST_NUMBER,	\
			  format_, ##__VA_ARGS__)

#define NTTRACE_WPP_CALL_(handle_, number_, format_, ...)			\
	do {								\
		NTTRACE_WPP_MAP_(NTTRACE_WPP_DECL_, ##__VA_ARGS__)	\
		static const struct {					\
			struct nttrace_wpp_entry h;			\
			char types[NTTRACE_WPP_NARGS_(__VA_ARGS__) + 1];	\
			char file[sizeof(__FILE__)];			\
			char format[sizeof("" format_ "")];		\
		} nttrace_wpp_e __attribute__((section(NTTRACE_WPP_SECTION), \
					       used, aligned(8))) = {	\
			{ NTTRACE_WPP_MAGIC, sizeof(nttrace_wpp_e), __LINE__, \
			  (number_), sizeof(void *),			\
			  NTTRACE_WPP_NARGS_(__VA_ARGS__),		\
			  NTTRACE_WPP_GUID_FLAGS_, 0, NTTRACE_WPP_GUID_BYTES_ }, \
			{ NTTRACE_WPP_MAP_(NTTRACE_WPP_CODE_, ##__VA_ARGS__) 0 }, \
			__FILE__, format_			\
		};							\
		static GUID nttrace_wpp_guid;				\
		static int nttrace_wpp_state;				\
		GUID nttrace_wpp_tmp;					\
		TraceMessage((handle_), NTTRACE_WPP_FLAGS | NTTRACE_WPP_POINTER_FLAG, \
			     nttrace_wpp_guid_(&nttrace_wpp_e.h, &nttrace_wpp_guid, \
					       &nttrace_wpp_state, &nttrace_wpp_tmp), \
			     (number_),					\
			     NTTRACE_WPP_MAP_(NTTRACE_WPP_PAIR_, ##__VA_ARGS__) \
			     (void *)0);				\
	} while (0)

#ifdef __cplusplus
}
#endif

#endif /* NTTRACE_WPP_H */
