// SPDX-License-Identifier: GPL-2.0
/*
 * The consumer side of a session: NTTRACE_IOC_ATTACH binds an open
 * /dev/nttrace to a session, as its logger or as a real-time consumer; the
 * file then maps the session's regions (its own acks among them) and polls
 * for published buffers. The protocols are in uapi/nttrace.h.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/version.h>
#include <linux/vmalloc.h>

#include "consumer.h"
#include "provider.h"
#include "session.h"

struct nt_file {
	struct mutex lock;		/* attaching */
	struct nt_session *session;	/* set once, then constant */
	unsigned int slot;		/* the session's consumer slot */
	struct nt_prov_file prov;	/* its provider registrations */
};

int nt_file_open(struct file *file)
{
	struct nt_file *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	nt_prov_file_init(&f->prov);
	file->private_data = f;
	return 0;
}

void nt_file_release(struct file *file)
{
	struct nt_file *f = file->private_data;

	nt_prov_file_release(&f->prov);
	if (f->session) {
		nt_session_detach(f->session, f->slot);
		nt_session_put(f->session);
	}
	kfree(f);
}

struct nt_prov_file *nt_file_provider(struct file *file)
{
	struct nt_file *f = file->private_data;

	return &f->prov;
}

static struct nt_session *nt_file_session(struct file *file)
{
	struct nt_file *f = file->private_data;

	/* Pairs with the smp_store_release() in nt_file_attach(). */
	return smp_load_acquire(&f->session);
}

int nt_file_attach(struct file *file, struct nttrace_attach *a)
{
	struct nt_file *f = file->private_data;
	struct nt_session *s;
	int slot;

	if ((a->flags & ~NTTRACE_ATTACH_FLAGS) || a->reserved)
		return -EINVAL;
	s = nt_session_get_consumable(a->logger_id);
	if (IS_ERR(s))
		return PTR_ERR(s);

	mutex_lock(&f->lock);
	slot = f->session ? -EBUSY :
	       nt_session_attach(s, a->flags & NTTRACE_ATTACH_REAL_TIME);
	if (slot < 0) {
		mutex_unlock(&f->lock);
		nt_session_put(s);
		return slot;
	}
	f->slot = slot;
	/* Pairs with the load-acquire in nt_file_session(). */
	smp_store_release(&f->session, s);
	mutex_unlock(&f->lock);

	a->nr_cpus = s->nr_rings;
	a->buffers_per_cpu = s->conf.nbuf;
	a->buffer_size = s->conf.bufsize;
	a->log_file_mode = s->log_file_mode;
	a->head_stride = NT_HEAD_STRIDE;
	a->ack_stride = NT_ACK_STRIDE;
	a->heads_offset = 0;
	a->heads_size = s->heads_size;
	a->acks_offset = s->heads_size;
	a->acks_size = s->acks_size;
	a->data_offset = s->heads_size + s->acks_size;
	a->data_size = s->data_size;
	a->ring_stride = (u64)s->conf.nbuf * s->conf.bufsize;
	return 0;
}

static void nt_vm_flags_clear(struct vm_area_struct *vma, vm_flags_t flags)
{
/* vm_flags became read-only, with setters, in 6.3; Debian 12 runs 6.1. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	vm_flags_clear(vma, flags);
#else
	vma->vm_flags &= ~flags;
#endif
}

int nt_file_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct nt_file *f = file->private_data;
	struct nt_session *s = nt_file_session(file);
	unsigned long off, len = vma->vm_end - vma->vm_start;
	size_t start, size;
	bool writable;
	void *area;

	if (!s)
		return -EINVAL;
	if (vma->vm_pgoff > (ULONG_MAX >> PAGE_SHIFT))
		return -EINVAL;
	off = vma->vm_pgoff << PAGE_SHIFT;

	if (off < s->heads_size) {
		area = s->heads;
		start = 0;
		size = s->heads_size;
		writable = false;
	} else if (off - s->heads_size < s->acks_size) {
		/* This file's own acks: no consumer writes another's. */
		area = s->acks;
		start = s->heads_size;
		size = s->acks_size;
		writable = true;
	} else {
		area = s->data;
		start = s->heads_size + s->acks_size;
		size = s->data_size;
		writable = false;
	}
	if (off < start || off - start >= size || len > size - (off - start))
		return -EINVAL;
	if (vma->vm_flags & VM_EXEC)
		return -EPERM;
	if (!writable && (vma->vm_flags & VM_WRITE))
		return -EPERM;
	/* A private mapping of the acks would keep the consumer's writes. */
	if (writable && !(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	nt_vm_flags_clear(vma, VM_MAYEXEC | (writable ? 0 : VM_MAYWRITE));
	if (writable)
		off += (size_t)f->slot * s->acks_size;
	return remap_vmalloc_range(vma, area, (off - start) >> PAGE_SHIFT);
}

__poll_t nt_file_poll(struct file *file, poll_table *wait)
{
	struct nt_file *f = file->private_data;
	struct nt_session *s = nt_file_session(file);
	__poll_t mask = 0;

	/*
	 * A file that registered providers waits for their notifications
	 * (EPOLLPRI); one that did neither that nor attach has nothing to
	 * wait for.
	 */
	if (nt_prov_file_active(&f->prov))
		mask = nt_prov_file_poll(file, &f->prov, wait);
	else if (!s)
		return EPOLLERR;
	if (!s)
		return mask;
	poll_wait(file, &s->wq, wait);
	if (nt_session_has_unread(s, f->slot))
		mask |= EPOLLIN | EPOLLRDNORM;
	/* Pairs with the store-release in nt_session_stop(). */
	if (smp_load_acquire(&s->heads->state) == NTTRACE_SESSION_STOPPED)
		mask |= EPOLLHUP;
	return mask;
}
