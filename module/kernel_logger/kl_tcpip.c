// SPDX-License-Identifier: GPL-2.0
/*
 * EVENT_TRACE_FLAG_NETWORK_TCPIP: the TcpIp events (group 0x06, version
 * 2; common/sysrec.h struct ntr_sr_tcp) of TCP over IPv4 and IPv6, from
 * Linux's stable socket tracepoints ([MS tcpip-sendipv4/6],
 * [MS tcpip-typegroup1-4]: Microsoft's TcpIp_* pages, desktop-src/ETW/ of
 * MicrosoftDocs/win32).
 *
 * The tracepoints (include/trace/events/sock.h and tcp.h):
 * - sock:inet_sock_set_state(sk, oldstate, newstate), 6.1 and 6.12: every
 *   TCP state change, the socket locked by its caller. In connect(),
 *   listen() and close() it runs in the caller's task; a change a packet
 *   makes (SYN_SENT or SYN_RECV to ESTABLISHED, a reset) in softirq.
 * - sock:sock_send_length(sk, ret, flags) and sock:sock_recv_length(sk,
 *   ret, flags): the end of every sendmsg and recvmsg, in the caller's
 *   task, @sk held by its struct socket. Hooked on Linux 6.5 and later,
 *   which have them: the source built for an older kernel (6.1) has no
 *   Send and Recv events.
 * - tcp:tcp_retransmit_skb(sk, skb), 6.1 and 6.12: a segment sent again,
 *   @skb in the socket's retransmit queue, the socket locked; softirq (a
 *   timer) or task. Linux 6.17 added an argument, err, and fires it for a
 *   retransmission that failed too (err not 0): no event for those.
 * The probes' prototypes are checked against the tracepoints' (NT_KHOOK()).
 * The probes read the socket's (and the segment's) fields, plain memory
 * that the tracepoint's caller keeps alive; only TCP sockets of AF_INET
 * and AF_INET6 (sk_protocol, sk_type, sk_family, which every socket has)
 * are read further as struct tcp_sock. They take raw spinlocks with
 * interrupts off (kl_tags.c), allocate nothing, never sleep.
 *
 * The events and their moments:
 * - Connect: SYN_SENT -> ESTABLISHED. Accept: SYN_RECV -> ESTABLISHED, on
 *   the new (accepted) socket.
 * - Disconnect: once per established connection, when it leaves
 *   ESTABLISHED or CLOSE_WAIT for anything but CLOSE_WAIT: this side
 *   closes (ESTABLISHED -> FIN_WAIT1, or CLOSE_WAIT -> LAST_ACK when the
 *   peer closed first), or the connection is reset or aborted (-> CLOSE).
 *   The peer's FIN alone (ESTABLISHED -> CLOSE_WAIT) is no disconnect: the
 *   application may still send.
 * - Send, Recv: sock_send_length and sock_recv_length with a positive
 *   byte count; a MSG_PEEK receive takes nothing from the socket and is
 *   no Recv. Both fire in sock_sendmsg() and sock_recvmsg(): data that
 *   leaves a socket without recvmsg (splice() from it, tcp_read_sock())
 *   has no Recv. Retransmit: tcp_retransmit_skb, a retransmission sent.
 * - IPv6 types (26 and up) for AF_INET6 sockets, but for an IPv4-mapped
 *   peer (::ffff:a.b.c.d), which is IPv4 on the wire: IPv4 events with
 *   the IPv4 addresses.
 *
 * Each field:
 * - PID: the owning process, as the initial PID namespace numbers it.
 *   Send and Recv: the caller's. Connect: the process that called
 *   connect(), remembered at CLOSE -> SYN_SENT (which runs in its task)
 *   in a tag table keyed by the socket (kl_tags.h; the socket's
 *   entry stays until the socket reaches CLOSE). Accept: the process that
 *   called listen() on the listening socket: remembered at -> LISTEN in a
 *   second table keyed by the network namespace and local port (the
 *   accepted socket has the listener's port; with several listeners on one
 *   port, SO_REUSEPORT, the last one's), and kept for the accepted socket
 *   in the first. Disconnect and Retransmit: the task's, in task context;
 *   else the socket's entry. Where none is known (the table was full, the
 *   source hooked after the connect or listen): 0, counted in
 *   nttrace.kl_tcp_unowned.
 * - size: the bytes sent or received (Send, Recv), the segment's length
 *   (Retransmit: skb->len); 0 for Connect, Accept, Disconnect.
 * - daddr, dport: the peer's end; saddr, sport: this socket's end
 *   (inet_daddr / sk_v6_daddr, inet_saddr / sk_v6_rcv_saddr), for every
 *   event whichever way its data goes.
 * - startime, endtime (Send): 0. The tracepoint fires once, after the
 *   send, and the pages do not say what unit Windows counts them in.
 * - mss, sackopt, tsopt, wsopt, rcvwin, rcvwinscale, sndwinscale (Connect,
 *   Accept): tp->mss_cache, whether SACK, time stamps and window scaling
 *   were agreed (rx_opt.sack_ok, tstamp_ok, wscale_ok: 1 or 0), rcv_wnd,
 *   rx_opt.rcv_wscale and snd_wscale.
 * - seqnum: Send, Recv: the sequence number of the first byte (write_seq
 *   or copied_seq, read after the call without the socket's lock, less
 *   the bytes: exact but for concurrent calls on one socket). Retransmit:
 *   the segment's (TCP_SKB_CB(skb)->seq). Connect, Accept, Disconnect: 0,
 *   no segment being theirs.
 * - connid: nt_kernel_key(sk), one value per socket, no kernel address.
 * The tables are bounded (2048 connections, 128 listening ports) and
 * shared out among users (kl_tags.h, a fair table: each entry's
 * owner the socket's user, sk_uid): one user's sockets cannot fill them
 * so that another user's connections lose their process. A set that is
 * full gives a new entry the oldest of the user holding most of it, if
 * that user holds at least two more entries of it than the new entry's
 * (nttrace.kl_tcp_tags_evicted, kl_tcp_listeners_evicted), else does not
 * keep it (kl_tcp_tags_full, kl_tcp_listeners_full); the events of a
 * connection not kept get PID 0 where the task does not tell. An entry
 * lives as long as its socket (taken at CLOSE). Both are emptied when the
 * source is unhooked.
 */
#include <kunit/visibility.h>
#include <linux/in.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/net.h>
#include <linux/sched.h>
#include <linux/socket.h>
#include <linux/tcp.h>
#include <linux/timekeeping.h>
#include <linux/uidgid.h>
#include <linux/version.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include <net/tcp.h>
#include <trace/events/sock.h>
#include <trace/events/tcp.h>

#include "ksource.h"
#include "kl_io.h"
#include "kl_tags.h"

NT_KCLASS(tcp)

NT_KTAGS_FAIR(nt_tcp_conns, 8);
NT_KTAGS_FAIR(nt_tcp_listeners, 4);

atomic_long_t nt_tcp_unowned = ATOMIC_LONG_INIT(0);
EXPORT_SYMBOL_IF_KUNIT(nt_tcp_unowned);

NT_KCOUNTER(kl_tcp_unowned, nt_tcp_unowned,
	    "TcpIp events written with PID 0: the owning process not known");
NT_KCOUNTER(kl_tcp_tags_full, nt_tcp_conns.full,
	    "TCP connections whose process could not be kept: the table full");
NT_KCOUNTER(kl_tcp_listeners_full, nt_tcp_listeners.full,
	    "TCP listening ports whose process could not be kept: the table full");
NT_KCOUNTER(kl_tcp_tags_evicted, nt_tcp_conns.evicted,
	    "TCP connections whose process was forgotten for another user's: their user held more of the table");
NT_KCOUNTER(kl_tcp_listeners_evicted, nt_tcp_listeners.evicted,
	    "TCP listening ports whose process was forgotten for another user's: their user held more of the table");

/* The TcpIp types of IPv4 (IPv6: 16 more). */
#define NT_TCP_SEND		10
#define NT_TCP_RECV		11
#define NT_TCP_CONNECT		12
#define NT_TCP_DISCONNECT	13
#define NT_TCP_RETRANSMIT	14
#define NT_TCP_ACCEPT		15
#define NT_TCP_V6		16

static bool nt_tcp_sock(const struct sock *sk)
{
	return sk && sk->sk_protocol == IPPROTO_TCP && sk->sk_type == SOCK_STREAM &&
	       (sk->sk_family == AF_INET || sk->sk_family == AF_INET6);
}

/* A tag's owner (kl_tags.h): @sk's user, as the initial namespace numbers it. */
static u32 nt_tcp_uid(const struct sock *sk)
{
	return from_kuid_munged(&init_user_ns, READ_ONCE(sk->sk_uid));
}

/* Remember @pid as @sk's owner in @t, at (@obj, @sub). */
static void nt_tcp_tag(struct nt_ktags *t, const struct sock *sk, const void *obj, u32 sub,
		       u32 pid)
{
	nt_ktags_put(t, obj, sub, pid, ktime_get_mono_fast_ns(), nt_tcp_uid(sk));
}

/* The listeners' table: the namespace and local port of @sk. */
static const void *nt_tcp_net(const struct sock *sk)
{
	return sock_net(sk);
}

/* The addresses and ports of @sk into @t, and @t's type from @type4. */
static void nt_tcp_ends(struct ntr_sr_tcp *t, const struct sock *sk, u8 type4)
{
	const struct inet_sock *inet = inet_sk(sk);

	t->type = type4;
	t->dport = ntohs(inet->inet_dport);
	t->sport = ntohs(inet->inet_sport);
#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6 && !ipv6_addr_v4mapped(&sk->sk_v6_daddr)) {
		t->type += NT_TCP_V6;
		memcpy(t->daddr, &sk->sk_v6_daddr, 16);
		memcpy(t->saddr, &sk->sk_v6_rcv_saddr, 16);
		return;
	}
#endif
	memcpy(t->daddr, &inet->inet_daddr, 4);
	memcpy(t->saddr, &inet->inet_saddr, 4);
}

static void nt_tcp_emit(struct ntr_sr_tcp *t, const struct sock *sk)
{
	t->connid = nt_kernel_key(sk);
	if (!t->pid)
		atomic_long_inc(&nt_tcp_unowned);
	NT_KEVENT_OF(NTR_SR_HOOK(0x06, t->type), 0, 0, 0, tcp, t);
}

/* @sk's owner: the task's in task context (if @task_first), else its entry. */
static u32 nt_tcp_owner(const struct sock *sk, bool task_first)
{
	u32 pid;
	u64 time;

	if (task_first && in_task())
		return current->tgid;
	if (nt_ktags_get(&nt_tcp_conns, sk, 0, false, &pid, &time))
		return pid;
	return in_task() ? current->tgid : 0;
}

/* Connect, Accept: the options the handshake agreed. */
static void nt_tcp_options(struct ntr_sr_tcp *t, const struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	t->mss = tp->mss_cache;
	t->sackopt = !!tp->rx_opt.sack_ok;
	t->tsopt = tp->rx_opt.tstamp_ok;
	t->wsopt = tp->rx_opt.wscale_ok;
	t->rcvwin = tp->rcv_wnd;
	t->rcvwinscale = tp->rx_opt.rcv_wscale;
	t->sndwinscale = tp->rx_opt.snd_wscale;
}

VISIBLE_IF_KUNIT void nt_tcp_state(void *data, const struct sock *sk,
				   const int oldstate, const int newstate)
{
	struct ntr_sr_tcp t = {};
	u16 port;
	u64 time;

	if (!nt_tcp_sock(sk))
		return;
	port = inet_sk(sk)->inet_num;
	if (newstate == TCP_LISTEN) {
		nt_tcp_tag(&nt_tcp_listeners, sk, nt_tcp_net(sk), port, current->tgid);
		return;
	}
	if (oldstate == TCP_LISTEN && newstate == TCP_CLOSE) {
		nt_ktags_get(&nt_tcp_listeners, nt_tcp_net(sk), port, true, &t.pid, &time);
		return;
	}
	if (oldstate == TCP_CLOSE && newstate == TCP_SYN_SENT) {
		/* connect(): its task is the owner. */
		nt_tcp_tag(&nt_tcp_conns, sk, sk, 0, current->tgid);
		return;
	}
	if (newstate == TCP_ESTABLISHED && oldstate == TCP_SYN_SENT) {
		t.pid = nt_tcp_owner(sk, false);
		nt_tcp_ends(&t, sk, NT_TCP_CONNECT);
		nt_tcp_options(&t, sk);
		nt_tcp_emit(&t, sk);
		return;
	}
	if (newstate == TCP_ESTABLISHED && oldstate == TCP_SYN_RECV) {
		if (!nt_ktags_get(&nt_tcp_listeners, nt_tcp_net(sk), port, false,
				  &t.pid, &time) && in_task())
			t.pid = current->tgid;
		if (t.pid)
			nt_tcp_tag(&nt_tcp_conns, sk, sk, 0, t.pid);
		nt_tcp_ends(&t, sk, NT_TCP_ACCEPT);
		nt_tcp_options(&t, sk);
		nt_tcp_emit(&t, sk);
		return;
	}
	if ((oldstate == TCP_ESTABLISHED || oldstate == TCP_CLOSE_WAIT) &&
	    newstate != TCP_CLOSE_WAIT) {
		t.pid = nt_tcp_owner(sk, true);
		nt_tcp_ends(&t, sk, NT_TCP_DISCONNECT);
		nt_tcp_emit(&t, sk);
	}
	if (newstate == TCP_CLOSE)
		nt_ktags_get(&nt_tcp_conns, sk, 0, true, &t.pid, &time);
}
EXPORT_SYMBOL_IF_KUNIT(nt_tcp_state);

/* Not hooked before Linux 6.5 (see the top). */
VISIBLE_IF_KUNIT void __maybe_unused nt_tcp_send(void *data, struct sock *sk, int ret, int flags)
{
	struct ntr_sr_tcp t = {};

	if (ret <= 0 || !nt_tcp_sock(sk))
		return;
	nt_tcp_ends(&t, sk, NT_TCP_SEND);
	t.pid = current->tgid;
	t.size = ret;
	t.seqnum = READ_ONCE(tcp_sk(sk)->write_seq) - (u32)ret;
	nt_tcp_emit(&t, sk);
}
EXPORT_SYMBOL_IF_KUNIT(nt_tcp_send);

VISIBLE_IF_KUNIT void __maybe_unused nt_tcp_recv(void *data, struct sock *sk, int ret, int flags)
{
	struct ntr_sr_tcp t = {};

	if (ret <= 0 || (flags & MSG_PEEK) || !nt_tcp_sock(sk))
		return;
	nt_tcp_ends(&t, sk, NT_TCP_RECV);
	t.pid = current->tgid;
	t.size = ret;
	t.seqnum = READ_ONCE(tcp_sk(sk)->copied_seq) - (u32)ret;
	nt_tcp_emit(&t, sk);
}
EXPORT_SYMBOL_IF_KUNIT(nt_tcp_recv);

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
VISIBLE_IF_KUNIT void nt_tcp_retransmit(void *data, const struct sock *sk,
					const struct sk_buff *skb, int err)
#else
VISIBLE_IF_KUNIT void nt_tcp_retransmit(void *data, const struct sock *sk,
					const struct sk_buff *skb)
#endif
{
	struct ntr_sr_tcp t = {};

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
	if (err)
		return;
#endif
	if (!nt_tcp_sock(sk))
		return;
	nt_tcp_ends(&t, sk, NT_TCP_RETRANSMIT);
	t.pid = nt_tcp_owner(sk, true);
	t.size = skb->len;
	t.seqnum = TCP_SKB_CB(skb)->seq;
	nt_tcp_emit(&t, sk);
}
EXPORT_SYMBOL_IF_KUNIT(nt_tcp_retransmit);

static void nt_tcp_hooked(bool on)
{
	nt_ktags_reset(&nt_tcp_conns);
	nt_ktags_reset(&nt_tcp_listeners);
}

#if IS_ENABLED(CONFIG_KUNIT)
/* The entries in use, for the tests. */
unsigned int nt_tcp_tags_count(void)
{
	return nt_ktags_count(&nt_tcp_conns) + nt_ktags_count(&nt_tcp_listeners);
}
EXPORT_SYMBOL_IF_KUNIT(nt_tcp_tags_count);
#endif

static const struct nt_khook nt_tcp_hooks[] = {
	NT_KHOOK(inet_sock_set_state, nt_tcp_state),
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
	NT_KHOOK(sock_send_length, nt_tcp_send),
	NT_KHOOK(sock_recv_length, nt_tcp_recv),
#endif
	NT_KHOOK(tcp_retransmit_skb, nt_tcp_retransmit),
};

const struct nt_ksource nt_ks_tcpip = {
	.name = "TcpIp",
	.word = 0,
	.flag = NTTRACE_EVENT_TRACE_FLAG_NETWORK_TCPIP,
	.hooks = nt_tcp_hooks,
	.nr_hooks = ARRAY_SIZE(nt_tcp_hooks),
	.hooked = nt_tcp_hooked,
};
