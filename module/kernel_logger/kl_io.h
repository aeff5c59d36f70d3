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
 * probe's @data is the source, as its tracepoint passes it.
 */
#if IS_ENABLED(CONFIG_KUNIT)
#include <linux/blk_types.h>

/**
 * nt_disk_irp_flags() - the IrpFlags a disk event of a request carries
 * @rq: the request
 *
 * Return: IRP_NOCACHE, the sync, read and write bits, and the I/O
 * priority by the request's I/O priority class.
 */
u32 nt_disk_irp_flags(struct request *rq);

/**
 * nt_disk_number() - the DiskNumber of a request's disk
 * @rq: the request
 *
 * Return: the number.
 */
u32 nt_disk_number(struct request *rq);

/**
 * nt_disk_issue() - block_rq_issue's probe for DISK_IO
 * @data: the source
 * @rq: the request issued
 *
 * Remembers who issued @rq, and when, for its completion's event.
 */
void nt_disk_issue(void *data, struct request *rq);

/**
 * nt_disk_issue_init() - block_rq_issue's probe for DISK_IO_INIT
 * @data: the source
 * @rq: the request issued
 *
 * Writes ReadInit, WriteInit or FlushInit.
 */
void nt_disk_issue_init(void *data, struct request *rq);

/**
 * nt_disk_complete() - block_rq_complete's probe
 * @data: the source
 * @rq: the request
 * @error: its status
 * @nr_bytes: the bytes completed
 *
 * Writes Read, Write or FlushBuffers.
 */
void nt_disk_complete(void *data, struct request *rq, blk_status_t error,
		      unsigned int nr_bytes);

/**
 * nt_disk_tags_count() - the disk tag table's entries in use, for the tests
 *
 * Return: their number.
 */
unsigned int nt_disk_tags_count(void);

/**
 * nt_tcp_state() - inet_sock_set_state's probe
 * @data: the source
 * @sk: the socket
 * @oldstate: its TCP state before
 * @newstate: its TCP state now
 *
 * Writes the connection's Connect, Accept or Disconnect event, and tags
 * listeners and connections with the process that owns them.
 */
void nt_tcp_state(void *data, const struct sock *sk, const int oldstate,
		  const int newstate);

/**
 * nt_tcp_send() - sock_send_length's probe
 * @data: the source
 * @sk: the socket
 * @ret: bytes sent, or an error
 * @flags: the send's flags
 *
 * Writes a Send event for a TCP socket.
 */
void nt_tcp_send(void *data, struct sock *sk, int ret, int flags);

/**
 * nt_tcp_recv() - sock_recv_length's probe
 * @data: the source
 * @sk: the socket
 * @ret: bytes received, or an error
 * @flags: the receive's flags
 *
 * Writes a Recv event for a TCP socket.
 */
void nt_tcp_recv(void *data, struct sock *sk, int ret, int flags);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
/**
 * nt_tcp_retransmit() - tcp_retransmit_skb's probe
 * @data: the source
 * @sk: the socket
 * @skb: the segment retransmitted
 * @err: the retransmission's error
 *
 * Writes a Retransmit event.
 */
void nt_tcp_retransmit(void *data, const struct sock *sk, const struct sk_buff *skb,
		       int err);
/* A retransmission sent, as the tests call the probe. */
#define NT_TCP_PROBE_RETRANSMIT(sk, skb)	nt_tcp_retransmit(NULL, sk, skb, 0)
#else
/**
 * nt_tcp_retransmit() - tcp_retransmit_skb's probe
 * @data: the source
 * @sk: the socket
 * @skb: the segment retransmitted
 *
 * Writes a Retransmit event.
 */
void nt_tcp_retransmit(void *data, const struct sock *sk, const struct sk_buff *skb);
#define NT_TCP_PROBE_RETRANSMIT(sk, skb)	nt_tcp_retransmit(NULL, sk, skb)
#endif

/**
 * nt_tcp_tags_count() - the TCP tag table's entries in use, for the tests
 *
 * Return: their number.
 */
unsigned int nt_tcp_tags_count(void);
#endif

#endif /* NTTRACE_KL_IO_H */
