// SPDX-License-Identifier: LGPL-2.1
/*
 * A kernel trace's CPU samples (see samples.h): PerfInfo SampledProfile,
 * each with the StackWalk event right after it on its CPU, with the same
 * time stamp and thread, as its stack (TraceStackTracingInfo, `nttrace
 * record --stacks profile`); the processes, threads and images the trace
 * names (Process, Thread and Image events, the rundowns included).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nttrace/etl.h>

#include "imageid.h"
#include "samples.h"

void *prof_grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return p;
	while (n < need)
		n *= 2;
	q = realloc(p, n * size);
	if (!q) {
		fprintf(stderr, "nttrace: profile: out of memory\n");
		exit(1);
	}
	memset((char *)q + *cap * size, 0, (n - *cap) * size);
	*cap = n;
	return q;
}

/* @pid's slot in the process index: its entry (index + 1), or the empty one. */
static uint32_t *proc_slot(const struct prof_trace *t, uint32_t pid)
{
	size_t i = ((uint64_t)pid * 0x9E3779B97F4A7C15ULL >> 20) & (t->nr_proc_slots - 1);

	while (t->proc_slots[i] && t->procs[t->proc_slots[i] - 1].pid != pid)
		i = (i + 1) & (t->nr_proc_slots - 1);
	return &t->proc_slots[i];
}

struct prof_proc *prof_proc_of(struct prof_trace *t, uint32_t pid, int add)
{
	uint32_t *slot;
	size_t i;

	if (!t->nr_proc_slots) {
		if (!add)
			return NULL;
		t->nr_proc_slots = 64;
		t->proc_slots = prof_grow(NULL, &(size_t){ 0 }, 64, sizeof(*t->proc_slots));
	}
	slot = proc_slot(t, pid);
	if (*slot)
		return &t->procs[*slot - 1];
	if (!add)
		return NULL;
	/* At most half full: grown and filled again from the processes. */
	if (2 * (t->nr_procs + 1) > t->nr_proc_slots) {
		size_t n = 2 * t->nr_proc_slots, zero = 0;

		free(t->proc_slots);
		t->proc_slots = prof_grow(NULL, &zero, n, sizeof(*t->proc_slots));
		t->nr_proc_slots = n;
		for (i = 0; i < t->nr_procs; i++)
			*proc_slot(t, t->procs[i].pid) = (uint32_t)(i + 1);
		slot = proc_slot(t, pid);
	}
	t->procs = prof_grow(t->procs, &t->cap_procs, t->nr_procs + 1, sizeof(*t->procs));
	t->procs[t->nr_procs].pid = pid;
	*slot = (uint32_t)++t->nr_procs;
	return &t->procs[t->nr_procs - 1];
}

int prof_field(const struct nttrace_kernel_class *cls, const uint8_t *data, uint32_t len,
	       unsigned int psize, const char *name, struct nttrace_kernel_value *v)
{
	struct nttrace_kernel_decoder d;

	nttrace_kernel_decode_init(&d, cls, data, len, psize);
	while (nttrace_kernel_decode_next(&d, v))
		if (!strcmp(v->field->name, name))
			return 1;
	return 0;
}

void prof_text(const struct nttrace_kernel_value *v, char *out, size_t room)
{
	size_t i, n = 0;
	int wide = v->field->type == NTTRACE_KT_WSTRING;

	for (i = 0; v->text && i + wide < v->text_size && n + 1 < room; i += 1 + wide) {
		unsigned int c = v->text[i] | (wide ? v->text[i + 1] << 8 : 0);

		out[n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	out[n] = 0;
}

static void on_kernel(struct prof_trace *t, const struct nttrace_etl_event *ev, uint16_t hook,
		      unsigned int hsize, unsigned int psize, uint8_t version)
{
	const uint8_t *d = ev->rec + hsize;
	uint32_t len = ev->size - hsize;
	const struct nttrace_kernel_class *cls = nttrace_kernel_class(hook, version);
	struct nttrace_kernel_value v;
	struct prof_sample *s;
	uint32_t pid, tid, i;

	switch (hook) {
	case 0x0F2E:	/* SampledProfile */
		if (len < psize + 4)
			return;
		t->samples = prof_grow(t->samples, &t->cap_samples, t->nr_samples + 1,
				       sizeof(*t->samples));
		s = &t->samples[t->nr_samples++];
		s->frames = malloc(sizeof(*s->frames));
		if (!s->frames)
			exit(1);
		s->frames[0] = psize == 8 ? *(const uint64_t *)d : *(const uint32_t *)d;
		memcpy(&s->tid, d + psize, 4);
		s->nr = 1;
		s->ts = ev->timestamp;
		s->cpu = ev->cpu;
		s->pid = s->tid < t->cap_thread_pid ? t->thread_pid[s->tid] : 0;
		t->last_sample[ev->cpu & 255] = t->nr_samples;
		break;
	case 0x1820:	/* StackWalk: the stack of the sample before it on its CPU */
		i = t->last_sample[ev->cpu & 255];
		if (!i || len < 16 + psize)
			return;
		s = &t->samples[i - 1];
		memcpy(&tid, d + 12, 4);
		if (tid != s->tid || memcmp(&s->ts, d, 8) || s->stack)
			return;
		s->stack = 1;
		free(s->frames);
		s->nr = (len - 16) / psize;
		if (s->nr > PROF_MAX_FRAMES)
			s->nr = PROF_MAX_FRAMES;
		s->frames = malloc(s->nr * sizeof(*s->frames));
		if (!s->frames)
			exit(1);
		for (i = 0; i < s->nr; i++)
			s->frames[i] = psize == 8 ? ((const uint64_t *)(d + 16))[i] :
						    ((const uint32_t *)(d + 16))[i];
		memcpy(&s->pid, d + 8, 4);
		t->last_sample[ev->cpu & 255] = 0;
		break;
	case 0x0F49:	/* CollectionStart: Source, NewInterval, OldInterval */
		if (len >= 8 && !t->interval)
			memcpy(&t->interval, d + 4, 4);
		break;
	case 0x0301: case 0x0303:	/* Process/Start, DCStart */
		if (cls && prof_field(cls, d, len, psize, "ProcessId", &v)) {
			struct prof_proc *p = prof_proc_of(t, (uint32_t)v.u, 1);

			if (prof_field(cls, d, len, psize, "ImageFileName", &v))
				prof_text(&v, p->name, sizeof(p->name));
		}
		break;
	case 0x0501: case 0x0503:	/* Thread/Start, DCStart */
		if (cls && prof_field(cls, d, len, psize, "ProcessId", &v)) {
			pid = (uint32_t)v.u;
			if (prof_field(cls, d, len, psize, "TThreadId", &v) && v.u < (1U << 22)) {
				t->thread_pid = prof_grow(t->thread_pid, &t->cap_thread_pid, v.u + 1,
							  sizeof(*t->thread_pid));
				t->thread_pid[v.u] = pid;
				t->threads = prof_grow(t->threads, &t->cap_threads, t->nr_threads + 1,
						       sizeof(*t->threads));
				t->threads[t->nr_threads++] = (struct prof_thread){ (uint32_t)v.u, pid };
			}
		}
		break;
	case 0x140A: case 0x1403:	/* Image/Load, DCStart */
		if (cls && prof_field(cls, d, len, psize, "ProcessId", &v)) {
			struct prof_image im = { .pid = (uint32_t)v.u, .ts = ev->timestamp };
			char path[1024];

			if (!prof_field(cls, d, len, psize, "ImageBase", &v))
				break;
			im.base = v.u;
			if (!prof_field(cls, d, len, psize, "ImageSize", &v))
				break;
			im.size = v.u;
			if (!prof_field(cls, d, len, psize, "FileName", &v))
				break;
			prof_text(&v, path, sizeof(path));
			im.path = strdup(path);
			t->images = prof_grow(t->images, &t->cap_images, t->nr_images + 1,
					      sizeof(*t->images));
			t->images[t->nr_images++] = im;
		}
		break;
	}
}

static int image_cmp(const void *a, const void *b)
{
	const struct prof_image *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->base < y->base ? -1 : x->base > y->base;
}

/* The first image after (@pid, @a) in the sorted images. */
static size_t image_after(const struct prof_trace *t, uint32_t pid, uint64_t a)
{
	size_t lo = 0, hi = t->nr_images;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct prof_image *m = &t->images[mid];

		if (m->pid < pid || (m->pid == pid && m->base <= a))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Images overlapping one another (a file mapped twice) looked through, at most. */
#define IMAGE_OVERLAPS	8

const struct prof_image *prof_image_at(const struct prof_trace *t, uint32_t pid, uint64_t a)
{
	size_t i = image_after(t, pid, a), k;

	for (k = 0; k < IMAGE_OVERLAPS && i > 0; k++) {
		const struct prof_image *im = &t->images[--i];

		if (im->pid != pid)
			break;
		if (a - im->base < im->size)
			return im;
	}
	return NULL;
}

const struct prof_image *prof_images_of(const struct prof_trace *t, uint32_t pid, size_t *n)
{
	size_t first = pid ? image_after(t, pid - 1, UINT64_MAX) : 0, last = image_after(t, pid,
											UINT64_MAX);

	*n = last - first;
	return &t->images[first];
}

/* @n hex digits' bytes into @out (at most 20): their number, or 0. */
static unsigned int unhex(const char *h, size_t n, uint8_t out[20])
{
	unsigned int i, hi, lo;

	if (n % 2 || !n || n > 40)
		return 0;
	for (i = 0; i < n / 2; i++) {
		if (sscanf(h + 2 * i, "%1x%1x", &hi, &lo) != 2)
			return 0;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return (unsigned int)(n / 2);
}

/*
 * An ImageId event of nttrace merge (imageid.h): its process, base and
 * build ID kept in t->image_ids, to be matched with its image at the end.
 * Identified by its provider and its TraceLogging name; a malformed one
 * is ignored.
 */
static void on_image_id(struct prof_trace *t, const struct nttrace_etl_event *ev)
{
	static const char name[] = MERGE_IMAGE_ID;
	const uint8_t *d = ev->data, *end;
	struct nttrace_etl_ext item;
	struct prof_image im = { 0 };
	uint32_t at = 0;
	int named = 0;
	size_t n;

	if (!ev->guid || ev->guid_len != 16 || memcmp(ev->guid, merge_provider, 16))
		return;
	/* The TraceLogging schema: size (2), tags (0 here: one byte), the name. */
	while (nttrace_etl_ext_next(ev, &at, &item))
		if (item.type == 11 && item.data_size >= 3 + sizeof(name) && !item.data[2] &&
		    !memcmp(item.data + 3, name, sizeof(name)))
			named = 1;
	if (!named || !d || ev->data_len < 21)
		return;
	end = d + ev->data_len;
	memcpy(&im.pid, d, 4);
	memcpy(&im.base, d + 4, 8);
	memcpy(&im.size, d + 12, 8);
	d += 20;
	n = strnlen((const char *)d, (size_t)(end - d));
	if (d + n >= end)
		return;
	im.build_id_size = (uint8_t)unhex((const char *)d, n, im.build_id);
	if (!im.build_id_size)
		return;
	t->image_ids = prof_grow(t->image_ids, &t->cap_image_ids, t->nr_image_ids + 1,
				 sizeof(*t->image_ids));
	t->image_ids[t->nr_image_ids++] = im;
}

/* Each ImageId's build ID onto the image of its process and base. */
static void match_image_ids(struct prof_trace *t)
{
	size_t i, k;

	for (i = 0; i < t->nr_image_ids; i++) {
		const struct prof_image *id = &t->image_ids[i];

		for (k = image_after(t, id->pid, id->base); k > 0; k--) {
			struct prof_image *im = &t->images[k - 1];

			if (im->pid != id->pid || im->base != id->base)
				break;
			memcpy(im->build_id, id->build_id, sizeof(im->build_id));
			im->build_id_size = id->build_id_size;
		}
	}
	free(t->image_ids);
	t->image_ids = NULL;
	t->nr_image_ids = t->cap_image_ids = 0;
}

int prof_load(struct prof_trace *t, const char *path)
{
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	const struct nttrace_etl_info *info;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = nttrace_etl_open(&r, path, NULL, NULL);
	if (ret) {
		fprintf(stderr, "nttrace: %s: %s\n", path,
			ret == -EINVAL ? "not an ETL file" : strerror(-ret));
		return 1;
	}
	info = nttrace_etl_info(r);
	t->info = *info;
	while (nttrace_etl_next(r, &ev)) {
		const uint8_t *p = ev.rec;
		unsigned int hsize, psize;

		if (ev.event_header) {
			on_image_id(t, &ev);
			continue;
		}
		/* The kernel's own records: SYSTEM32/64, PERFINFO32/64 headers. */
		if (ev.size < 0x10 || p[3] != 0xC0)
			continue;
		switch (p[2]) {
		case 1: hsize = 0x20; psize = 4; break;
		case 2: hsize = 0x20; psize = 8; break;
		case 0x10: hsize = 0x10; psize = 4; break;
		case 0x11: hsize = 0x10; psize = 8; break;
		default: continue;
		}
		if (ev.size < hsize)
			continue;
		on_kernel(t, &ev, (uint16_t)(p[6] | p[7] << 8), hsize, psize, p[0]);
	}
	nttrace_etl_close(r);
	/* By process, then base: each lookup a binary search. */
	if (t->nr_images)
		qsort(t->images, t->nr_images, sizeof(*t->images), image_cmp);
	match_image_ids(t);
	return 0;
}

void prof_free(struct prof_trace *t)
{
	size_t i;

	for (i = 0; i < t->nr_images; i++)
		free(t->images[i].path);
	for (i = 0; i < t->nr_samples; i++)
		free(t->samples[i].frames);
	free(t->images);
	free(t->procs);
	free(t->proc_slots);
	free(t->threads);
	free(t->thread_pid);
	free(t->samples);
	memset(t, 0, sizeof(*t));
}
