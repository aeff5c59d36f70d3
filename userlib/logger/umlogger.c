// SPDX-License-Identifier: LGPL-2.1
/*
 * The user-mode logger: one per process, started by StartTrace with
 * EVENT_TRACE_PRIVATE_LOGGER_MODE, as on Windows. Its buffers live in this
 * process, TraceMessage, TraceEvent and TraceEventInstance to its handle
 * (TRACE_USER_MODE_LOGGER_BIT) make no system call, nor does EventWrite of
 * a provider it enables (nttrace_um_event_write), and the records and
 * buffers are those the kernel writes: WMI_BUFFER_HEADER, then 8-byte-
 * aligned MESSAGE_TRACE_HEADER and classic (0xC0) records, the unused tail
 * filled with NTTRACE_WMI_BUFFER_FILL. A writer thread appends full buffers
 * to the log file.
 *
 * Producers: each thread uses one of UM_SLOTS slots (a free one on its
 * first event, and left at its exit), each with its own lock and current
 * buffer, so threads rarely meet; the lock costs its owner no atomic
 * instruction (slot_lock()). An event is written under the slot's lock: the handle is
 * checked again, space taken in the slot's buffer (a full one goes to the
 * writer's queue and a free one is taken; none free: the event is counted
 * lost and the caller gets ERROR_NOT_ENOUGH_MEMORY), the arguments copied
 * with nttrace_safe_copy() (a bad address: ERROR_NOACCESS, the space is
 * given back), then the items, the sequence number last.
 *
 * Stop clears the handle, then takes every slot's lock in turn and queues
 * its partial buffer: after that no producer touches a buffer. The writer
 * writes the queue out and ends; the file is complete when stop returns.
 *
 * The writer is woken when a quarter of the buffers wait (at least one, at
 * most UM_WAKE_MAX: with many buffers, waiting for a quarter of them only
 * delays the writer and leaves it less slack to be scheduled late) or fewer
 * than that are free, not for each buffer: a wake-up is a system call in the
 * producer's path. Fewer wait for the flush timer, FlushTrace
 * or stop. The slots are static, so a late producer never touches freed memory.
 *
 * When fewer than half the buffers are free, the writer is behind, and a
 * producer taking a buffer first gives its CPU away once (sched_yield():
 * nothing happens unless another thread is runnable on its CPU). Measured
 * on 2 CPUs (`perf sched`): the writer, woken by a producer, was placed on
 * the producer's CPU, where a producer that never sleeps kept it waiting
 * for its share, and with 2 or 4 producers it had a fifth of the CPUs: 35
 * to 79 % of the events were lost at full rate, where LTTng-UST's
 * consumer daemon in the same conditions discarded 3 to 18 %. Yielding
 * there, none were lost, at 41 to 70 ns an event (wall time over all
 * threads' events, against LTTng-UST's 45 to 65). It costs a system call
 * a buffer, only while buffers are short; a producer never waits for the
 * writer or the file, and an event that finds no free buffer is lost and
 * counted, as on Windows.
 *
 * Choices: MaximumBuffers counts buffers in all (not per CPU); a buffer's
 * processor_number is its slot, each slot's buffers being one time-ordered
 * stream as a CPU's are (with EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING every
 * thread writes to slot 0: one stream, in the order of the writes; see
 * single_gate()); thread and process IDs are the process's own.
 *
 * A call nested on one thread: a signal handler that interrupted the logger
 * on its thread (TraceMessage, or ControlTrace holding a slot's lock) would
 * wait for a lock its own thread holds, for ever. A thread-local flag marks
 * a thread inside the logger; a TraceMessage that finds it set fails at once
 * with ERROR_BUSY and is counted in EventsLost (and the slot's next buffer
 * marked NTTRACE_WMI_BUFFER_FLAG_EVENTS_LOST, as for any loss); a StartTrace or
 * ControlTrace that finds it set also fails with ERROR_BUSY. Windows has no
 * such case to copy (no signals; a user-mode APC runs only when its thread
 * waits alertably), so the error is our choice: ERROR_BUSY ("The requested
 * resource is in use") says that the handle and the arguments are good and
 * a later call can succeed. ERROR_POSSIBLE_DEADLOCK was the other candidate,
 * but Windows gives it for a critical section's wait that timed out, and
 * here nothing waits. The writer thread blocks every signal, so that no
 * handler runs on it while it holds the queue's lock (and a log file that
 * is a pipe with no reader fails its buffers with EPIPE, counted in
 * LogBuffersLost, rather than killing the process with SIGPIPE).
 *
 * fork(): a private logger belongs to one process (on Windows too: the
 * handle means nothing in another process). The fork waits for a start or
 * stop under way (the control lock is held across it), then the child
 * drops its copy of the parent's logger: no handle runs there (the
 * parent's is invalid), the slots are empty and unlocked whoever held them,
 * the copy of the pool is freed and the log file's descriptor closed. The
 * child may start its own. (fork() from a signal handler that interrupted
 * the logger on its thread is not supported: fork is not async-signal-safe
 * with fork handlers.)
 *
 * Exit: a logger still running when the process exits (exit(), or a return
 * from main) is stopped as StopTrace stops it, its buffers written and the
 * file's header finished, as NTDLL does for its private logger when the
 * process ends. It is a destructor, not an atexit handler, so that it runs
 * after the program's atexit handlers and keeps their events. It waits for
 * a start or stop under way in another thread, for producers to leave their
 * slots (they leave as soon as the handle is cleared) and for the writer to
 * write the buffers out, as StopTrace does. It does nothing in a child of
 * fork() that started no logger of its own, nor when exit() is called from
 * a signal handler that interrupted the logger on its thread (that thread
 * may hold the locks). _exit() and fatal signals lose what was buffered, as
 * on Windows a killed process does.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/session.h>
#include "logger_internal.h"
#include "record.h"

#define UM_SLOTS		NTTRACE_UM_SLOTS
#define UM_DEFAULT_KB		64
/*
 * Our choice of default: 128 buffers of 64 KB (8 MB of address space). At
 * the full rate of one thread (~100 ns for an 88-byte record) a buffer fills
 * in ~70 us; 16 buffers (1 ms) lost 10-50 % of the events whenever the
 * writer thread waited a few ms for a CPU on a busy machine, 128 lost none
 * in our runs (tmpfs and disk). The pool is malloc'd; its pages become
 * resident as the buffers are first used.
 *
 * Free buffers are taken oldest-freed first. The writer thread reads each
 * buffer it writes (write() copies it), on another CPU: the buffer's cache
 * lines are then in that CPU's cache too, and a producer writing them
 * again waits for that CPU to give them up. Taken newest-first (which kept
 * the resident set small) the buffer had just been read, and with
 * SEQUENCE the producer's locked add waited for those lines: 210 ns an
 * event against 50 with a writer that reads nothing; taken oldest-first,
 * ~100 ns (measured with perf and A/B runs). The cost: the
 * whole pool becomes resident.
 */
#define UM_DEFAULT_BUFFERS	128
/* The writer is woken at this many queued buffers at most (see the head). */
#define UM_WAKE_MAX		4
/*
 * The modes the in-process logger takes. The file modes (APPEND, NEWFILE,
 * PREALLOCATE, COMPRESSED and their combinations) are the log file's, which checks
 * them (nttrace_logfile_open()); INDEPENDENT_SESSION_MODE is what a
 * session alone always is.
 */
#define UM_MODES (EVENT_TRACE_PRIVATE_LOGGER_MODE | EVENT_TRACE_PRIVATE_IN_PROC | \
	EVENT_TRACE_FILE_MODE_SEQUENTIAL | EVENT_TRACE_FILE_MODE_CIRCULAR | \
	EVENT_TRACE_FILE_MODE_APPEND | EVENT_TRACE_FILE_MODE_NEWFILE | \
	EVENT_TRACE_FILE_MODE_PREALLOCATE | EVENT_TRACE_INDEPENDENT_SESSION_MODE | \
	EVENT_TRACE_COMPRESSED_MODE | EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING | \
	EVENT_TRACE_USE_GLOBAL_SEQUENCE | \
	EVENT_TRACE_USE_LOCAL_SEQUENCE | EVENT_TRACE_USE_KBYTES_FOR_SIZE)

struct um_slot {
	int locked;		/* the lock word of slot_lock() (atomic) */
	int owner_in;		/* the owner is inside (its stores only) */
	int gate;		/* others that want the slot (atomic) */
	int fast;		/* the holder came in by the owner's way */
	int users;		/* threads using the slot (atomic) */
	uint16_t lost_flags;	/* NTTRACE_WMI_BUFFER_FLAG_EVENTS_LOST for the next buffer */
	uint8_t *buf;		/* current buffer, or NULL */
	uint32_t offset;	/* its end of data */
	uint32_t buf_events;	/* events in buf */
	uint64_t lost;		/* events refused: no free buffer (atomic store) */
	uint64_t busy;		/* nested calls refused (atomic: without the lock) */
	uint64_t busy_seen;	/* busy when the last buffer was sealed */
} __attribute__((aligned(64)));	/* one cache line a slot */
_Static_assert(sizeof(struct um_slot) == 64, "a slot fills one cache line");

static struct um_slot slots[UM_SLOTS];

/*
 * A slot's lock, biased to its owner: the thread that took the slot when
 * nobody used it, the only user while there are at most UM_SLOTS threads.
 * The owner comes in with plain stores and no atomic instruction (an atomic
 * drains the store buffer, which held up every event: see
 * Documentation/performance.md, "Where the time went"): it sets owner_in,
 * then reads gate, the count of the others that want the slot (threads that
 * share it, a stop or flush visiting every slot); zero, it is in. The
 * others add themselves to gate, call membarrier(), which runs a full
 * barrier on every CPU running a thread of the process, take the lock word
 * with an atomic exchange and wait for owner_in to drop. That is Dekker's
 * handshake with the owner's fence moved into the others' system call (as
 * liburcu does with membarrier): either the owner's read saw gate raised
 * and it took the lock word too, or its owner_in is seen and waited for.
 * Where membarrier() is missing (seccomp, Linux before 4.14) the owner
 * takes the lock word like everyone else. A waiter yields, so a holder that
 * was preempted gets to finish.
 */
static int membarrier_ok;	/* set once, before any logger's handle is */
static pthread_once_t membarrier_once = PTHREAD_ONCE_INIT;
static __thread int my_sharer;	/* this thread is in its slot's gate */

static void register_membarrier(void)
{
	membarrier_ok = !syscall(SYS_membarrier,
				 MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0);
}

/* A full barrier in every running thread of the process (see above). */
static void barrier_everywhere(void)
{
	if (membarrier_ok)
		syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
}

/* @mine: @s is this thread's slot (else it visits, as stop and flush do). */
static void slot_lock(struct um_slot *s, int mine)
{
	if (mine && membarrier_ok && !my_sharer) {
		__atomic_store_n(&s->owner_in, 1, __ATOMIC_RELAXED);
		/* The fence is barrier_everywhere()'s, in the others' call. */
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		/* Acquire: pairs with the others' lowering of gate after unlock. */
		if (!__atomic_load_n(&s->gate, __ATOMIC_ACQUIRE)) {
			s->fast = 1;
			return;
		}
		/* Release: what we wrote before is seen by who waits for us. */
		__atomic_store_n(&s->owner_in, 0, __ATOMIC_RELEASE);
	}
	/* Acquire: pairs with the release in slot_unlock(). */
	while (__atomic_exchange_n(&s->locked, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&s->locked, __ATOMIC_RELAXED))
			sched_yield();
	/* Acquire: pairs with the owner's release of owner_in. */
	while (__atomic_load_n(&s->owner_in, __ATOMIC_ACQUIRE))
		sched_yield();
	s->fast = 0;
}

static void slot_unlock(struct um_slot *s)
{
	/* Release: the slot's buffer is written before the next holder looks. */
	if (s->fast)
		__atomic_store_n(&s->owner_in, 0, __ATOMIC_RELEASE);
	else
		__atomic_store_n(&s->locked, 0, __ATOMIC_RELEASE);
}

/*
 * EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING: every thread writes to slot 0,
 * by its lock word (slot_lock(s, 0)), so that the file holds one stream
 * of buffers in the order the events were written, as Windows' common
 * buffer does. Slot 0's owner must then take the lock word too: its gate
 * is raised, once, for the rest of the process (a writer of a past session
 * may still come by the lock word, and the owner's way must never run
 * beside it). Its owner pays the lock word's atomic from then on.
 */
static int single_raised;	/* under um.control; a forked child keeps it */

static void single_gate(void)
{
	if (single_raised)
		return;
	single_raised = 1;
	__atomic_add_fetch(&slots[0].gate, 1, __ATOMIC_SEQ_CST);
	barrier_everywhere();
}

/* A stop or flush wants every slot: raise every gate, one barrier. */
static void gate_all(int delta)
{
	unsigned int i;

	for (i = 0; i < UM_SLOTS; i++)
		__atomic_add_fetch(&slots[i].gate, delta, __ATOMIC_SEQ_CST);
	if (delta > 0)
		barrier_everywhere();
}

static struct {
	pthread_mutex_t control;	/* start, stop, query */
	TRACEHANDLE handle;		/* 0: not running (atomic) */
	uint32_t generation;
	char name[NTTRACE_NAME_MAX];
	uint32_t bufsize, nbuf, mode, flush_timer, clock_type;
	uint64_t frequency, start_time, start_perf;
	uint8_t *pool;
	/*
	 * Every event with SEQUENCE adds to it, from any thread: a cache
	 * line of its own, apart from what the writer thread writes.
	 */
	uint32_t event_seq __attribute__((aligned(64)));	/* atomic */
	uint64_t buffer_seq __attribute__((aligned(64)));	/* atomic */

	/* The free buffers and the writer's queue, under queue_lock. */
	pthread_mutex_t queue_lock;
	pthread_cond_t queue_cond;	/* the writer waits for work */
	pthread_cond_t written_cond;	/* FLUSH waits for the writer */
	uint32_t *free_list, free_head, nfree;	/* a FIFO of nbuf entries */
	uint32_t *queue, qhead, qlen;
	uint32_t *events_in;		/* a queued buffer's events, by index */
	uint32_t wake_at;		/* qlen that wakes the writer */
	uint32_t yield_below;		/* nfree below which producers yield */
	/*
	 * Buffers the writer takes at once, one system call for them: at
	 * most an eighth of the pool, so that the producers keep free ones
	 * while it writes (they come back when the batch is written).
	 */
	uint32_t batch;
	uint64_t queued, done;		/* buffers queued; of them, written */
	int stopping;
	pthread_t writer;
	pid_t writer_tid;
	uint32_t written, failed;	/* the file's counts, for queries */
	struct nttrace_logfile file;	/* the writer's */
} um = {
	.control = PTHREAD_MUTEX_INITIALIZER,
	.queue_lock = PTHREAD_MUTEX_INITIALIZER,
	.queue_cond = PTHREAD_COND_INITIALIZER,
	.written_cond = PTHREAD_COND_INITIALIZER,
};

static unsigned int next_slot;		/* atomic */
static __thread int my_slot = -1;
static pthread_key_t slot_key;		/* its destructor leaves the slot */
static pthread_once_t slot_key_once = PTHREAD_ONCE_INIT;
static __thread pid_t my_tid;
static pid_t my_pid;			/* atomic: threads fill it in */
/* Nested calls refused before their thread had a slot (atomic). */
static uint64_t busy_unslotted __attribute__((aligned(8)));

/*
 * This thread is inside the logger (see "A call nested on one thread"
 * above). Only a signal handler on the same thread reads it, so compiler
 * barriers are all the ordering it needs: no atomic instruction.
 */
static __thread int in_logger;

static void logger_enter(void)
{
	__atomic_store_n(&in_logger, 1, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static void logger_leave(void)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&in_logger, 0, __ATOMIC_RELAXED);
}

static int logger_nested(void)
{
	return __atomic_load_n(&in_logger, __ATOMIC_RELAXED);
}

/* The TSC's rate, measured against CLOCK_MONOTONIC over 20 ms. */
static uint64_t cycle_frequency(void)
{
	uint64_t t0 = nttrace_clock_now(NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER);
	uint64_t c0 = nttrace_clock_now(NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE), t1, c1;
	struct timespec pause = { 0, 20000000 };

	nanosleep(&pause, NULL);
	t1 = nttrace_clock_now(NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER);
	c1 = nttrace_clock_now(NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE);
	return t1 > t0 ? (c1 - c0) * 1000000000.0 / (t1 - t0) : 0;
}

/* ---- buffers ---- */

/* @nbuf / @part buffers, at least 1 and at most @max. */
static uint32_t pool_share(uint32_t nbuf, uint32_t part, uint32_t max)
{
	uint32_t n = nbuf / part;

	return n > max ? max : n ? n : 1;
}

static uint8_t *pool_buffer(uint32_t i)
{
	return um.pool + (size_t)i * um.bufsize;
}

static void free_pool(void)
{
	free(um.pool);
	free(um.free_list);
	free(um.queue);
	free(um.events_in);
	um.pool = NULL;
	um.free_list = NULL;
	um.queue = NULL;
	um.events_in = NULL;
}

/* Seal a buffer and queue it for the writer. Under its slot's lock. */
static void queue_buffer(struct um_slot *s)
{
	uint32_t index = (s->buf - um.pool) / um.bufsize;
	uint64_t busy = __atomic_load_n(&s->busy, __ATOMIC_RELAXED);

	/* Nested calls refused while this buffer was the slot's: a loss. */
	if (busy != s->busy_seen) {
		s->busy_seen = busy;
		s->lost_flags |= NTTRACE_WMI_BUFFER_FLAG_EVENTS_LOST;
	}
	ntr_buffer_seal(s->buf, s->offset, nttrace_clock_now(um.clock_type),
			__atomic_fetch_add(&um.buffer_seq, 1, __ATOMIC_RELAXED),
			s->lost_flags);
	s->lost_flags = 0;
	s->buf = NULL;

	pthread_mutex_lock(&um.queue_lock);
	um.events_in[index] = s->buf_events;
	um.queue[(um.qhead + um.qlen++) % um.nbuf] = index;
	um.queued++;
	/* Wake the writer for a batch, or when free buffers run short. */
	if (um.qlen >= um.wake_at || um.nfree < um.wake_at)
		pthread_cond_signal(&um.queue_cond);
	pthread_mutex_unlock(&um.queue_lock);
}

/*
 * A buffer back to the free list, under queue_lock. The count is stored
 * atomically: take_buffer() peeks at it without the lock.
 */
static void free_push(uint32_t index)
{
	um.free_list[(um.free_head + um.nfree) % um.nbuf] = index;
	__atomic_store_n(&um.nfree, um.nfree + 1, __ATOMIC_RELAXED);
}

/* Give the slot a fresh buffer; 0, or -1 when none is free. */
static int take_buffer(struct um_slot *s, unsigned int slot, TRACEHANDLE handle)
{
	struct ntr_buffer_conf conf = {
		.buffer_size = um.bufsize,
		.clock_type = um.clock_type,
		.frequency = um.frequency,
		/* The caller's: um.handle may be changing. */
		.logger_id = handle & 0xFFFF,
		.start_time = um.start_time,
		.start_perf_clock = um.start_perf,
	};
	uint32_t index;

	/* The writer is behind: let it have this CPU if it waits for it (see the head). */
	if (__atomic_load_n(&um.nfree, __ATOMIC_RELAXED) < um.yield_below)
		sched_yield();
	/*
	 * None free, as far as we can tell without the lock: the event is
	 * lost without taking it, so that a producer that outruns the writer
	 * (every event lost until a buffer is written) does not fight the
	 * writer for the lock on every event. A buffer freed a moment ago is
	 * seen by the next event.
	 */
	if (!__atomic_load_n(&um.nfree, __ATOMIC_RELAXED))
		return -1;
	pthread_mutex_lock(&um.queue_lock);
	if (!um.nfree) {
		pthread_mutex_unlock(&um.queue_lock);
		return -1;
	}
	index = um.free_list[um.free_head];
	um.free_head = (um.free_head + 1) % um.nbuf;
	__atomic_store_n(&um.nfree, um.nfree - 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&um.queue_lock);

	s->buf = pool_buffer(index);
	s->offset = NTTRACE_WMI_BUFFER_HEADER_SIZE;
	s->buf_events = 0;
	ntr_buffer_open(s->buf, &conf, slot);
	return 0;
}

/*
 * A thread that exits leaves its slot; the last to leave gives back the
 * slot's buffer (queued if it holds events, else freed), so that threads
 * that come and go do not hold buffers the living need.
 */
/* The slot's buffer to the writer if it holds events, else back to the
 * free list (an event that faulted can leave one empty). Under its lock. */
static void release_buffer(struct um_slot *s)
{
	if (s->buf && s->offset > NTTRACE_WMI_BUFFER_HEADER_SIZE) {
		queue_buffer(s);
	} else if (s->buf) {
		pthread_mutex_lock(&um.queue_lock);
		free_push((s->buf - um.pool) / um.bufsize);
		pthread_mutex_unlock(&um.queue_lock);
		s->buf = NULL;
	}
}

/*
 * The buffer is given back while this thread still holds its place, so
 * that it comes in as it always does (the owner's way, or the sharers').
 * Two sharers leaving at once may each see the other and leave the buffer
 * in the empty slot: the next thread to take the slot uses it, the next
 * flush or the stop writes it.
 */
static void leave_slot(void *arg)
{
	struct um_slot *s = &slots[(uintptr_t)arg - 1];

	if (__atomic_load_n(&s->users, __ATOMIC_ACQUIRE) == 1) {
		logger_enter();
		slot_lock(s, 1);
		release_buffer(s);
		slot_unlock(s);
		logger_leave();
	}
	__atomic_sub_fetch(&s->users, 1, __ATOMIC_ACQ_REL);
	if (my_sharer)
		__atomic_sub_fetch(&s->gate, 1, __ATOMIC_SEQ_CST);
	/* A later key destructor that traces joins afresh (and leaves again). */
	my_slot = -1;
	my_sharer = 0;
}

static void make_slot_key(void)
{
	pthread_key_create(&slot_key, leave_slot);
}

/* This thread's slot: one nobody uses if there is one, else shared. */
static int join_slot(void)
{
	unsigned int start = __atomic_fetch_add(&next_slot, 1, __ATOMIC_RELAXED);
	unsigned int i, k = start % UM_SLOTS;

	for (i = 0; i < UM_SLOTS; i++) {
		int none = 0;

		if (__atomic_compare_exchange_n(&slots[(start + i) % UM_SLOTS].users, &none,
						1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
			k = (start + i) % UM_SLOTS;
			break;
		}
	}
	if (i == UM_SLOTS) {
		/* A sharer: the owner stands aside from now on. */
		pthread_once(&membarrier_once, register_membarrier);
		__atomic_add_fetch(&slots[k].users, 1, __ATOMIC_ACQ_REL);
		__atomic_add_fetch(&slots[k].gate, 1, __ATOMIC_SEQ_CST);
		barrier_everywhere();
		my_sharer = 1;
	}
	pthread_once(&slot_key_once, make_slot_key);
	pthread_setspecific(slot_key, (void *)(uintptr_t)(k + 1));
	return my_slot = k;
}

/* ---- the event ---- */

/* This thread's ID and the process's, as the kernel writes them. */
static uint32_t my_thread_id(void)
{
	if (!my_tid)
		my_tid = syscall(SYS_gettid);
	return my_tid;
}

static uint32_t my_process_id(void)
{
	/* Relaxed: a plain load or store, but threads fill it in at once. */
	uint32_t pid = __atomic_load_n(&my_pid, __ATOMIC_RELAXED);

	if (!pid) {
		pid = getpid();
		__atomic_store_n(&my_pid, pid, __ATOMIC_RELAXED);
	}
	return pid;
}

/*
 * A TraceMessage nested in one on the same thread (a signal handler): the
 * interrupted call may hold the slot's lock. Counted without it, in the
 * slot's own counter (or, before the thread had a slot, in one of its own),
 * the only atomic read-modify-write on this path, as it is not the hot one.
 */
static ULONG refuse_nested(void)
{
	int slot = my_slot;

	__atomic_fetch_add(slot >= 0 ? &slots[slot].busy : &busy_unslotted, 1,
			   __ATOMIC_RELAXED);
	return ERROR_BUSY;
}

/*
 * What both record kinds share. um_write_begin() checks @handle, enters
 * the logger (a call nested in one this thread is making, from a signal
 * handler, is refused), takes this thread's slot and finds room for
 * @total bytes, padded to 8, in its buffer: it returns the record's place
 * with the slot locked, or NULL with *@err set and everything undone.
 * Then um_write_end() commits the record (@err ERROR_SUCCESS: the caller
 * wrote its @total bytes) or gives its room back, and leaves the logger.
 */
static uint8_t *um_write_begin(TRACEHANDLE handle, uint64_t total,
			       struct um_slot **sp, ULONG *err)
{
	uint64_t alen = (total + 7) & ~7ULL;
	struct um_slot *s;
	int slot;

	if (!handle || __atomic_load_n(&um.handle, __ATOMIC_ACQUIRE) != handle) {
		*err = ERROR_INVALID_HANDLE;
		return NULL;
	}
	if (logger_nested()) {
		*err = refuse_nested();
		return NULL;
	}
	logger_enter();
	if (__atomic_load_n(&um.mode, __ATOMIC_RELAXED) & EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING) {
		/* One buffer for all: slot 0, by the lock word (see single_gate()). */
		slot = 0;
		s = &slots[0];
		slot_lock(s, 0);
	} else {
		slot = my_slot;
		if (slot < 0)
			slot = join_slot();
		s = &slots[slot];
		slot_lock(s, 1);
	}
	/* Stop clears the handle before it takes the slots. */
	if (__atomic_load_n(&um.handle, __ATOMIC_RELAXED) != handle) {
		*err = ERROR_INVALID_HANDLE;
		goto fail;
	}
	/* Size is 16 bits, and an event never spans buffers. */
	if (total > 0xFFFF || alen > um.bufsize - NTTRACE_WMI_BUFFER_HEADER_SIZE) {
		*err = ERROR_MORE_DATA;	/* as STATUS_BUFFER_OVERFLOW maps */
		goto fail;
	}
	if (s->buf && s->offset + alen > um.bufsize)
		queue_buffer(s);
	if (!s->buf && take_buffer(s, slot, handle)) {
		/* Only the lock's holder writes it; um_lost() reads it unlocked. */
		__atomic_store_n(&s->lost, s->lost + 1, __ATOMIC_RELAXED);
		s->lost_flags |= NTTRACE_WMI_BUFFER_FLAG_EVENTS_LOST;
		*err = ERROR_NOT_ENOUGH_MEMORY;
		goto fail;
	}
	*sp = s;
	return s->buf + s->offset;
fail:
	slot_unlock(s);
	logger_leave();
	return NULL;
}

static ULONG um_write_end(struct um_slot *s, uint8_t *rec, uint32_t total, ULONG err)
{
	uint32_t alen = (total + 7) & ~7u;

	/* On a failure the offset stays: the space is given back. */
	if (err == ERROR_SUCCESS) {
		memset(rec + total, 0, alen - total);
		s->offset += alen;
		s->buf_events++;
	}
	slot_unlock(s);
	logger_leave();
	return err;
}

ULONG nttrace_um_trace(TRACEHANDLE handle, const struct nttrace_msg *m)
{
	struct ntr_message msg = {
		.number = m->number,
		.option_flags = m->flags | (sizeof(void *) == 4 ? TRACE_MESSAGE_POINTER32 :
					    TRACE_MESSAGE_POINTER64),
		.guid = m->guid,
	};
	uint32_t items = ntr_message_items_size(m->flags), total = items + m->data_size;
	uint32_t off, i;
	struct um_slot *s;
	ULONG err = ERROR_SUCCESS;
	uint8_t *rec = um_write_begin(handle, total, &s, &err);

	if (!rec)
		return err;
	off = items;
	for (i = 0; i < m->nargs; i++) {
		uint32_t len = m->list[2 * i + 1];

		if (nttrace_safe_copy(rec + off, (const void *)m->list[2 * i], len))
			return um_write_end(s, rec, total, ERROR_NOACCESS);
		off += len;
	}
	if (m->flags & TRACE_MESSAGE_SEQUENCE)
		msg.sequence = __atomic_add_fetch(&um.event_seq, 1, __ATOMIC_RELAXED);
	if (m->flags & TRACE_MESSAGE_TIMESTAMP)
		msg.time_stamp = nttrace_clock_now(um.clock_type);
	if (m->flags & TRACE_MESSAGE_SYSTEMINFO) {
		msg.thread_id = my_thread_id();
		msg.process_id = my_process_id();
	}
	ntr_message_encode(rec, total, &msg);
	return um_write_end(s, rec, total, ERROR_SUCCESS);
}

/*
 * TraceEvent and TraceEventInstance (provider/event.c checked the
 * arguments): the record the kernel writes for NTTRACE_ETW_NT_FLAGS_TRACE_HEADER
 * and NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE, 8-byte aligned:
 *   0x00 Size (u16): the header and the data, before padding
 *   0x02 HeaderType: FULL_HEADER64 0x14 / FULL_HEADER32 0x0A, or
 *        INSTANCE64 0x15 / INSTANCE32 0x0B, by this process's pointer size
 *   0x03 MarkerFlags: 0xC0
 *   0x04 Class.Type, Class.Level, Class.Version (u16): the caller's
 *   0x08 ThreadId, 0x0C ProcessId: this thread's and process's
 *   0x10 TimeStamp: the logger's clock now, or the caller's with
 *        WNODE_FLAG_USE_TIMESTAMP
 *   0x18 Guid (16): the caller's, or read from GuidPtr, or the class's
 *   0x28 KernelTime, 0x2C UserTime: 0
 *   instance records: 0x30 InstanceId, 0x34 ParentInstanceId, 0x38
 *        ParentGuid (16)
 *   then the items' bytes, one after the other, and zeros to 8 bytes.
 * Errors as the kernel's NTSTATUS would map: the handle not this running
 * logger's: ERROR_INVALID_HANDLE; over 0xFFFF bytes or more than a buffer
 * holds: ERROR_MORE_DATA; no free buffer: ERROR_NOT_ENOUGH_MEMORY (counted
 * lost); an item unreadable: ERROR_NOACCESS (nothing written).
 */
ULONG nttrace_um_trace_event(TRACEHANDLE handle,
			     const struct nttrace_event_instance_guid_header *hdr,
			     uint32_t hdr_size, const struct nttrace_mof_field *mof,
			     uint32_t nmof)
{
	bool keep_time = hdr->h.flags & WNODE_FLAG_USE_TIMESTAMP;
	uint64_t total = hdr_size;
	uint32_t off, i;
	struct um_slot *s;
	ULONG err = ERROR_SUCCESS;
	uint8_t *rec;

	/*
	 * A provider's logger handle also carries the enable level (bits
	 * 16-23) and flags (32-63) of its session (NTTRACE_HANDLE): the
	 * logger is named by the rest.
	 */
	handle &= 0xFF00FFFFULL;
	for (i = 0; i < nmof; i++)
		total += mof[i].length;
	rec = um_write_begin(handle, total, &s, &err);
	if (!rec)
		return err;
	off = hdr_size;
	for (i = 0; i < nmof; i++) {
		if (mof[i].data_ptr > UINTPTR_MAX ||
		    nttrace_safe_copy(rec + off, (const void *)(uintptr_t)mof[i].data_ptr,
				      mof[i].length))
			return um_write_end(s, rec, total, ERROR_NOACCESS);
		off += mof[i].length;
	}
	ntr_classic_encode(rec, hdr, hdr_size, total,
			   ntr_classic_header_type(hdr_size ==
							   NTTRACE_EVENT_INSTANCE_GUID_HEADER_SIZE,
						   sizeof(void *) == 4),
			   keep_time, keep_time ? 0 : nttrace_clock_now(um.clock_type),
			   my_thread_id(), my_process_id());
	return um_write_end(s, rec, total, ERROR_SUCCESS);
}

/*
 * EventWrite into the user-mode logger (provider/eventprov.c checked the
 * handle and arguments): the record the kernel writes for
 * NTTRACE_ETW_NT_FLAGS_TRACE_EVENT (uapi struct nttrace_event_header), 8-byte aligned:
 *   0x00 Size (u16): header, items and data, before padding
 *   0x02 HeaderType 0x13 (64-bit) / 0x12 (32-bit), 0x03 MarkerFlags 0xC0
 *   0x04 Flags: PRIVATE_SESSION | NO_CPUTIME | 64_BIT_HEADER or
 *        32_BIT_HEADER, EXTENDED_INFO with an item, STRING_ONLY for
 *        EventWriteString
 *   0x06 EventProperty 0
 *   0x08 ThreadId, 0x0C ProcessId: this thread's and process's
 *   0x10 TimeStamp: the logger's clock
 *   0x18 ProviderId, 0x28 EventDescriptor (16), 0x38 ProcessorTime 0
 *   0x40 ActivityId
 *   0x50 the extended items (common/record.c): with a related activity
 *        ID, its item (struct event_extended_item_header: size 0x18,
 *        type 1, data size 16) and the 16 bytes; with @write_flags'
 *        NTTRACE_EVENT_WRITE_FLAG_DESCRIPTOR_TYPES, the PROVIDER_METADATA
 *        descriptor's bytes as a PROV_TRAITS item and the EVENT_METADATA
 *        one's as an EVENT_SCHEMA_TL item (a bad Type, or either twice:
 *        ERROR_INVALID_PARAMETER, as the kernel's)
 *   then the other descriptors' bytes, one after the other, and zeros to 8.
 * Errors as the kernel's NTSTATUS would map (a descriptor over 0xFFFF bytes:
 * ERROR_MORE_DATA); a record over 0xFFFF bytes is
 * ERROR_ARITHMETIC_OVERFLOW (EventWrite's documented error for an event
 * over 64 KB), checked before any buffer is touched.
 */
ULONG nttrace_um_event_write(TRACEHANDLE handle, const GUID *provider,
			     const struct nttrace_event_descriptor *desc,
			     const uint8_t activity[16], const uint8_t *related,
			     uint32_t write_flags, const struct nttrace_event_data_descriptor *data,
			     uint32_t count)
{
	struct ntr_event ev = {
		.ptr32 = sizeof(void *) == 4,
		.extra_flags = NTTRACE_EVENT_HEADER_FLAG_PRIVATE_SESSION |
			       (write_flags & NTTRACE_WFLAG_STRING_ONLY ?
					NTTRACE_EVENT_HEADER_FLAG_STRING_ONLY : 0),
		.descriptor = desc,
		.provider_id = provider,
		.activity_id = activity,
		.related_activity_id = related,
	};
	int32_t traits = -1, schema = -1;
	struct ntr_event_layout l;
	uint64_t total;
	struct um_slot *s;
	ULONG err = ERROR_SUCCESS;
	uint32_t i, at;
	uint8_t *rec;

	/* The logger is named by the handle without the enable's level/flags. */
	handle &= 0xFF00FFFFULL;
	/*
	 * The kernel's rules (module/eventwrite.c): a descriptor over 0xFFFF
	 * drops the event with STATUS_BUFFER_OVERFLOW (ERROR_MORE_DATA), as
	 * Windows' does; then the metadata's.
	 */
	for (i = 0; i < count; i++)
		if (data[i].size > 0xFFFF)
			return ERROR_MORE_DATA;
	if ((write_flags & NTTRACE_EVENT_WRITE_FLAG_DESCRIPTOR_TYPES) &&
	    ntr_event_metadata(data, count, &traits, &schema))
		return ERROR_INVALID_PARAMETER;
	if (traits >= 0)
		ev.traits_size = data[traits].size;
	if (schema >= 0)
		ev.schema_size = data[schema].size;
	if (ev.traits_size > 0xFFFF || ev.schema_size > 0xFFFF)
		return ERROR_ARITHMETIC_OVERFLOW;
	ntr_event_layout(&ev, &l);
	total = l.data;
	for (i = 0; i < count; i++)
		if ((int32_t)i != traits && (int32_t)i != schema)
			total += data[i].size;
	if (total > 0xFFFF)
		return ERROR_ARITHMETIC_OVERFLOW;
	rec = um_write_begin(handle, total, &s, &err);
	if (!rec)
		return err;
	at = l.data;
	for (i = 0; i < count; i++) {
		uint32_t to = (int32_t)i == traits ? l.traits :
			      (int32_t)i == schema ? l.schema : at;

		if (data[i].ptr > UINTPTR_MAX ||
		    nttrace_safe_copy(rec + to, (const void *)(uintptr_t)data[i].ptr,
				      data[i].size))
			return um_write_end(s, rec, total, ERROR_NOACCESS);
		if (to == at)
			at += data[i].size;
	}
	ev.size = total;
	ev.time_stamp = nttrace_clock_now(um.clock_type);
	ev.thread_id = my_thread_id();
	ev.process_id = my_process_id();
	ntr_event_encode(rec, &ev);
	return um_write_end(s, rec, total, ERROR_SUCCESS);
}

/* ---- the writer ---- */

/*
 * Queue every slot's partial buffer, and free the empty ones: after a
 * stop no slot may keep a buffer of the pool about to be freed.
 */
static void collect_partial(void)
{
	unsigned int i;

	gate_all(1);
	for (i = 0; i < UM_SLOTS; i++) {
		struct um_slot *s = &slots[i];

		slot_lock(s, 0);
		release_buffer(s);
		slot_unlock(s);
	}
	gate_all(-1);
}

static void *writer_main(void *arg)
{
	pthread_mutex_lock(&um.queue_lock);
	um.writer_tid = syscall(SYS_gettid);
	pthread_cond_broadcast(&um.written_cond);	/* start waits for it */
	for (;;) {
		uint8_t *bufs[NTTRACE_LOGFILE_BATCH];
		uint32_t index[NTTRACE_LOGFILE_BATCH], events[NTTRACE_LOGFILE_BATCH];
		unsigned int n, i;

		while (!um.qlen && !um.stopping) {
			if (um.flush_timer) {
				struct timespec until;
				int ret;

				clock_gettime(CLOCK_REALTIME, &until);
				until.tv_sec += um.flush_timer;
				ret = pthread_cond_timedwait(&um.queue_cond,
							     &um.queue_lock, &until);
				if (ret == ETIMEDOUT && !um.qlen) {
					/* Slot locks come before queue_lock. */
					pthread_mutex_unlock(&um.queue_lock);
					collect_partial();
					pthread_mutex_lock(&um.queue_lock);
				}
			} else {
				pthread_cond_wait(&um.queue_cond, &um.queue_lock);
			}
		}
		if (!um.qlen)
			break;		/* stopping, and all is written */
		/* All that waits, up to a batch: one system call for them. */
		for (n = 0; um.qlen && n < um.batch; n++) {
			index[n] = um.queue[um.qhead];
			um.qhead = (um.qhead + 1) % um.nbuf;
			um.qlen--;
			bufs[n] = pool_buffer(index[n]);
			/* The count the producer kept: no walk over the records. */
			events[n] = um.events_in[index[n]];
		}
		pthread_mutex_unlock(&um.queue_lock);
		nttrace_logfile_counted_n(&um.file, bufs, events, n);
		pthread_mutex_lock(&um.queue_lock);
		for (i = 0; i < n; i++)
			free_push(index[i]);
		um.done += n;
		um.written = um.file.buffers;
		um.failed = um.file.failed;
		pthread_cond_broadcast(&um.written_cond);
	}
	pthread_mutex_unlock(&um.queue_lock);
	return arg;
}

/* ---- control ---- */

static uint64_t um_lost(void)
{
	uint64_t lost = 0;
	unsigned int i;

	for (i = 0; i < UM_SLOTS; i++)
		lost += __atomic_load_n(&slots[i].lost, __ATOMIC_RELAXED) +
			__atomic_load_n(&slots[i].busy, __ATOMIC_RELAXED);
	return lost + __atomic_load_n(&busy_unslotted, __ATOMIC_RELAXED);
}

static void fill_props(PEVENT_TRACE_PROPERTIES p)
{
	uint64_t lost = um_lost();
	p->Wnode.ClientContext = um.clock_type;
	p->BufferSize = um.bufsize / 1024;
	p->MinimumBuffers = um.nbuf;
	p->MaximumBuffers = um.nbuf;
	p->LogFileMode = um.mode;
	p->FlushTimer = um.flush_timer;
	pthread_mutex_lock(&um.queue_lock);
	p->NumberOfBuffers = um.nbuf;
	p->FreeBuffers = um.nfree;
	p->BuffersWritten = um.written;
	p->LogBuffersLost = um.failed;
	pthread_mutex_unlock(&um.queue_lock);
	p->EventsLost = lost;
	p->RealTimeBuffersLost = 0;
	p->LoggerThreadId = (HANDLE)(uintptr_t)um.writer_tid;
}

/*
 * Stop the running logger, under the control lock: no producer touches a
 * buffer after collect_partial(), the writer writes the queue out and
 * ends, the file's header is finished. Its Win32 error.
 */
static ULONG stop_locked(PEVENT_TRACE_PROPERTIES p)
{
	TRACEHANDLE handle = um.handle;
	int ret;

	__atomic_store_n(&um.handle, 0, __ATOMIC_RELEASE);
	collect_partial();
	pthread_mutex_lock(&um.queue_lock);
	um.stopping = 1;
	pthread_cond_signal(&um.queue_cond);
	pthread_mutex_unlock(&um.queue_lock);
	pthread_join(um.writer, NULL);
	um.file.s.logger_tid = um.writer_tid;
	ret = nttrace_logfile_close(&um.file, um_lost(), 0);
	if (p) {
		fill_props(p);
		p->Wnode.HistoricalContext = handle;
	}
	free_pool();
	return ret ? nttrace_errno_to_win32(ret) : ERROR_SUCCESS;
}

/* ---- fork and exit ---- */

static __thread int fork_locked;	/* before_fork() took the control lock */

static void before_fork(void)
{
	/*
	 * A start or stop under way ends first: the child sees a logger
	 * wholly running or wholly stopped, never a pool half freed.
	 */
	fork_locked = !logger_nested();
	if (fork_locked)
		pthread_mutex_lock(&um.control);
}

static void parent_after_fork(void)
{
	if (fork_locked)
		pthread_mutex_unlock(&um.control);
}

/*
 * The child has one thread, this one: whatever another thread held (a
 * slot's lock, the queue's lock, a buffer) it holds no more, and the
 * writer is not there. Drop the parent's logger; keep only this thread's
 * place in its slot, which its thread-local state still names.
 */
static void child_after_fork(void)
{
	int running = um.handle != 0;

	pthread_mutex_init(&um.control, NULL);
	pthread_mutex_init(&um.queue_lock, NULL);
	pthread_cond_init(&um.queue_cond, NULL);
	pthread_cond_init(&um.written_cond, NULL);
	__atomic_store_n(&um.handle, 0, __ATOMIC_RELAXED);
	if (running) {
		/* The parent's file: its descriptor is the parent's business. */
		close(um.file.fd);
		um.file.fd = -1;
		free_pool();
	}
	um.free_head = um.nfree = um.qhead = um.qlen = 0;
	um.stopping = 0;
	um.queued = um.done = 0;
	um.writer_tid = 0;
	um.written = um.failed = 0;
	memset(slots, 0, sizeof(slots));
	if (my_slot >= 0) {
		slots[my_slot].users = 1;
		/* A sharer stays one: it lowers the gate when it leaves. */
		slots[my_slot].gate = my_sharer;
	}
	/* Slot 0's gate stays raised for good once raised (single_gate()). */
	slots[0].gate += single_raised;
	busy_unslotted = 0;
	fork_locked = 0;
	/* The child's IDs differ. */
	my_tid = 0;
	my_pid = 0;
}

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void register_fork(void)
{
	pthread_atfork(before_fork, parent_after_fork, child_after_fork);
}

__attribute__((destructor)) static void stop_at_exit(void)
{
	/* Nothing runs (most processes), or this thread may hold the locks. */
	if (!__atomic_load_n(&um.handle, __ATOMIC_ACQUIRE) || logger_nested())
		return;
	logger_enter();
	pthread_mutex_lock(&um.control);
	if (um.handle)
		stop_locked(NULL);
	pthread_mutex_unlock(&um.control);
	logger_leave();
}

/* ---- StartTrace, ControlTrace ---- */

ULONG nttrace_um_start(PTRACEHANDLE handle, const char *name,
		       PEVENT_TRACE_PROPERTIES p, const char *log_file)
{
	uint32_t kb = p->BufferSize ? p->BufferSize : UM_DEFAULT_KB;
	uint32_t nbuf = p->MaximumBuffers ? p->MaximumBuffers : UM_DEFAULT_BUFFERS;
	uint32_t clock = p->Wnode.ClientContext ?
			 p->Wnode.ClientContext : NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER;
	struct nttrace_etl_session es;
	ULONG err = ERROR_SUCCESS;
	sigset_t all, old;
	unsigned int i;
	int ret;

	if (!log_file || !*log_file)
		return ERROR_INVALID_PARAMETER;	/* its events go to a file */
	if ((p->LogFileMode & ~UM_MODES) || strlen(name) >= NTTRACE_NAME_MAX ||
	    kb < NTTRACE_MIN_BUFFER_KB || kb > NTTRACE_MAX_BUFFER_KB ||
	    nbuf < NTTRACE_MIN_BUFFERS || nbuf > NTTRACE_MAX_BUFFERS ||
	    p->MinimumBuffers > nbuf || clock > NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE)
		return ERROR_INVALID_PARAMETER;
	if (logger_nested())
		return ERROR_BUSY;	/* from a handler: see the file's head */
	pthread_once(&fork_once, register_fork);
	/* Before the handle is published: producers see membarrier_ok. */
	pthread_once(&membarrier_once, register_membarrier);

	logger_enter();
	pthread_mutex_lock(&um.control);
	if (um.handle) {
		err = ERROR_ALREADY_EXISTS;	/* one per process */
		goto out;
	}
	memset(um.name, 0, sizeof(um.name));
	strcpy(um.name, name);
	um.bufsize = kb * 1024;
	um.nbuf = nbuf;
	um.wake_at = pool_share(nbuf, 4, UM_WAKE_MAX);
	um.yield_below = nbuf / 2;
	um.batch = pool_share(nbuf, 8, NTTRACE_LOGFILE_BATCH);
	/* Relaxed: a writer of the last session may read it (and then fails). */
	__atomic_store_n(&um.mode, p->LogFileMode, __ATOMIC_RELAXED);
	if (p->LogFileMode & EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING)
		single_gate();
	um.flush_timer = p->FlushTimer;
	um.clock_type = clock;
	um.frequency = clock == NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME ? 10000000 :
		       clock == NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE ? cycle_frequency() :
		       1000000000;
	um.pool = malloc((size_t)nbuf * um.bufsize);
	um.free_list = malloc(nbuf * sizeof(uint32_t));
	um.queue = malloc(nbuf * sizeof(uint32_t));
	um.events_in = malloc(nbuf * sizeof(uint32_t));
	if (!um.pool || !um.free_list || !um.queue || !um.events_in) {
		err = ERROR_NOT_ENOUGH_MEMORY;
		goto fail;
	}
	for (i = 0; i < nbuf; i++)
		um.free_list[i] = i;
	um.free_head = 0;
	um.nfree = nbuf;
	um.qhead = um.qlen = 0;
	um.stopping = 0;
	um.queued = um.done = 0;
	um.event_seq = 0;
	um.buffer_seq = 0;
	for (i = 0; i < UM_SLOTS; i++) {
		slots[i].lost = 0;
		/* Atomic: a late nested call of the last session may count. */
		__atomic_store_n(&slots[i].busy, 0, __ATOMIC_RELAXED);
		slots[i].busy_seen = 0;
		slots[i].lost_flags = 0;
	}
	__atomic_store_n(&busy_unslotted, 0, __ATOMIC_RELAXED);
	um.start_time = nttrace_clock_now(clock);
	um.start_perf = nttrace_clock_now(NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER);
	/* The file's processors are the slots (a buffer's processor_number). */
	memset(&es, 0, sizeof(es));
	es.buffer_size = um.bufsize;
	es.nr_cpus = UM_SLOTS;
	es.pointer_size = sizeof(void *);
	es.log_file_mode = um.mode;
	es.max_file_mb = p->MaximumFileSize;
	es.clock_type = clock;
	es.frequency = um.frequency;
	es.start_clock = um.start_time;
	es.logger_pid = getpid();
	strcpy(es.name, name);
	nttrace_etl_times(&es);
	ret = nttrace_logfile_open(&um.file, log_file, &es);
	if (ret) {
		err = nttrace_errno_to_win32(ret == -ENOENT ? -ENOTDIR : ret);
		goto fail;
	}
	um.generation++;
	um.writer_tid = 0;
	/* Before the writer runs: it updates them under queue_lock. */
	um.written = um.failed = 0;
	/*
	 * The writer inherits a mask of every signal: no handler of the
	 * program runs on it, where it could trace while it holds queue_lock.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&um.writer, NULL, writer_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		nttrace_logfile_close(&um.file, 0, 0);
		err = ERROR_NO_SYSTEM_RESOURCES;
		goto fail;
	}
	/* LoggerThreadId is known when StartTrace returns. */
	pthread_mutex_lock(&um.queue_lock);
	while (!um.writer_tid)
		pthread_cond_wait(&um.written_cond, &um.queue_lock);
	pthread_mutex_unlock(&um.queue_lock);
	*handle = TRACE_USER_MODE_LOGGER_BIT | (um.generation & 0xFFFF);
	/* Producers that see the handle see everything set up above. */
	__atomic_store_n(&um.handle, *handle, __ATOMIC_RELEASE);
	fill_props(p);
	p->Wnode.HistoricalContext = *handle;
	goto out;
fail:
	free_pool();
out:
	pthread_mutex_unlock(&um.control);
	logger_leave();
	return err;
}

ULONG nttrace_um_control(TRACEHANDLE handle, const char *name,
			 PEVENT_TRACE_PROPERTIES p, ULONG code, int *mine,
			 char *name_out)
{
	ULONG err = ERROR_SUCCESS;
	uint64_t target;

	if (logger_nested()) {
		/*
		 * From a handler that interrupted the logger on this thread:
		 * a kernel logger's handle goes on to the kernel, anything
		 * that may be ours (a name cannot be compared unlocked) is
		 * refused.
		 */
		*mine = !handle || (handle & TRACE_USER_MODE_LOGGER_BIT);
		return *mine ? ERROR_BUSY : ERROR_SUCCESS;
	}
	logger_enter();
	pthread_mutex_lock(&um.control);
	*mine = um.handle && (handle ? handle == um.handle :
			      name && !strcasecmp(name, um.name));
	if (*mine)
		memcpy(name_out, um.name, NTTRACE_NAME_MAX);
	else {
		pthread_mutex_unlock(&um.control);
		logger_leave();
		/* A user-mode handle that is not running. */
		return handle & TRACE_USER_MODE_LOGGER_BIT ?
		       (*mine = 1, ERROR_INVALID_HANDLE) : ERROR_SUCCESS;
	}
	switch (code) {
	case EVENT_TRACE_CONTROL_QUERY:
		break;
	case EVENT_TRACE_CONTROL_FLUSH:
		/*
		 * Returns when what was traced before it is in the file: the
		 * buffers queued until now, which the writer writes in queue
		 * order. Not until the queue is empty: producers that go on
		 * tracing keep it from emptying, and their buffers, fewer
		 * than wake_at, wake nobody (a flush waited for ever so).
		 * One wake-up is enough: the writer sleeps only when the
		 * queue is empty, and so holds none of ours.
		 */
		collect_partial();
		pthread_mutex_lock(&um.queue_lock);
		target = um.queued;
		pthread_cond_signal(&um.queue_cond);	/* whatever the batch */
		while (um.done < target)
			pthread_cond_wait(&um.written_cond, &um.queue_lock);
		pthread_mutex_unlock(&um.queue_lock);
		break;
	case EVENT_TRACE_CONTROL_UPDATE:
		pthread_mutex_lock(&um.queue_lock);
		um.flush_timer = p->FlushTimer;
		pthread_cond_signal(&um.queue_cond);
		pthread_mutex_unlock(&um.queue_lock);
		break;
	case EVENT_TRACE_CONTROL_STOP:
		/* Its caller ends the private enables (nttrace_private_stop()). */
		err = stop_locked(p);
		pthread_mutex_unlock(&um.control);
		logger_leave();
		return err;
	default:
		err = ERROR_INVALID_PARAMETER;
		break;
	}
	fill_props(p);
	p->Wnode.HistoricalContext = um.handle;
	pthread_mutex_unlock(&um.control);
	logger_leave();
	return err;
}
