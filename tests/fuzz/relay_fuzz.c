// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: what `nttrace convert --to net://` makes of a relay
 * daemon's replies (userlib/tools/relay.c). The input is everything the
 * "relay" answers on the control connection, then it hangs up: the client
 * agrees a version, creates a session, adds a metadata and a data stream,
 * sends a packet with its index, metadata, STREAMS_SENT, asks until the
 * data stream is written (DATA_PENDING) and closes both streams, each step
 * going on only while the replies say so. Socket pairs
 * stand in for the TCP connections; what the client sends is read and
 * dropped. The sanitizers check the parsing and the steps' errors.
 *
 * Build and run: scripts/fuzz-lib (build/fuzz/relay_fuzz); seeds in
 * tests/fuzz/corpus/relay_fuzz/ (a whole good conversation, and cut ones).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "relay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t pkt[64] = { 0xC1, 0xFC, 0x1F, 0xC1 };
	const struct relay_index ix = { .packet_size = 512, .content_size = 512 };
	int ctrl[2], dat[2], bufsize = 1 << 20;
	uint64_t meta, stream, seq = 0;
	struct relay *r;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, ctrl) || socketpair(AF_UNIX, SOCK_STREAM, 0, dat))
		abort();
	/* Room for all the client sends: nothing reads them while it runs. */
	setsockopt(ctrl[1], SOL_SOCKET, SO_RCVBUF, &bufsize, sizeof(bufsize));
	setsockopt(ctrl[0], SOL_SOCKET, SO_SNDBUF, &bufsize, sizeof(bufsize));
	if (size && write(ctrl[1], data, size) != (ssize_t)size)
		abort();
	shutdown(ctrl[1], SHUT_WR);
	if (!relay_open_fds(&r, ctrl[0], dat[0], "fuzz", "host", 0)) {
		if (!relay_add_stream(r, "metadata", &meta) &&
		    !relay_add_stream(r, "channel0_0", &stream) &&
		    !relay_packet(r, stream, &seq, pkt, sizeof(pkt), &ix) &&
		    !relay_metadata(r, meta, "/* CTF 1.8 */\n", 14) &&
		    !relay_streams_sent(r) && !relay_wait_written(r, stream, seq) &&
		    !relay_close_stream(r, stream, seq))
			relay_close_stream(r, meta, 0);
		relay_close(r);
	} else {
		close(ctrl[0]);
		close(dat[0]);
	}
	close(ctrl[1]);
	close(dat[1]);
	return 0;
}
