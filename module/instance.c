// SPDX-License-Identifier: GPL-2.0
/* Placeholder: filled in by the classic-provider work (issue 14). */
