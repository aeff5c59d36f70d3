// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite nttrace_provider: the table of module/provider.c with
 * registrations whose enable info is kernel memory: enable before
 * register, several sessions (the aggregate level and keywords, the
 * classic provider's latest session and its fall-back), a session that
 * stops, the notifications and their bound, UNREGISTER, the rows of
 * LIST_PROVIDERS, and the limits (per file, per user, per session).
 * Kernel registrations' callbacks: run with no nttrace lock
 * held, so that they may register, unregister (their own registration
 * too) and change enables; one at a time and in order; an unregister
 * waits for one running on another thread. Event-ID filters: per session,
 * in and out, replaced by the next enable, dropped with the enable, and
 * the enables they refuse. A registrant holding its own mmap_lock: ENABLE
 * does not wait for it, and the enable info is written once it is free.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/lockdep.h>
#include <linux/mman.h>
#include <linux/mmap_lock.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "kunit_util.h"
#include "provider.h"

#define BIT_OF(id)	(1ULL << ((id) - 1))

static const u8 guid_x[16] = { 0x6e, 0x7a, 0x10, 1 };
static const u8 guid_y[16] = { 0x6e, 0x7a, 0x10, 2 };
static const u8 guid_z[16] = { 0x6e, 0x7a, 0x10, 3 };

/*
 * Enable info that outlives the sessions: test-managed memory allocated
 * before them is freed after their cleanup (which may still publish).
 */
static struct nttrace_enable_info *info_new(struct kunit *test)
{
	struct nttrace_enable_info *info = kunit_kzalloc(test, sizeof(*info), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, info);
	return info;
}

/* A file's provider state, released at the test's end. */
static void pf_release(void *pf)
{
	nt_prov_file_release(pf);
	kfree(pf);
}

static struct nt_prov_file *pf_new(struct kunit *test)
{
	struct nt_prov_file *pf = kzalloc(sizeof(*pf), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, pf);
	nt_prov_file_init(pf);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, pf_release, pf), 0);
	return pf;
}

static struct ntk_session *start(struct kunit *test, const char *name)
{
	struct nttrace_logger_info info;

	ntk_info(&info, name);
	info.buffer_size_kb = 4;
	info.max_buffers = 2;
	return ntk_start(test, &info);
}

static int reg(struct nt_prov_file *pf, const u8 *guid, u32 type, u64 ctx,
	       struct nttrace_enable_info *info, u64 *handle)
{
	struct nttrace_register r = { .size = sizeof(r), .type = type, .context = ctx };
	int ret;

	memcpy(r.guid, guid, 16);
	ret = nt_provider_register_kinfo(pf, &r, info);
	if (!ret && handle)
		*handle = r.handle;
	return ret;
}

static int enable(u32 id, const u8 *guid, u32 control, u32 level, u32 flags,
		  u64 any, u64 all, u32 *notified)
{
	struct nttrace_enable e = {
		.size = sizeof(e), .logger_id = id, .control = control,
		.level = level, .enable_flags = flags,
		.match_any_keyword = any, .match_all_keyword = all,
	};
	int ret;

	memcpy(e.guid, guid, 16);
	ret = nt_provider_enable(&e);
	if (notified)
		*notified = e.registrations;
	return ret;
}

static void expect_note(struct kunit *test, struct nt_prov_file *pf, u32 control,
			u64 handle, u64 ctx, u32 id, u32 level, u32 flags)
{
	struct nttrace_notification n = { .size = sizeof(n) };

	KUNIT_ASSERT_EQ(test, nt_provider_notification(pf, &n), 0);
	KUNIT_EXPECT_EQ(test, n.control, control);
	KUNIT_EXPECT_EQ(test, n.handle, handle);
	KUNIT_EXPECT_EQ(test, n.context, ctx);
	KUNIT_EXPECT_EQ(test, n.logger_id, id);
	KUNIT_EXPECT_EQ(test, n.level, level);
	KUNIT_EXPECT_EQ(test, n.enable_flags, flags);
	KUNIT_EXPECT_EQ(test, n.logger_handle, NTTRACE_HANDLE(id, level, 0, flags));
	KUNIT_EXPECT_EQ(test, n.dropped, 0U);
	KUNIT_EXPECT_EQ(test, n.size, (u32)sizeof(n));
}

static void expect_none(struct kunit *test, struct nt_prov_file *pf)
{
	struct nttrace_notification n = { .size = sizeof(n) };

	KUNIT_EXPECT_EQ(test, nt_provider_notification(pf, &n), -EAGAIN);
}

static void enable_before_register_test(struct kunit *test)
{
	struct nttrace_enable_info *info = info_new(test);
	struct nt_prov_file *pf = pf_new(test);
	struct ntk_session *k = start(test, "kp-before");
	u32 notified = 99;
	u64 h;

	KUNIT_EXPECT_EQ(test, enable(k->id, guid_x, 1, 4, 0x11, 0xF0, 0x30, &notified), 0);
	KUNIT_EXPECT_EQ(test, notified, 0U);
	memset(info, 0xEE, sizeof(*info));
	info->sequence = 0;
	KUNIT_ASSERT_EQ(test, reg(pf, guid_x, NTTRACE_REG_CLASSIC, 5, info, &h), 0);
	KUNIT_EXPECT_NE(test, h, 0ULL);
	KUNIT_EXPECT_EQ(test, info->sequence, 2U);
	KUNIT_EXPECT_EQ(test, info->sessions, 1U);
	KUNIT_EXPECT_EQ(test, info->logger_handle, NTTRACE_HANDLE(k->id, 4, 0, 0x11));
	KUNIT_EXPECT_EQ(test, info->level, 4);
	KUNIT_EXPECT_EQ(test, info->pad[3], 0);
	KUNIT_EXPECT_EQ(test, info->match_any_keyword, 0xF0ULL);
	KUNIT_EXPECT_EQ(test, info->match_all_keyword, 0x30ULL);
	KUNIT_EXPECT_EQ(test, info->loggers, BIT_OF(k->id));
	KUNIT_EXPECT_TRUE(test, nt_prov_file_active(pf));
	expect_note(test, pf, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, h, 5, k->id, 4, 0x11);
	expect_none(test, pf);
	KUNIT_EXPECT_EQ(test, nt_provider_unregister(pf, h), 0);
	KUNIT_EXPECT_EQ(test, nt_provider_unregister(pf, h), -ENOENT);
}

static void several_sessions_test(struct kunit *test)
{
	struct nttrace_enable_info *ci = info_new(test), *ei = info_new(test);
	struct nt_prov_file *pf = pf_new(test);
	struct ntk_session *a = start(test, "kp-a"), *b = start(test, "kp-b");
	u32 notified;
	u64 hc, he;

	KUNIT_ASSERT_EQ(test, reg(pf, guid_y, NTTRACE_REG_CLASSIC, 1, ci, &hc), 0);
	KUNIT_ASSERT_EQ(test, reg(pf, guid_y, NTTRACE_REG_EVENT, 2, ei, &he), 0);
	expect_none(test, pf);
	KUNIT_EXPECT_EQ(test, ci->sessions, 0U);

	KUNIT_EXPECT_EQ(test, enable(a->id, guid_y, 1, 2, 0x1, 0x0F, 0x07, &notified), 0);
	KUNIT_EXPECT_EQ(test, notified, 2U);
	expect_note(test, pf, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, hc, 1, a->id, 2, 0x1);
	expect_note(test, pf, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, he, 2, a->id, 2, 0x1);
	KUNIT_EXPECT_EQ(test, enable(b->id, guid_y, 1, 5, 0x2, 0xF0, 0x0C, &notified), 0);
	expect_note(test, pf, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, hc, 1, b->id, 5, 0x2);
	expect_note(test, pf, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, he, 2, b->id, 5, 0x2);
	/* The aggregate: both, highest level, union and intersection. */
	KUNIT_EXPECT_EQ(test, ci->sessions, 2U);
	KUNIT_EXPECT_EQ(test, ci->level, 5);
	KUNIT_EXPECT_EQ(test, ci->match_any_keyword, 0xFFULL);
	KUNIT_EXPECT_EQ(test, ci->match_all_keyword, 0x04ULL);
	KUNIT_EXPECT_EQ(test, ci->loggers, BIT_OF(a->id) | BIT_OF(b->id));
	KUNIT_EXPECT_EQ(test, ci->logger_handle, NTTRACE_HANDLE(b->id, 5, 0, 0x2));
	KUNIT_EXPECT_EQ(test, memcmp(ci, ei, sizeof(*ci)), 0);

	/* DISABLE of one not acting: the classic one hears nothing. */
	KUNIT_EXPECT_EQ(test, enable(a->id, guid_y, 0, 0, 0, 0, 0, &notified), 0);
	KUNIT_EXPECT_EQ(test, notified, 1U);
	expect_note(test, pf, NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER, he, 2, a->id, 2, 0x1);
	expect_none(test, pf);
	KUNIT_EXPECT_EQ(test, ci->level, 5);
	KUNIT_EXPECT_EQ(test, ci->match_all_keyword, 0x0CULL);
	/* Again: -ENOENT. */
	KUNIT_EXPECT_EQ(test, enable(a->id, guid_y, 0, 0, 0, 0, 0, NULL), -ENOENT);

	/* a again, then b goes: the classic falls back to a. */
	KUNIT_EXPECT_EQ(test, enable(a->id, guid_y, 1, 3, 0x9, 0, 0, NULL), 0);
	expect_note(test, pf, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, hc, 1, a->id, 3, 0x9);
	expect_note(test, pf, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, he, 2, a->id, 3, 0x9);
	KUNIT_EXPECT_EQ(test, enable(b->id, guid_y, 1, 1, 0x4, 0, 0, NULL), 0);
	expect_note(test, pf, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, hc, 1, b->id, 1, 0x4);
	expect_note(test, pf, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, he, 2, b->id, 1, 0x4);
	KUNIT_EXPECT_EQ(test, enable(b->id, guid_y, 0, 0, 0, 0, 0, NULL), 0);
	expect_note(test, pf, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, hc, 1, a->id, 3, 0x9);
	expect_note(test, pf, NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER, he, 2, b->id, 1, 0x4);
	KUNIT_EXPECT_EQ(test, ci->logger_handle, NTTRACE_HANDLE(a->id, 3, 0, 0x9));

	/* CAPTURE_STATE: EVENT registrations only. */
	KUNIT_EXPECT_EQ(test, enable(a->id, guid_y, 2, 0, 0, 0, 0, &notified), 0);
	KUNIT_EXPECT_EQ(test, notified, 1U);
	expect_note(test, pf, NTTRACE_EVENT_CONTROL_CODE_CAPTURE_STATE, he, 2, a->id, 3, 0x9);
	expect_none(test, pf);

	/* Errors. */
	KUNIT_EXPECT_EQ(test, enable(a->id, guid_y, 3, 0, 0, 0, 0, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, enable(a->id, guid_y, 1, 256, 0, 0, 0, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, enable(0, guid_y, 1, 1, 0, 0, 0, NULL), -ENOENT);
	KUNIT_EXPECT_EQ(test, enable(a->id, guid_x, 2, 0, 0, 0, 0, NULL), -ENOENT);
}

static void session_stop_test(struct kunit *test)
{
	struct nttrace_enable_info *info = info_new(test);
	struct nt_prov_file *pf = pf_new(test);
	struct ntk_session *k = start(test, "kp-stop");
	u32 id = k->id;
	u64 h;

	KUNIT_ASSERT_EQ(test, reg(pf, guid_x, NTTRACE_REG_CLASSIC, 9, info, &h), 0);
	KUNIT_EXPECT_EQ(test, enable(id, guid_x, 1, 2, 3, 0, 0, NULL), 0);
	expect_note(test, pf, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, h, 9, id, 2, 3);
	KUNIT_EXPECT_EQ(test, ntk_stop(k), 0);
	expect_note(test, pf, NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER, h, 9, id, 2, 3);
	KUNIT_EXPECT_EQ(test, info->sessions, 0U);
	KUNIT_EXPECT_EQ(test, info->logger_handle, 0ULL);
	KUNIT_EXPECT_EQ(test, info->loggers, 0ULL);
	KUNIT_EXPECT_EQ(test, info->sequence % 2, 0U);
	/* The stopped session's enable is gone: none to disable, none to add. */
	KUNIT_EXPECT_EQ(test, enable(id, guid_x, 0, 0, 0, 0, 0, NULL), -ENOENT);
	KUNIT_EXPECT_EQ(test, enable(id, guid_x, 1, 0, 0, 0, 0, NULL), -ENOENT);
	KUNIT_EXPECT_EQ(test, nt_provider_rows(NULL, 0), 1U);
}

static void rows_test(struct kunit *test)
{
	struct nttrace_provider_row rows[4];
	struct nttrace_enable_info *info = info_new(test);
	struct nt_prov_file *pf = pf_new(test);
	struct ntk_session *k = start(test, "kp-rows");

	KUNIT_EXPECT_EQ(test, nt_provider_rows(NULL, 0), 0U);
	KUNIT_EXPECT_EQ(test, enable(k->id, guid_y, 1, 7, 0x70, 0x71, 0x72, NULL), 0);
	KUNIT_ASSERT_EQ(test, reg(pf, guid_y, NTTRACE_REG_EVENT, 0, info, NULL), 0);
	KUNIT_ASSERT_EQ(test, reg(pf, guid_x, NTTRACE_REG_CLASSIC, 0, info, NULL), 0);
	memset(rows, 0xEE, sizeof(rows));
	KUNIT_ASSERT_EQ(test, nt_provider_rows(rows, 4), 3U);
	/* By GUID (x before y), registrations before enables. */
	KUNIT_EXPECT_EQ(test, memcmp(rows[0].guid, guid_x, 16), 0);
	KUNIT_EXPECT_EQ(test, rows[0].type, (u32)NTTRACE_REG_CLASSIC);
	KUNIT_EXPECT_EQ(test, rows[0].logger_id, 0U);
	KUNIT_EXPECT_EQ(test, rows[0].flags, 0U);
	KUNIT_EXPECT_EQ(test, memcmp(rows[1].guid, guid_y, 16), 0);
	KUNIT_EXPECT_EQ(test, rows[1].type, (u32)NTTRACE_REG_EVENT);
	KUNIT_EXPECT_EQ(test, memcmp(rows[2].guid, guid_y, 16), 0);
	KUNIT_EXPECT_EQ(test, rows[2].logger_id, k->id);
	KUNIT_EXPECT_EQ(test, rows[2].pid, 0U);
	KUNIT_EXPECT_EQ(test, rows[2].level, 7U);
	KUNIT_EXPECT_EQ(test, rows[2].enable_flags, 0x70U);
	KUNIT_EXPECT_EQ(test, rows[2].match_any_keyword, 0x71ULL);
	KUNIT_EXPECT_EQ(test, rows[2].match_all_keyword, 0x72ULL);
	/* The only enable is the latest. */
	KUNIT_EXPECT_EQ(test, rows[2].flags, NTTRACE_PROVIDER_ROW_LATEST);
	KUNIT_EXPECT_EQ(test, rows[3].flags, 0xEEEEEEEEU);	/* beyond: untouched */
	/* The file's release drops its registrations. */
	nt_prov_file_release(pf);
	KUNIT_EXPECT_EQ(test, nt_provider_rows(NULL, 0), 1U);
}

static void limits_test(struct kunit *test)
{
	struct nttrace_enable_info *info = info_new(test);
	struct nt_prov_file *pf = pf_new(test), *pf2 = pf_new(test);
	struct ntk_session *k = start(test, "kp-limits");
	struct nttrace_notification n = { .size = sizeof(n) };
	u8 g[16] = { 0x6e, 0x7b };
	unsigned int i;
	int ret = 0;

	for (i = 0; i < NTTRACE_MAX_REGISTRATIONS && !ret; i++)
		ret = reg(pf, guid_x, NTTRACE_REG_CLASSIC, i, info, NULL);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, reg(pf, guid_x, NTTRACE_REG_CLASSIC, 0, info, NULL), -EMFILE);
	/* The bounded queue: one ENABLE each, the oldest dropped. */
	KUNIT_EXPECT_EQ(test, enable(k->id, guid_x, 1, 1, 1, 0, 0, NULL), 0);
	KUNIT_ASSERT_EQ(test, nt_provider_notification(pf, &n), 0);
	KUNIT_EXPECT_EQ(test, n.dropped,
			(u32)(NTTRACE_MAX_REGISTRATIONS - NTTRACE_MAX_NOTIFICATIONS));
	KUNIT_EXPECT_EQ(test, n.context,
			(u64)(NTTRACE_MAX_REGISTRATIONS - NTTRACE_MAX_NOTIFICATIONS));
	nt_prov_file_release(pf);

	/* Per user. */
	if (ntk_set_param(test, "max_user_registrations", 1)) {
		KUNIT_EXPECT_EQ(test, reg(pf2, guid_x, NTTRACE_REG_CLASSIC, 0, info, NULL), 0);
		KUNIT_EXPECT_EQ(test, reg(pf2, guid_y, NTTRACE_REG_CLASSIC, 0, info, NULL),
				-EDQUOT);
	} else {
		kunit_skip(test, "no sysfs to set max_user_registrations");
	}

	/* Per session (guid_x already counts). */
	for (i = 1, ret = 0; i < NTTRACE_MAX_ENABLES && !ret; i++) {
		g[15] = i;
		g[14] = i >> 8;
		ret = enable(k->id, g, 1, 1, 0, 0, 0, NULL);
	}
	KUNIT_EXPECT_EQ(test, ret, 0);
	g[13] = 1;
	KUNIT_EXPECT_EQ(test, enable(k->id, g, 1, 1, 0, 0, 0, NULL), -ENOSPC);
	KUNIT_EXPECT_EQ(test, enable(k->id, guid_x, 1, 2, 0, 0, 0, NULL), 0);
}

/* ---- Kernel registrations' callbacks ---- */

#define KCB_LOG	8

/* What a kernel registration's callback saw, and what it is to do. */
struct kcb {
	int depth;		/* locks the test held when it made the change */
	unsigned int calls;
	unsigned int locked;	/* calls made with a lock held (lockdep) */
	unsigned int failed;	/* calls in which something failed */
	u32 control[KCB_LOG];
	u32 logger_id[KCB_LOG];
	u8 level[KCB_LOG];
	struct kcb *inner;	/* the callback's own registration's */
	struct nt_reg *self;	/* to unregister from the callback */
	u32 self_control;	/* ... at this control code */
	/* Entry and exit of each call: 10 * level, 10 * level + 1. */
	u8 trace[KCB_LOG];
	unsigned int traced;
	/* The blocking callback's handshake (unregister_waits_test). */
	struct completion entered, release;
	bool returned;
};

static struct kcb *kcb_new(struct kunit *test)
{
	struct kcb *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->depth = lockdep_depth(current);
	init_completion(&c->entered);
	init_completion(&c->release);
	return c;
}

/*
 * Log the call. False when it runs with a lock held that the test did not
 * hold (seen only with lockdep): registering or unregistering there would
 * deadlock, so the callers then do nothing more and the test fails.
 */
static bool kcb_log(struct kcb *c, u32 control, u8 level, u32 logger_id)
{
	unsigned int i = c->calls++;

	if (i < KCB_LOG) {
		c->control[i] = control;
		c->level[i] = level;
		c->logger_id[i] = logger_id;
	}
	if (lockdep_depth(current) != c->depth) {
		c->locked++;
		return false;
	}
	return true;
}

static void kcb_count(void *p, u32 control, u8 level, u64 any, u64 all, u32 logger_id)
{
	kcb_log(p, control, level, logger_id);
}

static void kreg_put(void *r)
{
	nt_provider_unregister_kernel(r);
}

static struct nt_reg *kreg(struct kunit *test, const u8 *guid, nt_provider_cb_t cb,
			   struct kcb *c)
{
	struct nt_reg *r = nt_provider_register_kernel(guid, cb, c);

	KUNIT_ASSERT_FALSE(test, IS_ERR(r));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kreg_put, r), 0);
	return r;
}

/*
 * Registers and unregisters another provider (whose GUID a session may
 * enable: its callback then runs inside the registration), and reads the
 * provider table and the session table, each behind its lock.
 */
static void kcb_nested(void *p, u32 control, u8 level, u64 any, u64 all, u32 logger_id)
{
	struct kcb *c = p;
	u32 ids[NTTRACE_MAX_LOGGERS], count;
	struct nt_reg *r;

	if (!kcb_log(c, control, level, logger_id))
		return;
	r = nt_provider_register_kernel(guid_y, kcb_count, c->inner);
	if (IS_ERR(r)) {
		c->failed++;
		return;
	}
	nt_provider_unregister_kernel(r);
	nt_provider_rows(NULL, 0);
	if (nt_session_list(ids, ARRAY_SIZE(ids), &count))
		c->failed++;
}

static void callback_unlocked_test(struct kunit *test)
{
	struct kcb *c = kcb_new(test);
	struct ntk_session *k = start(test, "kp-unlocked");
	u32 id = k->id;

	c->inner = kcb_new(test);
	kreg(test, guid_x, kcb_nested, c);
	/* ENABLE: the callback registers a provider that y's enable tells. */
	KUNIT_ASSERT_EQ(test, enable(id, guid_y, 1, 3, 0, 0, 0, NULL), 0);
	KUNIT_ASSERT_EQ(test, enable(id, guid_x, 1, 4, 0, 0, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, c->calls, 1U);
	KUNIT_EXPECT_EQ(test, c->locked, 0U);
	KUNIT_EXPECT_EQ(test, c->failed, 0U);
	KUNIT_EXPECT_EQ(test, c->inner->calls, 1U);
	KUNIT_EXPECT_EQ(test, c->inner->locked, 0U);
	KUNIT_EXPECT_EQ(test, c->inner->control[0],
			(u32)NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER);
	KUNIT_EXPECT_EQ(test, c->inner->level[0], 3);
	/* The session stops: DISABLE, outside the session locks too. */
	KUNIT_EXPECT_EQ(test, ntk_stop(k), 0);
	KUNIT_EXPECT_EQ(test, c->calls, 2U);
	KUNIT_EXPECT_EQ(test, c->control[1], (u32)NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER);
	KUNIT_EXPECT_EQ(test, c->logger_id[1], id);
	KUNIT_EXPECT_EQ(test, c->locked, 0U);
	KUNIT_EXPECT_EQ(test, c->failed, 0U);
	/* y's enable went with the session, before any callback ran. */
	KUNIT_EXPECT_EQ(test, c->inner->calls, 1U);
}

/* Unregisters its own registration when told @self_control. */
static void kcb_self(void *p, u32 control, u8 level, u64 any, u64 all, u32 logger_id)
{
	struct kcb *c = p;

	if (!kcb_log(c, control, level, logger_id) || control != c->self_control)
		return;
	nt_provider_unregister_kernel(c->self);
	c->self = NULL;
}

static void kreg_put_self(void *p)
{
	struct kcb *c = p;

	nt_provider_unregister_kernel(c->self);
}

static void self_unregister_test(struct kunit *test)
{
	struct kcb *c = kcb_new(test);
	struct ntk_session *k = start(test, "kp-self");

	c->self_control = NTTRACE_EVENT_CONTROL_CODE_CAPTURE_STATE;
	c->self = nt_provider_register_kernel(guid_x, kcb_self, c);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->self));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kreg_put_self, c), 0);
	KUNIT_ASSERT_EQ(test, enable(k->id, guid_x, 1, 4, 0, 0, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, c->calls, 1U);
	/* CAPTURE_STATE: the callback unregisters; it returns, no deadlock. */
	KUNIT_ASSERT_EQ(test, enable(k->id, guid_x, 2, 0, 0, 0, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, c->calls, 2U);
	KUNIT_EXPECT_EQ(test, c->locked, 0U);
	KUNIT_EXPECT_NULL(test, c->self);
	/* Unregistered: no callback for the DISABLE, no row. */
	KUNIT_ASSERT_EQ(test, enable(k->id, guid_x, 0, 0, 0, 0, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, c->calls, 2U);
	KUNIT_EXPECT_EQ(test, nt_provider_rows(NULL, 0), 0U);
}

/* At level 1, changes the enable to level 2: a change from a callback. */
static void kcb_reenter(void *p, u32 control, u8 level, u64 any, u64 all, u32 logger_id)
{
	struct kcb *c = p;

	if (c->traced < KCB_LOG)
		c->trace[c->traced++] = 10 * level;
	if (kcb_log(c, control, level, logger_id) && level == 1 &&
	    enable(logger_id, guid_x, 1, 2, 0, 0, 0, NULL))
		c->failed++;
	if (c->traced < KCB_LOG)
		c->trace[c->traced++] = 10 * level + 1;
}

static void reenter_test(struct kunit *test)
{
	static const u8 want[] = { 10, 11, 20, 21 };
	struct kcb *c = kcb_new(test);
	struct ntk_session *k = start(test, "kp-reenter");

	kreg(test, guid_x, kcb_reenter, c);
	KUNIT_ASSERT_EQ(test, enable(k->id, guid_x, 1, 1, 0, 0, 0, NULL), 0);
	/* The second call came after the first returned, not inside it. */
	KUNIT_EXPECT_EQ(test, c->traced, (unsigned int)sizeof(want));
	KUNIT_EXPECT_MEMEQ(test, c->trace, want, sizeof(want));
	KUNIT_EXPECT_EQ(test, c->calls, 2U);
	KUNIT_EXPECT_EQ(test, c->locked, 0U);
	KUNIT_EXPECT_EQ(test, c->failed, 0U);
}

/* Blocks until released, in the thread that made the change. */
static void kcb_block(void *p, u32 control, u8 level, u64 any, u64 all, u32 logger_id)
{
	struct kcb *c = p;

	kcb_log(c, control, level, logger_id);
	complete(&c->entered);
	wait_for_completion(&c->release);
	WRITE_ONCE(c->returned, true);
}

struct kthread_call {
	struct kcb *c;
	struct nt_reg *r;
	u32 logger_id;
	int ret;
	bool returned_first;	/* the callback had returned when we did */
	struct completion done;
};

static int enable_thread(void *p)
{
	struct kthread_call *t = p;

	t->ret = enable(t->logger_id, guid_x, 1, 4, 0, 0, 0, NULL);
	complete(&t->done);
	return 0;
}

static int unregister_thread(void *p)
{
	struct kthread_call *t = p;

	nt_provider_unregister_kernel(t->r);
	t->returned_first = READ_ONCE(t->c->returned);
	complete(&t->done);
	return 0;
}

static void unregister_waits_test(struct kunit *test)
{
	struct kcb *c = kcb_new(test);
	struct ntk_session *k = start(test, "kp-waits");
	struct kthread_call en = { .c = c, .logger_id = k->id };
	struct kthread_call un = { .c = c };
	struct task_struct *t;

	init_completion(&en.done);
	init_completion(&un.done);
	un.r = nt_provider_register_kernel(guid_x, kcb_block, c);
	KUNIT_ASSERT_FALSE(test, IS_ERR(un.r));
	t = kthread_run(enable_thread, &en, "nttrace-kp-enable");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wait_for_completion(&c->entered);
	t = kthread_run(unregister_thread, &un, "nttrace-kp-unreg");
	if (IS_ERR(t)) {
		complete(&c->release);
		wait_for_completion(&en.done);
		nt_provider_unregister_kernel(un.r);
		KUNIT_FAIL(test, "no thread");
		return;
	}
	/* The unregister waits for the callback running in the other thread. */
	KUNIT_EXPECT_EQ(test, wait_for_completion_timeout(&un.done, HZ / 5), 0UL);
	complete(&c->release);
	wait_for_completion(&un.done);
	wait_for_completion(&en.done);
	KUNIT_EXPECT_TRUE(test, un.returned_first);
	KUNIT_EXPECT_EQ(test, en.ret, 0);
	KUNIT_EXPECT_EQ(test, c->calls, 1U);
	/* Unregistered: nothing more. */
	KUNIT_ASSERT_EQ(test, enable(k->id, guid_x, 0, 0, 0, 0, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, c->calls, 1U);
}

/* What a DISABLE callback saw of the logger IDs while its session stopped. */
struct kcb_ids {
	struct kcb c;
	int start_ret, enable_ret;
	u32 new_id;
};

/*
 * At the stop's DISABLE: start a session (no lock held, so it can), which
 * must not get the stopping session's ID yet, and enable for that ID.
 */
static void kcb_new_session(void *p, u32 control, u8 level, u64 any, u64 all, u32 logger_id)
{
	struct kcb_ids *ids = p;
	struct nttrace_logger_info info;

	if (!kcb_log(&ids->c, control, level, logger_id) ||
	    control != NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER)
		return;
	ntk_info(&info, "kp-ids-new");
	info.buffer_size_kb = 4;
	info.max_buffers = 2;
	ids->start_ret = nt_session_start(&info);
	ids->new_id = info.logger_id;
	ids->enable_ret = enable(logger_id, guid_y, 1, 1, 0, 0, 0, NULL);
}

static void stop_keeps_id_test(struct kunit *test)
{
	struct kcb_ids *ids = kunit_kzalloc(test, sizeof(*ids), GFP_KERNEL);
	struct ntk_session *k = start(test, "kp-ids"), *again;
	struct nttrace_logger_info out;
	u32 id = k->id;

	KUNIT_ASSERT_NOT_NULL(test, ids);
	ids->c.depth = lockdep_depth(current);
	ids->start_ret = -1;
	kreg(test, guid_x, kcb_new_session, &ids->c);
	KUNIT_ASSERT_EQ(test, enable(id, guid_x, 1, 4, 0, 0, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, ntk_stop(k), 0);
	KUNIT_EXPECT_EQ(test, ids->c.calls, 2U);
	KUNIT_EXPECT_EQ(test, ids->c.locked, 0U);
	/* While the providers are told, the ID is neither free nor enabled. */
	KUNIT_ASSERT_EQ(test, ids->start_ret, 0);
	KUNIT_EXPECT_NE(test, ids->new_id, id);
	KUNIT_EXPECT_EQ(test, ids->enable_ret, -ENOENT);
	KUNIT_EXPECT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_STOP, ids->new_id, &out), 0);
	/* Once the stop returned it is free: the lowest, as it was. */
	again = start(test, "kp-ids-again");
	KUNIT_EXPECT_EQ(test, again->id, id);
}

/* ---- Callbacks while other threads change enables ---- */

#define STRESS_REGS	40
#define STRESS_CHANGES	300

/* One registration's view: it must be coherent, and end at unregister. */
struct stress_reg {
	atomic_t inside;	/* callbacks of this registration running */
	bool enabled;		/* by the last ENABLE or DISABLE seen */
	bool gone;		/* unregister returned */
	unsigned int calls, bad;
};

static void kcb_stress(void *p, u32 control, u8 level, u64 any, u64 all, u32 logger_id)
{
	struct stress_reg *s = p;

	/* One at a time: the rest of the test relies on it. */
	if (atomic_inc_return(&s->inside) != 1 || READ_ONCE(s->gone))
		s->bad++;
	/* In order: a DISABLE follows an ENABLE (one session here). */
	if (control == NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER && !s->enabled)
		s->bad++;
	s->enabled = control == NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER;
	s->calls++;
	usleep_range(20, 100);	/* let the other threads change it meanwhile */
	atomic_dec(&s->inside);
}

struct stress_thread {
	u32 logger_id;
	struct completion done;
};

static int stress_changes(void *p)
{
	struct stress_thread *t = p;
	unsigned int i;

	for (i = 0; i < STRESS_CHANGES; i++) {
		enable(t->logger_id, guid_x, 1, 1 + i % 5, 0, 0, 0, NULL);
		enable(t->logger_id, guid_x, 0, 0, 0, 0, 0, NULL);
	}
	complete(&t->done);
	return 0;
}

static void stress_test(struct kunit *test)
{
	struct stress_reg *s = kunit_kcalloc(test, STRESS_REGS, sizeof(*s), GFP_KERNEL);
	struct ntk_session *k = start(test, "kp-stress");
	struct stress_thread t[2];
	unsigned int i, calls = 0;

	KUNIT_ASSERT_NOT_NULL(test, s);
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct task_struct *task;

		t[i].logger_id = k->id;
		init_completion(&t[i].done);
		task = kthread_run(stress_changes, &t[i], "nttrace-kp-stress/%u", i);
		if (IS_ERR(task))
			complete(&t[i].done);
	}
	/* Registrations come and go while the threads change the enable. */
	for (i = 0; i < STRESS_REGS; i++) {
		struct nt_reg *r = nt_provider_register_kernel(guid_x, kcb_stress, &s[i]);

		if (IS_ERR(r)) {
			KUNIT_FAIL(test, "register: %ld", PTR_ERR(r));
			break;
		}
		msleep(i % 3);
		nt_provider_unregister_kernel(r);
		WRITE_ONCE(s[i].gone, true);
	}
	for (i = 0; i < ARRAY_SIZE(t); i++)
		wait_for_completion(&t[i].done);
	for (i = 0; i < STRESS_REGS; i++) {
		KUNIT_EXPECT_EQ_MSG(test, s[i].bad, 0U, "registration %u", i);
		calls += s[i].calls;
	}
	kunit_info(test, "%u callbacks", calls);
	KUNIT_EXPECT_GT(test, calls, 0U);
}

/* ---- Event-ID filters (EnableTraceEx2's EVENT_FILTER_TYPE_EVENT_ID) ---- */

static int enable_ids(u32 id, const u8 *guid, u32 level, u32 flags, const u16 *ids, u32 n)
{
	struct nttrace_enable e = {
		.size = sizeof(e), .logger_id = id,
		.control = NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, .level = level,
		.filter_flags = flags, .event_id_count = n,
	};

	memcpy(e.guid, guid, 16);
	return nt_provider_enable_ids(&e, ids);
}

/* The sessions that want an event of @id (level 1, keyword 0). */
static u64 wanted(struct nt_reg *r, u16 id)
{
	u64 want;

	rcu_read_lock();
	want = nt_reg_wanted_rcu(r, id, 1, 0, NULL);
	rcu_read_unlock();
	return want;
}

static void event_id_filter_test(struct kunit *test)
{
	static const u16 in_ids[] = { 7, 3, 65535, 3, 0 };	/* unsorted, a repeat */
	static const u16 out_ids[] = { 3 };
	static const u16 many[NTTRACE_MAX_FILTER_EVENT_IDS + 1] = { 1 };
	struct ntk_session *a = start(test, "kp-flt-a"), *b = start(test, "kp-flt-b");
	const u32 in = NTTRACE_ENABLE_FILTER_EVENT_ID | NTTRACE_ENABLE_FILTER_EVENT_ID_IN;
	const u32 out = NTTRACE_ENABLE_FILTER_EVENT_ID;
	struct nt_reg *r = kreg(test, guid_x, NULL, NULL);
	struct nttrace_enable e = { .size = sizeof(e), .logger_id = a->id };
	u64 both = BIT_OF(a->id) | BIT_OF(b->id);

	/* Session a takes 0, 3, 7, 65535 only; session b all but 3. */
	KUNIT_ASSERT_EQ(test, enable_ids(a->id, guid_x, 1, in, in_ids, ARRAY_SIZE(in_ids)), 0);
	KUNIT_ASSERT_EQ(test, enable_ids(b->id, guid_x, 1, out, out_ids, 1), 0);
	KUNIT_EXPECT_EQ(test, wanted(r, 0), both);
	KUNIT_EXPECT_EQ(test, wanted(r, 3), BIT_OF(a->id));
	KUNIT_EXPECT_EQ(test, wanted(r, 7), both);
	KUNIT_EXPECT_EQ(test, wanted(r, 65535), both);
	KUNIT_EXPECT_EQ(test, wanted(r, 1), BIT_OF(b->id));
	KUNIT_EXPECT_EQ(test, wanted(r, 4), BIT_OF(b->id));
	KUNIT_EXPECT_EQ(test, wanted(r, 65534), BIT_OF(b->id));
	/* After level and keywords: a's level 1 keeps a level-2 event out. */
	rcu_read_lock();
	KUNIT_EXPECT_EQ(test, nt_reg_wanted_rcu(r, 7, 2, 0, NULL), 0ULL);
	rcu_read_unlock();
	/* EventEnabled's question knows no IDs: both sessions enable level 1. */
	KUNIT_EXPECT_TRUE(test, nt_provider_kernel_enabled(r, 1, 0));

	/* A later enable replaces the filter: a takes 3 only ... */
	KUNIT_ASSERT_EQ(test, enable_ids(a->id, guid_x, 1, in, out_ids, 1), 0);
	KUNIT_EXPECT_EQ(test, wanted(r, 3), BIT_OF(a->id));
	KUNIT_EXPECT_EQ(test, wanted(r, 7), BIT_OF(b->id));
	/* ... and one without a filter leaves it none. */
	KUNIT_ASSERT_EQ(test, enable(b->id, guid_x, 1, 1, 0, 0, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, wanted(r, 3), both);
	KUNIT_EXPECT_EQ(test, wanted(r, 7), BIT_OF(b->id));
	/* Disabled, a's filter goes with its enable. */
	KUNIT_ASSERT_EQ(test, enable(a->id, guid_x, 0, 0, 0, 0, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, wanted(r, 3), BIT_OF(b->id));
	KUNIT_ASSERT_EQ(test, enable(a->id, guid_x, 1, 1, 0, 0, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, wanted(r, 7), both);

	/* The rules: count 0 or too many, stray members, unknown bits, DISABLE. */
	KUNIT_EXPECT_EQ(test, enable_ids(a->id, guid_x, 1, in, in_ids, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, enable_ids(a->id, guid_x, 1, in, many, ARRAY_SIZE(many)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, enable_ids(a->id, guid_x, 1, out, many,
					 NTTRACE_MAX_FILTER_EVENT_IDS), 0);
	KUNIT_EXPECT_EQ(test, enable_ids(a->id, guid_x, 1, NTTRACE_ENABLE_FILTER_EVENT_ID_IN,
					 NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, enable_ids(a->id, guid_x, 1, 0, NULL, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, enable_ids(a->id, guid_x, 1, 0x4 | out, out_ids, 1), -EINVAL);
	memcpy(e.guid, guid_x, 16);
	e.event_ids = 0x1000;
	KUNIT_EXPECT_EQ(test, nt_provider_enable(&e), -EINVAL);
	e.event_ids = 0;
	e.control = NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER;
	e.filter_flags = out;
	e.event_id_count = 1;
	KUNIT_EXPECT_EQ(test, nt_provider_enable_ids(&e, out_ids), -EINVAL);
	/* None of the refused enables changed a's: all but the 64 (1, 0, ...). */
	KUNIT_EXPECT_EQ(test, wanted(r, 1), BIT_OF(b->id));
	KUNIT_EXPECT_EQ(test, wanted(r, 2), both);
}

/*
 * A registration whose enable info is in the test's own user memory (its
 * mm from kunit_vm_mmap()), that mm's lock held for writing, as a process
 * stalling its own mmap_lock would: ENABLE returns (it waited before, for
 * ever: here, for a lock its own thread holds), the notification waits for
 * the info, and both come once the lock is free.
 */
static void mmap_lock_held_test(struct kunit *test)
{
	struct nt_prov_file *pf = pf_new(test);
	struct ntk_session *k = start(test, "kp-mmap-lock");
	struct nttrace_register r = { .size = sizeof(r), .type = NTTRACE_REG_EVENT, .context = 9 };
	struct nttrace_enable_info info;
	unsigned long u = ntk_user(test, 0, PAGE_SIZE, PROT_READ | PROT_WRITE);
	u32 notified = 99;
	int ret;

	memcpy(r.guid, guid_z, 16);
	r.enable_info = u;
	KUNIT_ASSERT_EQ(test, nt_provider_register(pf, &r), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&info, (void __user *)u, sizeof(info)), 0);
	KUNIT_EXPECT_EQ(test, info.sessions, 0U);
	KUNIT_EXPECT_EQ(test, info.sequence, 2U);

	mmap_write_lock(current->mm);
	ret = enable(k->id, guid_z, 1, 4, 0, 0xF, 0, &notified);
	/* Returned: the lock is still ours, nothing was written. */
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, notified, 1U);
	expect_none(test, pf);
	mmap_write_unlock(current->mm);

	nt_provider_fault_flush_all();
	KUNIT_ASSERT_EQ(test, copy_from_user(&info, (void __user *)u, sizeof(info)), 0);
	KUNIT_EXPECT_EQ(test, info.sequence, 4U);
	KUNIT_EXPECT_EQ(test, info.sessions, 1U);
	KUNIT_EXPECT_EQ(test, info.level, 4);
	KUNIT_EXPECT_EQ(test, info.match_any_keyword, 0xFULL);
	KUNIT_EXPECT_EQ(test, info.loggers, BIT_OF(k->id));
	expect_note(test, pf, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, r.handle, 9, k->id,
		    4, 0);
	expect_none(test, pf);
	KUNIT_EXPECT_EQ(test, nt_provider_unregister(pf, r.handle), 0);
}

static struct kunit_case nttrace_provider_cases[] = {
	KUNIT_CASE(event_id_filter_test),
	KUNIT_CASE(enable_before_register_test),
	KUNIT_CASE(several_sessions_test),
	KUNIT_CASE(session_stop_test),
	KUNIT_CASE(rows_test),
	KUNIT_CASE(limits_test),
	KUNIT_CASE(callback_unlocked_test),
	KUNIT_CASE(self_unregister_test),
	KUNIT_CASE(reenter_test),
	KUNIT_CASE(unregister_waits_test),
	KUNIT_CASE(stop_keeps_id_test),
	KUNIT_CASE(stress_test),
	KUNIT_CASE(mmap_lock_held_test),
	{}
};

static struct kunit_suite nttrace_provider_suite = {
	.name = "nttrace_provider",
	.test_cases = nttrace_provider_cases,
};
kunit_test_suite(nttrace_provider_suite);
