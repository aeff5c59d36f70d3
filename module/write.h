/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one write path of every NtTraceEvent type (module/write.c): a type's
 * handler reads and checks its Fields, describes the record in a struct
 * nt_write, and this path writes it into a session: reserve, copy the data
 * from the caller without faulting, fill the header (common/record.c),
 * commit; or, if the copy faults, discard (nothing partial is ever
 * committed), copy the data again with faults allowed into a staging
 * buffer, and write from that.
 *
 * Below the handlers everything speaks errno; the handlers, which give
 * NtTraceEvent its Windows semantics, turn it into an NTSTATUS with
 * nt_write_status(). The errors of the path:
 *  -EBADF      the session is not running
 *  -EACCES     a secure session refuses the writer (NT_WRITE_* rules)
 *  -EPERM      a system logger refuses a record that could pass for the
 *              kernel's from a caller not nt_privileged_system()
 *              (NT_WRITE_FORGE)
 *  -EINVAL     the session is no system logger (NT_WRITE_SYSTEM_ONLY)
 *  -EOPNOTSUPP a kernel-mode writer and an NTTRACE_EVENT_TRACE_USE_PAGED_MEMORY
 *              session
 *  -EMSGSIZE   the record never fits a buffer of the session
 *  -ENOSPC     the ring is full: the event is counted lost
 *  -EFAULT     the caller's data is unreadable (or, from the first
 *              attempt of a user-mode caller, not resident: see
 *              nt_write_one())
 *  -ENOMEM     no memory for the staging buffer
 *  -ESTALE     (EventWrite) the session stopped wanting the event
 *              between the enable snapshot and the reservation
 */
#ifndef NTTRACE_WRITE_H
#define NTTRACE_WRITE_H

#include "ntevent.h"
#include "record.h"
#include "session.h"

struct nt_reg;

/* In this order: module/trace.h prints the kind by its number. */
enum nt_record_kind {
	NT_RECORD_MESSAGE,	/* NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE */
	NT_RECORD_CLASSIC,	/* NTTRACE_ETW_NT_FLAGS_TRACE_HEADER, _TRACE_INSTANCE */
	NT_RECORD_EVENT,	/* NTTRACE_ETW_NT_FLAGS_TRACE_EVENT, EtwWrite */
	NT_RECORD_SYSTEM,	/* _TRACE_SYSTEM, _TRACE_MARK: a SYSTEM_TRACE_HEADER */
	NT_RECORD_RAW,		/* _TRACE_RAW: the caller's own record, staged */
};

/*
 * A kernel record's SYSTEM_TRACE_HEADER (0x20 bytes), as its writer gives
 * it; the IDs, time stamp and the caller's times are the write path's.
 * @tail zero bytes end the record, after the data (a mark's NUL).
 */
struct nt_write_system {
	u16 hook_id;
	u8 version;
	bool ptr32;		/* SYSTEM32 rather than SYSTEM64 */
	u32 tail;
};

/* A classic record's header, as the caller gave it (common/record.h). */
struct nt_write_classic {
	const void *header;	/* its Guid already the one to write */
	u32 header_size;
	u8 header_type;
	bool keep_time_stamp;	/* NTTRACE_WNODE_FLAG_USE_TIMESTAMP */
};

/* An EventWrite record: the header, and whom it is for. */
struct nt_write_event {
	/* provider_id is set from @reg by nt_write_one()'s caller */
	struct ntr_event header;
	/* Under rcu_read_lock() for the nt_write_one() call. */
	const struct nt_reg *reg;
	u64 filter;		/* sessions left out (Fields.filter) */
};

/*
 * One record to write. The handler fills in everything above @staged;
 * the write path fills in the values that depend on the session and the
 * moment (time stamp, IDs, sequence number).
 */
struct nt_write {
	const struct nttrace_call *call;
	unsigned int rules;		/* NT_WRITE_* (module/session.h) */
	enum nt_record_kind kind;
	u32 total;			/* the record's Size, data included */
	u32 data_off;			/* where the data begins */
	/*
	 * The data, in order: pieces of caller memory (user addresses, or
	 * kernel ones for a kernel-mode call). The MOF_FIELD
	 * array of a classic event is read into this type directly: the two
	 * have the same layout (static_assert in module/write.c).
	 */
	const struct nttrace_event_data_descriptor *pieces;
	unsigned int npieces;
	/*
	 * Each piece's reserved is its place, from @data_off (the
	 * handler's own copy of the descriptors; the gaps are the
	 * encoder's to fill): else the pieces follow one another.
	 */
	bool placed;
	union {
		struct ntr_message message;
		struct nt_write_classic classic;
		struct nt_write_event event;
		struct nt_write_system system;
	};
	u8 *staged;	/* the data, once nt_write_stage() has copied it */
};

/**
 * nt_write_one() - write @w into one session, once
 * @w: the record, as the handler described it
 * @logger_id: the session
 *
 * Interrupts off to reserve and to commit, on while the data is copied
 * (preemption off throughout). A user-mode caller's data is copied without
 * faulting until nt_write_stage() has staged it. Any context but NMI for
 * a kernel-mode caller.
 *
 * Return: 0, or an error of the list above: nothing is then written
 * (-ENOSPC: the loss is counted). -EFAULT from a user-mode caller not yet
 * staged means: nt_write_stage(), then call again.
 */
int nt_write_one(struct nt_write *w, u32 logger_id);

/**
 * nt_write_reserve() - nt_write_one()'s first half: the reservation
 * @w: the record
 * @logger_id: the session
 * @res: filled in for nt_write_commit() or nttrace_discard()
 *
 * For a writer with a check of its own to make between the reservation
 * and the copy (EventWrite's recheck of the enable snapshot). On success
 * preemption is off, and exactly one of nt_write_commit() or
 * nttrace_discard() must follow without sleeping.
 *
 * Return: the reserved record, or an ERR_PTR() of the list above.
 */
u8 *nt_write_reserve(struct nt_write *w, u32 logger_id, struct nttrace_reservation *res);

/**
 * nt_write_commit() - nt_write_one()'s second half: fill and commit
 * @w: the record nt_write_reserve() reserved
 * @logger_id: its session
 * @res: the reservation
 * @rec: the reserved record
 *
 * Copies the data, writes the header, commits; if the copy faults, the
 * reservation is discarded instead.
 *
 * Return: 0 or -EFAULT, as nt_write_one().
 */
int nt_write_commit(struct nt_write *w, u32 logger_id, struct nttrace_reservation *res, u8 *rec);

/**
 * nt_write_stage() - copy the data into a staging buffer
 * @w: the record
 *
 * With faults allowed, for the calls of nt_write_one() that follow.
 * User-mode callers only (may sleep). nt_write_release() frees it.
 *
 * Return: 0, -EFAULT or -ENOMEM.
 */
int nt_write_stage(struct nt_write *w);

/**
 * nt_write_release() - free what nt_write_stage() took
 * @w: the record
 */
void nt_write_release(struct nt_write *w);

/**
 * nt_write_check() - would a session take @w from this caller?
 * @w: the record
 * @logger_id: the session
 *
 * As nt_write_one() checks before reserving; a user-mode caller a secure
 * session takes for a stranger is checked for privilege (which may sleep)
 * and, if it has it, asked again with NT_WRITE_PRIVILEGED, which stays in
 * @w->rules; so is a system logger's refusal of NT_WRITE_FORGE, with
 * NT_WRITE_SYSTEM. The answer may change before the write, which decides
 * again.
 *
 * Return: 0, or nt_writer_check()'s error.
 */
int nt_write_check(struct nt_write *w, u32 logger_id);

/**
 * nt_write_privilege() - a secure session took the caller for a stranger
 * @w: the record
 *
 * The caller's privilege is checked here (nt_privileged(), which may
 * sleep: never with interrupts off); if it has it, NT_WRITE_PRIVILEGED
 * goes into @w->rules.
 *
 * Return: true if NT_WRITE_PRIVILEGED was added; false for a kernel-mode
 * caller, one already privileged, an unprivileged one, or a write no
 * secure session takes (NT_WRITE_NO_SECURE).
 */
bool nt_write_privilege(struct nt_write *w);

/**
 * nt_write_system_privilege() - a system logger refused @w (NT_WRITE_FORGE)
 * @w: the record
 *
 * If the caller is nt_privileged_system() (checked here, which may
 * sleep), NT_WRITE_SYSTEM goes into @w->rules.
 *
 * Return: true if NT_WRITE_SYSTEM was added, else false.
 */
bool nt_write_system_privilege(struct nt_write *w);

/**
 * nt_write_session() - write @w into one session, the whole sequence
 * @w: the record (a message, a classic event)
 * @logger_id: the session
 *
 * nt_write_one(); refused as a stranger by a secure session, the caller's
 * privilege checked and tried again (and so for a system logger's refusal
 * of NT_WRITE_FORGE); faulted, staged and tried again. Call
 * nt_write_release() after.
 *
 * Return: an NTSTATUS.
 */
u32 nt_write_session(struct nt_write *w, u32 logger_id);

/**
 * nt_write_session_err() - nt_write_session() in errno
 * @w: the record
 * @logger_id: the session
 *
 * For handlers that tell -ENOSPC apart.
 *
 * Return: 0 or an error of the list above.
 */
int nt_write_session_err(struct nt_write *w, u32 logger_id);

/**
 * nt_write_trace_kernel() - the nttrace_write tracepoint for a kernel record
 * @s: the session the record is reserved in
 * @rec: the record, written, not yet committed
 * @len: its size
 *
 * For a record the kernel logger's sources wrote (nt_sys_emit()): kind
 * system, its HookId, and the whole record, header included, as its
 * payload (withheld for a secure session). See module/trace.h.
 */
void nt_write_trace_kernel(const struct nt_session *s, const u8 *rec, u32 len);

/**
 * nttrace_reserve() - reserve one record in a session (the kernel API)
 * @logger_id: the session
 * @len: the record's size
 * @res: filled in, for nttrace_commit() or nttrace_discard()
 * @status: the NTSTATUS when NULL is returned
 *
 * nt_reserve_rules() for a kernel-mode writer (NT_WRITE_KERNEL), with the
 * same contract (struct nttrace_reservation, module/session.h).
 *
 * Return: the record, or NULL with *@status set:
 * NTTRACE_STATUS_INVALID_HANDLE (no such session),
 * NTTRACE_STATUS_NOT_SUPPORTED (an NTTRACE_EVENT_TRACE_USE_PAGED_MEMORY
 * session, which kernel-mode writers may not use),
 * NTTRACE_STATUS_BUFFER_OVERFLOW (@len never fits a buffer),
 * NTTRACE_STATUS_NO_MEMORY (the ring is full; the event is counted lost).
 */
void *nttrace_reserve(u32 logger_id, u32 len, struct nttrace_reservation *res,
		      u32 *status);

/**
 * nt_write_status() - the NTSTATUS for an error of the write path
 * @err: 0 or an error of the list above
 *
 * Return: the NTSTATUS.
 */
u32 nt_write_status(int err);

#endif /* NTTRACE_WRITE_H */
