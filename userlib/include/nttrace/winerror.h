/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * nttrace user library: the Win32 error codes its Windows-style functions
 * return (with their winerror.h values), the thread's last error, and the
 * NTSTATUS to Win32 mapping.
 */
#ifndef NTTRACE_WINERROR_H
#define NTTRACE_WINERROR_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t DWORD;

#define ERROR_SUCCESS			0U
#define ERROR_INVALID_FUNCTION		1U
#define ERROR_FILE_NOT_FOUND		2U
#define ERROR_PATH_NOT_FOUND		3U
#define ERROR_TOO_MANY_OPEN_FILES	4U
#define ERROR_ACCESS_DENIED		5U
#define ERROR_INVALID_HANDLE		6U
#define ERROR_NOT_ENOUGH_MEMORY		8U
#define ERROR_BAD_FORMAT		11U
#define ERROR_INVALID_DATA		13U
#define ERROR_OUTOFMEMORY		14U
#define ERROR_BAD_LENGTH		24U
#define ERROR_WRITE_FAULT		29U
#define ERROR_GEN_FAILURE		31U
#define ERROR_NOT_SUPPORTED		50U
#define ERROR_INVALID_PARAMETER		87U
#define ERROR_BUFFER_OVERFLOW		111U
#define ERROR_DISK_FULL			112U
#define ERROR_LOG_FILE_FULL		1502U
#define ERROR_INSUFFICIENT_BUFFER	122U
#define ERROR_BAD_PATHNAME		161U
#define ERROR_INVALID_FLAG_NUMBER	186U
#define ERROR_BUSY			170U
#define ERROR_ALREADY_EXISTS		183U
#define ERROR_MORE_DATA			234U
#define ERROR_MR_MID_NOT_FOUND		317U
#define ERROR_ARITHMETIC_OVERFLOW	534U
#define ERROR_NOACCESS			998U
#define ERROR_INVALID_FLAGS		1004U
#define ERROR_CANCELLED			1223U
#define ERROR_FILE_CORRUPT		1392U
#define ERROR_SERVICE_NOT_ACTIVE	1062U
#define ERROR_NOT_FOUND			1168U
#define ERROR_NO_UNICODE_TRANSLATION	1113U
#define ERROR_INVALID_SID		1337U
#define ERROR_NO_SYSTEM_RESOURCES	1450U
#define ERROR_TIMEOUT			1460U
#define ERROR_XML_PARSE_ERROR		1465U
#define ERROR_INVALID_USER_BUFFER	1784U
#define ERROR_INVALID_TIME		1901U
#define ERROR_WMI_GUID_NOT_FOUND	4200U
#define ERROR_WMI_INSTANCE_NOT_FOUND	4201U
#define ERROR_WMI_ALREADY_DISABLED	4212U
#define ERROR_RESOURCE_NOT_FOUND	5007U
#define ERROR_CTX_CLOSE_PENDING		7007U
#define ERROR_EVT_INVALID_EVENT_DATA	15005U

/* The calling thread's last error, as the Windows functions keep it. */
DWORD GetLastError(void);
void SetLastError(DWORD error);

/*
 * RtlNtStatusToDosError for the NTSTATUS values NtTraceEvent and
 * NtQuerySystemInformation (<nttrace/ntwmi.h>) return:
 * STATUS_SUCCESS -> ERROR_SUCCESS, STATUS_ACCESS_VIOLATION and
 * STATUS_DATATYPE_MISALIGNMENT -> ERROR_NOACCESS, STATUS_INVALID_HANDLE ->
 * ERROR_INVALID_HANDLE, STATUS_NO_MEMORY -> ERROR_NOT_ENOUGH_MEMORY,
 * STATUS_BUFFER_OVERFLOW -> ERROR_MORE_DATA, STATUS_INTEGER_OVERFLOW ->
 * ERROR_ARITHMETIC_OVERFLOW, STATUS_INFO_LENGTH_MISMATCH -> ERROR_BAD_LENGTH,
 * STATUS_INVALID_INFO_CLASS -> ERROR_INVALID_PARAMETER, and so on; an exception code Windows keeps as
 * it is (STATUS_ARRAY_BOUNDS_EXCEEDED) comes back unchanged, and a status
 * without a mapping gives ERROR_MR_MID_NOT_FOUND, as on Windows.
 */
uint32_t RtlNtStatusToDosError(int32_t status);

/* A negative errno from the session functions as a Win32 error. */
uint32_t nttrace_errno_to_win32(int err);

#ifdef __cplusplus
}
#endif

#endif /* NTTRACE_WINERROR_H */
