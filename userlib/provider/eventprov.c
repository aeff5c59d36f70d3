// SPDX-License-Identifier: LGPL-2.1
/* Placeholder: filled in by the EventWrite work (issue 15). */
