// SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1
/*
 * The encoders of common/sysrec.h: the kernel's event headers and the
 * payloads of the NT Kernel Logger's classes. Built into nttrace.ko
 * (Kbuild) and libnttrace (Makefile); no allocation, lock or clock.
 *
 * Each payload is written by one function run twice: once counting (no
 * buffer) for ntr_sr_X_size(), once writing for ntr_sr_X_write() (both
 * through sr_size() and sr_write() of sysrec_w.h, inline: calls the
 * compiler can make direct), so the size reserved and the bytes written
 * cannot disagree.
 */
#ifdef __KERNEL__
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/array_size.h>
#include <linux/build_bug.h>
#include <linux/stddef.h>
#else
#include <stddef.h>
#define EXPORT_SYMBOL_IF_KUNIT(sym) _Static_assert(1, #sym)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#include "sysconfig.h"
#include "sysrec.h"
#include "sysrec_w.h"

/* The marker's Flags byte: TRACE_HEADER_FLAG | TRACE_HEADER_EVENT_TRACE. */
#define SR_MARKER_FLAGS		0xC0

/* ---- the headers ---- */

__u32 ntr_sr_header_size(__u8 kind)
{
	switch (kind) {
	case NTR_SR_FULL:
		return 0x20;
	case NTR_SR_COMPACT:
		return 0x18;
	case NTR_SR_PERFINFO:
		return 0x10;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_header_size);

__u8 ntr_sr_header_type(__u8 kind, bool ptr32)
{
	switch (kind) {
	case NTR_SR_COMPACT:
		return ptr32 ? NTTRACE_TRACE_HEADER_TYPE_COMPACT32 :
			       NTTRACE_TRACE_HEADER_TYPE_COMPACT64;
	case NTR_SR_PERFINFO:
		return ptr32 ? NTTRACE_TRACE_HEADER_TYPE_PERFINFO32 :
			       NTTRACE_TRACE_HEADER_TYPE_PERFINFO64;
	}
	return ptr32 ? NTTRACE_TRACE_HEADER_TYPE_SYSTEM32 : NTTRACE_TRACE_HEADER_TYPE_SYSTEM64;
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_header_type);

__u32 ntr_sr_record_size(__u8 kind, __u32 payload)
{
	__u32 h = ntr_sr_header_size(kind);

	if (!h || payload > NTR_SR_RECORD_MAX - h)
		return 0;
	return h + payload;
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_record_size);

void ntr_sr_header_write(void *rec, __u16 size, const struct ntr_sr_header *h)
{
	__u8 *p = rec;

	p[0] = h->version;
	p[1] = 0;
	p[2] = ntr_sr_header_type(h->kind, h->ptr32);
	p[3] = SR_MARKER_FLAGS;
	ntr_put_le(p + 4, size, 2);
	ntr_put_le(p + 6, h->hook_id, 2);
	if (h->kind == NTR_SR_PERFINFO) {
		ntr_put_le(p + 8, h->time_stamp, 8);
		return;
	}
	ntr_put_le(p + 8, h->thread_id, 4);
	ntr_put_le(p + 0xC, h->process_id, 4);
	ntr_put_le(p + 0x10, h->time_stamp, 8);
	if (h->kind == NTR_SR_FULL) {
		ntr_put_le(p + 0x18, h->kernel_time, 4);
		ntr_put_le(p + 0x1C, h->user_time, 4);
	}
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_header_write);

/* ---- SIDs ---- */

__u32 ntr_sr_sid_write(__u8 *out, __u64 authority, const __u32 *sub, __u8 n)
{
	unsigned int i;

	if (n > 15)
		n = 15;
	out[0] = 1;
	out[1] = n;
	for (i = 0; i < 6; i++)
		out[2 + i] = (__u8)(authority >> (8 * (5 - i)));
	for (i = 0; i < n; i++)
		ntr_put_le(out + 8 + 4 * i, sub[i], 4);
	return 8 + 4 * n;
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_sid_write);

__u32 ntr_sr_sid_unix_user(__u8 *out, __u32 uid)
{
	const __u32 sub[2] = { 1, uid };

	return ntr_sr_sid_write(out, 22, sub, 2);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_sid_unix_user);

__u32 ntr_sr_sid_local_system(__u8 *out)
{
	const __u32 sub[1] = { 18 };

	return ntr_sr_sid_write(out, 5, sub, 1);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_sid_local_system);

/* UserSID: the TOKEN_USER, then the SID; or the 4-byte zero of none. */
static void w_token_user(struct sr_w *w, const struct ntr_sr_process *p)
{
	__u32 token = w->ptr32 ? 8 : 16;
	__u64 ptr = p->sid_pointer;

	if (!p->sid) {
		w_int(w, 0, 4);
		return;
	}
	if (p->sid_size > NTR_SR_SID_MAX || p->sid_size < 8 || p->sid[0] != 1 ||
	    p->sid_size != 8 + 4 * (__u32)p->sid[1]) {
		w->bad = true;
		return;
	}
	/* Its first ULONG must not read as "no SID". */
	if (!(__u32)ptr)
		ptr = token;
	w_ptr(w, ptr);
	w_int(w, p->sid_attributes, 4);
	if (!w->ptr32)
		w_int(w, 0, 4);		/* padding */
	w_bytes(w, p->sid, p->sid_size);
}

/* ---- Process ---- */

static void process_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_process *p = x;

	w_ptr(w, p->unique_process_key);
	w_int(w, p->process_id, 4);
	w_int(w, p->parent_id, 4);
	w_int(w, p->session_id, 4);
	w_int(w, (__u32)p->exit_status, 4);
	w_ptr(w, p->directory_table_base);
	w_int(w, p->flags, 4);
	w_token_user(w, p);
	w_ansi(w, &p->image_file_name, NTR_SR_ANSI_MAX);
	w_utf16(w, &p->command_line, NTR_SR_CMDLINE_MAX);
	w_utf16(w, &p->package_full_name, NTR_SR_PATH_MAX);
	w_utf16(w, &p->application_id, NTR_SR_PATH_MAX);
}
__u32 ntr_sr_process_size(const struct ntr_sr_process *x, bool ptr32)
{
	return sr_size(process_put, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_process_size);

__u32 ntr_sr_process_write(void *buf, __u32 room, const struct ntr_sr_process *x, bool ptr32)
{
	return sr_write(process_put, buf, room, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_process_write);

/* ---- Thread ---- */

static void thread_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_thread *t = x;

	w_int(w, t->process_id, 4);
	w_int(w, t->thread_id, 4);
	w_ptr(w, t->stack_base);
	w_ptr(w, t->stack_limit);
	w_ptr(w, t->user_stack_base);
	w_ptr(w, t->user_stack_limit);
	w_ptr(w, t->affinity);
	w_ptr(w, t->win32_start_addr);
	w_ptr(w, t->teb_base);
	w_int(w, t->sub_process_tag, 4);
	w_int(w, t->base_priority, 1);
	w_int(w, t->page_priority, 1);
	w_int(w, t->io_priority, 1);
	w_int(w, t->thread_flags, 1);
	if (!t->no_name)
		w_utf16(w, &t->name, NTR_SR_NAME_MAX);
}
__u32 ntr_sr_thread_size(const struct ntr_sr_thread *x, bool ptr32)
{
	return sr_size(thread_put, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_thread_size);

__u32 ntr_sr_thread_write(void *buf, __u32 room, const struct ntr_sr_thread *x, bool ptr32)
{
	return sr_write(thread_put, buf, room, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_thread_write);

/* ---- Image ---- */

static void image_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_image *i = x;

	unsigned int r;

	w_ptr(w, i->image_base);
	w_ptr(w, i->image_size);
	w_int(w, i->process_id, 4);
	w_int(w, i->checksum, 4);
	w_int(w, i->time_date_stamp, 4);
	w_int(w, i->reserved0, 4);
	w_ptr(w, i->default_base);
	for (r = 0; r < 4; r++)
		w_int(w, i->reserved[r], 4);
	w_utf16(w, &i->file_name, NTR_SR_PATH_MAX);
}
__u32 ntr_sr_image_size(const struct ntr_sr_image *x, bool ptr32)
{
	return sr_size(image_put, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_image_size);

__u32 ntr_sr_image_write(void *buf, __u32 room, const struct ntr_sr_image *x, bool ptr32)
{
	return sr_write(image_put, buf, room, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_image_write);

/* ---- CSwitch, ReadyThread ---- */

static __always_inline void cswitch_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_cswitch *c = x;

	w_int(w, c->new_thread_id, 4);
	w_int(w, c->old_thread_id, 4);
	w_int(w, (__u8)c->new_thread_priority, 1);
	w_int(w, (__u8)c->old_thread_priority, 1);
	w_int(w, c->previous_cstate, 1);
	w_int(w, (__u8)c->spare_byte, 1);
	w_int(w, (__u8)c->old_thread_wait_reason, 1);
	w_int(w, (__u8)c->old_thread_wait_mode, 1);
	w_int(w, (__u8)c->old_thread_state, 1);
	w_int(w, (__u8)c->old_thread_wait_ideal_processor, 1);
	w_int(w, c->new_thread_wait_time, 4);
	w_int(w, c->reserved, 4);
}
__u32 ntr_sr_cswitch_size(const struct ntr_sr_cswitch *x, bool ptr32)
{
	return sr_size(cswitch_put, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_cswitch_size);

__u32 ntr_sr_cswitch_write(void *buf, __u32 room, const struct ntr_sr_cswitch *x, bool ptr32)
{
	return sr_write(cswitch_put, buf, room, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_cswitch_write);

static __always_inline void ready_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_ready *r = x;

	w_int(w, r->thread_id, 4);
	w_int(w, (__u8)r->adjust_reason, 1);
	w_int(w, (__u8)r->adjust_increment, 1);
	w_int(w, (__u8)r->flag, 1);
	w_int(w, (__u8)r->reserved, 1);
}
__u32 ntr_sr_ready_size(const struct ntr_sr_ready *x, bool ptr32)
{
	return sr_size(ready_put, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_ready_size);

__u32 ntr_sr_ready_write(void *buf, __u32 room, const struct ntr_sr_ready *x, bool ptr32)
{
	return sr_write(ready_put, buf, room, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_ready_write);

/* ---- DiskIo ---- */

static __always_inline void disk_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_disk *d = x;

	switch (d->type) {
	case 10:	/* Read */
	case 11:	/* Write */
		w_int(w, d->disk_number, 4);
		w_int(w, d->irp_flags, 4);
		w_int(w, d->transfer_size, 4);
		w_int(w, d->reserved, 4);
		w_int(w, (__u64)d->byte_offset, 8);
		w_ptr(w, d->file_object);
		w_ptr(w, d->irp);
		w_int(w, d->response_time, 8);
		break;
	case 12:	/* ReadInit */
	case 13:	/* WriteInit */
	case 15:	/* FlushInit */
		w_ptr(w, d->irp);
		break;
	case 14:	/* FlushBuffers */
		w_int(w, d->disk_number, 4);
		w_int(w, d->irp_flags, 4);
		w_int(w, d->response_time, 8);
		w_ptr(w, d->irp);
		break;
	default:
		w->bad = true;
		return;
	}
	w_int(w, d->issuing_thread_id, 4);
}
__u32 ntr_sr_disk_size(const struct ntr_sr_disk *x, bool ptr32)
{
	return sr_size(disk_put, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_disk_size);

__u32 ntr_sr_disk_write(void *buf, __u32 room, const struct ntr_sr_disk *x, bool ptr32)
{
	return sr_write(disk_put, buf, room, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_disk_write);

/* ---- TcpIp ---- */

static void tcp_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_tcp *t = x;

	unsigned int alen = t->type >= 26 ? 16 : 4;
	__u8 base = t->type >= 26 ? t->type - 16 : t->type;

	/* The IPv6 types are the IPv4 ones plus 16 (TCPCopy: 18 and 34). */
	if (t->type < 10 || t->type > 34 || base < 10 || base > 18 || base == 17) {
		w->bad = true;
		return;
	}
	w_int(w, t->pid, 4);
	w_int(w, t->size, 4);
	w_bytes(w, t->daddr, alen);
	w_bytes(w, t->saddr, alen);
	w_int(w, (__u64)(t->dport >> 8 | (t->dport & 0xFF) << 8), 2);
	w_int(w, (__u64)(t->sport >> 8 | (t->sport & 0xFF) << 8), 2);
	if (base == 10) {	/* Send */
		w_int(w, t->startime, 4);
		w_int(w, t->endtime, 4);
	} else if (base == 12 || base == 15) {	/* Connect, Accept */
		w_int(w, t->mss, 2);
		w_int(w, t->sackopt, 2);
		w_int(w, t->tsopt, 2);
		w_int(w, t->wsopt, 2);
		w_int(w, t->rcvwin, 4);
		w_int(w, (__u16)t->rcvwinscale, 2);
		w_int(w, (__u16)t->sndwinscale, 2);
	}
	w_int(w, t->seqnum, 4);
	w_ptr(w, t->connid);
}
__u32 ntr_sr_tcp_size(const struct ntr_sr_tcp *x, bool ptr32)
{
	return sr_size(tcp_put, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_tcp_size);

__u32 ntr_sr_tcp_write(void *buf, __u32 room, const struct ntr_sr_tcp *x, bool ptr32)
{
	return sr_write(tcp_put, buf, room, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_tcp_write);

/* ---- the mark ---- */

static __always_inline void sample_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_sample *p = x;

	w_ptr(w, p->instruction_pointer);
	w_int(w, p->thread_id, 4);
	w_int(w, p->count, 2);
	w_int(w, p->flags, 1);
	w_int(w, 0, 1);
}
__u32 ntr_sr_sample_size(const struct ntr_sr_sample *x, bool ptr32)
{
	return sr_size(sample_put, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_sample_size);

__u32 ntr_sr_sample_write(void *buf, __u32 room, const struct ntr_sr_sample *x, bool ptr32)
{
	return sr_write(sample_put, buf, room, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_sample_write);

static void profile_interval_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_profile_interval *p = x;

	w_int(w, p->source, 4);
	w_int(w, p->new_interval, 4);
	w_int(w, p->old_interval, 4);
	w_utf16(w, &p->source_name, NTR_SR_NAME_MAX);
}
__u32 ntr_sr_profile_interval_size(const struct ntr_sr_profile_interval *x, bool ptr32)
{
	return sr_size(profile_interval_put, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_profile_interval_size);

__u32 ntr_sr_profile_interval_write(void *buf, __u32 room,
				    const struct ntr_sr_profile_interval *x, bool ptr32)
{
	return sr_write(profile_interval_put, buf, room, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_profile_interval_write);

static __always_inline void syscall_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_syscall *s = x;

	if (s->exit)
		w_int(w, (__u32)s->value, 4);
	else
		w_ptr(w, s->value);
}
__u32 ntr_sr_syscall_size(const struct ntr_sr_syscall *x, bool ptr32)
{
	return sr_size(syscall_put, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_syscall_size);

__u32 ntr_sr_syscall_write(void *buf, __u32 room, const struct ntr_sr_syscall *x, bool ptr32)
{
	return sr_write(syscall_put, buf, room, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_syscall_write);

static __always_inline void perfctr_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_perfctr *c = x;

	w_int(w, c->process_id, 4);
	w_int(w, c->page_fault_count, 4);
	w_int(w, c->handle_count, 4);
	w_int(w, c->reserved, 4);
	w_ptr(w, c->peak_virtual_size);
	w_ptr(w, c->peak_working_set_size);
	w_ptr(w, c->peak_pagefile_usage);
	w_ptr(w, c->quota_peak_paged_pool_usage);
	w_ptr(w, c->quota_peak_non_paged_pool_usage);
	w_ptr(w, c->virtual_size);
	w_ptr(w, c->working_set_size);
	w_ptr(w, c->pagefile_usage);
	w_ptr(w, c->quota_paged_pool_usage);
	w_ptr(w, c->quota_non_paged_pool_usage);
	w_ptr(w, c->private_page_count);
}

__u32 ntr_sr_perfctr_size(const struct ntr_sr_perfctr *x, bool ptr32)
{
	return sr_size(perfctr_put, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_perfctr_size);

__u32 ntr_sr_perfctr_write(void *buf, __u32 room, const struct ntr_sr_perfctr *x, bool ptr32)
{
	return sr_write(perfctr_put, buf, room, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_perfctr_write);

static void filename_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_filename *f = x;

	w_ptr(w, f->file_object);
	w_utf16(w, &f->file_name, NTR_SR_PATH_MAX);
}

__u32 ntr_sr_filename_size(const struct ntr_sr_filename *x, bool ptr32)
{
	return sr_size(filename_put, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_filename_size);

__u32 ntr_sr_filename_write(void *buf, __u32 room, const struct ntr_sr_filename *x, bool ptr32)
{
	return sr_write(filename_put, buf, room, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_filename_write);

static void fileio_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_fileio *f = x;

	switch (f->type) {
	case 64:
		w_ptr(w, f->irp);
		w_ptr(w, f->ttid);
		w_ptr(w, f->file_object);
		w_int(w, f->create_options, 4);
		w_int(w, f->file_attributes, 4);
		w_int(w, f->share_access, 4);
		w_utf16(w, &f->open_path, NTR_SR_PATH_MAX);
		break;
	case 65: case 66: case 73:
		w_ptr(w, f->irp);
		w_ptr(w, f->ttid);
		w_ptr(w, f->file_object);
		w_ptr(w, f->file_key);
		break;
	case 67: case 68:
		w_int(w, f->offset, 8);
		w_ptr(w, f->irp);
		w_ptr(w, f->ttid);
		w_ptr(w, f->file_object);
		w_ptr(w, f->file_key);
		w_int(w, f->io_size, 4);
		w_int(w, f->io_flags, 4);
		break;
	case 69: case 70: case 71: case 74: case 75:
		w_ptr(w, f->irp);
		w_ptr(w, f->ttid);
		w_ptr(w, f->file_object);
		w_ptr(w, f->file_key);
		w_ptr(w, f->extra_info);
		w_int(w, f->info_class, 4);
		break;
	case 76:
		w_ptr(w, f->irp);
		w_ptr(w, f->extra_info);
		w_int(w, f->nt_status, 4);
		break;
	}
}

static bool fileio_type(__u8 type)
{
	return type >= 64 && type <= 76 && type != 72;
}

__u32 ntr_sr_fileio_size(const struct ntr_sr_fileio *x, bool ptr32)
{
	return fileio_type(x->type) ? sr_size(fileio_put, x, ptr32) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_fileio_size);

__u32 ntr_sr_fileio_write(void *buf, __u32 room, const struct ntr_sr_fileio *x, bool ptr32)
{
	return fileio_type(x->type) ? sr_write(fileio_put, buf, room, x, ptr32) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_fileio_write);

static __always_inline void fault_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_fault *f = x;

	w_ptr(w, f->virtual_address);
	w_ptr(w, f->program_counter);
}

__u32 ntr_sr_fault_size(const struct ntr_sr_fault *x, bool ptr32)
{
	return sr_size(fault_put, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_fault_size);

__u32 ntr_sr_fault_write(void *buf, __u32 room, const struct ntr_sr_fault *x, bool ptr32)
{
	return sr_write(fault_put, buf, room, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_fault_write);

static __always_inline void hardfault_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_hardfault *h = x;

	w_int(w, h->initial_time, 8);
	w_int(w, h->read_offset, 8);
	w_ptr(w, h->virtual_address);
	w_ptr(w, h->file_object);
	w_int(w, h->thread_id, 4);
	w_int(w, h->byte_count, 4);
}

__u32 ntr_sr_hardfault_size(const struct ntr_sr_hardfault *x, bool ptr32)
{
	return sr_size(hardfault_put, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_hardfault_size);

__u32 ntr_sr_hardfault_write(void *buf, __u32 room, const struct ntr_sr_hardfault *x,
			     bool ptr32)
{
	return sr_write(hardfault_put, buf, room, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_hardfault_write);

static __always_inline void valloc_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_valloc *v = x;

	w_ptr(w, v->base);
	w_ptr(w, v->size);
	w_int(w, v->process_id, 4);
	w_int(w, v->flags, 4);
}

__u32 ntr_sr_valloc_size(const struct ntr_sr_valloc *x, bool ptr32)
{
	return sr_size(valloc_put, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_valloc_size);

__u32 ntr_sr_valloc_write(void *buf, __u32 room, const struct ntr_sr_valloc *x, bool ptr32)
{
	return sr_write(valloc_put, buf, room, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_valloc_write);

static void stack_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_stack *s = x;
	__u32 i;

	w_int(w, s->event_time_stamp, 8);
	w_int(w, s->stack_process, 4);
	w_int(w, s->stack_thread, 4);
	for (i = 0; i < s->nr; i++)
		w_ptr(w, s->frames[i]);
}
__u32 ntr_sr_stack_size(const struct ntr_sr_stack *x, bool ptr32)
{
	return sr_size(stack_put, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_stack_size);

__u32 ntr_sr_stack_write(void *buf, __u32 room, const struct ntr_sr_stack *x, bool ptr32)
{
	return sr_write(stack_put, buf, room, x, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_stack_write);

__u32 ntr_sr_mark_size(__u32 mark_bytes)
{
	/* The mark's header is a full one: 0x20 + the bytes + 2. */
	if (mark_bytes > SR_PAYLOAD_MAX - 2)
		return 0;
	return mark_bytes + 2;
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_mark_size);

__u32 ntr_sr_mark_write(void *buf, __u32 room, const void *mark, __u32 mark_bytes)
{
	__u32 size = ntr_sr_mark_size(mark_bytes), i;
	const __u8 *m = mark;
	__u8 *p = buf;

	if (!size || size > room)
		return 0;
	for (i = 0; i < mark_bytes; i++)
		p[i] = m[i];
	p[mark_bytes] = 0;
	p[mark_bytes + 1] = 0;
	return size;
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_mark_write);

/* ---- the events ---- */

/*
 * The header kinds are those of the Windows-written files at hand (every
 * event of each of these HookIds there has the one given), but for the
 * three no file has: Image/Load takes the full header as Image/Unload
 * has it (PerfView's ImageLoad fix-up keeps a Load's header thread as the
 * loading one, and clears only DCStart's, DCEnd's and Unload's); CSwitch
 * and ReadyThread the PERFINFO one (PerfView's CSwitch fix-up takes the
 * new thread's ID from the payload when the header's is -1, as a
 * PERFINFO header shows it). Windows
 * writes the rundown of the kernel's own modules (process 0) under a full
 * header, of user processes' images under a PERFINFO one: the glue says
 * which, the table gives the latter. The mark: version 0, full header
 * ([GC]). SysConfig and the EventTrace extension (sysconfig.h): the
 * files' kinds, no flag (the logger writes them itself; SysConfig not
 * with EVENT_TRACE_FLAG_NO_SYSCONFIG); Extension also comes under a
 * PERFINFO header in the files, after the first. SampledProfile: PERFINFO,
 * version 2; CollectionStart and CollectionEnd: full, version 3, as the
 * files have them; SetInterval, which no file has, as its class's two.
 * StackWalk: PERFINFO, version 2, as the files have it; no flag of its
 * own (a session's list of events with stacks asks for it). SysClEnter
 * and SysClExit, which no file has: PERFINFO, version 2, as Windows'
 * other per-CPU PerfInfo events (the thread is the CPU's running one).
 * PageFault: HardFault, VirtualAlloc and VirtualFree PERFINFO, version
 * 2, as the files have them; the TypeGroup1 faults, which no file has,
 * likewise (no GuardPageFault: Linux has none to write). PerfCtrRundown:
 * PERFINFO, version 2, as the files have it; PerfCtr, which no file has,
 * as its class's other event. FileIo's requests (FILE_IO_INIT) and
 * OpEnd (FILE_IO), which no file has: PERFINFO, version 2, as the files'
 * FileIo name events (the thread is in TTID); those (DISK_FILE_IO):
 * PERFINFO, version 2, as the files have them.
 */
#define E(hook, kind, ver, flag) { NTR_SR_##hook, NTR_SR_##kind, ver, flag }
#define F(name) NTTRACE_EVENT_TRACE_FLAG_##name

static const struct ntr_sr_event events[] = {
	E(HEADER_EXTENSION, FULL, 2, 0),
	E(RUNDOWN_COMPLETE, PERFINFO, 2, 0),
	E(END_EXTENSION, PERFINFO, 2, 0),
	E(DISKIO_READ, PERFINFO, 3, F(DISK_IO)),
	E(DISKIO_WRITE, PERFINFO, 3, F(DISK_IO)),
	E(DISKIO_READ_INIT, FULL, 3, F(DISK_IO_INIT)),
	E(DISKIO_WRITE_INIT, FULL, 3, F(DISK_IO_INIT)),
	E(DISKIO_FLUSH, PERFINFO, 3, F(DISK_IO)),
	E(DISKIO_FLUSH_INIT, FULL, 3, F(DISK_IO_INIT)),
	E(TRANSITION_FAULT, PERFINFO, 2, F(MEMORY_PAGE_FAULTS)),
	E(DEMAND_ZERO_FAULT, PERFINFO, 2, F(MEMORY_PAGE_FAULTS)),
	E(COPY_ON_WRITE, PERFINFO, 2, F(MEMORY_PAGE_FAULTS)),
	E(HARD_PAGE_FAULT, PERFINFO, 2, F(MEMORY_PAGE_FAULTS)),
	E(ACCESS_VIOLATION, PERFINFO, 2, F(MEMORY_PAGE_FAULTS)),
	E(HARD_FAULT, PERFINFO, 2, F(MEMORY_HARD_FAULTS)),
	E(VIRTUAL_ALLOC, PERFINFO, 2, F(VIRTUAL_ALLOC)),
	E(VIRTUAL_FREE, PERFINFO, 2, F(VIRTUAL_ALLOC)),
	E(PROCESS_START, FULL, 4, F(PROCESS)),
	E(PROCESS_END, FULL, 4, F(PROCESS)),
	E(PROCESS_DCSTART, PERFINFO, 4, F(PROCESS)),
	E(PROCESS_DCEND, PERFINFO, 4, F(PROCESS)),
	E(PROCESS_PERFCTR, PERFINFO, 2, F(PROCESS_COUNTERS)),
	E(PROCESS_PERFCTR_RUNDOWN, PERFINFO, 2, F(PROCESS_COUNTERS)),
	E(FILEIO_FILE_CREATE, PERFINFO, 2, F(DISK_FILE_IO)),
	E(FILEIO_FILE_DELETE, PERFINFO, 2, F(DISK_FILE_IO)),
	E(FILEIO_FILE_RUNDOWN, PERFINFO, 2, F(DISK_FILE_IO)),
	E(FILEIO_CREATE, PERFINFO, 2, F(FILE_IO_INIT)),
	E(FILEIO_CLEANUP, PERFINFO, 2, F(FILE_IO_INIT)),
	E(FILEIO_CLOSE, PERFINFO, 2, F(FILE_IO_INIT)),
	E(FILEIO_READ, PERFINFO, 2, F(FILE_IO_INIT)),
	E(FILEIO_WRITE, PERFINFO, 2, F(FILE_IO_INIT)),
	E(FILEIO_DELETE, PERFINFO, 2, F(FILE_IO_INIT)),
	E(FILEIO_RENAME, PERFINFO, 2, F(FILE_IO_INIT)),
	E(FILEIO_FLUSH, PERFINFO, 2, F(FILE_IO_INIT)),
	E(FILEIO_OPEND, PERFINFO, 2, F(FILE_IO)),
	E(THREAD_START, FULL, 3, F(THREAD)),
	E(THREAD_END, FULL, 3, F(THREAD)),
	E(THREAD_DCSTART, FULL, 3, F(THREAD)),
	E(THREAD_DCEND, FULL, 3, F(THREAD)),
	E(CSWITCH, PERFINFO, 2, F(CSWITCH)),
	E(READY_THREAD, PERFINFO, 2, F(DISPATCHER)),
	E(TCP_SEND4, PERFINFO, 2, F(NETWORK_TCPIP)),
	E(TCP_RECV4, PERFINFO, 2, F(NETWORK_TCPIP)),
	E(TCP_CONNECT4, PERFINFO, 2, F(NETWORK_TCPIP)),
	E(TCP_DISCONNECT4, PERFINFO, 2, F(NETWORK_TCPIP)),
	E(TCP_RETRANSMIT4, PERFINFO, 2, F(NETWORK_TCPIP)),
	E(TCP_ACCEPT4, PERFINFO, 2, F(NETWORK_TCPIP)),
	E(TCP_RECONNECT4, PERFINFO, 2, F(NETWORK_TCPIP)),
	E(TCP_COPY4, PERFINFO, 2, F(NETWORK_TCPIP)),
	E(TCP_SEND6, PERFINFO, 2, F(NETWORK_TCPIP)),
	E(TCP_RECV6, PERFINFO, 2, F(NETWORK_TCPIP)),
	E(TCP_CONNECT6, PERFINFO, 2, F(NETWORK_TCPIP)),
	E(TCP_DISCONNECT6, PERFINFO, 2, F(NETWORK_TCPIP)),
	E(TCP_RETRANSMIT6, PERFINFO, 2, F(NETWORK_TCPIP)),
	E(TCP_ACCEPT6, PERFINFO, 2, F(NETWORK_TCPIP)),
	E(TCP_RECONNECT6, PERFINFO, 2, F(NETWORK_TCPIP)),
	E(TCP_COPY6, PERFINFO, 2, F(NETWORK_TCPIP)),
	E(CONFIG_CPU, FULL, 2, 0),
	E(CONFIG_PHYDISK, FULL, 2, 0),
	E(CONFIG_LOGDISK, FULL, 2, 0),
	E(CONFIG_NIC, FULL, 2, 0),
	E(PERFINFO_MARK, FULL, 0, 0),
	E(SAMPLED_PROFILE, PERFINFO, 2, F(PROFILE)),
	E(SYSCALL_ENTER, PERFINFO, 2, F(SYSTEMCALL)),
	E(SYSCALL_EXIT, PERFINFO, 2, F(SYSTEMCALL)),
	E(PROFILE_SET_INTERVAL, FULL, 3, F(PROFILE)),
	E(PROFILE_COLLECTION_START, FULL, 3, F(PROFILE)),
	E(PROFILE_COLLECTION_END, FULL, 3, F(PROFILE)),
	E(IMAGE_UNLOAD, FULL, 3, F(IMAGE_LOAD)),
	E(IMAGE_DCSTART, PERFINFO, 3, F(IMAGE_LOAD)),
	E(IMAGE_DCEND, PERFINFO, 3, F(IMAGE_LOAD)),
	E(IMAGE_LOAD, FULL, 3, F(IMAGE_LOAD)),
	E(STACKWALK, PERFINFO, 2, 0),
};

const struct ntr_sr_event *ntr_sr_event(__u16 hook_id)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(events); i++)
		if (events[i].hook_id == hook_id)
			return &events[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_event);
