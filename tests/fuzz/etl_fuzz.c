// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the ETL reader (userlib/etl/etlread.c).
 *
 * Input: the bytes of an ETL file, as they would be on disk. Each input is
 * written to a memfd and read the way `nttrace dump` reads a file: open
 * (the header buffer, the index of buffer headers), every event through
 * nttrace_etl_next(), close. Every byte an event points at (record, GUID,
 * data) is read, so that AddressSanitizer sees a pointer out of its
 * buffer, and UndefinedBehaviorSanitizer sees the time conversions. A
 * kernel record's payload is also walked field by field by the table of
 * the kernel's classes (etl/kernel_classes.c: untrusted bytes too), at both
 * pointer sizes, by its own class and by the one its first two bytes name
 * as a HookId (so that every class meets every payload), and every field
 * must lie within it.
 *
 * Two more passes reach the defences a plain file does not. A sparse file:
 * each whole 4 KB page of the input that starts with 32 zero bytes is
 * made a hole (punched out of the memfd, so it reads as zeros); the reader
 * must step over holes unread, and skip a buffer whose records run into
 * one. And a file changed after it was indexed (the input again, shifted
 * by 8 bytes, as if another writer had moved everything): only the
 * reader's re-check of each buffer's header stands between it and an
 * overrun.
 *
 * Build and run: scripts/fuzz-lib (build/fuzz/etl_fuzz); seeds in
 * tests/fuzz/corpus/etl_fuzz/ (tests/fuzz/mkcorpus.c), crashes kept in
 * tests/fuzz/regressions/etl_fuzz/ and replayed before every run. Those
 * are inputs this harness crashed the reader with before its fixes:
 * buffer-changed-after-index (records read past the buffer: SavedOffset
 * was taken from the file unchecked), header-buffer-0x50-bytes (the
 * logfile header read past a small buffer 0), frequency-1hz-timestamp-
 * 2pow62 (UBSan: a double out of range converted to uint64_t) and
 * 200-bad-buffers (a problem report for each: no cap).
 */
#include <fcntl.h>
#include <string.h>

#include <nttrace/etl.h>
#include "fuzz_file.h"

static struct fuzz_file file;
static volatile uint8_t sink;

static void on_problem(void *ctx, uint64_t offset, const char *what)
{
	unsigned int *n = ctx;

	(*n)++;
	sink ^= (uint8_t)strlen(what);
	/* The library caps what it reports (the summary is the one over). */
	if (*n > NTTRACE_ETL_MAX_PROBLEMS + 1)
		abort();
}

static void touch(const uint8_t *p, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		sink ^= p[i];
}

/* @len bytes at @data by @c, at both pointer sizes. */
static void walk(const struct nttrace_kernel_class *c, const uint8_t *data, uint32_t len)
{
	struct nttrace_kernel_decoder d;
	struct nttrace_kernel_value v;
	unsigned int psz;

	for (psz = 4; psz <= 8; psz += 4) {
		nttrace_kernel_decode_init(&d, c, data, len, psz);
		while (nttrace_kernel_decode_next(&d, &v)) {
			if (v.offset + (uint64_t)v.size > len || v.data != data + v.offset)
				abort();
			touch(v.data, v.size);
			if (v.text && (v.text < v.data ||
				       v.text + v.text_size > v.data + v.size))
				abort();
		}
		if (d.at > len || (d.cut && d.next >= c->nr_fields))
			abort();
	}
}

static void kernel_fields(const struct nttrace_etl_event *ev)
{
	const struct nttrace_kernel_class *c = nttrace_kernel_class(ev->hook_id, ev->version);

	if (c)
		walk(c, ev->data, ev->data_len);
	if (ev->data_len >= 2) {
		c = nttrace_kernel_class(ev->data[0] | ev->data[1] << 8, ev->version);
		if (c)
			walk(c, ev->data, ev->data_len);
	}
}

/* Read the file through; @change: shift it by 8 bytes once indexed. */
static void read_all(const uint8_t *data, size_t size, int change)
{
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	unsigned int problems = 0;

	if (nttrace_etl_open(&r, file.path, on_problem, &problems))
		return;
	if (change && size > 8 && pwrite(file.fd, data + 8, size - 8, 0) < 0)
		abort();
	touch((const uint8_t *)nttrace_etl_info(r)->logger_name, 1);
	while (nttrace_etl_next(r, &ev)) {
		touch(ev.rec, ev.size);
		if (ev.guid)
			touch(ev.guid, ev.guid_len);
		if (ev.data_len)
			touch(ev.data, ev.data_len);
		if (ev.data_len && (ev.data < ev.rec || ev.data + ev.data_len > ev.rec + ev.size))
			abort();
		/* A kernel record's PEBS index and PMC counters, within it. */
		if (ev.pebs)
			touch(ev.pebs, 8);
		if (ev.pmc)
			touch(ev.pmc, 8 * ev.pmc_count);
		if (ev.pmc && (ev.pmc < ev.rec || ev.pmc + 8 * ev.pmc_count > ev.rec + ev.size))
			abort();
		if (ev.system)
			kernel_fields(&ev);
		sink ^= (uint8_t)(ev.filetime ^ ev.offset);
	}
	nttrace_etl_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t page;

	fuzz_file_set(&file, "etl_fuzz", data, size);
	read_all(data, size, 0);

	/* Pages that start with 32 zero bytes as holes: a sparse file. */
	for (page = 0; page + 4096 <= size; page += 4096) {
		size_t i = 0;

		while (i < 32 && !data[page + i])
			i++;
		if (i == 32 && fallocate(file.fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
					 page, 4096))
			abort();
	}
	read_all(data, size, 0);

	fuzz_file_set(&file, "etl_fuzz", data, size);
	read_all(data, size, 1);
	return 0;
}
