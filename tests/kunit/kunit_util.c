// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace_test.ko: the KUnit suites of nttrace.ko, in a module of their own
 * so that loading nttrace.ko never runs a test. They run when this module
 * is loaded, after nttrace.ko, whose functions under test it imports
 * (EXPORT_SYMBOL_IF_KUNIT). This file holds what the suites share.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/string.h>
#include <nttrace/wdm.h>

#include "kunit_util.h"
#include "message.h"
#include "record.h"

MODULE_DESCRIPTION("KUnit suites of nttrace.ko");
MODULE_AUTHOR("nttrace developers");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
NTTRACE_IMPORT_NS();

void ntk_info(struct nttrace_logger_info *info, const char *name)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	strscpy((char *)info->name, name, sizeof(info->name));
}

int ntk_control(u32 control, u32 id, struct nttrace_logger_info *out)
{
	memset(out, 0, sizeof(*out));
	out->size = sizeof(*out);
	out->control = control;
	out->logger_id = id;
	return nt_session_control(out);
}

int ntk_stop(struct ntk_session *k)
{
	struct nttrace_logger_info info;

	return ntk_control(NTTRACE_EVENT_TRACE_CONTROL_STOP, k->id, &info);
}

/*
 * At the test's end (in KUnit's cleanup thread). A session already
 * stopped is not stopped again by ID: the ID may belong to another by now.
 */
static void ntk_cleanup(void *arg)
{
	struct ntk_session *k = arg;

	if (!k->s)
		return;
	if (!READ_ONCE(k->s->stopped))
		ntk_stop(k);
	nt_session_detach(k->s, NT_LOGGER_SLOT);
	nt_session_put(k->s);
	k->s = NULL;
}

void ntk_put(struct ntk_session *k)
{
	ntk_cleanup(k);
}

struct ntk_session *ntk_start(struct kunit *test, struct nttrace_logger_info *info)
{
	return ntk_start_busy(test, info, NULL);
}

struct ntk_session *ntk_start_busy(struct kunit *test, struct nttrace_logger_info *info,
				   struct mm_struct *busy)
{
	struct ntk_session *k;
	struct nt_session *s;
	int ret;

	k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, k);
	k->read = kunit_kcalloc(test, nr_cpu_ids, sizeof(*k->read), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, k->read);
	k->end = kunit_kcalloc(test, nr_cpu_ids, sizeof(*k->end), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, k->end);

	/*
	 * Only the start (its rundown) under @busy's lock: the attach after
	 * it takes cpus_read_lock, which no path takes under an mm's lock
	 * (perf's ioctls fault under its context mutex, which CPU hotplug
	 * takes under cpus_write_lock: lockdep would see a cycle).
	 */
	if (busy)
		mmap_write_lock(busy);
	ret = nt_session_start(info);
	if (busy)
		mmap_write_unlock(busy);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "start %s", info->name);
	k->id = info->logger_id;
	s = nt_session_get_consumable(k->id);
	if (IS_ERR(s)) {
		ntk_stop(k);
		KUNIT_FAIL_AND_ABORT(test, "no reference to session %u: %ld",
				     k->id, PTR_ERR(s));
	}
	/* Its logger, as a file attached with NTTRACE_IOC_ATTACH would be. */
	if (nt_session_attach(s, false) != NT_LOGGER_SLOT) {
		ntk_stop(k);
		nt_session_put(s);
		KUNIT_FAIL_AND_ABORT(test, "session %u: no logger slot", k->id);
	}
	k->s = s;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ntk_cleanup, k), 0);
	return k;
}

int ntk_start_error(struct nttrace_logger_info *info)
{
	struct nttrace_logger_info stop;
	int ret = nt_session_start(info);

	if (!ret)
		ntk_control(NTTRACE_EVENT_TRACE_CONTROL_STOP, info->logger_id, &stop);
	return ret;
}

/* The records of buffer @idx of ring @cpu; copied into @out unless NULL. */
static unsigned int ntk_walk(struct kunit *test, struct ntk_session *k,
			     unsigned int cpu, u64 idx, struct ntk_record *out)
{
	const struct nt_ring_conf *conf = &k->s->conf;
	const u8 *b = k->s->data + ((size_t)cpu * conf->nbuf + idx % conf->nbuf) *
		      conf->bufsize;
	const struct nttrace_wmi_buffer_header *h = (const void *)b;
	u32 off = NTTRACE_WMI_BUFFER_HEADER_SIZE, n = 0;

	KUNIT_EXPECT_EQ(test, h->buffer_size, conf->bufsize);
	KUNIT_EXPECT_LE(test, h->saved_offset, conf->bufsize);
	while (off < h->saved_offset && off < conf->bufsize) {
		u16 size = ntr_record_size(b + off);
		u32 asize = ALIGN(size, 8);

		if (size < sizeof(u16) || off + asize > h->saved_offset) {
			KUNIT_FAIL(test, "cpu %u buffer %llu: record of %u bytes at %u",
				   cpu, idx, size, off);
			break;
		}
		if (out) {
			u8 *copy = kunit_kmalloc(test, asize, GFP_KERNEL);

			KUNIT_ASSERT_NOT_NULL(test, copy);
			memcpy(copy, b + off, asize);
			out[n].data = copy;
			out[n].size = size;
			out[n].cpu = cpu;
		}
		n++;
		off += asize;
	}
	return n;
}

unsigned int ntk_collect(struct kunit *test, struct ntk_session *k,
			 struct ntk_record **recs)
{
	struct nt_session *s = k->s;
	struct ntk_record *out;
	unsigned int cpu, n = 0, i;
	u64 idx;

	nt_session_flush(s);
	for (cpu = 0; cpu < s->nr_rings; cpu++) {
		struct nt_ring *r = &s->rings[cpu];

		/* Pairs with the store-release in nt_ring_publish(). */
		k->end[cpu] = smp_load_acquire(&r->head->produced);
		k->read[cpu] = max(k->read[cpu], READ_ONCE(r->head->oldest));
		for (idx = k->read[cpu]; idx < k->end[cpu]; idx++)
			n += ntk_walk(test, k, cpu, idx, NULL);
	}
	out = kunit_kcalloc(test, max(n, 1U), sizeof(*out), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, out);
	for (cpu = 0, i = 0; cpu < s->nr_rings; cpu++) {
		for (idx = k->read[cpu]; idx < k->end[cpu]; idx++)
			i += ntk_walk(test, k, cpu, idx, out + i);
		k->read[cpu] = k->end[cpu];
		/* Pairs with the load-acquire in nt_ring_release(). */
		smp_store_release(&s->rings[cpu].ack->consumed, k->end[cpu]);
	}
	KUNIT_EXPECT_EQ(test, i, n);
	*recs = out;
	return n;
}

u32 ntk_message(const struct nttrace_call *call,
		const struct nttrace_message_trace_user *m)
{
	struct nttrace_flags flags;

	nttrace_decode_flags(call->flags, &flags);
	return nt_trace_message(nttrace_find_type(NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE),
				call, &flags, m);
}

unsigned long ntk_user(struct kunit *test, unsigned long addr, size_t len,
		       unsigned long prot)
{
	unsigned long flags = MAP_ANONYMOUS | MAP_PRIVATE;
	unsigned long u;

	if (addr)
		flags |= MAP_FIXED_NOREPLACE;
	u = kunit_vm_mmap(test, NULL, addr, len, prot, flags, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_VALUE(u) || !u, "mmap: %ld", (long)u);
	if (addr)
		KUNIT_ASSERT_EQ(test, u, addr);
	return u;
}

/* ---- Module parameters, through sysfs ---- */

struct ntk_param {
	const char *name;
	char old[24];
};

static int ntk_param_io(const char *name, char *buf, size_t len, bool write)
{
	char path[80];
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/module/nttrace/parameters/%s", name);
	f = filp_open(path, write ? O_WRONLY : O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	if (write)
		n = kernel_write(f, buf, len, &pos);
	else
		n = kernel_read(f, buf, len - 1, &pos);
	filp_close(f, NULL);
	if (n < 0)
		return n;
	if (!write)
		buf[n] = '\0';
	return 0;
}

static void ntk_param_restore(void *arg)
{
	struct ntk_param *p = arg;

	ntk_param_io(p->name, p->old, strlen(p->old), true);
}

bool ntk_set_param(struct kunit *test, const char *name, unsigned long value)
{
	struct ntk_param *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	char buf[24];
	int len;

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->name = name;
	if (ntk_param_io(name, p->old, sizeof(p->old), false))
		return false;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ntk_param_restore, p), 0);
	len = snprintf(buf, sizeof(buf), "%lu\n", value);
	KUNIT_ASSERT_EQ_MSG(test, ntk_param_io(name, buf, len, true), 0, "set %s", name);
	return true;
}
