/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The ETL file writer's calls for the library's own loggers (etl.c),
 * beside <nttrace/etl.h>'s. Not installed.
 */
#ifndef NTTRACE_ETL_INTERNAL_H
#define NTTRACE_ETL_INTERNAL_H

#include <stdint.h>

#include <nttrace/etl.h>

#include "../nt/nt_internal.h"

/*
 * nttrace_logfile_buffer() for a writer that knows how many events @buf
 * holds (the user-mode logger): it saves walking every record (etl.c).
 */
int nttrace_logfile_counted(struct nttrace_logfile *lf, const void *buf, uint32_t size,
			    uint32_t events);
/*
 * @n buffers of the file's buffer size, @events[i] events in @bufs[i],
 * in that order: as many calls of nttrace_logfile_counted(), but one
 * system call writes up to NTTRACE_LOGFILE_BATCH of them where they land
 * side by side in the file. A failure is counted buffer by buffer as
 * there.
 */
#define NTTRACE_LOGFILE_BATCH	16
int nttrace_logfile_counted_n(struct nttrace_logfile *lf, uint8_t *const *bufs,
			      const uint32_t *events, unsigned int n);

#endif /* NTTRACE_ETL_INTERNAL_H */
