/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The disk and TCP/IP sources (kl_disk.c, kl_tcpip.c): their
 * counters, and the probes the KUnit suite (tests/kunit/kl_io_test.c)
 * calls directly; and the counter of the process rundown it reads.
 */
#ifndef NTTRACE_KL_IO_H
#define NTTRACE_KL_IO_H

#include <linux/atomic.h>
#include <linux/types.h>
#include <linux/version.h>

struct request;
struct sock;
struct sk_buff;

extern atomic_long_t nt_disk_unmatched, nt_disk_other, nt_tcp_unowned;
/* kl_process.c: rundown records of a process whose memory waited. */
extern atomic_long_t nt_kl_rundown_unread;

/*
 * The probes and helpers below are the sources' own (static without
 * KUnit); the suite calls them with made-up requests and sockets. Each
 * probe is the tracepoint's of its name (kl_disk.c, kl_tcpip.c say
 * which), with the source as @data.
 */
#if IS_ENABLED(CONFIG_KUNIT)
#include <linux/blk_types.h>

u32 nt_disk_irp_flags(struct request *rq);
u32 nt_disk_number(struct request *rq);
void nt_disk_issue(void *data, struct request *rq);
void nt_disk_issue_init(void *data, struct request *rq);
void nt_disk_complete(void *data, struct request *rq, blk_status_t error,
		      unsigned int nr_bytes);
unsigned int nt_disk_tags_count(void);

void nt_tcp_state(void *data, const struct sock *sk, const int oldstate,
		  const int newstate);
void nt_tcp_send(void *data, struct sock *sk, int ret, int flags);
void nt_tcp_recv(void *data, struct sock *sk, int ret, int flags);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
void nt_tcp_retransmit(void *data, const struct sock *sk, const struct sk_buff *skb,
		       int err);
/* A retransmission sent, as the tests call the probe. */
#define NT_TCP_PROBE_RETRANSMIT(sk, skb)	nt_tcp_retransmit(NULL, sk, skb, 0)
#else
void nt_tcp_retransmit(void *data, const struct sock *sk, const struct sk_buff *skb);
#define NT_TCP_PROBE_RETRANSMIT(sk, skb)	nt_tcp_retransmit(NULL, sk, skb)
#endif
unsigned int nt_tcp_tags_count(void);
#endif

#endif /* NTTRACE_KL_IO_H */
