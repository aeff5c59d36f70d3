/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * nttrace user library: TraceLoggingProvider.h's array wrapper macros,
 * TraceLoggingXxxFixedArray(pValues, cValues, ...) (cValues a constant, in
 * the metadata) and TraceLoggingXxxArray(pValues, cValues, ...) (a UINT16
 * count in the data), with the element types of the scalar macros of the
 * same name (<nttrace/traceloggingprovider.h>, which includes this).
 * Kernel mode has them all but Float, FileTime and SystemTime, as it has
 * the scalar macros.
 */
#ifndef NTTRACE_TRACELOGGING_ARRAYS_H
#define NTTRACE_TRACELOGGING_ARRAYS_H

/* Its types and helpers (which include this file back: guarded). */
#include <nttrace/traceloggingprovider.h>

#define TraceLoggingInt8FixedArray(p, n, ...)					\
	NTTRACE_TL_FARR(int8_t, p, n, #p, TlgInINT8, 0, __VA_ARGS__)
#define TraceLoggingUInt8FixedArray(p, n, ...)					\
	NTTRACE_TL_FARR(uint8_t, p, n, #p, TlgInUINT8, 0, __VA_ARGS__)
#define TraceLoggingInt16FixedArray(p, n, ...)					\
	NTTRACE_TL_FARR(int16_t, p, n, #p, TlgInINT16, 0, __VA_ARGS__)
#define TraceLoggingUInt16FixedArray(p, n, ...)					\
	NTTRACE_TL_FARR(uint16_t, p, n, #p, TlgInUINT16, 0, __VA_ARGS__)
#define TraceLoggingInt32FixedArray(p, n, ...)					\
	NTTRACE_TL_FARR(int32_t, p, n, #p, TlgInINT32, 0, __VA_ARGS__)
#define TraceLoggingUInt32FixedArray(p, n, ...)					\
	NTTRACE_TL_FARR(uint32_t, p, n, #p, TlgInUINT32, 0, __VA_ARGS__)
#define TraceLoggingInt64FixedArray(p, n, ...)					\
	NTTRACE_TL_FARR(int64_t, p, n, #p, TlgInINT64, 0, __VA_ARGS__)
#define TraceLoggingUInt64FixedArray(p, n, ...)					\
	NTTRACE_TL_FARR(uint64_t, p, n, #p, TlgInUINT64, 0, __VA_ARGS__)
#define TraceLoggingIntPtrFixedArray(p, n, ...)					\
	NTTRACE_TL_FARR(NTTRACE_TL_INTPTR, p, n, #p, TlgInINTPTR, 0, __VA_ARGS__)
#define TraceLoggingUIntPtrFixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(uintptr_t, p, n, #p, TlgInUINTPTR, 0, __VA_ARGS__)
#define TraceLoggingLongFixedArray(p, n, ...)					\
	NTTRACE_TL_FARR(int32_t, p, n, #p, TlgInLONG, 0, __VA_ARGS__)
#define TraceLoggingULongFixedArray(p, n, ...)					\
	NTTRACE_TL_FARR(uint32_t, p, n, #p, TlgInULONG, 0, __VA_ARGS__)
#define TraceLoggingHexInt8FixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(int8_t, p, n, #p, TlgInUINT8, TlgOutHEX, __VA_ARGS__)
#define TraceLoggingHexUInt8FixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(uint8_t, p, n, #p, TlgInUINT8, TlgOutHEX, __VA_ARGS__)
#define TraceLoggingHexInt16FixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(int16_t, p, n, #p, TlgInUINT16, TlgOutHEX, __VA_ARGS__)
#define TraceLoggingHexUInt16FixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(uint16_t, p, n, #p, TlgInUINT16, TlgOutHEX, __VA_ARGS__)
#define TraceLoggingHexInt32FixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(int32_t, p, n, #p, TlgInHEXINT32, 0, __VA_ARGS__)
#define TraceLoggingHexUInt32FixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(uint32_t, p, n, #p, TlgInHEXINT32, 0, __VA_ARGS__)
#define TraceLoggingHexInt64FixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(int64_t, p, n, #p, TlgInHEXINT64, 0, __VA_ARGS__)
#define TraceLoggingHexUInt64FixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(uint64_t, p, n, #p, TlgInHEXINT64, 0, __VA_ARGS__)
#define TraceLoggingHexIntPtrFixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(NTTRACE_TL_INTPTR, p, n, #p, TlgInPOINTER, 0, __VA_ARGS__)
#define TraceLoggingHexUIntPtrFixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(uintptr_t, p, n, #p, TlgInPOINTER, 0, __VA_ARGS__)
#define TraceLoggingHexLongFixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(int32_t, p, n, #p, TlgInHEXLONG, 0, __VA_ARGS__)
#define TraceLoggingHexULongFixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(uint32_t, p, n, #p, TlgInHEXLONG, 0, __VA_ARGS__)
#ifndef __KERNEL__
#define TraceLoggingFloat32FixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(float, p, n, #p, TlgInFLOAT, 0, __VA_ARGS__)
#define TraceLoggingFloat64FixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(double, p, n, #p, TlgInDOUBLE, 0, __VA_ARGS__)
#endif
#define TraceLoggingBooleanFixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(uint8_t, p, n, #p, TlgInUINT8, TlgOutBOOLEAN, __VA_ARGS__)
#define TraceLoggingBoolFixedArray(p, n, ...)					\
	NTTRACE_TL_FARR(int32_t, p, n, #p, TlgInBOOL32, 0, __VA_ARGS__)
#define TraceLoggingCharFixedArray(p, n, ...)					\
	NTTRACE_TL_FARR(char, p, n, #p, TlgInUINT8, TlgOutSTRING, __VA_ARGS__)
#define TraceLoggingChar16FixedArray(p, n, ...)					\
	NTTRACE_TL_FARR(uint16_t, p, n, #p, TlgInUINT16, TlgOutSTRING, __VA_ARGS__)
#define TraceLoggingWCharFixedArray(p, n, ...)					\
	NTTRACE_TL_FARR(NTTRACE_TL_WCHAR, p, n, #p, TlgInUINT16, TlgOutSTRING, __VA_ARGS__)
#define TraceLoggingPointerFixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(void *, p, n, #p, TlgInPOINTER, 0, __VA_ARGS__)
#define TraceLoggingCodePointerFixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(void *, p, n, #p, TlgInPOINTER, TlgOutCODE_POINTER, __VA_ARGS__)
#ifndef __KERNEL__
#define TraceLoggingFileTimeFixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(FILETIME, p, n, #p, TlgInFILETIME, 0, __VA_ARGS__)
#define TraceLoggingFileTimeUtcFixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(FILETIME, p, n, #p, TlgInFILETIME, TlgOutDATETIME_UTC, __VA_ARGS__)
#define TraceLoggingSystemTimeFixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(SYSTEMTIME, p, n, #p, TlgInSYSTEMTIME, 0, __VA_ARGS__)
#define TraceLoggingSystemTimeUtcFixedArray(p, n, ...)				\
	NTTRACE_TL_FARR(SYSTEMTIME, p, n, #p, TlgInSYSTEMTIME, TlgOutDATETIME_UTC, __VA_ARGS__)
#endif
#define TraceLoggingGuidFixedArray(p, n, ...)					\
	NTTRACE_TL_FARR(NTTRACE_TL_GUID_T, p, n, #p, TlgInGUID, 0, __VA_ARGS__)

#define TraceLoggingInt8Array(p, n, ...)					\
	NTTRACE_TL_ARR(int8_t, p, n, #p, TlgInINT8, 0, __VA_ARGS__)
#define TraceLoggingUInt8Array(p, n, ...)					\
	NTTRACE_TL_ARR(uint8_t, p, n, #p, TlgInUINT8, 0, __VA_ARGS__)
#define TraceLoggingInt16Array(p, n, ...)					\
	NTTRACE_TL_ARR(int16_t, p, n, #p, TlgInINT16, 0, __VA_ARGS__)
#define TraceLoggingUInt16Array(p, n, ...)					\
	NTTRACE_TL_ARR(uint16_t, p, n, #p, TlgInUINT16, 0, __VA_ARGS__)
#define TraceLoggingInt32Array(p, n, ...)					\
	NTTRACE_TL_ARR(int32_t, p, n, #p, TlgInINT32, 0, __VA_ARGS__)
#define TraceLoggingUInt32Array(p, n, ...)					\
	NTTRACE_TL_ARR(uint32_t, p, n, #p, TlgInUINT32, 0, __VA_ARGS__)
#define TraceLoggingInt64Array(p, n, ...)					\
	NTTRACE_TL_ARR(int64_t, p, n, #p, TlgInINT64, 0, __VA_ARGS__)
#define TraceLoggingUInt64Array(p, n, ...)					\
	NTTRACE_TL_ARR(uint64_t, p, n, #p, TlgInUINT64, 0, __VA_ARGS__)
#define TraceLoggingIntPtrArray(p, n, ...)					\
	NTTRACE_TL_ARR(NTTRACE_TL_INTPTR, p, n, #p, TlgInINTPTR, 0, __VA_ARGS__)
#define TraceLoggingUIntPtrArray(p, n, ...)					\
	NTTRACE_TL_ARR(uintptr_t, p, n, #p, TlgInUINTPTR, 0, __VA_ARGS__)
#define TraceLoggingLongArray(p, n, ...)					\
	NTTRACE_TL_ARR(int32_t, p, n, #p, TlgInLONG, 0, __VA_ARGS__)
#define TraceLoggingULongArray(p, n, ...)					\
	NTTRACE_TL_ARR(uint32_t, p, n, #p, TlgInULONG, 0, __VA_ARGS__)
#define TraceLoggingHexInt8Array(p, n, ...)					\
	NTTRACE_TL_ARR(int8_t, p, n, #p, TlgInUINT8, TlgOutHEX, __VA_ARGS__)
#define TraceLoggingHexUInt8Array(p, n, ...)					\
	NTTRACE_TL_ARR(uint8_t, p, n, #p, TlgInUINT8, TlgOutHEX, __VA_ARGS__)
#define TraceLoggingHexInt16Array(p, n, ...)					\
	NTTRACE_TL_ARR(int16_t, p, n, #p, TlgInUINT16, TlgOutHEX, __VA_ARGS__)
#define TraceLoggingHexUInt16Array(p, n, ...)					\
	NTTRACE_TL_ARR(uint16_t, p, n, #p, TlgInUINT16, TlgOutHEX, __VA_ARGS__)
#define TraceLoggingHexInt32Array(p, n, ...)					\
	NTTRACE_TL_ARR(int32_t, p, n, #p, TlgInHEXINT32, 0, __VA_ARGS__)
#define TraceLoggingHexUInt32Array(p, n, ...)					\
	NTTRACE_TL_ARR(uint32_t, p, n, #p, TlgInHEXINT32, 0, __VA_ARGS__)
#define TraceLoggingHexInt64Array(p, n, ...)					\
	NTTRACE_TL_ARR(int64_t, p, n, #p, TlgInHEXINT64, 0, __VA_ARGS__)
#define TraceLoggingHexUInt64Array(p, n, ...)					\
	NTTRACE_TL_ARR(uint64_t, p, n, #p, TlgInHEXINT64, 0, __VA_ARGS__)
#define TraceLoggingHexIntPtrArray(p, n, ...)					\
	NTTRACE_TL_ARR(NTTRACE_TL_INTPTR, p, n, #p, TlgInPOINTER, 0, __VA_ARGS__)
#define TraceLoggingHexUIntPtrArray(p, n, ...)					\
	NTTRACE_TL_ARR(uintptr_t, p, n, #p, TlgInPOINTER, 0, __VA_ARGS__)
#define TraceLoggingHexLongArray(p, n, ...)					\
	NTTRACE_TL_ARR(int32_t, p, n, #p, TlgInHEXLONG, 0, __VA_ARGS__)
#define TraceLoggingHexULongArray(p, n, ...)					\
	NTTRACE_TL_ARR(uint32_t, p, n, #p, TlgInHEXLONG, 0, __VA_ARGS__)
#ifndef __KERNEL__
#define TraceLoggingFloat32Array(p, n, ...)					\
	NTTRACE_TL_ARR(float, p, n, #p, TlgInFLOAT, 0, __VA_ARGS__)
#define TraceLoggingFloat64Array(p, n, ...)					\
	NTTRACE_TL_ARR(double, p, n, #p, TlgInDOUBLE, 0, __VA_ARGS__)
#endif
#define TraceLoggingBooleanArray(p, n, ...)					\
	NTTRACE_TL_ARR(uint8_t, p, n, #p, TlgInUINT8, TlgOutBOOLEAN, __VA_ARGS__)
#define TraceLoggingBoolArray(p, n, ...)					\
	NTTRACE_TL_ARR(int32_t, p, n, #p, TlgInBOOL32, 0, __VA_ARGS__)
#define TraceLoggingCharArray(p, n, ...)					\
	NTTRACE_TL_ARR(char, p, n, #p, TlgInUINT8, TlgOutSTRING, __VA_ARGS__)
#define TraceLoggingChar16Array(p, n, ...)					\
	NTTRACE_TL_ARR(uint16_t, p, n, #p, TlgInUINT16, TlgOutSTRING, __VA_ARGS__)
#define TraceLoggingWCharArray(p, n, ...)					\
	NTTRACE_TL_ARR(NTTRACE_TL_WCHAR, p, n, #p, TlgInUINT16, TlgOutSTRING, __VA_ARGS__)
#define TraceLoggingPointerArray(p, n, ...)					\
	NTTRACE_TL_ARR(void *, p, n, #p, TlgInPOINTER, 0, __VA_ARGS__)
#define TraceLoggingCodePointerArray(p, n, ...)					\
	NTTRACE_TL_ARR(void *, p, n, #p, TlgInPOINTER, TlgOutCODE_POINTER, __VA_ARGS__)
#ifndef __KERNEL__
#define TraceLoggingFileTimeArray(p, n, ...)					\
	NTTRACE_TL_ARR(FILETIME, p, n, #p, TlgInFILETIME, 0, __VA_ARGS__)
#define TraceLoggingFileTimeUtcArray(p, n, ...)					\
	NTTRACE_TL_ARR(FILETIME, p, n, #p, TlgInFILETIME, TlgOutDATETIME_UTC, __VA_ARGS__)
#define TraceLoggingSystemTimeArray(p, n, ...)					\
	NTTRACE_TL_ARR(SYSTEMTIME, p, n, #p, TlgInSYSTEMTIME, 0, __VA_ARGS__)
#define TraceLoggingSystemTimeUtcArray(p, n, ...)				\
	NTTRACE_TL_ARR(SYSTEMTIME, p, n, #p, TlgInSYSTEMTIME, TlgOutDATETIME_UTC, __VA_ARGS__)
#endif
#define TraceLoggingGuidArray(p, n, ...)					\
	NTTRACE_TL_ARR(NTTRACE_TL_GUID_T, p, n, #p, TlgInGUID, 0, __VA_ARGS__)

#endif /* NTTRACE_TRACELOGGING_ARRAYS_H */
