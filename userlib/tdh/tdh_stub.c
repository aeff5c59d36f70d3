// SPDX-License-Identifier: LGPL-2.1
/*
 * The tdh.h function nttrace does not have yet: provider
 * filters (TdhEnumerateProviderFilters). It returns
 * ERROR_NOT_SUPPORTED, which is also the thread's last error, and touches
 * none of its arguments. Kept in this file of its own so that it can be
 * replaced on its own.
 */
#include <nttrace/tdh.h>

static TDHSTATUS not_supported(void)
{
	SetLastError(ERROR_NOT_SUPPORTED);
	return ERROR_NOT_SUPPORTED;
}

TDHSTATUS WINAPI TdhEnumerateProviderFilters(LPGUID Guid, ULONG TdhContextCount,
					     PTDH_CONTEXT TdhContext, ULONG *FilterCount,
					     PPROVIDER_FILTER_INFO *Buffer, ULONG *BufferSize)
{
	return not_supported();
}
