// SPDX-License-Identifier: LGPL-2.1
/*
 * WPP-style tracing (<nttrace/wpp.h>): a source file's message GUID,
 * computed once per call site (etl/wpp_guid.c computes it).
 */
#include <nttrace/wpp.h>

const GUID *nttrace_wpp_guid_(const struct nttrace_wpp_entry *e, GUID *cache,
			      int *state, GUID *tmp)
{
	int expected = 0;

	/* Pairs with the release store below: a 2 means *cache is whole. */
	if (__atomic_load_n(state, __ATOMIC_ACQUIRE) == 2)
		return cache;
	if (!__atomic_compare_exchange_n(state, &expected, 1, 0, __ATOMIC_RELAXED,
					 __ATOMIC_RELAXED)) {
		nttrace_wpp_entry_guid(e, tmp);
		return tmp;
	}
	nttrace_wpp_entry_guid(e, cache);
	__atomic_store_n(state, 2, __ATOMIC_RELEASE);
	return cache;
}
