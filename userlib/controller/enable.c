// SPDX-License-Identifier: LGPL-2.1
/* Placeholder: filled in by the classic-provider work (issue 14). */
