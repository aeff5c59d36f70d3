// SPDX-License-Identifier: LGPL-2.1
/* NtTraceEvent over /dev/nttrace. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <nttrace/nt.h>

static int device_fd = -1;

int nttrace_device_fd(void)
{
	int fd = __atomic_load_n(&device_fd, __ATOMIC_ACQUIRE);
	int expected = -1;

	if (fd >= 0)
		return fd;
	fd = open(NTTRACE_DEVICE, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		/*
		 * No node (ENOENT), or a node with no driver behind it (ENXIO,
		 * ENODEV): either way the module is not loaded. One errno for
		 * it, which no ioctl of the module returns, so that callers
		 * can tell it from the module's own -ENOENT ("no such
		 * session"); session.c does the same for a consumer's open.
		 */
		if (errno == ENOENT || errno == ENXIO || errno == ENODEV)
			return -ENODEV;
		return -errno;
	}
	/* Two threads may race to open: one fd wins, the other is closed. */
	if (!__atomic_compare_exchange_n(&device_fd, &expected, fd, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		close(fd);
		fd = expected;
	}
	return fd;
}

NTSTATUS NtTraceEvent(HANDLE TraceHandle, ULONG Flags, ULONG FieldSize,
		      PVOID Fields)
{
	struct nttrace_trace_event args = {
		.size = sizeof(args),
		.flags = Flags,
		.trace_handle = (uintptr_t)TraceHandle,
		.fields = (uintptr_t)Fields,
		.field_size = FieldSize,
	};
	int fd = nttrace_device_fd();

	if (fd == -EACCES || fd == -EPERM)
		return (NTSTATUS)STATUS_ACCESS_DENIED;
	if (fd < 0)
		return (NTSTATUS)STATUS_NOT_SUPPORTED;
	if (ioctl(fd, NTTRACE_IOC_TRACE_EVENT, &args) < 0)
		return errno == EFAULT ? (NTSTATUS)STATUS_ACCESS_VIOLATION :
					 (NTSTATUS)STATUS_INVALID_PARAMETER;
	return (NTSTATUS)args.status;
}
