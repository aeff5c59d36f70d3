/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Windows' event log file (.evtx, evtx.c): events in, the file's bytes
 * out, each event's System, EventData or ProcessingErrorData as Windows'
 * rendering of a trace into an .evtx (tracerpt -of EVTX) holds them.
 */
#ifndef NTTRACE_TOOLS_EVTX_H
#define NTTRACE_TOOLS_EVTX_H

#include <stdint.h>
#include <stdio.h>

#include "cli.h"

struct evtx;

/**
 * evtx_open() - start an .evtx file
 * @f: where it goes: written from its start, seekable
 * @computer: the name in each event's <Computer>
 *
 * Return: the writer, or NULL without memory.
 */
struct evtx *evtx_open(FILE *f, const char *computer);

/**
 * evtx_event() - add an event
 * @x: the writer
 * @er: the event
 * @v: its top-level fields (@decoded), as render_tdh_fields() gives them
 * @decoded: whether TDH decoded it; if not, its data is BinaryEventData
 * @provider: the provider's name, or NULL
 *
 * The log file's header event (EventTraceGuid's) is left out, as Windows
 * leaves it out. An event whose record cannot fit a chunk, or that comes
 * after the most chunks a file can count, is not written: it is said on
 * stderr and counted.
 *
 * Return: 0, or -1 when the event was not written.
 */
int evtx_event(struct evtx *x, const EVENT_RECORD *er, const struct render_fields *v,
	       int decoded, const char *provider);

/**
 * evtx_close() - end the file and free the writer
 * @x: the writer (may be NULL)
 * @dropped: set to the events that were not written
 *
 * Writes the last chunk and the file header.
 *
 * Return: 0, or -1 when a write failed (errno says why).
 */
int evtx_close(struct evtx *x, uint64_t *dropped);

#endif
