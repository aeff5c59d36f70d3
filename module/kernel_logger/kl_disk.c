// SPDX-License-Identifier: GPL-2.0
/*
 * EVENT_TRACE_FLAG_DISK_IO and DISK_IO_INIT: the DiskIo events (group
 * 0x01, version 3; common/sysrec.h) from the block layer's tracepoints.
 *
 * The tracepoints, the same in Linux 6.1 and 6.12
 * (include/trace/events/block.h):
 * - block_rq_issue(rq): blk_mq_start_request(), a request handed to its
 *   driver. Task context (the submitter's, or a kblockd worker's when the
 *   dispatch was deferred), possibly with preemption off; never NMI.
 * - block_rq_complete(rq, error, nr_bytes): blk_update_request() and
 *   blk_complete_request(), @nr_bytes of the request done. Often hardirq
 *   or softirq context, under the driver's locks.
 * Only request-based (blk-mq) devices reach these tracepoints: the I/O of
 * a bio-based device (device-mapper, md, zram, brd) appears as the
 * requests of the disks under it, or not at all for one with none.
 * The probes read only what these tracepoints' own TP_fast_assign reads
 * (the request's fields, rq->q->disk), take a raw spinlock with interrupts
 * off (kl_tags.c), allocate nothing and never sleep.
 *
 * The events ([MS diskio-typegroup1/2/3]: Microsoft's DiskIo_TypeGroup1,
 * _TypeGroup2, _TypeGroup3 pages, desktop-src/ETW/ of MicrosoftDocs/win32):
 * - at issue, with DISK_IO_INIT: ReadInit (12), WriteInit (13), FlushInit
 *   (15): a full header (the issuing thread's IDs), Irp, IssuingThreadId;
 * - at completion, with DISK_IO: Read (10), Write (11), FlushBuffers (14),
 *   PERFINFO headers, as Windows writes them when the I/O completes.
 * Requests of other operations (discard, write-zeroes, zone management)
 * and passthrough requests (a driver's own commands) have no DiskIo event:
 * not written, each Init or completion counted in nttrace.kl_disk_other.
 *
 * Each field:
 * - DiskNumber ("Number that identifies the physical disk"): the whole
 *   disk's dev_t as user space sees it (new_encode_dev(), the st_rdev of
 *   its /dev node: 0x800 for sda, 8:0), the same for all its partitions, 0
 *   for a request of no disk. Linux has no machine-wide disk index.
 * - IrpFlags (the WDK's IRP_* values, as PerfView's IrpFlags lists them):
 *   IRP_NOCACHE (0x1) always: no request below the page cache is served
 *   from it; IRP_SYNCHRONOUS_API (0x4) when Linux counts the request as
 *   synchronous (op_is_sync(): reads, and writes or flushes with REQ_SYNC,
 *   REQ_FUA or REQ_PREFLUSH);
 *   IRP_READ_OPERATION (0x100) or IRP_WRITE_OPERATION (0x200) by the
 *   operation; and the I/O priority in bits 17-19 (PerfView's
 *   PriorityMask 0xE0000, values of its IOPriority): the request's ioprio
 *   class IDLE as Very Low (1), RT as High (4), BE or none as Normal (3).
 * - TransferSize: the bytes this completion ends (@nr_bytes). A request
 *   completed in parts gives one Read or Write per part.
 * - Reserved: 0.
 * - ByteOffset: blk_rq_pos(rq) << 9 at the completion: the part's offset
 *   from the start of the whole disk, partitions included, as Windows'
 *   ("Byte offset from the beginning of the physical disk").
 * - FileObject: 0; the block layer does not know the file.
 * - Irp: nt_kernel_key(rq): the same value in an Init and its completion,
 *   no kernel address. blk-mq reuses its requests, so a value recurs for
 *   later I/Os, as Windows' IRPs come back from their lookaside lists.
 * - HighResResponseTime: from the issue to this completion, in
 *   nanoseconds: the ticks of the session's default clock PERFCOUNTER (1
 *   GHz), which Windows' KeQueryPerformanceCounter units map to. A
 *   session with another clock still gets nanoseconds. A request issued
 *   again (requeued) counts from its last issue.
 * - IssuingThreadId: the thread in which block_rq_issue fired (the
 *   submitter when the block layer issues at once, as for an O_DIRECT read
 *   on an idle disk; a kblockd worker when it deferred the dispatch).
 * The completion runs where the issuer is not known, so the issue keeps
 * (thread, time) in a tag table keyed by the request (kl_tags.h):
 * 2048 entries, a request older than 60 s replaced when its set is full
 * (a request whose completion never came: nttrace.kl_disk_tags_stale),
 * else the new one not kept
 * (nttrace.kl_disk_tags_full). A completion whose issue is not found (the
 * table was full, or the source was hooked after the issue) has
 * IssuingThreadId 0 and HighResResponseTime 0, counted in
 * nttrace.kl_disk_unmatched. The table is emptied when the source is
 * unhooked.
 */
#include <kunit/visibility.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/ioprio.h>
#include <linux/kdev_t.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <trace/events/block.h>

#include "ksource.h"
#include "kl_io.h"
#include "kl_tags.h"

NT_KCLASS(disk)

NT_KTAGS(nt_disk_tags, 8, 60 * NSEC_PER_SEC);

atomic_long_t nt_disk_unmatched = ATOMIC_LONG_INIT(0);
EXPORT_SYMBOL_IF_KUNIT(nt_disk_unmatched);
atomic_long_t nt_disk_other = ATOMIC_LONG_INIT(0);
EXPORT_SYMBOL_IF_KUNIT(nt_disk_other);

NT_KCOUNTER(kl_disk_unmatched, nt_disk_unmatched,
	    "DiskIo completions whose issue was not known: IssuingThreadId and HighResResponseTime 0");
NT_KCOUNTER(kl_disk_other, nt_disk_other,
	    "Block requests with no DiskIo event (discard, write-zeroes, passthrough ...): not written");
NT_KCOUNTER(kl_disk_tags_full, nt_disk_tags.full,
	    "Block requests whose issuer could not be kept: the table full");
NT_KCOUNTER(kl_disk_tags_stale, nt_disk_tags.stale,
	    "Block requests forgotten after 60 s without a completion");

/* The WDK's IRP flags (PerfView's IrpFlags). */
#define NT_IRP_NOCACHE		0x00000001U
#define NT_IRP_SYNCHRONOUS_API	0x00000004U
#define NT_IRP_READ_OPERATION	0x00000100U
#define NT_IRP_WRITE_OPERATION	0x00000200U
#define NT_IRP_PRIORITY_SHIFT	17
#define NT_IO_PRIORITY_VERY_LOW	1U
#define NT_IO_PRIORITY_NORMAL	3U
#define NT_IO_PRIORITY_HIGH	4U

/* Read, Write, FlushBuffers: the event of @rq's operation; 0: none. */
static u8 nt_disk_type(struct request *rq)
{
	if (blk_rq_is_passthrough(rq))
		return 0;
	switch (req_op(rq)) {
	case REQ_OP_READ:
		return 10;
	case REQ_OP_WRITE:
		return 11;
	case REQ_OP_FLUSH:
		return 14;
	default:
		return 0;
	}
}

VISIBLE_IF_KUNIT u32 nt_disk_irp_flags(struct request *rq)
{
	u32 flags = NT_IRP_NOCACHE, prio;

	if (op_is_sync(rq->cmd_flags))
		flags |= NT_IRP_SYNCHRONOUS_API;
	if (req_op(rq) == REQ_OP_READ)
		flags |= NT_IRP_READ_OPERATION;
	else if (req_op(rq) == REQ_OP_WRITE)
		flags |= NT_IRP_WRITE_OPERATION;
	switch (IOPRIO_PRIO_CLASS(req_get_ioprio(rq))) {
	case IOPRIO_CLASS_IDLE:
		prio = NT_IO_PRIORITY_VERY_LOW;
		break;
	case IOPRIO_CLASS_RT:
		prio = NT_IO_PRIORITY_HIGH;
		break;
	default:
		prio = NT_IO_PRIORITY_NORMAL;
		break;
	}
	return flags | prio << NT_IRP_PRIORITY_SHIFT;
}
EXPORT_SYMBOL_IF_KUNIT(nt_disk_irp_flags);

VISIBLE_IF_KUNIT u32 nt_disk_number(struct request *rq)
{
	struct gendisk *disk = rq->q ? rq->q->disk : NULL;

	return disk ? new_encode_dev(disk_devt(disk)) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(nt_disk_number);

/* block_rq_issue, for DISK_IO: remember who issued @rq, and when. */
VISIBLE_IF_KUNIT void nt_disk_issue(void *data, struct request *rq)
{
	if (!nt_disk_type(rq))
		return;
	nt_ktags_put(&nt_disk_tags, rq, 0, current->pid, ktime_get_mono_fast_ns(), 0);
}
EXPORT_SYMBOL_IF_KUNIT(nt_disk_issue);

/* block_rq_issue, for DISK_IO_INIT: ReadInit, WriteInit, FlushInit. */
VISIBLE_IF_KUNIT void nt_disk_issue_init(void *data, struct request *rq)
{
	u8 type = nt_disk_type(rq);
	struct ntr_sr_disk d = {
		.irp = nt_kernel_key(rq),
		.issuing_thread_id = current->pid,
	};

	if (!type) {
		atomic_long_inc(&nt_disk_other);
		return;
	}
	/* 10, 11, 14 at completion; 12, 13, 15 at issue. */
	d.type = type == 14 ? 15 : type + 2;
	NT_KEVENT_OF(NTR_SR_HOOK(0x01, d.type), current->pid, current->tgid, 0, disk, &d);
}
EXPORT_SYMBOL_IF_KUNIT(nt_disk_issue_init);

/* block_rq_complete: Read, Write, FlushBuffers. */
VISIBLE_IF_KUNIT void nt_disk_complete(void *data, struct request *rq,
				       blk_status_t error, unsigned int nr_bytes)
{
	u8 type = nt_disk_type(rq);
	struct ntr_sr_disk d = { .type = type };
	u64 issued;
	u32 tid;

	if (!type) {
		atomic_long_inc(&nt_disk_other);
		return;
	}
	/* The last part of the request: its entry is done with. */
	if (nt_ktags_get(&nt_disk_tags, rq, 0, nr_bytes >= blk_rq_bytes(rq), &tid, &issued)) {
		d.issuing_thread_id = tid;
		d.response_time = ktime_get_mono_fast_ns() - issued;
	} else {
		atomic_long_inc(&nt_disk_unmatched);
	}
	d.disk_number = nt_disk_number(rq);
	d.irp_flags = nt_disk_irp_flags(rq);
	d.transfer_size = nr_bytes;
	d.byte_offset = (s64)blk_rq_pos(rq) << SECTOR_SHIFT;
	d.irp = nt_kernel_key(rq);
	NT_KEVENT_OF(NTR_SR_HOOK(0x01, type), 0, 0, 0, disk, &d);
}
EXPORT_SYMBOL_IF_KUNIT(nt_disk_complete);

static void nt_disk_hooked(bool on)
{
	nt_ktags_reset(&nt_disk_tags);
}

#if IS_ENABLED(CONFIG_KUNIT)
/* The entries in use, for the tests. */
unsigned int nt_disk_tags_count(void)
{
	return nt_ktags_count(&nt_disk_tags);
}
EXPORT_SYMBOL_IF_KUNIT(nt_disk_tags_count);
#endif

static const struct nt_khook nt_disk_hooks[] = {
	NT_KHOOK(block_rq_issue, nt_disk_issue),
	NT_KHOOK(block_rq_complete, nt_disk_complete),
};

const struct nt_ksource nt_ks_disk_io = {
	.name = "DiskIo",
	.word = 0,
	.flag = NTTRACE_EVENT_TRACE_FLAG_DISK_IO,
	.hooks = nt_disk_hooks,
	.nr_hooks = ARRAY_SIZE(nt_disk_hooks),
	.hooked = nt_disk_hooked,
};

static const struct nt_khook nt_disk_init_hooks[] = {
	NT_KHOOK(block_rq_issue, nt_disk_issue_init),
};

const struct nt_ksource nt_ks_disk_io_init = {
	.name = "DiskIo Init",
	.word = 0,
	.flag = NTTRACE_EVENT_TRACE_FLAG_DISK_IO_INIT,
	.hooks = nt_disk_init_hooks,
	.nr_hooks = ARRAY_SIZE(nt_disk_init_hooks),
};
