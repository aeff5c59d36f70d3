/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * nttrace user library: the NT layer. NtTraceEvent with its Windows
 * signature over /dev/nttrace, and NTSTATUS names.
 */
#ifndef NTTRACE_NT_H
#define NTTRACE_NT_H

#include <stdint.h>
#include <nttrace/uapi.h>
#include <nttrace/winnt.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t NTSTATUS;

#define NT_SUCCESS(status)	((NTSTATUS)(status) >= 0)

/* The NTSTATUS values under their ntstatus.h names (the uapi's NTTRACE_STATUS_*). */
#define STATUS_SUCCESS			NTTRACE_STATUS_SUCCESS
#define STATUS_DATATYPE_MISALIGNMENT	NTTRACE_STATUS_DATATYPE_MISALIGNMENT
#define STATUS_BUFFER_OVERFLOW		NTTRACE_STATUS_BUFFER_OVERFLOW
#define STATUS_NOT_IMPLEMENTED		NTTRACE_STATUS_NOT_IMPLEMENTED
#define STATUS_ACCESS_VIOLATION		NTTRACE_STATUS_ACCESS_VIOLATION
#define STATUS_INVALID_HANDLE		NTTRACE_STATUS_INVALID_HANDLE
#define STATUS_INVALID_PARAMETER	NTTRACE_STATUS_INVALID_PARAMETER
#define STATUS_NO_MEMORY		NTTRACE_STATUS_NO_MEMORY
#define STATUS_ACCESS_DENIED		NTTRACE_STATUS_ACCESS_DENIED
#define STATUS_BUFFER_TOO_SMALL		NTTRACE_STATUS_BUFFER_TOO_SMALL
#define STATUS_ARRAY_BOUNDS_EXCEEDED	NTTRACE_STATUS_ARRAY_BOUNDS_EXCEEDED
#define STATUS_INTEGER_OVERFLOW		NTTRACE_STATUS_INTEGER_OVERFLOW
#define STATUS_NOT_SUPPORTED		NTTRACE_STATUS_NOT_SUPPORTED
#define STATUS_INVALID_BUFFER_SIZE	NTTRACE_STATUS_INVALID_BUFFER_SIZE
#define STATUS_WMI_ALREADY_DISABLED	NTTRACE_STATUS_WMI_ALREADY_DISABLED
/*
 * Statuses of the library's own NT calls (<nttrace/ntwmi.h>'s
 * NtQuerySystemInformation), which the module never returns: no
 * information class of that value, a buffer of the wrong length for the
 * class, a failure the others do not name.
 */
#define STATUS_UNSUCCESSFUL		((NTSTATUS)0xC0000001L)
#define STATUS_INVALID_INFO_CLASS	((NTSTATUS)0xC0000003L)
#define STATUS_INFO_LENGTH_MISMATCH	((NTSTATUS)0xC0000004L)

/*
 * NtTraceEvent as Windows declares it. Returns the kernel's NTSTATUS; when
 * the device cannot be reached or refuses the ioctl, a status saying why:
 * STATUS_NOT_SUPPORTED (no /dev/nttrace: module not loaded),
 * STATUS_ACCESS_DENIED (device not openable), STATUS_INVALID_PARAMETER
 * (ioctl rejected by an incompatible module).
 */
NTSTATUS NtTraceEvent(HANDLE TraceHandle, ULONG Flags, ULONG FieldSize,
		      PVOID Fields);

/* The file descriptor of /dev/nttrace, opened once per process; -errno. */
int nttrace_device_fd(void);

/*
 * The NT Kernel Logger's EnableFlags (EVENT_TRACE_FLAG_*) the loaded module
 * writes events for, asked of it (NTTRACE_IOC_VERSION) into *@flags: 0;
 * -ENODEV (module not loaded), -EOPNOTSUPP (a module too old to say), or
 * another -errno.
 */
int nttrace_system_flags(uint32_t *flags);

/*
 * The loaded module's NTTRACE_FEAT_* bits (NTTRACE_IOC_VERSION); 0 when it
 * cannot be asked (not loaded).
 */
uint64_t nttrace_module_features(void);

/* "STATUS_ACCESS_VIOLATION" and so on; NULL for a value we do not name. */
const char *nttrace_status_name(NTSTATUS status);

/* Each named NTSTATUS in turn, for i = 0, 1, ... until it returns 0. */
int nttrace_status_at(unsigned int i, NTSTATUS *status, const char **name);

/* The name of an ETW_NT_FLAGS_TRACE_* type ("TRACE_MESSAGE"), or NULL. */
const char *nttrace_type_name(ULONG type);

#ifdef __cplusplus
}
#endif

#endif /* NTTRACE_NT_H */
