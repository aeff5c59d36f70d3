// SPDX-License-Identifier: GPL-2.0
/*
 * The NT Kernel Logger's DiskIo and TcpIp events
 * (module/kernel_logger/kl_disk.c, kl_tcpip.c), from real I/O: O_DIRECT
 * reads and writes of the null_blk disk /dev/nullb0, and a TCP connection
 * over loopback that sends and receives known byte counts. Each record is
 * found in the logger's rings and checked field by field. 64- and 32-bit
 * (the records are the 64-bit kernel's either way); root.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <nttrace/nt.h>
#include <nttrace/session.h>
#include "emit.h"
#include "expect.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)
#define KL NTTRACE_KERNEL_LOGGER_ID
#define DISK "/dev/nullb0"
#define READ_OFF (1U << 20)
#define READ_LEN 8192U
#define WRITE_OFF (2U << 20)
#define WRITE_LEN 4096U
#define TO_SERVER 1000U
#define TO_CLIENT 300U

/* Every kernel event of the drain, copied: hook, header size, record. */
#define MAX_RECS 4096
struct rec {
	uint16_t hook;
	uint8_t type;		/* the header type */
	uint8_t version;
	uint32_t size;
	uint32_t tid, pid;	/* full headers */
	uint8_t payload[96];
	uint32_t len;		/* payload bytes */
};

static struct rec recs[MAX_RECS];
static unsigned int nrecs, nbig;

static int on_buffer(void *ctx, const void *buf, uint32_t bsize, unsigned int cpu)
{
	const uint8_t *b = buf;
	uint32_t end = get_le(b + 0x04, 4), off = 0x48;

	(void)ctx;
	(void)bsize;
	(void)cpu;
	while (off + 8 <= end) {
		const uint8_t *p = b + off;
		uint32_t size = record_size(p), h;
		struct rec *r;

		if (size < 8)
			break;
		off += (size + 7) & ~7u;
		/* The kernel's headers: SYSTEM64 (0x20) and PERFINFO64 (0x10). */
		if (p[3] != 0xC0 || (p[2] != 2 && p[2] != 0x11))
			continue;
		h = p[2] == 2 ? 0x20 : 0x10;
		if (nrecs == MAX_RECS || size - h > sizeof(r->payload)) {
			nbig++;
			continue;
		}
		r = &recs[nrecs++];
		r->hook = get_le(p + 6, 2);
		r->type = p[2];
		r->version = p[0];
		r->size = size;
		r->tid = h == 0x20 ? get_le(p + 8, 4) : 0;
		r->pid = h == 0x20 ? get_le(p + 12, 4) : 0;
		r->len = size - h;
		memcpy(r->payload, p + h, r->len);
	}
	return 0;
}

/* A counter of the module's (kl_tags.h NT_KCOUNTER); -1 if unreadable. */
static long counter(const char *name)
{
	char path[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/nttrace/parameters/%s", name);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static uint32_t gettid_(void)
{
	return (uint32_t)syscall(SYS_gettid);
}

/* ---- disk ---- */

struct disk_io {
	int ok;
	uint32_t rdev;		/* DiskNumber: new_encode_dev() of st_rdev */
	uint32_t tid;
};

static int disk_io(struct disk_io *d)
{
	struct stat st;
	void *buf;
	int fd = open(DISK, O_RDWR | O_DIRECT);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || posix_memalign(&buf, 4096, READ_LEN)) {
		close(fd);
		return -EIO;
	}
	d->rdev = (minor(st.st_rdev) & 0xFF) | (major(st.st_rdev) & 0xFFF) << 8 |
		  (minor(st.st_rdev) & ~0xFFU) << 12;
	d->tid = gettid_();
	memset(buf, 0x5A, READ_LEN);
	d->ok = pread(fd, buf, READ_LEN, READ_OFF) == READ_LEN &&
		pwrite(fd, buf, WRITE_LEN, WRITE_OFF) == WRITE_LEN;
	free(buf);
	close(fd);
	return 0;
}

/* The one completion of @hook at @off of @len; NULL if not exactly one. */
static const struct rec *disk_find(uint16_t hook, uint64_t off, uint32_t len, uint32_t rdev)
{
	const struct rec *found = NULL;
	unsigned int i, n = 0;

	for (i = 0; i < nrecs; i++) {
		const struct rec *r = &recs[i];

		if (r->hook == hook && r->len == 52 && get_le(r->payload, 4) == rdev &&
		    get_le(r->payload + 16, 8) == off && get_le(r->payload + 8, 4) == len) {
			found = r;
			n++;
		}
	}
	if (n != 1)
		printf("# %u records of HookId 0x%04x at %llu + %u\n", n, hook,
		       (unsigned long long)off, len);
	return n == 1 ? found : NULL;
}

static const struct rec *init_find(uint16_t hook, uint64_t irp)
{
	unsigned int i;

	for (i = 0; i < nrecs; i++)
		if (recs[i].hook == hook && recs[i].len == 12 &&
		    get_le(recs[i].payload, 8) == irp)
			return &recs[i];
	return NULL;
}

static void check_disk(const struct disk_io *d, const char *what, uint16_t hook,
		       uint64_t off, uint32_t len, uint32_t irp_op)
{
	const struct rec *r = disk_find(hook, off, len, d->rdev);
	const struct rec *init;
	uint64_t irp;

	if (!tap_ok(r != NULL, "%d-bit: DiskIo %s: one, at %llu + %u of DiskNumber 0x%x",
		    BITS, what, (unsigned long long)off, len, d->rdev))
		return;
	tap_ok(r->type == 0x11 && r->version == 3 && r->size == 0x10 + 52,
	       "%d-bit: ... PERFINFO64 header, version 3, 0x44 bytes", BITS);
	/* IRP_NOCACHE, IRP_SYNCHRONOUS_API (O_DIRECT), the operation, Normal. */
	tap_eq(get_le(r->payload + 4, 4), 0x1 | 0x4 | irp_op | 3 << 17,
	       "%d-bit: ... IrpFlags", BITS);
	tap_eq(get_le(r->payload + 12, 4) | get_le(r->payload + 24, 8), 0,
	       "%d-bit: ... Reserved and FileObject 0", BITS);
	tap_eq(get_le(r->payload + 48, 4), d->tid,
	       "%d-bit: ... IssuingThreadId: this thread", BITS);
	tap_ok(get_le(r->payload + 40, 8) > 0 && get_le(r->payload + 40, 8) < 10000000000ULL,
	       "%d-bit: ... HighResResponseTime %llu ns", BITS,
	       (unsigned long long)get_le(r->payload + 40, 8));
	irp = get_le(r->payload + 32, 8);
	init = init_find(hook + 2, irp);
	if (tap_ok(init != NULL, "%d-bit: ... its %sInit, the same Irp", BITS, what)) {
		tap_ok(init->type == 2 && init->version == 3 && init->size == 0x20 + 12,
		       "%d-bit: ... ... SYSTEM64 header, version 3", BITS);
		tap_ok(init->tid == d->tid && init->pid == (uint32_t)getpid() &&
		       get_le(init->payload + 8, 4) == d->tid,
		       "%d-bit: ... ... this thread's IDs, IssuingThreadId", BITS);
	}
}

/* ---- TCP ---- */

struct conn {
	int ok;
	uint16_t lport, cport;	/* the listener's, the client's */
};

/*
 * Waits until @fd's TCP_INFO shows @what: the accept queue of a listener
 * holding a connection (its tcpi_unacked), or a socket that has sent a
 * segment again. 0 once it does; -1 if it does not within 60 s, a guard
 * against a hang far past what any machine takes.
 */
enum tcp_wait { QUEUED, RESENT };

static int tcp_wait(int fd, enum tcp_wait what)
{
	int i;

	for (i = 0; i < 6000; i++) {
		struct tcp_info ti;
		socklen_t len = sizeof(ti);

		memset(&ti, 0, sizeof(ti));
		if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
			return -1;
		if (what == QUEUED ? ti.tcpi_unacked >= 1 :
				     ti.tcpi_total_retrans >= 1 || ti.tcpi_retransmits >= 1)
			return 0;
		usleep(10000);
	}
	return -1;
}

/*
 * A SYN that must be sent again: a listener with a backlog of 0 whose
 * accept queue one unaccepted connection fills drops the next SYN, which
 * the client resends after its first RTO (1 s) from a timer, in softirq:
 * the Retransmit's PID comes from the table of owners.
 */
static void retx_io(struct conn *c)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof(a);
	int l, first = -1, cl = -1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 0) ||
	    getsockname(l, (struct sockaddr *)&a, &alen))
		goto out;
	c->lport = ntohs(a.sin_port);
	first = socket(AF_INET, SOCK_STREAM, 0);
	cl = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (first < 0 || cl < 0 || connect(first, (struct sockaddr *)&a, sizeof(a)) ||
	    tcp_wait(l, QUEUED))
		goto out;
	if (connect(cl, (struct sockaddr *)&a, sizeof(a)) == 0 || errno != EINPROGRESS)
		goto out;
	alen = sizeof(a);
	if (getsockname(cl, (struct sockaddr *)&a, &alen))
		goto out;
	c->cport = ntohs(a.sin_port);
	c->ok = !tcp_wait(cl, RESENT);
out:
	if (cl >= 0)
		close(cl);
	if (first >= 0)
		close(first);
	if (l >= 0)
		close(l);
	usleep(100000);
}

/* An IPv6 connection over ::1: connect, one send, close. */
static void tcp6_io(struct conn *c)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	socklen_t alen = sizeof(a);
	char buf[TO_CLIENT];
	int l, cl = -1, sv = -1;

	l = socket(AF_INET6, SOCK_STREAM, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&a, &alen))
		goto out;
	c->lport = ntohs(a.sin6_port);
	cl = socket(AF_INET6, SOCK_STREAM, 0);
	if (cl < 0 || connect(cl, (struct sockaddr *)&a, sizeof(a)))
		goto out;
	alen = sizeof(a);
	if (getsockname(cl, (struct sockaddr *)&a, &alen))
		goto out;
	c->cport = ntohs(a.sin6_port);
	sv = accept(l, NULL, NULL);
	memset(buf, 'y', sizeof(buf));
	c->ok = sv >= 0 && send(cl, buf, TO_CLIENT, 0) == TO_CLIENT;
out:
	if (cl >= 0)
		close(cl);
	if (sv >= 0)
		close(sv);
	if (l >= 0)
		close(l);
	usleep(100000);
}

static int all(ssize_t (*io)(int, void *, size_t, int), int fd, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = io(fd, (char *)buf + done, len - done, 0);

		if (n <= 0)
			return -1;
		done += n;
	}
	return 0;
}

static ssize_t send_(int fd, void *buf, size_t len, int flags)
{
	return send(fd, buf, len, flags);
}

static void tcp_io(struct conn *c)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof(a);
	char buf[TO_SERVER];
	int l, cl = -1, sv = -1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&a, &alen))
		goto out;
	c->lport = ntohs(a.sin_port);
	cl = socket(AF_INET, SOCK_STREAM, 0);
	if (cl < 0 || connect(cl, (struct sockaddr *)&a, sizeof(a)))
		goto out;
	alen = sizeof(a);
	if (getsockname(cl, (struct sockaddr *)&a, &alen))
		goto out;
	c->cport = ntohs(a.sin_port);
	sv = accept(l, NULL, NULL);
	memset(buf, 'x', sizeof(buf));
	if (sv < 0 || all(send_, cl, buf, TO_SERVER) || all(recv, sv, buf, TO_SERVER) ||
	    all(send_, sv, buf, TO_CLIENT) || all(recv, cl, buf, TO_CLIENT))
		goto out;
	c->ok = 1;
out:
	/* The client closes first: FIN_WAIT1; then the server: LAST_ACK. */
	if (cl >= 0)
		close(cl);
	usleep(100000);
	if (sv >= 0)
		close(sv);
	if (l >= 0)
		close(l);
	usleep(100000);
}

/*
 * The TcpIp records of @type from @sport to @dport (IPv6 for types 26 and
 * up: 16-byte addresses): count, bytes.
 */
static unsigned int tcp_find(uint8_t type, uint16_t sport, uint16_t dport, uint32_t *bytes,
			     const struct rec **last)
{
	unsigned int i, n = 0, ports = type >= 26 ? 40 : 16;

	*bytes = 0;
	for (i = 0; i < nrecs; i++) {
		const struct rec *r = &recs[i];
		const uint8_t *p = r->payload;

		if (r->hook != (0x0600 | type) || r->len < ports + 12 ||
		    (p[ports] << 8 | p[ports + 1]) != dport ||
		    (p[ports + 2] << 8 | p[ports + 3]) != sport)
			continue;
		n++;
		*bytes += get_le(p + 4, 4);
		*last = r;
	}
	return n;
}

static uint64_t connid(const struct rec *r)
{
	return get_le(r->payload + r->len - 8, 8);
}

static void check_retx(const struct conn *c)
{
	const struct rec *r = NULL;
	uint32_t bytes;
	unsigned int n = tcp_find(14, c->cport, c->lport, &bytes, &r);

	if (!tap_ok(n >= 1, "%d-bit: TcpIp RetransmitIPV4 of a dropped SYN, %u -> %u: %u",
		    BITS, c->cport, c->lport, n))
		return;
	tap_eq(get_le(r->payload, 4), (uint32_t)getpid(),
	       "%d-bit: ... PID: this process (from softirq, by the table)", BITS);
	tap_eq(get_le(r->payload + 4, 4), 0, "%d-bit: ... size 0 (a SYN)", BITS);
	tap_ok(tcp_find(12, c->cport, c->lport, &bytes, &r) == 0,
	       "%d-bit: ... and no Connect", BITS);
}

static void check_tcp6(const struct conn *c, int have_length)
{
	static const uint8_t lo6[32] = { [15] = 1, [31] = 1 };
	const struct rec *con = NULL, *acc = NULL, *r = NULL;
	uint32_t me = getpid(), bytes;

	tap_ok(tcp_find(28, c->cport, c->lport, &bytes, &con) == 1,
	       "%d-bit: TcpIp ConnectIPV6: one, [::1]:%u -> %u", BITS, c->cport, c->lport);
	if (con) {
		tap_ok(con->size == 0x10 + 72, "%d-bit: ... 0x58 bytes", BITS);
		tap_eq(get_le(con->payload, 4), me, "%d-bit: ... PID: this process", BITS);
		tap_ok(!memcmp(con->payload + 8, lo6, 32), "%d-bit: ... ::1 both ends", BITS);
	}
	tap_ok(tcp_find(31, c->lport, c->cport, &bytes, &acc) == 1 && acc &&
	       get_le(acc->payload, 4) == me,
	       "%d-bit: TcpIp AcceptIPV6: one, this PID", BITS);
	if (have_length)
		tap_ok(tcp_find(26, c->cport, c->lport, &bytes, &r) >= 1 && r &&
		       bytes == TO_CLIENT && con && connid(r) == connid(con),
		       "%d-bit: TcpIp SendIPV6: %u bytes, the Connect's connid", BITS, TO_CLIENT);
	r = NULL;
	tap_ok(tcp_find(29, c->cport, c->lport, &bytes, &r) == 1,
	       "%d-bit: TcpIp DisconnectIPV6 of the client", BITS);
}

static void check_tcp(const struct conn *c, int have_length)
{
	static const uint8_t lo[8] = { 127, 0, 0, 1, 127, 0, 0, 1 };
	const struct rec *con = NULL, *acc = NULL, *r = NULL;
	uint32_t me = getpid(), bytes;
	unsigned int n;

	tap_ok(tcp_find(12, c->cport, c->lport, &bytes, &con) == 1,
	       "%d-bit: TcpIp ConnectIPV4: one, %u -> %u", BITS, c->cport, c->lport);
	if (con) {
		tap_ok(con->type == 0x11 && con->version == 2 && con->size == 0x10 + 48,
		       "%d-bit: ... PERFINFO64 header, version 2, 0x40 bytes", BITS);
		tap_eq(get_le(con->payload, 4), me, "%d-bit: ... PID: this process", BITS);
		tap_ok(!memcmp(con->payload + 8, lo, 8), "%d-bit: ... 127.0.0.1 both ends", BITS);
		tap_ok(get_le(con->payload + 20, 2) > 0, "%d-bit: ... mss %u", BITS,
		       (unsigned int)get_le(con->payload + 20, 2));
	}
	tap_ok(tcp_find(15, c->lport, c->cport, &bytes, &acc) == 1,
	       "%d-bit: TcpIp AcceptIPV4: one, %u <- %u", BITS, c->lport, c->cport);
	if (acc) {
		tap_eq(get_le(acc->payload, 4), me,
		       "%d-bit: ... PID: the listener's owner, this process", BITS);
		tap_ok(!con || connid(acc) != connid(con),
		       "%d-bit: ... its own connid", BITS);
	}
	if (!have_length) {
		tap_ok(1, "%d-bit: # SKIP no sock_send_length / sock_recv_length in this kernel",
		       BITS);
	} else {
		n = tcp_find(10, c->cport, c->lport, &bytes, &r);
		tap_ok(n >= 1 && bytes == TO_SERVER,
		       "%d-bit: TcpIp SendIPV4 client -> server: %u bytes in %u", BITS, bytes, n);
		if (r) {
			tap_eq(get_le(r->payload, 4), me, "%d-bit: ... PID: this process", BITS);
			tap_ok(con && connid(r) == connid(con),
			       "%d-bit: ... the Connect's connid", BITS);
		}
		r = NULL;
		n = tcp_find(11, c->lport, c->cport, &bytes, &r);
		tap_ok(n >= 1 && bytes == TO_SERVER,
		       "%d-bit: TcpIp RecvIPV4 at the server: %u bytes in %u", BITS, bytes, n);
		if (r) {
			tap_eq(get_le(r->payload, 4), me, "%d-bit: ... PID: this process", BITS);
			tap_ok(acc && connid(r) == connid(acc),
			       "%d-bit: ... the Accept's connid", BITS);
		}
		n = tcp_find(10, c->lport, c->cport, &bytes, &r);
		tap_ok(n >= 1 && bytes == TO_CLIENT,
		       "%d-bit: TcpIp SendIPV4 server -> client: %u bytes in %u", BITS, bytes, n);
		n = tcp_find(11, c->cport, c->lport, &bytes, &r);
		tap_ok(n >= 1 && bytes == TO_CLIENT,
		       "%d-bit: TcpIp RecvIPV4 at the client: %u bytes in %u", BITS, bytes, n);
	}
	r = NULL;
	tap_ok(tcp_find(13, c->cport, c->lport, &bytes, &r) == 1 && r &&
	       get_le(r->payload, 4) == me,
	       "%d-bit: TcpIp DisconnectIPV4 of the client (FIN_WAIT1): one, this PID", BITS);
	r = NULL;
	tap_ok(tcp_find(13, c->lport, c->cport, &bytes, &r) == 1 && r &&
	       get_le(r->payload, 4) == me,
	       "%d-bit: TcpIp DisconnectIPV4 of the server (LAST_ACK): one, this PID", BITS);
}

/* The NT Kernel Logger over the disk's and TCP's I/O, read back, checked. */
TEST_F(nttrace, disk_and_tcp)
{
	struct nttrace_logger_info kl;
	struct nttrace_consumer *kc;
	struct disk_io d = { 0 };
	struct conn c = { 0 }, c6 = { 0 }, retx = { 0 };
	int have_length, err;
	long unmatched, unowned;

	memset(&kl, 0, sizeof(kl));
	nttrace_set_name(&kl, NTTRACE_KERNEL_LOGGER_NAME);
	kl.buffer_size_kb = 64;
	kl.max_buffers = 16;
	kl.group_mask[0] = NTTRACE_EVENT_TRACE_FLAG_DISK_IO |
			   NTTRACE_EVENT_TRACE_FLAG_DISK_IO_INIT |
			   NTTRACE_EVENT_TRACE_FLAG_NETWORK_TCPIP |
			   NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG;
	if (!tap_eq(nttrace_start(&kl), 0,
		    "%d-bit: the NT Kernel Logger, DISK_IO | DISK_IO_INIT | NETWORK_TCPIP", BITS))
		return;
	if (!tap_eq(nttrace_consumer_open(&kc, KL), 0, "%d-bit: its logger attached", BITS)) {
		stop_session(KL);
		return;
	}
	have_length = access("/sys/kernel/tracing/events/sock/sock_send_length", F_OK) == 0;

	unmatched = counter("kl_disk_unmatched");
	unowned = counter("kl_tcp_unowned");
	err = disk_io(&d);
	tcp_io(&c);
	tcp6_io(&c6);
	retx_io(&retx);
	flush_drain(kc, KL, on_buffer, NULL);
	/* A quiet machine: every completion's issue and every owner known. */
	tap_ok(unmatched >= 0 && counter("kl_disk_unmatched") == unmatched,
	       "%d-bit: nttrace.kl_disk_unmatched read, unchanged (%ld)", BITS, unmatched);
	tap_ok(unowned >= 0 && counter("kl_tcp_unowned") == unowned,
	       "%d-bit: nttrace.kl_tcp_unowned read, unchanged (%ld)", BITS, unowned);
	tap_eq(nbig, 0, "%d-bit: %u kernel records read, none too large for the test", BITS,
	       nrecs);

	if (err == -ENOENT) {
		tap_ok(1, "%d-bit: # SKIP no " DISK " (CONFIG_BLK_DEV_NULL_BLK)", BITS);
	} else if (tap_ok(!err && d.ok, "%d-bit: O_DIRECT read and write of " DISK, BITS)) {
		check_disk(&d, "Read", 0x010A, READ_OFF, READ_LEN, 0x100);
		check_disk(&d, "Write", 0x010B, WRITE_OFF, WRITE_LEN, 0x200);
	}
	if (tap_ok(c.ok, "%d-bit: a TCP connection over 127.0.0.1, %u and %u bytes", BITS,
		   TO_SERVER, TO_CLIENT))
		check_tcp(&c, have_length);
	if (tap_ok(c6.ok, "%d-bit: a TCP connection over ::1", BITS))
		check_tcp6(&c6, have_length);
	if (tap_ok(retx.ok, "%d-bit: a connect() whose SYN a full accept queue drops", BITS))
		check_retx(&retx);

	nttrace_consumer_close(kc);
	stop_session(KL);
}

int main(int argc, char **argv)
{
	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root\n");
		return 0;
	}
	return harness_run(argc, argv);
}
