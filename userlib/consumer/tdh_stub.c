// SPDX-License-Identifier: LGPL-2.1
/*
 * The tdh.h functions nttrace does not have yet: manifests (loading them,
 * and what TDH answers from them: providers, their fields and events),
 * payload filters, provider filters and WPP decoding handles. Each returns
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

TDHSTATUS WINAPI TdhLoadManifest(PWSTR Manifest)
{
	return not_supported();
}

TDHSTATUS WINAPI TdhLoadManifestFromBinary(PWSTR BinaryPath)
{
	return not_supported();
}

TDHSTATUS WINAPI TdhLoadManifestFromMemory(LPCVOID pData, ULONG cbData)
{
	return not_supported();
}

TDHSTATUS WINAPI TdhUnloadManifest(PWSTR Manifest)
{
	return not_supported();
}

TDHSTATUS WINAPI TdhUnloadManifestFromMemory(LPCVOID pData, ULONG cbData)
{
	return not_supported();
}

TDHSTATUS WINAPI TdhEnumerateProviders(PPROVIDER_ENUMERATION_INFO pBuffer, ULONG *pBufferSize)
{
	return not_supported();
}

TDHSTATUS WINAPI TdhEnumerateProvidersForDecodingSource(DECODING_SOURCE filter,
							PROVIDER_ENUMERATION_INFO *buffer,
							ULONG bufferSize, ULONG *bufferRequired)
{
	return not_supported();
}

TDHSTATUS WINAPI TdhEnumerateProviderFieldInformation(LPGUID pGuid,
						      EVENT_FIELD_TYPE EventFieldType,
						      PPROVIDER_FIELD_INFOARRAY pBuffer,
						      ULONG *pBufferSize)
{
	return not_supported();
}

TDHSTATUS WINAPI TdhQueryProviderFieldInformation(LPGUID pGuid, ULONGLONG EventFieldValue,
						  EVENT_FIELD_TYPE EventFieldType,
						  PPROVIDER_FIELD_INFOARRAY pBuffer,
						  ULONG *pBufferSize)
{
	return not_supported();
}

TDHSTATUS WINAPI TdhEnumerateProviderFilters(LPGUID Guid, ULONG TdhContextCount,
					     PTDH_CONTEXT TdhContext, ULONG *FilterCount,
					     PPROVIDER_FILTER_INFO *Buffer, ULONG *BufferSize)
{
	return not_supported();
}

TDHSTATUS WINAPI TdhEnumerateManifestProviderEvents(LPGUID ProviderGuid,
						    PPROVIDER_EVENT_INFO Buffer,
						    ULONG *BufferSize)
{
	return not_supported();
}

TDHSTATUS WINAPI TdhGetManifestEventInformation(LPGUID ProviderGuid,
						PEVENT_DESCRIPTOR EventDescriptor,
						PTRACE_EVENT_INFO Buffer, ULONG *BufferSize)
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
