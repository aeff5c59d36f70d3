/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Every folder's internal header, for the tests and benchmarks that call
 * into the library's own functions. The library's files include their
 * folder's header (and those below it) instead: see
 * Documentation/architecture.md, "The user library". Not installed.
 */
#ifndef NTTRACE_INTERNAL_H
#define NTTRACE_INTERNAL_H

#include "nt/nt_internal.h"
#include "etl/etl_internal.h"
#include "filter/filter_internal.h"
#include "logger/logger_internal.h"
#include "provider/provider_internal.h"
#include "controller/controller_internal.h"

#endif /* NTTRACE_INTERNAL_H */
