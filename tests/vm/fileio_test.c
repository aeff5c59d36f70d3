// SPDX-License-Identifier: GPL-2.0
/*
 * The NT Kernel Logger's FileIo events, FILE_IO_INIT (the requests) and
 * FILE_IO (their OpEnd), 64- and 32-bit callers (the records are the
 * 64-bit kernel's either way); root.
 *
 * A file in /tmp made, written, read, flushed and closed, then opened
 * again with O_TRUNC, and a path that does not exist opened: each call's
 * request with its exact fields (OpenPath, the disposition and options,
 * Offset, IoSize, the FileObject of its open and the FileKey of its
 * file, this thread's TTID), each OpEnd with the same IrpPtr and the
 * bytes moved or what was made (FILE_CREATED, FILE_OVERWRITTEN) and the
 * NtStatus (0, STATUS_END_OF_FILE for a read past the end,
 * STATUS_OBJECT_NAME_NOT_FOUND for the missing path; OpenPath the whole
 * path when the caller gave a relative one); the close() that
 * drops the file's last reference a Cleanup and a Close of its FileObject.
 * The file renamed (Rename, FileRenameInformation), unlinked twice
 * (Delete, FileDispositionInformation; the second ends with
 * STATUS_OBJECT_NAME_NOT_FOUND) and a directory removed (Delete), each
 * with FileObject 0. A pipe's read and write give none; nor does mkdir().
 * Every record is PERFINFO64, version 2. The events
 * are written by the calls themselves: the drain waits on nothing.
 *
 * DISK_FILE_IO, in a file logger (the names of the stop's rundown):
 * FileCreate of a file made by a relative path (its whole path, a
 * FileObject), FileDelete of one
 * unlinked (its path, FileObject 0), and FileRundown of a file open since
 * before the trace and of one only mapped, once each, with its whole
 * path.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <nttrace/etl.h>
#include <nttrace/evntrace.h>
#include <nttrace/session.h>

#include "emit.h"
#include "expect.h"
#include "klog.h"
#include "props.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)
#define MAX_EV 64

/* One FileIo record of this thread's: its type, time and fields. */
struct fev {
	uint8_t type;
	uint64_t ts, offset, irp, ttid, file_object, file_key, extra;
	uint32_t io_size, options, attributes, share, status, info_class;
	char path[128];
};

struct seen {
	uint32_t tid;
	uint64_t irp;		/* this thread's, from its first request */
	struct fev ev[MAX_EV];
	unsigned int n, bad, other;
};

static void on_record(void *ctx, const uint8_t *p, uint32_t size, unsigned int cpu)
{
	struct seen *s = ctx;
	uint16_t hook = get_le(p + 6, 2);
	const uint8_t *d = p + 0x10;
	struct fev e;
	unsigned int i;

	(void)cpu;
	if (hook >> 8 != 0x04)
		return;
	if (p[2] != 0x11 || p[0] != 2) {
		s->bad++;
		return;
	}
	memset(&e, 0, sizeof(e));
	e.type = hook & 0xFF;
	e.ts = get_le(p + 8, 8);
	switch (e.type) {
	case 64:
		e.irp = get_le(d, 8);
		e.ttid = get_le(d + 8, 8);
		e.file_object = get_le(d + 16, 8);
		e.options = get_le(d + 24, 4);
		e.attributes = get_le(d + 28, 4);
		e.share = get_le(d + 32, 4);
		for (i = 0; i + 1 < sizeof(e.path) && 36 + 2 * i + 1 < size - 0x10 &&
			    get_le(d + 36 + 2 * i, 2); i++)
			e.path[i] = (char)d[36 + 2 * i];
		break;
	case 65: case 66: case 73:
		e.irp = get_le(d, 8);
		e.ttid = get_le(d + 8, 8);
		e.file_object = get_le(d + 16, 8);
		e.file_key = get_le(d + 24, 8);
		if (size != 0x10 + 32)
			s->bad++;
		break;
	case 67: case 68:
		e.offset = get_le(d, 8);
		e.irp = get_le(d + 8, 8);
		e.ttid = get_le(d + 16, 8);
		e.file_object = get_le(d + 24, 8);
		e.file_key = get_le(d + 32, 8);
		e.io_size = get_le(d + 40, 4);
		if (size != 0x10 + 48)
			s->bad++;
		break;
	case 70: case 71:
		e.irp = get_le(d, 8);
		e.ttid = get_le(d + 8, 8);
		e.file_object = get_le(d + 16, 8);
		e.file_key = get_le(d + 24, 8);
		e.extra = get_le(d + 32, 8);
		e.info_class = get_le(d + 40, 4);
		if (size != 0x10 + 44)
			s->bad++;
		break;
	case 76:
		e.irp = get_le(d, 8);
		e.extra = get_le(d + 8, 8);
		e.status = get_le(d + 16, 4);
		if (size != 0x10 + 20)
			s->bad++;
		break;
	default:
		s->other++;
		return;
	}
	/* Ours: this thread's requests, and the OpEnds of its IrpPtr. */
	if (e.type != 76 && e.ttid != s->tid)
		return;
	if (e.type != 76 && !s->irp)
		s->irp = e.irp;
	if (e.type == 76 && (!s->irp || e.irp != s->irp))
		return;
	if (s->n < MAX_EV)
		s->ev[s->n++] = e;
}

static int by_time(const void *a, const void *b)
{
	const struct fev *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* The next event of @type from *@at on; NULL if none. */
static const struct fev *next_of(const struct seen *s, unsigned int *at, uint8_t type)
{
	while (*at < s->n) {
		const struct fev *e = &s->ev[(*at)++];

		if (e->type == type)
			return e;
	}
	return NULL;
}

TEST_F(nttrace, file_io)
{
	static char buf[8192];
	const struct fev *c, *o, *r, *w;
	struct nttrace_consumer *kc;
	struct seen s;
	char path[64], moved[72], dir[72], cwd[256];
	int fd, fd2, fd3, pfd[2], ok[11];
	unsigned int at = 0;
	uint64_t object, key;

	memset(&s, 0, sizeof(s));
	s.tid = (uint32_t)syscall(SYS_gettid);
	snprintf(path, sizeof(path), "/tmp/fileio-%d-%d", BITS, (int)getpid());
	snprintf(moved, sizeof(moved), "%s.moved", path);
	snprintf(dir, sizeof(dir), "%s.dir", path);
	unlink(path);
	unlink(moved);
	rmdir(dir);
	if (!tap_eq(klog_start(NTTRACE_EVENT_TRACE_FLAG_FILE_IO |
			       NTTRACE_EVENT_TRACE_FLAG_FILE_IO_INIT), 0,
		    "%d-bit: the NT Kernel Logger, FILE_IO and FILE_IO_INIT", BITS))
		return;
	if (!tap_eq(nttrace_consumer_open(&kc, KL), 0, "%d-bit: its logger attached", BITS)) {
		stop_session(KL);
		return;
	}
	/* Nothing printed until the drain: stdout may be a regular file. */
	fd = open(path, O_CREAT | O_EXCL | O_RDWR, 0600);
	ok[0] = write(fd, buf, 1000) == 1000;
	ok[1] = pwrite(fd, buf, 500, 4096) == 500;
	lseek(fd, 0, SEEK_SET);
	ok[2] = read(fd, buf, 300) == 300;
	ok[3] = pread(fd, buf, 100, 1 << 20) == 0;
	ok[4] = !fsync(fd);
	ok[5] = !close(fd);
	fd2 = open(path, O_RDWR | O_TRUNC);
	ok[6] = fd2 >= 0 && read(fd2, buf, 10) == 0;
	ok[7] = open("/no-such-dir/x", O_RDONLY) == -1;
	ok[8] = !pipe(pfd) && write(pfd[1], buf, 777) == 777 && read(pfd[0], buf, 777) == 777;
	/* A relative path: OpenPath is the whole one. */
	ok[10] = getcwd(cwd, sizeof(cwd)) && !chdir("/tmp");
	fd3 = open(path + strlen("/tmp/"), O_RDONLY);
	ok[10] = ok[10] && fd3 >= 0 && !close(fd3) && !chdir(cwd);
	ok[9] = !rename(path, moved) && !unlink(moved) && unlink(moved) == -1 &&
		!mkdir(dir, 0700) && !rmdir(dir);
	klog_drain(kc, on_record, &s);
	nttrace_consumer_close(kc);
	stop_session(KL);
	close(fd2);
	close(pfd[0]);
	close(pfd[1]);
	unlink(path);
	unlink(moved);
	qsort(s.ev, s.n, sizeof(s.ev[0]), by_time);
	tap_ok(ok[0] && ok[1] && ok[2] && ok[3] && ok[4] && ok[5] && ok[6] && ok[7] && ok[8] &&
	       ok[9] && ok[10],
	       "%d-bit: the calls: write, pwrite, read, pread past the end, fsync, close, "
	       "open O_TRUNC and read, a missing path, a pipe, a relative open, rename, "
	       "unlink twice, mkdir and rmdir (%d%d%d%d%d%d%d%d%d%d%d)", BITS, ok[0], ok[1],
	       ok[2], ok[3], ok[4], ok[5], ok[6], ok[7], ok[8], ok[10], ok[9]);

	/* From the test file's Create: the logger's own open of /dev/nttrace is before. */
	while (at < s.n && (s.ev[at].type != 64 || strcmp(s.ev[at].path, path)))
		at++;
	c = next_of(&s, &at, 64);
	o = next_of(&s, &at, 76);
	tap_ok(c && o && !strcmp(c->path, path) && c->options == (2u << 24) &&
	       c->attributes == 0x80 && c->share == 7 && c->file_object && c->irp == o->irp &&
	       o->extra == 2 && o->status == 0,
	       "%d-bit: Create: the path, FILE_CREATE, NORMAL, shared, a FileObject; OpEnd "
	       "FILE_CREATED (%s, %#x, %#x, %u)", BITS, c ? c->path : "none",
	       c ? c->options : 0, c ? c->attributes : 0, o ? (unsigned int)o->extra : 0);
	object = c ? c->file_object : 0;
	w = next_of(&s, &at, 68);
	o = next_of(&s, &at, 76);
	key = w ? w->file_key : 0;
	tap_ok(w && o && w->offset == 0 && w->io_size == 1000 && w->file_object == object &&
	       key && o->extra == 1000 && o->status == 0,
	       "%d-bit: Write at 0 of 1000 bytes, its FileObject; OpEnd 1000", BITS);
	w = next_of(&s, &at, 68);
	o = next_of(&s, &at, 76);
	tap_ok(w && o && w->offset == 4096 && w->io_size == 500 && w->file_key == key &&
	       o->extra == 500, "%d-bit: pwrite: Write at 4096 of 500; OpEnd 500", BITS);
	r = next_of(&s, &at, 67);
	o = next_of(&s, &at, 76);
	tap_ok(r && o && r->offset == 0 && r->io_size == 300 && r->file_object == object &&
	       o->extra == 300 && o->status == 0, "%d-bit: Read at 0 of 300; OpEnd 300", BITS);
	r = next_of(&s, &at, 67);
	o = next_of(&s, &at, 76);
	tap_ok(r && o && r->offset == 1 << 20 && r->io_size == 100 && o->extra == 0 &&
	       o->status == 0xC0000011,
	       "%d-bit: pread past the end: Read at 1 MiB; OpEnd STATUS_END_OF_FILE (%#x)",
	       BITS, o ? o->status : 0);
	r = next_of(&s, &at, 73);
	o = next_of(&s, &at, 76);
	tap_ok(r && o && r->file_object == object && r->file_key == key && o->status == 0,
	       "%d-bit: fsync: Flush of the file; OpEnd", BITS);
	r = next_of(&s, &at, 65);
	w = next_of(&s, &at, 66);
	o = next_of(&s, &at, 76);
	tap_ok(r && o && r->file_object == object && r->file_key == key && o->status == 0,
	       "%d-bit: close: Cleanup of its FileObject; OpEnd", BITS);
	tap_ok(w && r && w->ts >= r->ts && w->file_object == object && w->file_key == key &&
	       o && o->ts >= w->ts,
	       "%d-bit: ... its last reference: Close of the FileObject, before the OpEnd", BITS);
	c = next_of(&s, &at, 64);
	o = next_of(&s, &at, 76);
	/* Its FileObject may be the closed one's: Linux reuses a freed struct file. */
	tap_ok(c && o && c->options == (4u << 24) && c->file_object && o->extra == 3,
	       "%d-bit: O_TRUNC: Create FILE_OVERWRITE, a FileObject; OpEnd "
	       "FILE_OVERWRITTEN (%#x, %u)", BITS, c ? c->options : 0,
	       o ? (unsigned int)o->extra : 0);
	r = next_of(&s, &at, 67);
	o = next_of(&s, &at, 76);
	tap_ok(r && o && r->file_key == key && o->status == 0xC0000011,
	       "%d-bit: ... its Read: the same FileKey, the file's", BITS);
	c = next_of(&s, &at, 64);
	o = next_of(&s, &at, 76);
	tap_ok(c && o && !strcmp(c->path, "/no-such-dir/x") && !c->file_object &&
	       o->status == 0xC0000034,
	       "%d-bit: a missing path: Create, no FileObject; OpEnd "
	       "STATUS_OBJECT_NAME_NOT_FOUND (%#x)", BITS, o ? o->status : 0);
	c = next_of(&s, &at, 64);
	o = next_of(&s, &at, 76);
	tap_ok(c && o && !strcmp(c->path, path) && c->file_object && o->status == 0,
	       "%d-bit: an open of a relative path: OpenPath the whole path (%s)", BITS,
	       c ? c->path : "none");
	r = next_of(&s, &at, 71);
	o = next_of(&s, &at, 76);
	tap_ok(r && o && r->info_class == 10 && !r->file_object && !r->file_key &&
	       r->irp == o->irp && o->status == 0,
	       "%d-bit: rename: Rename, FileRenameInformation, FileObject 0; OpEnd", BITS);
	r = next_of(&s, &at, 70);
	o = next_of(&s, &at, 76);
	tap_ok(r && o && r->info_class == 13 && !r->file_object && o->status == 0,
	       "%d-bit: unlink: Delete, FileDispositionInformation; OpEnd", BITS);
	r = next_of(&s, &at, 70);
	o = next_of(&s, &at, 76);
	tap_ok(r && o && r->info_class == 13 && o->status == 0xC0000034,
	       "%d-bit: unlink of a path no more: Delete; OpEnd "
	       "STATUS_OBJECT_NAME_NOT_FOUND (%#x)", BITS, o ? o->status : 0);
	r = next_of(&s, &at, 70);
	o = next_of(&s, &at, 76);
	tap_ok(r && o && r->info_class == 13 && o->status == 0,
	       "%d-bit: rmdir: Delete; OpEnd (not mkdir: no FileIo event)", BITS);
	tap_eq(at, s.n, "%d-bit: nothing more of this thread: not the pipe's (%u events)", BITS,
	       s.n);
	tap_eq(s.bad + s.other, 0, "%d-bit: every record PERFINFO64, version 2, of its size",
	       BITS);
}

/* ---- DISK_FILE_IO: the name events ---- */

struct names {
	const char *made, *gone, *kept, *mapped;
	unsigned int created, deleted, kept_seen, mapped_seen, bad;
	uint64_t made_object;
};

/* FileName (UTF-16) as ASCII into @out. */
static void name_of(const uint8_t *d, uint32_t len, char *out, size_t room)
{
	size_t i;

	for (i = 0; i + 1 < room && 8 + 2 * i + 1 < len && (d[8 + 2 * i] || d[9 + 2 * i]); i++)
		out[i] = (char)d[8 + 2 * i];
	out[i] = 0;
}

static void on_name(struct names *k, const struct nttrace_etl_event *ev)
{
	char name[256];

	if (!ev->system || ev->hook_id >> 8 != 0x04 ||
	    (ev->hook_id != 0x0420 && ev->hook_id != 0x0423 && ev->hook_id != 0x0424))
		return;
	if (ev->rec[2] != 0x11 || ev->rec[0] != 2 || ev->data_len < 10) {
		k->bad++;
		return;
	}
	name_of(ev->data, ev->data_len, name, sizeof(name));
	if (ev->hook_id == 0x0420 && !strcmp(name, k->made) && get_le(ev->data, 8)) {
		k->created++;
		k->made_object = get_le(ev->data, 8);
	} else if (ev->hook_id == 0x0423 && !strcmp(name, k->gone) && !get_le(ev->data, 8)) {
		k->deleted++;
	} else if (ev->hook_id == 0x0424 && !strcmp(name, k->kept)) {
		k->kept_seen++;
	} else if (ev->hook_id == 0x0424 && !strcmp(name, k->mapped)) {
		k->mapped_seen++;
	}
}

TEST_F(nttrace, file_names)
{
	char made[64], gone[64], kept[64], mapped[64], etl[64], cwd[256];
	struct names k = { made, gone, kept, mapped, 0, 0, 0, 0, 0, 0 };
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	struct props pr;
	TRACEHANDLE h;
	int fd, keep, map_fd;
	void *m;

	snprintf(made, sizeof(made), "/tmp/names-made-%d", BITS);
	snprintf(gone, sizeof(gone), "/tmp/names-gone-%d", BITS);
	snprintf(kept, sizeof(kept), "/tmp/names-kept-%d", BITS);
	snprintf(mapped, sizeof(mapped), "/tmp/names-mapped-%d", BITS);
	snprintf(etl, sizeof(etl), "/tmp/names-%d.etl", BITS);
	close(open(gone, O_CREAT | O_WRONLY, 0600));
	/* Open before the trace, and still open at its stop: the rundown's. */
	keep = open(kept, O_CREAT | O_RDWR, 0600);
	/* Mapped, its descriptor closed: the rundown's through the mapping. */
	map_fd = open(mapped, O_CREAT | O_RDWR, 0600);
	m = MAP_FAILED;
	if (map_fd >= 0 && !ftruncate(map_fd, 4096))
		m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, map_fd, 0);
	if (map_fd >= 0)
		close(map_fd);
	props_init(&pr, etl, EVENT_TRACE_FILE_MODE_SEQUENTIAL);
	pr.p.Wnode.Guid = SystemTraceControlGuid;
	pr.p.EnableFlags = EVENT_TRACE_FLAG_DISK_FILE_IO | EVENT_TRACE_FLAG_NO_SYSCONFIG;
	if (!tap_eq(StartTraceA(&h, KERNEL_LOGGER_NAMEA, &pr.p), ERROR_SUCCESS,
		    "%d-bit: StartTrace(NT Kernel Logger, DISK_FILE_IO)", BITS))
		return;
	/* By a relative path: FileCreate names it whole. */
	fd = getcwd(cwd, sizeof(cwd)) && !chdir("/tmp") ?
	     open(made + strlen("/tmp/"), O_CREAT | O_RDWR, 0600) : -1;
	if (chdir(cwd))
		fd = -1;
	tap_ok(fd >= 0 && keep >= 0 && m != MAP_FAILED && !unlink(gone),
	       "%d-bit: a file made, one kept open, one mapped, one unlinked", BITS);
	props_init(&pr, NULL, 0);
	tap_eq(ControlTraceA(h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS,
	       "%d-bit: StopTrace", BITS);
	if (!tap_eq(nttrace_etl_open(&r, etl, NULL, NULL), 0, "%d-bit: the file opens", BITS))
		return;
	while (nttrace_etl_next(r, &ev))
		on_name(&k, &ev);
	nttrace_etl_close(r);
	tap_eq(k.created, 1,
	       "%d-bit: FileCreate of the file made by a relative path: its whole path, a "
	       "FileObject", BITS);
	tap_eq(k.deleted, 1, "%d-bit: FileDelete of the file unlinked: its path, no FileObject",
	       BITS);
	tap_eq(k.kept_seen, 1, "%d-bit: FileRundown of the file open, once, its whole path",
	       BITS);
	tap_eq(k.mapped_seen, 1, "%d-bit: FileRundown of the file mapped, its descriptor closed",
	       BITS);
	tap_eq(k.bad, 0, "%d-bit: every name record PERFINFO64, version 2", BITS);
	if (fd >= 0)
		close(fd);
	close(keep);
	if (m != MAP_FAILED)
		munmap(m, 4096);
	unlink(made);
	unlink(kept);
	unlink(mapped);
	unlink(etl);
}

int main(int argc, char **argv)
{
	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root\n");
		return 0;
	}
	return harness_run(argc, argv);
}
