// SPDX-License-Identifier: LGPL-2.1
/* The thread's last error, and NTSTATUS / errno to Win32 (<nttrace/winerror.h>). */
#include <errno.h>

#include <nttrace/nt.h>
#include <nttrace/winerror.h>

static __thread DWORD last_error;

DWORD GetLastError(void)
{
	return last_error;
}

void SetLastError(DWORD error)
{
	last_error = error;
}

/* RtlNtStatusToDosError's values for the statuses NtTraceEvent returns. */
static const struct {
	uint32_t status, error;
} status_errors[] = {
	{ STATUS_SUCCESS, ERROR_SUCCESS },
	{ STATUS_DATATYPE_MISALIGNMENT, ERROR_NOACCESS },
	{ STATUS_BUFFER_OVERFLOW, ERROR_MORE_DATA },
	{ STATUS_NOT_IMPLEMENTED, ERROR_INVALID_FUNCTION },
	{ STATUS_ACCESS_VIOLATION, ERROR_NOACCESS },
	{ STATUS_INVALID_HANDLE, ERROR_INVALID_HANDLE },
	{ STATUS_INVALID_PARAMETER, ERROR_INVALID_PARAMETER },
	{ STATUS_NO_MEMORY, ERROR_NOT_ENOUGH_MEMORY },
	{ STATUS_ACCESS_DENIED, ERROR_ACCESS_DENIED },
	{ STATUS_BUFFER_TOO_SMALL, ERROR_INSUFFICIENT_BUFFER },
	/* An exception code: Windows hands it back unchanged. */
	{ STATUS_ARRAY_BOUNDS_EXCEEDED, STATUS_ARRAY_BOUNDS_EXCEEDED },
	{ STATUS_INTEGER_OVERFLOW, ERROR_ARITHMETIC_OVERFLOW },
	{ STATUS_NOT_SUPPORTED, ERROR_NOT_SUPPORTED },
	{ STATUS_INVALID_BUFFER_SIZE, ERROR_INVALID_USER_BUFFER },
	{ STATUS_WMI_ALREADY_DISABLED, ERROR_WMI_ALREADY_DISABLED },
	{ STATUS_UNSUCCESSFUL, ERROR_GEN_FAILURE },
	{ STATUS_INVALID_INFO_CLASS, ERROR_INVALID_PARAMETER },
	{ STATUS_INFO_LENGTH_MISMATCH, ERROR_BAD_LENGTH },
};

uint32_t RtlNtStatusToDosError(int32_t status)
{
	unsigned int i;

	for (i = 0; i < sizeof(status_errors) / sizeof(status_errors[0]); i++)
		if (status_errors[i].status == (uint32_t)status)
			return status_errors[i].error;
	return ERROR_MR_MID_NOT_FOUND;
}

/* The session ioctls' errors, as StartTrace and ControlTrace report them. */
uint32_t nttrace_errno_to_win32(int err)
{
	switch (err) {
	case 0: return ERROR_SUCCESS;
	case -EINVAL: return ERROR_INVALID_PARAMETER;
	case -EEXIST: return ERROR_ALREADY_EXISTS;
	case -EMFILE: return ERROR_NO_SYSTEM_RESOURCES;
	case -E2BIG: return ERROR_NO_SYSTEM_RESOURCES;
	/* The module's limits: sessions per user, all sessions' memory. */
	case -EDQUOT: return ERROR_NO_SYSTEM_RESOURCES;
	case -ENOBUFS: return ERROR_NO_SYSTEM_RESOURCES;
	/* A consumer outside the session's PID namespace. */
	case -EXDEV: return ERROR_ACCESS_DENIED;
	case -ENOMEM: return ERROR_NOT_ENOUGH_MEMORY;
	case -EPERM: return ERROR_ACCESS_DENIED;
	case -EACCES: return ERROR_ACCESS_DENIED;
	case -ENOENT: return ERROR_WMI_INSTANCE_NOT_FOUND;
	case -EBUSY: return ERROR_BUSY;
	case -ETIMEDOUT: return ERROR_TIMEOUT;
	case -EFAULT: return ERROR_NOACCESS;
	case -ENOSPC: return ERROR_DISK_FULL;
	/* A log file at its MaximumFileSize (or the process's file size limit). */
	case -EFBIG: return ERROR_LOG_FILE_FULL;
	case -EIO: return ERROR_WRITE_FAULT;
	case -ENOTDIR: return ERROR_PATH_NOT_FOUND;
	case -ENAMETOOLONG: return ERROR_BAD_PATHNAME;
	/*
	 * The module not loaded (no /dev/nttrace; the library's -ENODEV).
	 * Windows has no such case: its tracing is always there. Our tracing
	 * service is the module, so "the service has not been started" says
	 * it, and tells it from ERROR_WMI_INSTANCE_NOT_FOUND (no such
	 * session), and from
	 * ERROR_NOT_SUPPORTED (a module that does not know the request).
	 */
	case -ENODEV: return ERROR_SERVICE_NOT_ACTIVE;
	case -ENXIO:
	case -ENOTTY:
	/* A request the module knows and cannot carry out (a group it writes no events for). */
	case -EOPNOTSUPP: return ERROR_NOT_SUPPORTED;
	default: return ERROR_INVALID_FUNCTION;
	}
}
