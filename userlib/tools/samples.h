/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The CPU samples of a kernel trace, with what names their addresses: for
 * `nttrace profile` (profile.c) and `nttrace convert --to perf-data`
 * (perfdata.c). samples.c reads them from an ETL file.
 */
#ifndef NTTRACE_TOOLS_SAMPLES_H
#define NTTRACE_TOOLS_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include <nttrace/etl.h>

/* x86-64's kernel half: no image of a process lies there. */
#define PROF_KERNEL_START	0xffff800000000000ULL
#define PROF_MAX_FRAMES		192

/* An image a process mapped (Image/Load, the image rundown). */
struct prof_image {
	uint32_t pid;
	uint64_t base, size;
	char *path;
	uint64_t ts;		/* when the trace says it (its event's time stamp) */
	/* Its ELF build ID as the trace's ImageId event says it (nttrace merge). */
	uint8_t build_id[20];
	uint8_t build_id_size;	/* 0: the trace has none */
};

/* A process the trace names (Process/Start, the process rundown). */
struct prof_proc {
	uint32_t pid;
	char name[64];		/* ImageFileName, ASCII ('?' beyond) */
	void *dwfl;		/* profile.c's symbol reader of its images */
	int dwfl_tried;
};

/* A thread the trace names, and its process (Thread/Start, the rundown). */
struct prof_thread {
	uint32_t tid, pid;
};

struct prof_sample {
	uint32_t tid, pid;
	uint32_t cpu;
	uint64_t ts;		/* the sample's time stamp, in the file's clock */
	uint32_t nr;		/* frames, innermost first; frames[0] the IP */
	int stack;		/* a StackWalk event gave them */
	uint64_t *frames;
};

struct prof_trace {
	struct prof_image *images;
	size_t nr_images, cap_images;
	struct prof_image *image_ids;	/* ImageId events, until matched */
	size_t nr_image_ids, cap_image_ids;
	struct prof_proc *procs;
	size_t nr_procs, cap_procs;
	uint32_t *proc_slots;		/* hash of PID -> index + 1 in @procs */
	size_t nr_proc_slots;
	struct prof_thread *threads;
	size_t nr_threads, cap_threads;
	uint32_t *thread_pid;		/* indexed by TID, grown as needed */
	size_t cap_thread_pid;
	struct prof_sample *samples;
	size_t nr_samples, cap_samples;
	size_t last_sample[256];	/* per CPU: index + 1 of its last sample */
	struct nttrace_etl_info info;	/* the file's header: its clock */
	uint32_t interval;		/* CollectionStart's, in 100 ns; 0: none */
};

/**
 * prof_load() - read a trace's samples, stacks, processes, threads, images
 * @t: filled in (zeroed first)
 * @path: an ETL file
 *
 * Return: 0, or 1 having said why not (not an ETL file, unreadable).
 */
int prof_load(struct prof_trace *t, const char *path);

/**
 * prof_free() - free what prof_load() took
 * @t: the trace (left empty)
 */
void prof_free(struct prof_trace *t);

/**
 * perfdata_convert() - write a trace's samples as a perf.data file
 * @out: the file to write (created 0600, as every trace file)
 * @etl: the ETL file to read
 *
 * perfdata.c says what is written.
 *
 * Return: 0, or 1 having said why not.
 */
int perfdata_convert(const char *out, const char *etl);

/**
 * prof_proc_of() - a process of the trace
 * @t: the trace
 * @pid: its ID
 * @add: make an entry (no name) if there is none
 *
 * Found by a hash of the PID. An entry made moves the others: a pointer
 * returned before is not good after a call with @add.
 *
 * Return: the process, or NULL.
 */
struct prof_proc *prof_proc_of(struct prof_trace *t, uint32_t pid, int add);

/* The field @name of a kernel event's payload (@psize-byte pointers): 1 with *@v, else 0. */
int prof_field(const struct nttrace_kernel_class *cls, const uint8_t *data, uint32_t len,
	       unsigned int psize, const char *name, struct nttrace_kernel_value *v);

/* An 8-bit or UTF-16 string field as ASCII ('?' beyond), into @out of @room bytes. */
void prof_text(const struct nttrace_kernel_value *v, char *out, size_t room);

/**
 * prof_image_at() - the image of process @pid that holds address @a
 * @t: the trace, loaded (its images sorted)
 * @pid: the process
 * @a: the address
 *
 * Return: the image, or NULL.
 */
const struct prof_image *prof_image_at(const struct prof_trace *t, uint32_t pid, uint64_t a);

/**
 * prof_images_of() - the images of a process
 * @t: the trace, loaded
 * @pid: the process
 * @n: their number, filled in
 *
 * Return: the first of them (the images are sorted by process, then base).
 */
const struct prof_image *prof_images_of(const struct prof_trace *t, uint32_t pid, size_t *n);

/**
 * prof_grow() - room for @need elements of @size bytes at @p, zeroed
 * @p: the array (may be NULL)
 * @cap: its room, updated
 * @need: the elements wanted
 * @size: an element's bytes
 *
 * Exits the program, saying so, when memory runs out.
 *
 * Return: the array, moved or not.
 */
void *prof_grow(void *p, size_t *cap, size_t need, size_t size);

#endif /* NTTRACE_TOOLS_SAMPLES_H */
