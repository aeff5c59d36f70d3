// SPDX-License-Identifier: GPL-2.0
/* Placeholder: filled in by the EventWrite work (issue 15). */
