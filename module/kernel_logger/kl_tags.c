// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel-event sources' tag tables (kl_tags.h).
 */
#include <kunit/visibility.h>
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>

#include "kl_tags.h"

static struct nt_ktag_set *nt_ktags_set(struct nt_ktags *t, const void *obj, u32 sub)
{
	/* The sub-key (a port) in the high half: objects differ in the low. */
	if (!t->bits)	/* hash_64() would shift by 64 */
		return t->sets;
	return &t->sets[hash_64((u64)(uintptr_t)obj ^ (u64)sub << 32, t->bits)];
}

void nt_ktags_reset(struct nt_ktags *t)
{
	unsigned int i;

	for (i = 0; i < 1U << t->bits; i++) {
		raw_spin_lock_init(&t->sets[i].lock);
		memset(t->sets[i].tag, 0, sizeof(t->sets[i].tag));
	}
}
EXPORT_SYMBOL_IF_KUNIT(nt_ktags_reset);

/*
 * A fair table's full set (see kl_tags.h): the entry a new one of
 * @owner replaces, or NULL. Under the set's lock.
 */
static struct nt_ktag *nt_ktags_share(struct nt_ktag_set *set, u32 owner)
{
	unsigned int i, j, mine = 0, most = 0, n;
	struct nt_ktag *victim = NULL;

	for (i = 0; i < NT_KTAG_WAYS; i++)
		mine += set->tag[i].owner == owner;
	for (i = 0; i < NT_KTAG_WAYS; i++) {
		struct nt_ktag *tag = &set->tag[i];

		if (tag->owner == owner)
			continue;
		for (j = 0, n = 0; j < NT_KTAG_WAYS; j++)
			n += set->tag[j].owner == tag->owner;
		/* The owner holding most; its oldest entry. */
		if (n > most || (n == most && victim && tag->owner == victim->owner &&
				 tag->time < victim->time)) {
			most = n;
			victim = tag;
		}
	}
	return most >= mine + 2 ? victim : NULL;
}

bool nt_ktags_put(struct nt_ktags *t, const void *obj, u32 sub, u32 id, u64 time,
		  u32 owner)
{
	struct nt_ktag_set *set = nt_ktags_set(t, obj, sub);
	struct nt_ktag *slot = NULL, *oldest = NULL;
	unsigned long flags;
	unsigned int i;
	bool ok = true;

	raw_spin_lock_irqsave(&set->lock, flags);
	for (i = 0; i < NT_KTAG_WAYS; i++) {
		struct nt_ktag *tag = &set->tag[i];

		if (tag->obj == obj && tag->sub == sub) {
			slot = tag;
			break;
		}
		if (!tag->obj) {
			if (!slot)
				slot = tag;
		} else if (!oldest || tag->time < oldest->time) {
			oldest = tag;
		}
	}
	if (!slot && t->ttl && oldest && (s64)(time - oldest->time) > (s64)t->ttl) {
		slot = oldest;
		atomic_long_inc(&t->stale);
	}
	if (!slot && t->fair) {
		slot = nt_ktags_share(set, owner);
		if (slot)
			atomic_long_inc(&t->evicted);
	}
	if (slot) {
		slot->obj = obj;
		slot->sub = sub;
		slot->id = id;
		slot->time = time;
		slot->owner = owner;
	} else {
		ok = false;
	}
	raw_spin_unlock_irqrestore(&set->lock, flags);
	if (!ok)
		atomic_long_inc(&t->full);
	return ok;
}
EXPORT_SYMBOL_IF_KUNIT(nt_ktags_put);

bool nt_ktags_get(struct nt_ktags *t, const void *obj, u32 sub, bool take,
		  u32 *id, u64 *time)
{
	struct nt_ktag_set *set = nt_ktags_set(t, obj, sub);
	unsigned long flags;
	unsigned int i;
	bool found = false;

	raw_spin_lock_irqsave(&set->lock, flags);
	for (i = 0; i < NT_KTAG_WAYS; i++) {
		struct nt_ktag *tag = &set->tag[i];

		if (tag->obj == obj && tag->sub == sub) {
			*id = tag->id;
			*time = tag->time;
			if (take)
				memset(tag, 0, sizeof(*tag));
			found = true;
			break;
		}
	}
	raw_spin_unlock_irqrestore(&set->lock, flags);
	return found;
}
EXPORT_SYMBOL_IF_KUNIT(nt_ktags_get);

unsigned int nt_ktags_count(struct nt_ktags *t)
{
	unsigned int i, j, n = 0;
	unsigned long flags;

	for (i = 0; i < 1U << t->bits; i++) {
		raw_spin_lock_irqsave(&t->sets[i].lock, flags);
		for (j = 0; j < NT_KTAG_WAYS; j++)
			n += !!t->sets[i].tag[j].obj;
		raw_spin_unlock_irqrestore(&t->sets[i].lock, flags);
	}
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(nt_ktags_count);

static int nt_kcounter_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%lu\n",
			 (unsigned long)atomic_long_read((atomic_long_t *)kp->arg));
}

const struct kernel_param_ops nt_kcounter_ops = {
	.get = nt_kcounter_get,
};
