// SPDX-License-Identifier: LGPL-2.1
/*
 * The Windows layer's strsafe.h: bounded copies, concatenations, lengths
 * and printf. Each exists for char (A) and WCHAR (W), the same code built
 * twice by STRSAFE_FUNCTIONS below; the Cb forms count bytes and call the
 * Cch ones. The results are strsafe.h's as Microsoft documents them: a
 * destination size of 0 or over STRSAFE_MAX_CCH is an invalid parameter
 * and leaves the destination as it was; a result cut to fit is
 * terminated and says STRSAFE_E_INSUFFICIENT_BUFFER.
 */
#include <stdarg.h>
#include <stddef.h>

#include "win.h"
#include "crt.h"

#define STRSAFE_MAX_CCH			2147483647
#define S_OK				((HRESULT)0)
#define STRSAFE_E_INSUFFICIENT_BUFFER	((HRESULT)0x8007007AL)
#define STRSAFE_E_INVALID_PARAMETER	((HRESULT)0x80070057L)

#define STRSAFE_FUNCTIONS(X, T, vsnprintf_fn)					\
/* Up to @n characters of @s at @d (room for @cch with the NUL). */	\
static HRESULT copy_##X(T *d, size_t cch, const T *s, size_t n)		\
{									\
	size_t i;							\
									\
	if (!cch || cch > STRSAFE_MAX_CCH)				\
		return STRSAFE_E_INVALID_PARAMETER;			\
	for (i = 0; i < n && s[i]; i++) {				\
		if (i == cch - 1) {					\
			d[i] = 0;					\
			return STRSAFE_E_INSUFFICIENT_BUFFER;		\
		}							\
		d[i] = s[i];						\
	}								\
	d[i] = 0;							\
	return S_OK;							\
}									\
									\
HRESULT nttrace_win_StringCchLength##X(const T *s, size_t max, size_t *len)	\
{									\
	size_t i;							\
									\
	if (len)							\
		*len = 0;						\
	if (!s || max > STRSAFE_MAX_CCH)				\
		return STRSAFE_E_INVALID_PARAMETER;			\
	for (i = 0; i < max; i++) {					\
		if (!s[i]) {						\
			if (len)					\
				*len = i;				\
			return S_OK;					\
		}							\
	}								\
	return STRSAFE_E_INVALID_PARAMETER;				\
}									\
									\
HRESULT nttrace_win_StringCbLength##X(const T *s, size_t max, size_t *len)	\
{									\
	HRESULT hr = nttrace_win_StringCchLength##X(s, max / sizeof(T), len);	\
									\
	if (len)							\
		*len *= sizeof(T);					\
	return hr;							\
}									\
									\
HRESULT nttrace_win_StringCchCopyN##X(T *d, size_t cch, const T *s, size_t n)	\
{									\
	return copy_##X(d, cch, s, n);					\
}									\
									\
HRESULT nttrace_win_StringCbCopyN##X(T *d, size_t cb, const T *s, size_t n)	\
{									\
	return copy_##X(d, cb / sizeof(T), s, n / sizeof(T));		\
}									\
									\
HRESULT nttrace_win_StringCchCopy##X(T *d, size_t cch, const T *s)	\
{									\
	return copy_##X(d, cch, s, (size_t)-1);				\
}									\
									\
HRESULT nttrace_win_StringCbCopy##X(T *d, size_t cb, const T *s)		\
{									\
	return copy_##X(d, cb / sizeof(T), s, (size_t)-1);		\
}									\
									\
HRESULT nttrace_win_StringCchCat##X(T *d, size_t cch, const T *s)		\
{									\
	size_t len;							\
									\
	if (!cch || cch > STRSAFE_MAX_CCH ||				\
	    nttrace_win_StringCchLength##X(d, cch, &len))		\
		return STRSAFE_E_INVALID_PARAMETER;			\
	return copy_##X(d + len, cch - len, s, (size_t)-1);		\
}									\
									\
HRESULT nttrace_win_StringCbCat##X(T *d, size_t cb, const T *s)		\
{									\
	return nttrace_win_StringCchCat##X(d, cb / sizeof(T), s);	\
}									\
									\
HRESULT nttrace_win_StringCchVPrintf##X(T *d, size_t cch, const T *fmt, va_list ap)	\
{									\
	int n;								\
									\
	if (!cch || cch > STRSAFE_MAX_CCH)				\
		return STRSAFE_E_INVALID_PARAMETER;			\
	n = vsnprintf_fn(d, cch - 1, fmt, ap);				\
	if (n < 0) {							\
		d[cch - 1] = 0;						\
		return STRSAFE_E_INSUFFICIENT_BUFFER;			\
	}								\
	d[n] = 0;							\
	return S_OK;							\
}									\
									\
HRESULT nttrace_win_StringCbVPrintf##X(T *d, size_t cb, const T *fmt, va_list ap)	\
{									\
	return nttrace_win_StringCchVPrintf##X(d, cb / sizeof(T), fmt, ap);	\
}									\
									\
HRESULT nttrace_win_StringCchPrintf##X(T *d, size_t cch, const T *fmt, ...)	\
{									\
	HRESULT hr;							\
	va_list ap;							\
									\
	va_start(ap, fmt);						\
	hr = nttrace_win_StringCchVPrintf##X(d, cch, fmt, ap);		\
	va_end(ap);							\
	return hr;							\
}									\
									\
HRESULT nttrace_win_StringCbPrintf##X(T *d, size_t cb, const T *fmt, ...)	\
{									\
	HRESULT hr;							\
	va_list ap;							\
									\
	va_start(ap, fmt);						\
	hr = nttrace_win_StringCchVPrintf##X(d, cb / sizeof(T), fmt, ap);	\
	va_end(ap);							\
	return hr;							\
}

STRSAFE_FUNCTIONS(A, char, nttrace_win__vsnprintf)
STRSAFE_FUNCTIONS(W, WCHAR, nttrace_win__vsnwprintf)
