// SPDX-License-Identifier: LGPL-2.1
/*
 * The tdh.h functions nttrace does not have yet: provider
 * filters and WPP decoding handles. Each returns
 * ERROR_NOT_SUPPORTED, which is also the thread's last error, and touches
 * none of its arguments. Kept in this file of their own so that each can be
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

TDHSTATUS WINAPI TdhOpenDecodingHandle(PTDH_HANDLE Handle)
{
	return not_supported();
}

TDHSTATUS WINAPI TdhCloseDecodingHandle(TDH_HANDLE Handle)
{
	return not_supported();
}

TDHSTATUS WINAPI TdhSetDecodingParameter(TDH_HANDLE Handle, PTDH_CONTEXT TdhContext)
{
	return not_supported();
}

TDHSTATUS WINAPI TdhGetDecodingParameter(TDH_HANDLE Handle, PTDH_CONTEXT TdhContext)
{
	return not_supported();
}

TDHSTATUS WINAPI TdhGetWppProperty(TDH_HANDLE Handle, PEVENT_RECORD EventRecord,
				   PWSTR PropertyName, PULONG BufferSize, PBYTE Buffer)
{
	return not_supported();
}

TDHSTATUS WINAPI TdhGetWppMessage(TDH_HANDLE Handle, PEVENT_RECORD EventRecord,
				  PULONG BufferSize, PBYTE Buffer)
{
	return not_supported();
}
