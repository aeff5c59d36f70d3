/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small, bounded table that lets a kernel-event source carry what it
 * knows at one tracepoint (who issued a disk request, when; who connected
 * a socket) to a later one that fires where that is no longer known (a
 * completion in an interrupt, a state change in softirq).
 *
 * An entry is keyed by an object's address (never written into a record)
 * and a 32-bit sub-key, and holds an ID and a time. The table is a fixed
 * array of sets of NT_KTAG_WAYS entries, each set under its own raw
 * spinlock taken with interrupts off: any context but NMI. Nothing is
 * allocated: a set that is full refuses the entry (counted in @full),
 * unless the table has a time to live and the set's oldest entry is older
 * than it (replaced, counted in @stale), so that entries whose second
 * tracepoint never came cannot keep the table full for ever.
 *
 * A table whose entries users make at will (a socket's, which lives as
 * long as its owner keeps it) is @fair: each entry has an owner (a UID),
 * and a full set shares itself out. A new entry of owner U replaces the
 * oldest entry of the owner V holding the most entries of the set if V
 * holds at least two more than U (counted in @evicted); else it is
 * refused. So no owner takes another's entry without holding fewer of the
 * set than that owner keeps after: one who holds a single entry of a set
 * never loses it, and one who fills every set gets them shared with each
 * owner who comes after, down to as many as those owners hold. An owner's
 * events lose what the table kept only where that owner held more than
 * its share.
 */
#ifndef NTTRACE_KL_TAGS_H
#define NTTRACE_KL_TAGS_H

#include <linux/atomic.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#define NT_KTAG_WAYS	8

struct nt_ktag {
	const void *obj;	/* NULL: free */
	u32 sub;
	u32 id;
	u64 time;
	u32 owner;		/* a fair table's */
};

struct nt_ktag_set {
	raw_spinlock_t lock;
	struct nt_ktag tag[NT_KTAG_WAYS];
};

struct nt_ktags {
	struct nt_ktag_set *sets;
	unsigned int bits;	/* 1 << bits sets */
	u64 ttl;		/* 0: entries live until taken */
	bool fair;		/* a full set shared out among owners */
	atomic_long_t full;	/* entries refused: their set full */
	atomic_long_t stale;	/* entries replaced past their time to live */
	atomic_long_t evicted;	/* entries of a fair table given to another owner */
};

/* A table of 1 << @bits sets in @sets (an array of that many). */
#define NT_KTAGS(name, bits_, ttl_)					\
	static struct nt_ktag_set name##_sets[1U << (bits_)];		\
	static struct nt_ktags name = {					\
		.sets = name##_sets, .bits = (bits_), .ttl = (ttl_),	\
	}

/* A fair table (see the top) of 1 << @bits sets. */
#define NT_KTAGS_FAIR(name, bits_)					\
	static struct nt_ktag_set name##_sets[1U << (bits_)];		\
	static struct nt_ktags name = {					\
		.sets = name##_sets, .bits = (bits_), .fair = true,	\
	}

/**
 * nt_ktags_reset() - empty a table
 * @t: the table; its locks are initialized anew, its counts stay
 *
 * Only while no user of it can run: before its probes are registered,
 * after they are unregistered and tracepoint_synchronize_unregister()
 * returned.
 */
void nt_ktags_reset(struct nt_ktags *t);

/**
 * nt_ktags_put() - remember an object's tag
 * @t: the table
 * @obj: the object
 * @sub: which of its tags
 * @id: the thread ID to remember
 * @time: the time to remember; it orders the entries (the oldest goes
 *	first)
 * @owner: the user it is for (a fair table's: see the top; else ignored)
 *
 * Replaces the entry (@obj, @sub) has. Any context; takes the set's raw
 * spinlock with interrupts off.
 *
 * Return: true, or false when its set is full and nothing may be
 * replaced (counted).
 */
bool nt_ktags_put(struct nt_ktags *t, const void *obj, u32 sub, u32 id, u64 time,
		  u32 owner);

/**
 * nt_ktags_get() - find an object's tag
 * @t: the table
 * @obj: the object
 * @sub: which of its tags
 * @take: remove the entry
 * @id: the thread ID it remembers
 * @time: the time it remembers
 *
 * Any context; takes the set's raw spinlock with interrupts off.
 *
 * Return: true, or false when there is none (*@id and *@time untouched).
 */
bool nt_ktags_get(struct nt_ktags *t, const void *obj, u32 sub, bool take,
		  u32 *id, u64 *time);

/**
 * nt_ktags_count() - the entries in use, for the tests
 * @t: the table
 *
 * Return: their number.
 */
unsigned int nt_ktags_count(struct nt_ktags *t);

/*
 * A counter of a source, read-only in /sys/module/nttrace/parameters/
 * @name, so that what a source could not do is seen from user space.
 */
#define NT_KCOUNTER(name, var, desc)					\
	module_param_cb(name, &nt_kcounter_ops, &(var), 0444);		\
	MODULE_PARM_DESC(name, desc)

extern const struct kernel_param_ops nt_kcounter_ops;

#endif /* NTTRACE_KL_TAGS_H */
