// SPDX-License-Identifier: LGPL-2.1
/* NtTraceEvent over /dev/nttrace. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
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

/*
 * NtTraceEvent's calls go through a descriptor of the calling thread's own
 * (for the first NT_THREAD_FDS threads; later ones share the process's).
 * A system call on a descriptor that threads share takes and drops a
 * reference to the one struct file behind it, an atomic each way on a
 * cache line every thread writes: two threads of a process tracing at full
 * rate took turns on it (in the bench kernel a no-op ioctl scaled 1.47
 * times with two threads on one descriptor, 1.93 with one each, as getppid
 * does). Our choice; Windows has no
 * descriptor here. Events need none: sessions and registrations are found
 * by their handles, so any descriptor of /dev/nttrace carries any event.
 * Each thread's is closed when it exits.
 */
#define NT_THREAD_FDS	64

static __thread int thread_fd = -1;	/* -2: this thread shares */
static unsigned int thread_fds;		/* atomic: threads holding their own */
static pthread_key_t thread_fd_key;
static pthread_once_t thread_fd_once = PTHREAD_ONCE_INIT;

static void close_thread_fd(void *arg)
{
	close((int)(intptr_t)arg - 1);
	__atomic_sub_fetch(&thread_fds, 1, __ATOMIC_RELAXED);
}

static void make_thread_fd_key(void)
{
	if (pthread_key_create(&thread_fd_key, close_thread_fd))
		__atomic_store_n(&thread_fds, NT_THREAD_FDS, __ATOMIC_RELAXED);
}

static int event_fd(void)
{
	int shared, fd = thread_fd;

	if (fd >= 0)
		return fd;
	shared = nttrace_device_fd();
	if (fd == -2 || shared < 0)
		return shared;
	pthread_once(&thread_fd_once, make_thread_fd_key);
	if (__atomic_add_fetch(&thread_fds, 1, __ATOMIC_RELAXED) > NT_THREAD_FDS)
		goto share;
	fd = open(NTTRACE_DEVICE, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		goto share;
	if (pthread_setspecific(thread_fd_key, (void *)(intptr_t)(fd + 1))) {
		close(fd);
		goto share;
	}
	return thread_fd = fd;
share:
	__atomic_sub_fetch(&thread_fds, 1, __ATOMIC_RELAXED);
	thread_fd = -2;
	return shared;
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
	int fd = event_fd();

	if (fd == -EACCES || fd == -EPERM)
		return (NTSTATUS)STATUS_ACCESS_DENIED;
	if (fd < 0)
		return (NTSTATUS)STATUS_NOT_SUPPORTED;
	if (ioctl(fd, NTTRACE_IOC_TRACE_EVENT, &args) < 0)
		return errno == EFAULT ? (NTSTATUS)STATUS_ACCESS_VIOLATION :
					 (NTSTATUS)STATUS_INVALID_PARAMETER;
	return (NTSTATUS)args.status;
}
