// SPDX-License-Identifier: LGPL-2.1
/*
 * TdhOpenDecodingHandle, TdhCloseDecodingHandle, TdhSetDecodingParameter
 * and TdhGetDecodingParameter: a decoding handle holds TDH_CONTEXT values
 * for TdhGetWppProperty and TdhGetWppMessage (tdh_wpp.c).
 *
 * Errors as Microsoft documents them (learn.microsoft.com, tdh.h):
 * ERROR_INVALID_PARAMETER for a NULL argument or a value that "does not
 * exist", ERROR_NOT_ENOUGH_MEMORY. Chosen here, where Microsoft says
 * nothing:
 *  - a handle that is not open (never was, or closed) is
 *    ERROR_INVALID_PARAMETER, TdhCloseDecodingHandle's too (documented as
 *    always succeeding; a closed handle stays invalid: slot and generation);
 *  - TdhSetDecodingParameter takes one TDH_CONTEXT (it has no count) and
 *    replaces the value of that type. TMFFILE and TMFSEARCHPATH load their
 *    formats then (tdh_wpp_load.c says how); one that does not load is
 *    ERROR_INVALID_PARAMETER and the handle keeps what it had. GMT takes
 *    the value's low byte ("a 1-byte Boolean"); POINTERSIZE 4 or 8;
 *    TDH_CONTEXT_PDB_PATH is ERROR_NOT_SUPPORTED (no PDBs here);
 *  - TdhGetDecodingParameter fills ParameterValue for the ParameterType
 *    asked: a string's address is the handle's own UTF-16 copy, good until
 *    the handle is closed or that parameter set again; a type never set is
 *    ERROR_INVALID_PARAMETER (its value does not exist).
 */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tdh_wpp.h"

/* Handle values: generation << 16 | slot + 1; never 0, never all ones. */
#define MAX_HANDLES	0xFFFD

struct decoder {
	int open;
	uint16_t gen;
	unsigned int set;		/* 1 << TDH_CONTEXT_TYPE of each value set */
	WCHAR *file_w, *search_w;	/* as given */
	char *file, *search;		/* UTF-8 */
	struct nttrace_tdh_wpp_formats *f;
	struct nttrace_tdh_wpp_opts o;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct decoder *slots;
static size_t nslots;

void nttrace_tdh_wpp_lock(void)
{
	pthread_mutex_lock(&lock);
}

void nttrace_tdh_wpp_unlock(void)
{
	pthread_mutex_unlock(&lock);
}

static TDHSTATUS done(TDHSTATUS err)
{
	SetLastError(err);
	return err;
}

static struct decoder *lookup(TDH_HANDLE h)
{
	uintptr_t v = (uintptr_t)h;
	size_t i = (v & 0xFFFF) - 1;

	if (v >> 16 >> 16 || (v & 0xFFFF) == 0 || i >= nslots || !slots[i].open ||
	    slots[i].gen != (uint16_t)(v >> 16))
		return NULL;
	return &slots[i];
}

ULONG nttrace_tdh_wpp_handle(TDH_HANDLE h, struct nttrace_tdh_wpp_formats **f,
			     struct nttrace_tdh_wpp_opts *o)
{
	struct decoder *d = lookup(h);

	if (!d)
		return ERROR_INVALID_PARAMETER;
	*f = d->f;
	*o = d->o;
	return ERROR_SUCCESS;
}

TDHSTATUS WINAPI TdhOpenDecodingHandle(PTDH_HANDLE Handle)
{
	size_t i;

	if (!Handle)
		return done(ERROR_INVALID_PARAMETER);
	nttrace_tdh_wpp_lock();
	for (i = 0; i < nslots && slots[i].open; i++)
		;
	if (i == nslots) {
		size_t n = nslots ? 2 * nslots : 16;
		struct decoder *v;

		if (n > MAX_HANDLES)
			n = MAX_HANDLES;
		v = n > nslots ? realloc(slots, n * sizeof(*v)) : NULL;
		if (!v) {
			nttrace_tdh_wpp_unlock();
			return done(ERROR_NOT_ENOUGH_MEMORY);
		}
		memset(v + nslots, 0, (n - nslots) * sizeof(*v));
		slots = v;
		nslots = n;
	}
	slots[i].open = 1;
	*Handle = (TDH_HANDLE)(uintptr_t)((uintptr_t)slots[i].gen << 16 | (i + 1));
	nttrace_tdh_wpp_unlock();
	return done(ERROR_SUCCESS);
}

TDHSTATUS WINAPI TdhCloseDecodingHandle(TDH_HANDLE Handle)
{
	struct decoder *d;
	uint16_t gen;

	nttrace_tdh_wpp_lock();
	d = lookup(Handle);
	if (!d) {
		nttrace_tdh_wpp_unlock();
		return done(ERROR_INVALID_PARAMETER);
	}
	nttrace_tdh_wpp_free(d->f);
	free(d->file_w);
	free(d->search_w);
	free(d->file);
	free(d->search);
	gen = d->gen + 1;
	memset(d, 0, sizeof(*d));
	d->gen = gen;
	nttrace_tdh_wpp_unlock();
	return done(ERROR_SUCCESS);
}

static WCHAR *wide_copy(const WCHAR *w)
{
	size_t n = 0;
	WCHAR *c;

	while (w[n])
		n++;
	c = malloc((n + 1) * sizeof(*c));
	if (c)
		memcpy(c, w, (n + 1) * sizeof(*c));
	return c;
}

/* TMFFILE or TMFSEARCHPATH (@search) set to @w: its formats loaded. */
static ULONG set_path(struct decoder *d, const WCHAR *w, int search)
{
	struct nttrace_tdh_wpp_formats *f;
	char *s;
	WCHAR *copy;
	ULONG err = nttrace_tdh_utf8(w, search ? NTTRACE_TDH_WPP_SEARCH_MAX : PATH_MAX, &s);

	if (err)
		return err;
	err = nttrace_tdh_wpp_load(search ? d->file : s, search ? s : d->search, &f);
	copy = err ? NULL : wide_copy(w);
	if (!err && !copy) {
		nttrace_tdh_wpp_free(f);
		err = ERROR_NOT_ENOUGH_MEMORY;
	}
	if (err) {
		free(s);
		return err;
	}
	nttrace_tdh_wpp_free(d->f);
	d->f = f;
	free(search ? d->search : d->file);
	free(search ? d->search_w : d->file_w);
	if (search) {
		d->search = s;
		d->search_w = copy;
	} else {
		d->file = s;
		d->file_w = copy;
	}
	return ERROR_SUCCESS;
}

static ULONG set(struct decoder *d, const TDH_CONTEXT *c)
{
	const WCHAR *w = (const WCHAR *)(uintptr_t)c->ParameterValue;

	switch (c->ParameterType) {
	case TDH_CONTEXT_WPP_TMFFILE:
		return set_path(d, w, 0);
	case TDH_CONTEXT_WPP_TMFSEARCHPATH:
		return set_path(d, w, 1);
	case TDH_CONTEXT_WPP_GMT:
		d->o.gmt = (uint8_t)c->ParameterValue != 0;
		return ERROR_SUCCESS;
	case TDH_CONTEXT_POINTERSIZE:
		if (c->ParameterValue != 4 && c->ParameterValue != 8)
			return ERROR_INVALID_PARAMETER;
		d->o.psz = (uint32_t)c->ParameterValue;
		return ERROR_SUCCESS;
	case TDH_CONTEXT_PDB_PATH:
		return ERROR_NOT_SUPPORTED;
	default:
		return ERROR_INVALID_PARAMETER;
	}
}

TDHSTATUS WINAPI TdhSetDecodingParameter(TDH_HANDLE Handle, PTDH_CONTEXT TdhContext)
{
	struct decoder *d;
	ULONG err;

	if (!TdhContext)
		return done(ERROR_INVALID_PARAMETER);
	nttrace_tdh_wpp_lock();
	d = lookup(Handle);
	err = d ? set(d, TdhContext) : ERROR_INVALID_PARAMETER;
	if (!err)
		d->set |= 1U << TdhContext->ParameterType;
	nttrace_tdh_wpp_unlock();
	return done(err);
}

TDHSTATUS WINAPI TdhGetDecodingParameter(TDH_HANDLE Handle, PTDH_CONTEXT TdhContext)
{
	unsigned int type;
	struct decoder *d;
	ULONG err = ERROR_SUCCESS;

	if (!TdhContext)
		return done(ERROR_INVALID_PARAMETER);
	type = TdhContext->ParameterType;
	nttrace_tdh_wpp_lock();
	d = lookup(Handle);
	if (!d || type >= TDH_CONTEXT_MAXIMUM || !(d->set & 1U << type))
		err = ERROR_INVALID_PARAMETER;
	else if (type == TDH_CONTEXT_WPP_TMFFILE)
		TdhContext->ParameterValue = (uintptr_t)d->file_w;
	else if (type == TDH_CONTEXT_WPP_TMFSEARCHPATH)
		TdhContext->ParameterValue = (uintptr_t)d->search_w;
	else if (type == TDH_CONTEXT_WPP_GMT)
		TdhContext->ParameterValue = d->o.gmt;
	else
		TdhContext->ParameterValue = d->o.psz;
	nttrace_tdh_wpp_unlock();
	return done(err);
}
