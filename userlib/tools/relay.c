// SPDX-License-Identifier: GPL-2.0
/*
 * A client of LTTng's relay daemon (relay.h), written from lttng-tools'
 * protocol as its relay daemon 2.13 reads it (src/common/sessiond-comm/
 * relayd.h and src/bin/lttng-relayd/main.c): facts, no code.
 *
 * Two TCP connections, as LTTng's consumer daemon opens them: commands on
 * the control port (5342), each a header (circuit ID, payload size,
 * command, command version) and a payload, most answered with a status;
 * CTF packets on the data port (5343), each after a header (circuit ID,
 * the relay's stream handle, the stream's network sequence number, size,
 * padding). Every integer is big-endian; strings are fixed arrays,
 * NUL-terminated.
 *
 * The protocol version: this client announces 2.10 and speaks what the
 * relay then speaks with it (the lower of the two; 2.4 at least, for
 * session names and live viewers): CREATE_SESSION with the session and
 * host names, ADD_STREAM with a channel's name and a path under the
 * relay's output directory (HOST/SESSION-YYYYMMDD-HHMMSS/nttrace, as
 * LTTng 2.10's sessions name theirs), SEND_METADATA, data packets each
 * with its SEND_INDEX (what live viewers read), STREAMS_SENT,
 * DATA_PENDING until the relay has written a data stream, and
 * CLOSE_STREAM. 2.11 and later add trace chunks, the session daemon's
 * unit of rotation: a writer that never rotates has no use for them, and
 * relay daemons of every version since store a 2.10 peer's trace as they
 * store their own. The relay has no authentication: whoever reaches its
 * ports may write to it (README, "Many machines").
 *
 * A relay that answers with anything else (another major version, a
 * status that is not LTTNG_OK, a short reply, or nothing within
 * RELAY_TIMEOUT_S) ends the connection with a message naming what it
 * did; the caller's local output is not touched.
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "relay.h"

/* lttcomm_relayd_command */
#define CMD_ADD_STREAM		1
#define CMD_CREATE_SESSION	2
#define CMD_VERSION		5
#define CMD_SEND_METADATA	6
#define CMD_CLOSE_STREAM	7
#define CMD_DATA_PENDING	8
#define CMD_SEND_INDEX		13
#define CMD_STREAMS_SENT	16

#define LTTNG_OK		10	/* lttng_error_code */
#define PROTO_MAJOR		2
#define PROTO_MINOR		10
#define PROTO_MINOR_MIN		4	/* session names, indexes */
#define PROTO_MINOR_INDEX_2_8	8	/* indexes with instance and packet numbers */

#define CMD_HEADER		24	/* circuit, size, command, version */
#define DATA_HEADER		32	/* circuit, stream, sequence, size, padding */
#define NAME_MAX_2_4		255	/* create_session_2_4's session name */
#define HOST_NAME_MAX_2_4	64
#define STREAM_NAME_LEN		264
#define PATH_LEN		4096
#define RELAY_TIMEOUT_S		30
#define PENDING_PAUSE_NS	10000000	/* between two DATA_PENDING asks */

struct relay {
	int ctrl, data;
	uint32_t minor;		/* the protocol version spoken: 2.minor */
	long pending_pause_ns;	/* relay_wait_written()'s pause between asks */
	char path[PATH_LEN];	/* the streams' directory under the relay's */
	char where[300];	/* host:port, for messages */
};

static void be(uint8_t *p, uint64_t v, unsigned int bytes)
{
	while (bytes--) {
		p[bytes] = (uint8_t)v;
		v >>= 8;
	}
}

static uint64_t get_be(const uint8_t *p, unsigned int bytes)
{
	uint64_t v = 0;

	while (bytes--)
		v = v << 8 | *p++;
	return v;
}

int relay_parse_version(const uint8_t *buf, size_t len, uint32_t *major, uint32_t *minor)
{
	if (len != 8)
		return -EPROTO;
	*major = (uint32_t)get_be(buf, 4);
	*minor = (uint32_t)get_be(buf + 4, 4);
	return 0;
}

int relay_parse_status(const uint8_t *buf, size_t len, uint64_t *id, uint32_t *code)
{
	if (len != 12)
		return -EPROTO;
	*id = get_be(buf, 8);
	*code = (uint32_t)get_be(buf + 8, 4);
	return 0;
}

int relay_parse_generic(const uint8_t *buf, size_t len, uint32_t *code)
{
	if (len != 4)
		return -EPROTO;
	*code = (uint32_t)get_be(buf, 4);
	return 0;
}

int relay_parse_url(const char *url, char *host, size_t room, uint16_t *ctrl, uint16_t *data)
{
	const char *p = url, *end;
	unsigned long port[2] = { RELAY_CONTROL_PORT, RELAY_DATA_PORT };
	unsigned int i;
	size_t n;

	if (strncmp(p, "net://", 6))
		goto bad;
	p += 6;
	if (*p == '[') {
		end = strchr(p, ']');
		if (!end)
			goto bad;
		n = (size_t)(end - p - 1);
		p++;
		end++;
	} else {
		end = p + strcspn(p, ":/");
		n = (size_t)(end - p);
	}
	if (!n || n >= room)
		goto bad;
	memcpy(host, p, n);
	host[n] = 0;
	p = end;
	for (i = 0; i < 2 && *p == ':'; i++) {
		char *e;

		errno = 0;
		port[i] = strtoul(p + 1, &e, 10);
		if (e == p + 1 || errno || !port[i] || port[i] > 65535)
			goto bad;
		p = e;
	}
	/* A path (net://HOST/PATH, LTTng's output subdirectory) is not taken. */
	if (*p)
		goto bad;
	*ctrl = (uint16_t)port[0];
	*data = (uint16_t)port[1];
	return 0;
bad:
	fprintf(stderr, "nttrace: %s: not net://HOST[:CTRL_PORT[:DATA_PORT]]\n", url);
	return -EINVAL;
}

static int dial(const char *host, uint16_t port, char *where, size_t room)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV };
	struct timeval tv = { RELAY_TIMEOUT_S, 0 };
	struct addrinfo *res, *a;
	char service[8];
	int fd = -1, err, one = 1;

	snprintf(service, sizeof(service), "%u", port);
	snprintf(where, room, "%s:%u", host, port);
	err = getaddrinfo(host, service, &hints, &res);
	if (err) {
		fprintf(stderr, "nttrace: relay %s: %s\n", where, gai_strerror(err));
		return -EHOSTUNREACH;
	}
	err = ECONNREFUSED;
	for (a = res; a; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0) {
			err = errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		if (!connect(fd, a->ai_addr, a->ai_addrlen))
			break;
		err = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		fprintf(stderr, "nttrace: relay %s: %s\n", where, strerror(err));
		return -err;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

/* All of @iov, or -errno. */
static int send_all(int fd, struct iovec *iov, int n)
{
	while (n) {
		ssize_t w = writev(fd, iov, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		}
		while (n && (size_t)w >= iov->iov_len) {
			w -= (ssize_t)iov->iov_len;
			iov++;
			n--;
		}
		if (n) {
			iov->iov_base = (uint8_t *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
	return 0;
}

static int recv_all(int fd, uint8_t *buf, size_t n)
{
	while (n) {
		ssize_t r = recv(fd, buf, n, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		if (!r)
			return -ECONNRESET;
		buf += r;
		n -= (size_t)r;
	}
	return 0;
}

static int fail(struct relay *r, const char *what, int err)
{
	fprintf(stderr, "nttrace: relay %s: %s: %s\n", r->where, what,
		err == -EPROTO ? "the relay's reply is not one" :
		err == -ECONNRESET ? "the relay closed the connection" :
		err == -ETIMEDOUT ? "no reply from the relay" : strerror(-err));
	return err;
}

/* Command @cmd with @payload on the control connection; its reply into @reply. */
static int command(struct relay *r, uint32_t cmd, const void *payload, size_t len,
		   const void *more, size_t more_len, uint8_t *reply, size_t reply_len,
		   const char *what)
{
	uint8_t h[CMD_HEADER];
	struct iovec iov[3] = {
		{ h, sizeof(h) },
		{ (void *)payload, len },
		{ (void *)more, more_len },
	};
	int err;

	be(h, 0, 8);
	be(h + 8, len + more_len, 8);
	be(h + 16, cmd, 4);
	be(h + 20, 0, 4);
	err = send_all(r->ctrl, iov, more_len ? 3 : len ? 2 : 1);
	if (!err && reply_len)
		err = recv_all(r->ctrl, reply, reply_len);
	return err ? fail(r, what, err) : 0;
}

/* A status reply's code: LTTNG_OK, else said and -EREMOTEIO. */
static int status_ok(struct relay *r, uint32_t code, const char *what)
{
	if (code == LTTNG_OK)
		return 0;
	fprintf(stderr, "nttrace: relay %s: %s: refused (LTTng error %u)\n", r->where, what, code);
	return -EREMOTEIO;
}

static int generic(struct relay *r, uint32_t cmd, const void *payload, size_t len,
		   const char *what)
{
	uint8_t reply[4];
	uint32_t code;
	int err = command(r, cmd, payload, len, NULL, 0, reply, sizeof(reply), what);

	if (err)
		return err;
	if (relay_parse_generic(reply, sizeof(reply), &code))
		return fail(r, what, -EPROTO);
	return status_ok(r, code, what);
}

static int names_ok(const char *session, const char *hostname)
{
	if (*session && strlen(session) < NAME_MAX_2_4 && !strchr(session, '/') &&
	    *hostname && strlen(hostname) < HOST_NAME_MAX_2_4 && !strchr(hostname, '/'))
		return 1;
	fprintf(stderr,
		"nttrace: relay: a session name of 1 to %d bytes and a host name of 1 to %d, neither with '/'\n",
		NAME_MAX_2_4 - 1, HOST_NAME_MAX_2_4 - 1);
	return 0;
}

/* The version agreed and the session created on @r's control connection. */
static int handshake(struct relay *r, const char *session, const char *hostname,
		     uint32_t live_timer_us)
{
	uint8_t ver[8], reply[12], cs[NAME_MAX_2_4 + HOST_NAME_MAX_2_4 + 8];
	char date[32];
	uint32_t major, minor, code;
	uint64_t id;
	time_t now = time(NULL);
	struct tm tm;
	int err;

	be(ver, PROTO_MAJOR, 4);
	be(ver + 4, PROTO_MINOR, 4);
	err = command(r, CMD_VERSION, ver, sizeof(ver), NULL, 0, ver, sizeof(ver), "version");
	if (err)
		return err;
	relay_parse_version(ver, sizeof(ver), &major, &minor);
	if (major != PROTO_MAJOR || minor < PROTO_MINOR_MIN) {
		fprintf(stderr, "nttrace: relay %s: speaks protocol %u.%u; 2.%d to 2.%d are spoken here\n",
			r->where, major, minor, PROTO_MINOR_MIN, PROTO_MINOR);
		return -EPROTONOSUPPORT;
	}
	r->minor = minor < PROTO_MINOR ? minor : PROTO_MINOR;
	memset(cs, 0, sizeof(cs));
	memcpy(cs, session, strlen(session));
	memcpy(cs + NAME_MAX_2_4, hostname, strlen(hostname));
	be(cs + NAME_MAX_2_4 + HOST_NAME_MAX_2_4, live_timer_us, 4);
	be(cs + NAME_MAX_2_4 + HOST_NAME_MAX_2_4 + 4, 0, 4);	/* not a snapshot */
	err = command(r, CMD_CREATE_SESSION, cs, sizeof(cs), NULL, 0, reply, sizeof(reply),
		      "create session");
	if (err)
		return err;
	relay_parse_status(reply, sizeof(reply), &id, &code);
	err = status_ok(r, code, "create session");
	if (err)
		return err;
	/* The session's directory, named as LTTng names its sessions'. */
	localtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y%m%d-%H%M%S", &tm);
	snprintf(r->path, sizeof(r->path), "%s/%s-%s/nttrace", hostname, session, date);
	return 0;
}

int relay_open(struct relay **rp, const char *url, const char *session, const char *hostname,
	       uint32_t live_timer_us)
{
	uint16_t ctrl_port, data_port;
	char host[256];
	struct relay *r;
	int err;

	*rp = NULL;
	if (relay_parse_url(url, host, sizeof(host), &ctrl_port, &data_port))
		return -EINVAL;
	if (!names_ok(session, hostname))
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->data = -1;
	r->pending_pause_ns = PENDING_PAUSE_NS;
	r->ctrl = dial(host, ctrl_port, r->where, sizeof(r->where));
	err = r->ctrl < 0 ? r->ctrl : handshake(r, session, hostname, live_timer_us);
	if (!err) {
		r->data = dial(host, data_port, r->where, sizeof(r->where));
		err = r->data < 0 ? r->data : 0;
	}
	if (err) {
		relay_close(r);
		return err;
	}
	snprintf(r->where, sizeof(r->where), "%s:%u", host, ctrl_port);
	*rp = r;
	return 0;
}

int relay_open_fds(struct relay **rp, int ctrl, int data, const char *session,
		   const char *hostname, uint32_t live_timer_us)
{
	struct relay *r;
	int err;

	*rp = NULL;
	if (!names_ok(session, hostname))
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->ctrl = ctrl;
	r->data = data;
	snprintf(r->where, sizeof(r->where), "(connected)");
	err = handshake(r, session, hostname, live_timer_us);
	if (err) {
		r->ctrl = r->data = -1;	/* the caller's */
		relay_close(r);
		return err;
	}
	*rp = r;
	return 0;
}

int relay_add_stream(struct relay *r, const char *name, uint64_t *handle)
{
	uint8_t as[STREAM_NAME_LEN + PATH_LEN + 16], reply[12];
	uint32_t code;
	int err;

	if (strlen(name) >= STREAM_NAME_LEN)
		return -ENAMETOOLONG;
	memset(as, 0, sizeof(as));
	memcpy(as, name, strlen(name));
	memcpy(as + STREAM_NAME_LEN, r->path, strlen(r->path));
	/* tracefile_size, tracefile_count: one file, no limit. */
	err = command(r, CMD_ADD_STREAM, as, sizeof(as), NULL, 0, reply, sizeof(reply),
		      "add stream");
	if (err)
		return err;
	relay_parse_status(reply, sizeof(reply), handle, &code);
	return status_ok(r, code, "add stream");
}

int relay_streams_sent(struct relay *r)
{
	return generic(r, CMD_STREAMS_SENT, NULL, 0, "streams sent");
}

int relay_metadata(struct relay *r, uint64_t handle, const void *buf, size_t len)
{
	uint8_t m[12];

	be(m, handle, 8);
	be(m + 8, 0, 4);	/* padding */
	/* No reply: the relay appends the bytes to the stream's file. */
	return command(r, CMD_SEND_METADATA, m, sizeof(m), buf, len, NULL, 0, "metadata");
}

/* SEND_INDEX (lttcomm_relayd_index): @ix of the packet @seq of @handle. */
static int send_index(struct relay *r, uint64_t handle, uint64_t seq,
		      const struct relay_index *ix)
{
	uint8_t idx[80];

	be(idx, handle, 8);
	be(idx + 8, seq, 8);
	be(idx + 16, ix->packet_size, 8);
	be(idx + 24, ix->content_size, 8);
	be(idx + 32, ix->timestamp_begin, 8);
	be(idx + 40, ix->timestamp_end, 8);
	be(idx + 48, ix->events_discarded, 8);
	be(idx + 56, ix->stream_class_id, 8);
	be(idx + 64, ix->stream_instance_id, 8);
	be(idx + 72, ix->packet_seq_num, 8);
	return generic(r, CMD_SEND_INDEX, idx, r->minor >= PROTO_MINOR_INDEX_2_8 ? 80 : 64,
		       "index");
}

int relay_packet(struct relay *r, uint64_t handle, uint64_t *seq, const void *pkt, size_t len,
		 const struct relay_index *ix)
{
	uint8_t h[DATA_HEADER];
	struct iovec iov[2] = { { h, sizeof(h) }, { (void *)pkt, len } };
	int err;

	if (len > UINT32_MAX)
		return -EMSGSIZE;
	be(h, 0, 8);
	be(h + 8, handle, 8);
	be(h + 16, *seq, 8);
	be(h + 24, len, 4);
	be(h + 28, 0, 4);
	err = send_all(r->data, iov, 2);
	if (err)
		return fail(r, "data", err);
	err = send_index(r, handle, *seq, ix);
	(*seq)++;
	return err;
}

int relay_beacon(struct relay *r, uint64_t handle, uint64_t seq, uint64_t timestamp_end,
		 uint64_t stream_instance_id)
{
	const struct relay_index ix = {
		.timestamp_end = timestamp_end,
		.stream_instance_id = stream_instance_id,
	};

	return send_index(r, handle, seq, &ix);
}

/*
 * DATA_PENDING (lttcomm_relayd_data_pending: the stream's handle, the last
 * packet's sequence number), answered with a generic reply: 0 when the
 * relay has written the stream's packets up to that one and their
 * indexes, 1 while some are still on their way (the data connection is
 * read apart from the control one), and -1 for a stream it does not know;
 * any other code is no answer of this command's. Asked again after a pause until 0, within RELAY_TIMEOUT_S of the first
 * ask: LTTng's session daemon asks the same before `lttng stop` returns.
 */
int relay_wait_written(struct relay *r, uint64_t handle, uint64_t next_seq)
{
	struct timespec pause = { 0, r->pending_pause_ns }, start, now;
	uint8_t c[16], reply[4];
	uint32_t code;
	int err;

	if (!next_seq)
		return 0;	/* no packet sent */
	be(c, handle, 8);
	be(c + 8, next_seq - 1, 8);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		err = command(r, CMD_DATA_PENDING, c, sizeof(c), NULL, 0, reply, sizeof(reply),
			      "data pending");
		if (err)
			return err;
		if (relay_parse_generic(reply, sizeof(reply), &code))
			return fail(r, "data pending", -EPROTO);
		if (code == 0)
			return 0;
		if (code == UINT32_MAX) {
			fprintf(stderr, "nttrace: relay %s: data pending: the relay does not know the stream\n",
				r->where);
			return -EREMOTEIO;
		}
		if (code != 1)
			return fail(r, "data pending", -EPROTO);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec >= RELAY_TIMEOUT_S) {
			fprintf(stderr,
				"nttrace: relay %s: data pending: the stream's last packets not written within %d s\n",
				r->where, RELAY_TIMEOUT_S);
			return -ETIMEDOUT;
		}
		if (pause.tv_nsec)
			nanosleep(&pause, NULL);
	}
}

int relay_close_stream(struct relay *r, uint64_t handle, uint64_t next_seq)
{
	uint8_t c[16];

	be(c, handle, 8);
	be(c + 8, next_seq - 1, 8);	/* the last packet's; none: all ones */
	return generic(r, CMD_CLOSE_STREAM, c, sizeof(c), "close stream");
}

void relay_close(struct relay *r)
{
	if (!r)
		return;
	if (r->data >= 0)
		close(r->data);
	if (r->ctrl >= 0)
		close(r->ctrl);
	free(r);
}
