/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <intsafe.h> for Windows sources (nttrace-windows.pc): the overflow-checked
 * additions and multiplications ETW programs size their buffers with,
 * over the compiler's __builtin_*_overflow. Each stores the result and
 * returns S_OK, or stores 0 and returns INTSAFE_E_ARITHMETIC_OVERFLOW.
 */
#ifndef NTTRACE_WINDOWS_INTSAFE_H
#define NTTRACE_WINDOWS_INTSAFE_H

#include "windows.h"

#define INTSAFE_E_ARITHMETIC_OVERFLOW	((HRESULT)0x80070216L)

#define NTTRACE_WIN_INTSAFE(name, type, op)					\
	static inline HRESULT name(type a, type b, type *result)		\
	{									\
		if (__builtin_##op##_overflow(a, b, result)) {			\
			*result = 0;						\
			return INTSAFE_E_ARITHMETIC_OVERFLOW;			\
		}								\
		return S_OK;							\
	}
NTTRACE_WIN_INTSAFE(UIntAdd, UINT, add)
NTTRACE_WIN_INTSAFE(UIntSub, UINT, sub)
NTTRACE_WIN_INTSAFE(UIntMult, UINT, mul)
NTTRACE_WIN_INTSAFE(ULongAdd, ULONG, add)
NTTRACE_WIN_INTSAFE(ULongSub, ULONG, sub)
NTTRACE_WIN_INTSAFE(ULongMult, ULONG, mul)
NTTRACE_WIN_INTSAFE(DWordAdd, DWORD, add)
NTTRACE_WIN_INTSAFE(DWordSub, DWORD, sub)
NTTRACE_WIN_INTSAFE(DWordMult, DWORD, mul)
NTTRACE_WIN_INTSAFE(ULongLongAdd, ULONGLONG, add)
NTTRACE_WIN_INTSAFE(ULongLongSub, ULONGLONG, sub)
NTTRACE_WIN_INTSAFE(ULongLongMult, ULONGLONG, mul)
NTTRACE_WIN_INTSAFE(SizeTAdd, SIZE_T, add)
NTTRACE_WIN_INTSAFE(SizeTSub, SIZE_T, sub)
NTTRACE_WIN_INTSAFE(SizeTMult, SIZE_T, mul)
NTTRACE_WIN_INTSAFE(UShortAdd, USHORT, add)
NTTRACE_WIN_INTSAFE(UShortMult, USHORT, mul)
#undef NTTRACE_WIN_INTSAFE

#endif /* NTTRACE_WINDOWS_INTSAFE_H */
