// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the DiskIo and TcpIp sources (module/kernel_logger/kl_disk.c,
 * kl_tcpip.c) and their tag table (kl_tags.c). The probes are called
 * directly with made-up requests and sockets while the NT Kernel Logger
 * wants their groups, and each record they write is read back field by
 * field. Records of real I/O the machine does meanwhile are told apart by
 * their Irp or connid (the made-up object's key). A fair tag table shared
 * out among users. And the process rundown (kl_process.c) with a
 * process's mmap_lock held: it waits for nothing.
 */
#include <kunit/test.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/completion.h>
#include <linux/ioprio.h>
#include <linux/kdev_t.h>
#include <linux/kthread.h>
#include <linux/mmap_lock.h>
#include <linux/pid.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/skbuff.h>
#include <linux/tcp.h>
#include <linux/umh.h>
#include <linux/version.h>
#include <net/inet_sock.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "kernel_logger/kl_io.h"
#include "kernel_logger/kl_tags.h"
#include "kernel_logger/ksource.h"
#include "kunit_util.h"

/* ---- the tag table ---- */

static void tags_test(struct kunit *test)
{
	static struct nt_ktag_set sets[1];
	static struct nt_ktags t = { .sets = sets, .bits = 0, .ttl = 100 };
	static int objs[10];
	u32 id;
	u64 time;
	int i;

	nt_ktags_reset(&t);
	atomic_long_set(&t.full, 0);
	atomic_long_set(&t.stale, 0);
	KUNIT_EXPECT_EQ(test, nt_ktags_count(&t), 0);
	KUNIT_EXPECT_FALSE(test, nt_ktags_get(&t, &objs[0], 0, false, &id, &time));

	/* Insert, find, replace. */
	KUNIT_EXPECT_TRUE(test, nt_ktags_put(&t, &objs[0], 0, 11, 1000, 0));
	KUNIT_EXPECT_TRUE(test, nt_ktags_get(&t, &objs[0], 0, false, &id, &time));
	KUNIT_EXPECT_EQ(test, id, 11);
	KUNIT_EXPECT_EQ(test, time, 1000);
	KUNIT_EXPECT_FALSE(test, nt_ktags_get(&t, &objs[0], 1, false, &id, &time));
	KUNIT_EXPECT_TRUE(test, nt_ktags_put(&t, &objs[0], 0, 12, 1010, 0));
	KUNIT_EXPECT_EQ(test, nt_ktags_count(&t), 1);
	KUNIT_EXPECT_TRUE(test, nt_ktags_get(&t, &objs[0], 0, true, &id, &time));
	KUNIT_EXPECT_EQ(test, id, 12);
	KUNIT_EXPECT_EQ(test, time, 1010);
	KUNIT_EXPECT_EQ(test, nt_ktags_count(&t), 0);
	KUNIT_EXPECT_FALSE(test, nt_ktags_get(&t, &objs[0], 0, true, &id, &time));

	/* One set of 8: the ninth is refused while the others are young. */
	for (i = 0; i < NT_KTAG_WAYS; i++)
		KUNIT_EXPECT_TRUE(test, nt_ktags_put(&t, &objs[i], 0, i, 2000 + i, 0));
	KUNIT_EXPECT_EQ(test, nt_ktags_count(&t), NT_KTAG_WAYS);
	KUNIT_EXPECT_FALSE(test, nt_ktags_put(&t, &objs[8], 0, 8, 2050, 0));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t.full), 1);
	KUNIT_EXPECT_FALSE(test, nt_ktags_get(&t, &objs[8], 0, false, &id, &time));
	/* Past the time to live the oldest (objs[0]) makes room. */
	KUNIT_EXPECT_TRUE(test, nt_ktags_put(&t, &objs[8], 0, 8, 2101, 0));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t.stale), 1);
	KUNIT_EXPECT_FALSE(test, nt_ktags_get(&t, &objs[0], 0, false, &id, &time));
	KUNIT_EXPECT_TRUE(test, nt_ktags_get(&t, &objs[1], 0, false, &id, &time));
	KUNIT_EXPECT_EQ(test, id, 1);
	KUNIT_EXPECT_EQ(test, nt_ktags_count(&t), NT_KTAG_WAYS);

	/* Cleared. */
	nt_ktags_reset(&t);
	KUNIT_EXPECT_EQ(test, nt_ktags_count(&t), 0);
	KUNIT_EXPECT_FALSE(test, nt_ktags_get(&t, &objs[8], 0, false, &id, &time));
}

/*
 * A fair table (sockets' tags: their users make them at will): one user
 * filling a set does not keep another's entry out, nor take it back.
 */
static void fair_tags_test(struct kunit *test)
{
	static struct nt_ktag_set sets[1];
	static struct nt_ktags t = { .sets = sets, .bits = 0, .fair = true };
	static int objs[24];
	u32 id;
	u64 time;
	int i;

	nt_ktags_reset(&t);
	atomic_long_set(&t.full, 0);
	atomic_long_set(&t.evicted, 0);
	/* User 1000 fills the set, and is refused past it. */
	for (i = 0; i < NT_KTAG_WAYS; i++)
		KUNIT_EXPECT_TRUE(test, nt_ktags_put(&t, &objs[i], 0, 100 + i, i, 1000));
	KUNIT_EXPECT_FALSE(test, nt_ktags_put(&t, &objs[8], 0, 108, 8, 1000));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t.full), 1);

	/* User 2000's entry is kept: 1000's oldest (objs[0]) makes room. */
	KUNIT_EXPECT_TRUE(test, nt_ktags_put(&t, &objs[16], 0, 216, 9, 2000));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t.evicted), 1);
	KUNIT_EXPECT_FALSE(test, nt_ktags_get(&t, &objs[0], 0, false, &id, &time));
	KUNIT_EXPECT_TRUE(test, nt_ktags_get(&t, &objs[1], 0, false, &id, &time));

	/* User 1000 cannot take it back, however often it tries. */
	for (i = 9; i < 16; i++)
		KUNIT_EXPECT_FALSE(test, nt_ktags_put(&t, &objs[i], 0, 100 + i, 10 + i, 1000));
	KUNIT_EXPECT_TRUE(test, nt_ktags_get(&t, &objs[16], 0, false, &id, &time));
	KUNIT_EXPECT_EQ(test, id, 216);

	/* 2000 gets up to half of the set, no more: then it is refused. */
	for (i = 17; i < 20; i++)
		KUNIT_EXPECT_TRUE(test, nt_ktags_put(&t, &objs[i], 0, 200 + i, 20 + i, 2000));
	KUNIT_EXPECT_FALSE(test, nt_ktags_put(&t, &objs[20], 0, 220, 40, 2000));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t.evicted), 4);
	/* Each keeps 4, the newest of 1000's (objs[4] to objs[7]). */
	for (i = 4; i < 8; i++)
		KUNIT_EXPECT_TRUE(test, nt_ktags_get(&t, &objs[i], 0, false, &id, &time));
	for (i = 16; i < 20; i++)
		KUNIT_EXPECT_TRUE(test, nt_ktags_get(&t, &objs[i], 0, false, &id, &time));
	/* A third user, holding nothing, still gets in. */
	KUNIT_EXPECT_TRUE(test, nt_ktags_put(&t, &objs[21], 0, 321, 50, 3000));
	KUNIT_EXPECT_EQ(test, nt_ktags_count(&t), NT_KTAG_WAYS);
	nt_ktags_reset(&t);
}

/* ---- reading records back ---- */

static struct ntk_session *start_kl(struct kunit *test, u32 mask0)
{
	struct nttrace_logger_info info;

	ntk_info(&info, NTTRACE_KERNEL_LOGGER_NAME);
	info.group_mask[0] = mask0;
	return ntk_start(test, &info);
}

static u32 hdr_size(const u8 *r)
{
	return r[2] == NTTRACE_TRACE_HEADER_TYPE_PERFINFO64 ? 0x10 : 0x20;
}

/*
 * The payload of the one record of @hook whose 8 bytes at payload offset
 * @at (from the end if negative) are @key; NULL (and a failure) if there
 * is not exactly one. *@r: the record.
 */
static const u8 *find(struct kunit *test, struct ntk_record *recs, unsigned int n,
		      u16 hook, int at, u64 key, const struct ntk_record **r)
{
	const u8 *found = NULL;
	unsigned int i, hits = 0;

	for (i = 0; i < n; i++) {
		const u8 *p = recs[i].data;
		u32 h, len;
		int off;

		if (p[3] != 0xC0 || ntk_get_le(p + 6, 2) != hook)
			continue;
		h = hdr_size(p);
		len = recs[i].size - h;
		off = at < 0 ? (int)len + at : at;
		if (off < 0 || off + 8 > len || ntk_get_le(p + h + off, 8) != key)
			continue;
		hits++;
		found = p + h;
		*r = &recs[i];
	}
	KUNIT_EXPECT_EQ_MSG(test, hits, 1, "records of HookId 0x%04x", hook);
	return hits == 1 ? found : NULL;
}

/* ---- DiskIo ---- */

struct fake_rq {
	struct request rq;
	struct bio bio;
	struct request_queue q;
	struct gendisk disk;
};

static struct request *fake_rq(struct kunit *test, blk_opf_t opf, sector_t pos, u32 bytes)
{
	struct fake_rq *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->disk.major = 7;
	f->disk.first_minor = 300;	/* past 255: new_encode_dev()'s high bits */
	f->q.disk = &f->disk;
	f->rq.q = &f->q;
	f->rq.cmd_flags = opf;
	f->rq.__sector = pos;
	f->rq.__data_len = bytes;
	/* req_get_ioprio(): the bio's in 6.12, the request's own in 6.1. */
	f->bio.bi_ioprio = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_RT, 0);
	f->rq.bio = &f->bio;
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
	f->rq.ioprio = f->bio.bi_ioprio;
#endif
	return &f->rq;
}

#define DISK_NUMBER	new_encode_dev(MKDEV(7, 300))

static void disk_test(struct kunit *test)
{
	struct ntk_session *k = start_kl(test, NTTRACE_EVENT_TRACE_FLAG_DISK_IO |
					 NTTRACE_EVENT_TRACE_FLAG_DISK_IO_INIT);
	struct request *rd = fake_rq(test, REQ_OP_READ, 8, 4096);
	struct request *wr = fake_rq(test, REQ_OP_WRITE, 100, 8192);
	struct request *fl = fake_rq(test, REQ_OP_FLUSH | REQ_PREFLUSH, 0, 0);
	struct request *dis = fake_rq(test, REQ_OP_DISCARD, 0, 4096);
	struct request *lost = fake_rq(test, REQ_OP_READ, 16, 512);
	long unmatched = atomic_long_read(&nt_disk_unmatched);
	long other = atomic_long_read(&nt_disk_other);
	const struct ntk_record *r;
	struct ntk_record *recs;
	unsigned int n, tags;
	const u8 *p;

	tags = nt_disk_tags_count();
	KUNIT_EXPECT_EQ(test, nt_disk_number(rd), 0x10072c);	/* 7:300 */
	KUNIT_EXPECT_EQ(test, nt_disk_irp_flags(rd), 0x1 | 0x4 | 0x100 | 4 << 17);
	KUNIT_EXPECT_EQ(test, nt_disk_irp_flags(wr), 0x1 | 0x200 | 4 << 17);

	nt_disk_issue(NULL, rd);
	nt_disk_issue_init(NULL, rd);
	nt_disk_issue(NULL, wr);
	nt_disk_issue_init(NULL, wr);
	nt_disk_issue(NULL, fl);
	nt_disk_issue_init(NULL, fl);
	nt_disk_issue(NULL, dis);
	nt_disk_issue_init(NULL, dis);
	KUNIT_EXPECT_GE(test, nt_disk_tags_count(), tags + 3);
	nt_disk_complete(NULL, rd, BLK_STS_OK, 4096);
	/* A write in two parts: the entry stays for the second. */
	nt_disk_complete(NULL, wr, BLK_STS_OK, 4096);
	wr->__sector += 8;
	wr->__data_len = 4096;
	nt_disk_complete(NULL, wr, BLK_STS_OK, 4096);
	nt_disk_complete(NULL, fl, BLK_STS_OK, 0);
	nt_disk_complete(NULL, dis, BLK_STS_OK, 4096);
	nt_disk_complete(NULL, lost, BLK_STS_OK, 512);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&nt_disk_unmatched), unmatched + 1);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&nt_disk_other), other + 2);

	n = ntk_collect(test, k, &recs);

	/* ReadInit: a full header with the issuer's IDs, Irp, IssuingThreadId. */
	p = find(test, recs, n, 0x010C, 0, nt_kernel_key(rd), &r);
	if (p) {
		KUNIT_EXPECT_EQ(test, r->size, 0x20 + 12);
		KUNIT_EXPECT_EQ(test, r->data[2], NTTRACE_TRACE_HEADER_TYPE_SYSTEM64);
		KUNIT_EXPECT_EQ(test, r->data[0], 3);	/* version */
		KUNIT_EXPECT_EQ(test, ntk_get_le(r->data + 8, 4), current->pid);
		KUNIT_EXPECT_EQ(test, ntk_get_le(r->data + 12, 4), current->tgid);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 8, 4), current->pid);
	}
	p = find(test, recs, n, 0x010D, 0, nt_kernel_key(wr), &r);
	p = find(test, recs, n, 0x010F, 0, nt_kernel_key(fl), &r);

	/* Read: PERFINFO, version 3, every field. */
	p = find(test, recs, n, 0x010A, 32, nt_kernel_key(rd), &r);
	if (p) {
		KUNIT_EXPECT_EQ(test, r->size, 0x10 + 52);
		KUNIT_EXPECT_EQ(test, r->data[2], NTTRACE_TRACE_HEADER_TYPE_PERFINFO64);
		KUNIT_EXPECT_EQ(test, r->data[0], 3);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p, 4), DISK_NUMBER);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 4, 4), 0x1 | 0x4 | 0x100 | 4 << 17);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 8, 4), 4096);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 12, 4), 0);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 16, 8), 8 * 512);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 24, 8), 0);
		KUNIT_EXPECT_GT(test, ntk_get_le(p + 40, 8), 0);
		KUNIT_EXPECT_LT(test, ntk_get_le(p + 40, 8), 10ULL * NSEC_PER_SEC);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 48, 4), current->pid);
	}
	/* The write's two parts: two Writes, the second at its offset. */
	{
		unsigned int i, parts = 0;

		for (i = 0; i < n; i++) {
			const u8 *q = recs[i].data + 0x10;

			if (ntk_get_le(recs[i].data + 6, 2) != 0x010B ||
			    ntk_get_le(q + 32, 8) != nt_kernel_key(wr))
				continue;
			KUNIT_EXPECT_EQ(test, ntk_get_le(q + 8, 4), 4096);
			KUNIT_EXPECT_EQ(test, ntk_get_le(q + 16, 8), (100 + 8 * parts) * 512);
			KUNIT_EXPECT_EQ(test, ntk_get_le(q + 48, 4), current->pid);
			parts++;
		}
		KUNIT_EXPECT_EQ(test, parts, 2);
	}
	/* FlushBuffers: DiskNumber, IrpFlags, HighResResponseTime, Irp, tid. */
	p = find(test, recs, n, 0x010E, 16, nt_kernel_key(fl), &r);
	if (p) {
		KUNIT_EXPECT_EQ(test, r->size, 0x10 + 28);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p, 4), DISK_NUMBER);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 4, 4), 0x1 | 0x4 | 4 << 17);
		KUNIT_EXPECT_GT(test, ntk_get_le(p + 8, 8), 0);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 24, 4), current->pid);
	}
	/* A completion whose issue was not seen: thread 0, time 0. */
	p = find(test, recs, n, 0x010A, 32, nt_kernel_key(lost), &r);
	if (p) {
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 40, 8), 0);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 48, 4), 0);
	}

	/* An issue left in the table: gone once the source is unhooked. */
	nt_disk_issue(NULL, lost);
	KUNIT_EXPECT_GE(test, nt_disk_tags_count(), 1);
	ntk_stop(k);
	KUNIT_EXPECT_EQ(test, nt_disk_tags_count(), 0);
}

/* ---- TcpIp ---- */

static struct sock *fake_sk(struct kunit *test, int family, u16 sport, u16 dport)
{
	struct tcp_sock *tp = kunit_kzalloc(test, sizeof(*tp), GFP_KERNEL);
	struct sock *sk;
	struct inet_sock *inet;

	KUNIT_ASSERT_NOT_NULL(test, tp);
	sk = (struct sock *)tp;
	inet = inet_sk(sk);
	sk->sk_family = family;
	sk->sk_protocol = IPPROTO_TCP;
	sk->sk_type = SOCK_STREAM;
	write_pnet(&sk->sk_net, &init_net);
	inet->inet_daddr = htonl(0x0A000001);
	inet->inet_saddr = htonl(0x0A000002);
	inet->inet_dport = htons(dport);
	inet->inet_sport = htons(sport);
	inet->inet_num = sport;
	tp->mss_cache = 1460;
	tp->rx_opt.sack_ok = 1;
	tp->rx_opt.tstamp_ok = 1;
	tp->rx_opt.wscale_ok = 1;
	tp->rx_opt.rcv_wscale = 7;
	tp->rx_opt.snd_wscale = 9;
	tp->rcv_wnd = 65483;
	tp->write_seq = 1000;
	tp->copied_seq = 5000;
	return sk;
}

/* The common start: PID, size, daddr, saddr, dport, sport (IPv4). */
static void expect_ends4(struct kunit *test, const u8 *p, u32 pid, u32 size,
			 u16 sport, u16 dport)
{
	KUNIT_EXPECT_EQ(test, ntk_get_le(p, 4), pid);
	KUNIT_EXPECT_EQ(test, ntk_get_le(p + 4, 4), size);
	KUNIT_EXPECT_EQ(test, memcmp(p + 8, "\x0a\0\0\x01\x0a\0\0\x02", 8), 0);
	KUNIT_EXPECT_EQ(test, p[16] << 8 | p[17], dport);	/* network order */
	KUNIT_EXPECT_EQ(test, p[18] << 8 | p[19], sport);
}

struct connector {
	struct sock *sk;
	struct completion done;
	u32 tgid;
};

static int connect_thread(void *arg)
{
	struct connector *c = arg;

	c->tgid = current->tgid;
	nt_tcp_state(NULL, c->sk, TCP_CLOSE, TCP_SYN_SENT);
	complete(&c->done);
	return 0;
}

static void tcp_test(struct kunit *test)
{
	struct ntk_session *k = start_kl(test, NTTRACE_EVENT_TRACE_FLAG_NETWORK_TCPIP);
	struct sock *cl = fake_sk(test, AF_INET, 40000, 80);
	struct sock *ls = fake_sk(test, AF_INET, 8080, 0);
	struct sock *ac = fake_sk(test, AF_INET, 8080, 41000);
	struct sock *v6 = fake_sk(test, AF_INET6, 40001, 443);
	struct sock *mapped = fake_sk(test, AF_INET6, 40002, 443);
	struct sock *udp = fake_sk(test, AF_INET, 53, 53);
	struct sk_buff *skb = kunit_kzalloc(test, sizeof(*skb), GFP_KERNEL);
	static const u8 a6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	struct connector c = { .sk = cl };
	const struct ntk_record *r;
	struct task_struct *t;
	struct ntk_record *recs;
	u32 me = current->tgid;
	unsigned int n, tags;
	const u8 *p;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	tags = nt_tcp_tags_count();
	udp->sk_protocol = IPPROTO_UDP;
	memcpy(&v6->sk_v6_daddr, a6, 16);
	memcpy(&v6->sk_v6_rcv_saddr, a6, 16);
	v6->sk_v6_rcv_saddr.s6_addr[15] = 2;
	ipv6_addr_set_v4mapped(htonl(0x0A000001), &mapped->sk_v6_daddr);

	/* connect() in another task: Connect carries its PID, not ours. */
	init_completion(&c.done);
	t = kthread_run(connect_thread, &c, "kl_io_connect");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wait_for_completion(&c.done);
	KUNIT_EXPECT_NE(test, c.tgid, me);
	nt_tcp_state(NULL, cl, TCP_SYN_SENT, TCP_ESTABLISHED);
	nt_tcp_send(NULL, cl, 100, 0);
	nt_tcp_send(NULL, cl, -11, 0);			/* an error: no Send */
	nt_tcp_recv(NULL, cl, 50, MSG_PEEK);		/* a peek: no Recv */
	nt_tcp_recv(NULL, cl, 50, 0);
	skb->len = 1000;
	TCP_SKB_CB(skb)->seq = 777;
	NT_TCP_PROBE_RETRANSMIT(cl, skb);
	nt_tcp_state(NULL, cl, TCP_ESTABLISHED, TCP_CLOSE_WAIT);	/* none */
	nt_tcp_state(NULL, cl, TCP_CLOSE_WAIT, TCP_LAST_ACK);
	nt_tcp_state(NULL, cl, TCP_LAST_ACK, TCP_CLOSE);

	/* listen(), then a connection accepted on its port. */
	nt_tcp_state(NULL, ls, TCP_CLOSE, TCP_LISTEN);
	nt_tcp_state(NULL, ac, TCP_LISTEN, TCP_SYN_RECV);
	nt_tcp_state(NULL, ac, TCP_SYN_RECV, TCP_ESTABLISHED);
	nt_tcp_state(NULL, ac, TCP_ESTABLISHED, TCP_FIN_WAIT1);
	nt_tcp_state(NULL, ac, TCP_FIN_WAIT1, TCP_FIN_WAIT2);
	nt_tcp_state(NULL, ac, TCP_FIN_WAIT2, TCP_CLOSE);
	nt_tcp_state(NULL, ls, TCP_LISTEN, TCP_CLOSE);
	KUNIT_EXPECT_EQ(test, nt_tcp_tags_count(), tags);

	nt_tcp_send(NULL, v6, 10, 0);
	nt_tcp_send(NULL, mapped, 20, 0);
	nt_tcp_send(NULL, udp, 30, 0);
	nt_tcp_state(NULL, udp, TCP_CLOSE, TCP_SYN_SENT);
	KUNIT_EXPECT_EQ(test, nt_tcp_tags_count(), tags);

	n = ntk_collect(test, k, &recs);

	p = find(test, recs, n, 0x060C, -8, nt_kernel_key(cl), &r);
	if (p) {
		KUNIT_EXPECT_EQ(test, r->size, 0x10 + 48);
		KUNIT_EXPECT_EQ(test, r->data[2], NTTRACE_TRACE_HEADER_TYPE_PERFINFO64);
		KUNIT_EXPECT_EQ(test, r->data[0], 2);
		expect_ends4(test, p, c.tgid, 0, 40000, 80);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 20, 2), 1460);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 22, 2), 1);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 24, 2), 1);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 26, 2), 1);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 28, 4), 65483);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 32, 2), 7);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 34, 2), 9);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 36, 4), 0);
	}
	p = find(test, recs, n, 0x060A, -8, nt_kernel_key(cl), &r);
	if (p) {
		KUNIT_EXPECT_EQ(test, r->size, 0x10 + 40);
		expect_ends4(test, p, me, 100, 40000, 80);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 20, 8), 0);	/* times */
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 28, 4), 900);
	}
	p = find(test, recs, n, 0x060B, -8, nt_kernel_key(cl), &r);
	if (p) {
		KUNIT_EXPECT_EQ(test, r->size, 0x10 + 32);
		expect_ends4(test, p, me, 50, 40000, 80);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 20, 4), 4950);
	}
	p = find(test, recs, n, 0x060E, -8, nt_kernel_key(cl), &r);
	if (p) {
		expect_ends4(test, p, me, 1000, 40000, 80);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 20, 4), 777);
	}
	/* One Disconnect, at CLOSE_WAIT -> LAST_ACK. */
	p = find(test, recs, n, 0x060D, -8, nt_kernel_key(cl), &r);
	if (p)
		expect_ends4(test, p, me, 0, 40000, 80);

	/* Accept: the listener's owner (us), the accepted socket's ends. */
	p = find(test, recs, n, 0x060F, -8, nt_kernel_key(ac), &r);
	if (p) {
		expect_ends4(test, p, me, 0, 8080, 41000);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 20, 2), 1460);
	}
	p = find(test, recs, n, 0x060D, -8, nt_kernel_key(ac), &r);

	/* IPv6: SendIPV6 (26), 16-byte addresses; v4-mapped: SendIPV4. */
	p = find(test, recs, n, 0x061A, -8, nt_kernel_key(v6), &r);
	if (p) {
		KUNIT_EXPECT_EQ(test, r->size, 0x10 + 64);
		KUNIT_EXPECT_EQ(test, ntk_get_le(p + 4, 4), 10);
		KUNIT_EXPECT_EQ(test, memcmp(p + 8, a6, 16), 0);
		KUNIT_EXPECT_EQ(test, p[8 + 16 + 15], 2);
		KUNIT_EXPECT_EQ(test, p[40] << 8 | p[41], 443);
		KUNIT_EXPECT_EQ(test, p[42] << 8 | p[43], 40001);
	}
	p = find(test, recs, n, 0x060A, -8, nt_kernel_key(mapped), &r);
	if (p)
		expect_ends4(test, p, me, 20, 40002, 443);
	{
		unsigned int i;

		for (i = 0; i < n; i++)
			KUNIT_EXPECT_NE(test, ntk_get_le(recs[i].data + recs[i].size - 8, 8),
					nt_kernel_key(udp));
	}
	ntk_stop(k);
}

/* A connection the source never saw begin: cleared tables, PID from the task. */
static void tcp_unhooked_test(struct kunit *test)
{
	struct ntk_session *k = start_kl(test, NTTRACE_EVENT_TRACE_FLAG_NETWORK_TCPIP);
	struct sock *sk = fake_sk(test, AF_INET, 40010, 80);
	long unowned = atomic_long_read(&nt_tcp_unowned);
	unsigned int tags = nt_tcp_tags_count();

	nt_tcp_state(NULL, sk, TCP_CLOSE, TCP_SYN_SENT);
	KUNIT_EXPECT_EQ(test, nt_tcp_tags_count(), tags + 1);
	ntk_stop(k);
	/* Unhooked: the table is empty. */
	KUNIT_EXPECT_EQ(test, nt_tcp_tags_count(), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&nt_tcp_unowned), unowned);
}

/* ---- the process rundown ---- */

static int helper_init(struct subprocess_info *info, struct cred *new)
{
	struct pid **pid = info->data;

	*pid = get_pid(task_pid(current));
	return 0;
}

/*
 * A process whose mmap_lock is held for writing (by the test, as a process
 * stalling its own lock would hold it) does not hold a system logger's
 * start up: the rundown writes its Process/DCStart, named after its
 * program, without a command line, and counts it. It waited for the lock
 * before, for ever.
 */
static void rundown_locked_mm_test(struct kunit *test)
{
	char *argv[4] = { "/bin/busybox", "sleep", "1000000", NULL };
	char *envp[2] = { "PATH=/bin", NULL };
	static const u8 tail[] = "busybox\0\0\0\0\0\0\0";
	struct subprocess_info *sub;
	struct task_struct *task;
	struct ntk_record *recs;
	struct ntk_session *k;
	struct pid *pid = NULL;
	struct mm_struct *mm;
	long unread;
	int n, i, hits = 0;

	sub = call_usermodehelper_setup(argv[0], argv, envp, GFP_KERNEL, helper_init, NULL,
					&pid);
	KUNIT_ASSERT_NOT_NULL(test, sub);
	KUNIT_ASSERT_EQ(test, call_usermodehelper_exec(sub, UMH_WAIT_EXEC), 0);
	KUNIT_ASSERT_NOT_NULL(test, pid);
	task = get_pid_task(pid, PIDTYPE_PID);
	mm = task ? get_task_mm(task) : NULL;
	if (!mm) {
		KUNIT_FAIL(test, "the helper process has no mm");
		goto out;
	}
	unread = atomic_long_read(&nt_kl_rundown_unread);

	{
		struct nttrace_logger_info info;

		ntk_info(&info, NTTRACE_KERNEL_LOGGER_NAME);
		info.group_mask[0] = NTTRACE_EVENT_TRACE_FLAG_PROCESS;
		k = ntk_start_busy(test, &info, mm);
	}
	KUNIT_EXPECT_GE(test, atomic_long_read(&nt_kl_rundown_unread), unread + 1);

	n = ntk_collect(test, k, &recs);
	for (i = 0; i < n; i++) {
		const u8 *p = recs[i].data;
		u32 h = hdr_size(p), len = recs[i].size - h;

		if (ntk_get_le(p + 6, 2) != NTR_SR_PROCESS_DCSTART || len < 0x30 ||
		    ntk_get_le(p + h + 8, 4) != pid_nr(pid))
			continue;
		hits++;
		/*
		 * ImageFileName "busybox" and its NUL, an empty CommandLine,
		 * two empty strings: the record's last 14 bytes.
		 */
		KUNIT_EXPECT_EQ(test, memcmp(p + h + len - (sizeof(tail) - 1), tail,
					     sizeof(tail) - 1), 0);
	}
	KUNIT_EXPECT_EQ(test, hits, 1);
	ntk_stop(k);
	mmput(mm);
out:
	kill_pid(pid, SIGKILL, 1);
	if (task)
		put_task_struct(task);
	put_pid(pid);
}

static struct kunit_case nttrace_kl_io_cases[] = {
	KUNIT_CASE(tags_test),
	KUNIT_CASE(fair_tags_test),
	KUNIT_CASE(disk_test),
	KUNIT_CASE(tcp_test),
	KUNIT_CASE(tcp_unhooked_test),
	KUNIT_CASE(rundown_locked_mm_test),
	{}
};

static struct kunit_suite nttrace_kl_io_suite = {
	.name = "nttrace_kl_io",
	.test_cases = nttrace_kl_io_cases,
};
kunit_test_suite(nttrace_kl_io_suite);
