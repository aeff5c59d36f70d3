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

uint64_t nttrace_module_features(void)
{
	struct nttrace_version v = { .size = sizeof(v) };
	int fd = nttrace_device_fd();

	if (fd < 0 || ioctl(fd, NTTRACE_IOC_VERSION, &v) < 0)
		return 0;
	return v.features;
}

int nttrace_system_flags(uint32_t *flags)
{
	struct nttrace_version v = { .size = sizeof(v) };
	int fd = nttrace_device_fd();

	if (fd < 0)
		return fd;
	if (ioctl(fd, NTTRACE_IOC_VERSION, &v) < 0)
		return -errno;
	if (!(v.features & NTTRACE_FEAT_SYSTEM_FLAGS))
		return -EOPNOTSUPP;	/* a module from before the query */
	*flags = v.system_flags;
	return 0;
}

/*
 * NtTraceEvent's calls go through one of NT_THREAD_FDS descriptors of the
 * library's, each used by one thread at a time while there are enough
 * (threads beyond share them in turn). A system call on a descriptor that
 * threads share takes and drops a reference to the one struct file behind
 * it, an atomic each way on a cache line every thread writes: two threads
 * of a process tracing at full rate took turns on it (in the bench kernel
 * a no-op ioctl scaled 1.47 times with two threads on one descriptor, 1.93
 * with one each, as getppid does). Our choice; Windows has no descriptor
 * here. Events need none: sessions and registrations are found by their
 * handles, so any descriptor of /dev/nttrace carries any event.
 *
 * The descriptors are the library's for the life of the process (O_CLOEXEC,
 * as the shared one is): a thread that exits gives its slot back, not its
 * descriptor, so that the library never closes a number the program may
 * have taken over in the meantime (a program that closed every descriptor
 * and opened its own would otherwise lose one when a thread exits).
 * The next thread to trace takes the free slot and its open descriptor.
 */
#define NT_THREAD_FDS	64
#define SLOT_WORDS	(NT_THREAD_FDS / 32)

static int pool_fd[NT_THREAD_FDS] = { [0 ... NT_THREAD_FDS - 1] = -1 };
static uint32_t pool_busy[SLOT_WORDS];	/* atomic: slots a thread holds */
static unsigned int pool_turn;		/* atomic: the next one to share */
static __thread int thread_slot = -1;	/* the slot it holds, or shares */
static pthread_key_t slot_key;
static int slot_key_ok;
static pthread_once_t slot_once = PTHREAD_ONCE_INIT;

/* A thread's exit: its slot is free again; the descriptor stays open. */
static void release_slot(void *arg)
{
	unsigned int i = (unsigned int)(uintptr_t)arg - 1;

	__atomic_and_fetch(&pool_busy[i / 32], ~(1U << (i % 32)), __ATOMIC_RELEASE);
}

static void make_slot_key(void)
{
	slot_key_ok = !pthread_key_create(&slot_key, release_slot);
}

/*
 * The key's destructor is this library's code: a shared build that is
 * unloaded must not leave it to run at the next thread's exit.
 */
__attribute__((destructor)) static void delete_slot_key(void)
{
	if (slot_key_ok)
		pthread_key_delete(slot_key);
	slot_key_ok = 0;
}

/* A free slot, now held; -1 if none. */
static int take_slot(void)
{
	unsigned int w;

	for (w = 0; w < SLOT_WORDS; w++) {
		uint32_t busy = __atomic_load_n(&pool_busy[w], __ATOMIC_RELAXED);

		while (busy != ~0U) {
			int bit = __builtin_ctz(~busy);

			if (__atomic_compare_exchange_n(&pool_busy[w], &busy, busy | 1U << bit, 0,
							__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
				return (int)(w * 32 + bit);
		}
	}
	return -1;
}

/* Slot @i's descriptor, opened by the first thread to need it. */
static int slot_fd(int i)
{
	int fd = __atomic_load_n(&pool_fd[i], __ATOMIC_ACQUIRE), expected = -1;

	if (fd >= 0)
		return fd;
	fd = open(NTTRACE_DEVICE, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* A sharer may open it at the same time: one wins. */
	if (!__atomic_compare_exchange_n(&pool_fd[i], &expected, fd, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		close(fd);
		fd = expected;
	}
	return fd;
}

static int event_fd(void)
{
	int slot = thread_slot, fd, shared;

	if (slot >= 0) {
		/* A slot's descriptor, once open, stays: no ordering needed. */
		fd = __atomic_load_n(&pool_fd[slot], __ATOMIC_RELAXED);
		return fd >= 0 ? fd : nttrace_device_fd();
	}
	shared = nttrace_device_fd();
	if (shared < 0)
		return shared;
	pthread_once(&slot_once, make_slot_key);
	slot = slot_key_ok ? take_slot() : -1;
	if (slot >= 0 && pthread_setspecific(slot_key, (void *)(uintptr_t)(slot + 1))) {
		release_slot((void *)(uintptr_t)(slot + 1));
		slot = -1;
	}
	if (slot >= 0)
		slot_fd(slot);	/* if it cannot be opened: the shared one */
	else		/* all held: share one, chosen once for this thread */
		slot = (int)(__atomic_fetch_add(&pool_turn, 1, __ATOMIC_RELAXED) %
			     NT_THREAD_FDS);
	thread_slot = slot;
	fd = __atomic_load_n(&pool_fd[slot], __ATOMIC_ACQUIRE);
	return fd >= 0 ? fd : shared;
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
