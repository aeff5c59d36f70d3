/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A client of LTTng's relay daemon (lttng-relayd): a trace's CTF streams
 * sent to it over TCP, as LTTng's consumer daemon sends them, for it to
 * store by host and session and serve to live viewers (relay.c says which
 * protocol and why).
 */
#ifndef NTTRACE_TOOLS_RELAY_H
#define NTTRACE_TOOLS_RELAY_H

#include <stddef.h>
#include <stdint.h>

#define RELAY_CONTROL_PORT	5342	/* lttng-relayd's defaults */
#define RELAY_DATA_PORT		5343
#define RELAY_LIVE_PORT		5344

struct relay;

/* What a data packet's index tells a live viewer (lttcomm_relayd_index). */
struct relay_index {
	uint64_t packet_size, content_size;	/* bits */
	uint64_t timestamp_begin, timestamp_end;
	uint64_t events_discarded;
	uint64_t stream_class_id;	/* CTF's stream_id */
	uint64_t stream_instance_id;	/* here the CPU */
	uint64_t packet_seq_num;
};

/**
 * relay_parse_url() - net://HOST[:CTRL_PORT[:DATA_PORT]], as `lttng
 * create --set-url` takes it
 * @url: the text
 * @host: out, the host (a name, an IPv4 address or [IPv6])
 * @room: @host's size
 * @ctrl: out, the control port (5342 when not given)
 * @data: out, the data port (5343 when not given)
 *
 * Return: 0, or -EINVAL for anything else (said on stderr).
 */
int relay_parse_url(const char *url, char *host, size_t room, uint16_t *ctrl, uint16_t *data);

/**
 * relay_open() - connect to a relay daemon and create a session there
 * @rp: out, the connection
 * @url: net://HOST[:CTRL_PORT[:DATA_PORT]]
 * @session: the session's name (its directory: SESSION-YYYYMMDD-HHMMSS)
 * @hostname: the host it is stored under
 * @live_timer_us: 0 for a trace read once it is whole, else the live
 *	timer LTTng's sessions announce (viewers may attach meanwhile)
 *
 * Return: 0, or -errno having said why on stderr.
 */
int relay_open(struct relay **rp, const char *url, const char *session, const char *hostname,
	       uint32_t live_timer_us);

/*
 * relay_open() on connections already made (@ctrl, @data: the control and
 * data sockets; the fuzzer's socket pairs): the version and the session.
 * relay_wait_written() then asks again without a pause: the peer is the
 * caller's, with its replies written ahead. On failure the descriptors
 * stay the caller's. 0 or -errno.
 */
int relay_open_fds(struct relay **rp, int ctrl, int data, const char *session,
		   const char *hostname, uint32_t live_timer_us);

/**
 * relay_add_stream() - a stream of the trace, stored as a file of that name
 * @r: the connection
 * @name: "metadata", or a data stream's ("channel0_N")
 * @handle: out, the relay's handle for it
 *
 * Return: 0, or -errno having said why.
 */
int relay_add_stream(struct relay *r, const char *name, uint64_t *handle);

/* Every stream so far added: live viewers may see them. 0 or -errno. */
int relay_streams_sent(struct relay *r);

/* Bytes of the metadata stream @handle, appended to it. 0 or -errno. */
int relay_metadata(struct relay *r, uint64_t handle, const void *buf, size_t len);

/**
 * relay_packet() - one CTF packet of data stream @handle, and its index
 * @r: the connection
 * @handle: the stream
 * @seq: in and out: the stream's next network sequence number
 * @pkt: the packet, @len bytes
 * @index: what a live viewer is told of it
 *
 * Return: 0, or -errno having said why.
 */
int relay_packet(struct relay *r, uint64_t handle, uint64_t *seq, const void *pkt, size_t len,
		 const struct relay_index *index);

/* Stream @handle ends after packet @next_seq - 1 (none sent: 0). 0 or -errno. */
/**
 * relay_beacon() - a live viewer told that data stream @handle has
 * nothing before @timestamp_end (CTF clock units), as LTTng's consumer
 * daemon tells it of a stream with no new packet at its live timer: an
 * index of no packet (packet_size 0). The relay heeds it once the stream
 * has sent a packet.
 * @r: the connection
 * @handle: the stream
 * @seq: the stream's next network sequence number (not consumed)
 * @timestamp_end: the time up to which the stream is known to be idle
 * @stream_instance_id: as in its packets' indexes (here the CPU)
 *
 * Return: 0, or -errno having said why.
 */
int relay_beacon(struct relay *r, uint64_t handle, uint64_t seq, uint64_t timestamp_end,
		 uint64_t stream_instance_id);

/**
 * relay_wait_written() - wait until the relay has written a data stream
 * @r: the connection
 * @handle: the stream
 * @next_seq: the stream's next network sequence number (0: none sent)
 *
 * The relay reads packets from the data connection apart from commands,
 * so that a stream closed just after its last packet may still be
 * written after the close is answered; a reader of the relay's copy
 * started then would find it short. This asks the relay (DATA_PENDING)
 * until every packet before @next_seq and its index is in its files, at
 * most RELAY_TIMEOUT_S seconds.
 *
 * Return: 0, or -errno having said why.
 */
int relay_wait_written(struct relay *r, uint64_t handle, uint64_t next_seq);

int relay_close_stream(struct relay *r, uint64_t handle, uint64_t next_seq);

/* The connection closed (the relay then ends the session); NULL: nothing. */
void relay_close(struct relay *r);

/*
 * The relay's replies, parsed from the bytes received (exposed for the
 * fuzzer): each returns 0, or -EPROTO for a reply that is not one.
 */
int relay_parse_version(const uint8_t *buf, size_t len, uint32_t *major, uint32_t *minor);
int relay_parse_status(const uint8_t *buf, size_t len, uint64_t *id, uint32_t *code);
int relay_parse_generic(const uint8_t *buf, size_t len, uint32_t *code);

#endif /* NTTRACE_TOOLS_RELAY_H */
