/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A flame graph (flame.c): stacks of names, each with a count, merged into
 * a tree by common callers, drawn as an SVG picture (one box a function,
 * as wide as its samples, its callers below it) or printed as a call tree.
 */
#ifndef NTTRACE_TOOLS_FLAME_H
#define NTTRACE_TOOLS_FLAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct flame;

/**
 * flame_new() - an empty flame graph
 *
 * Return: it, or NULL without memory.
 */
struct flame *flame_new(void);

/**
 * flame_add() - count a stack
 * @f: the graph
 * @names: its functions, outermost first (copied)
 * @n: their number
 * @count: how many samples had it
 *
 * Each frame is found among its caller's callees by a hash table, so
 * that adding costs the stack's length, whatever the graph holds.
 *
 * Return: 0, or -1 without memory (the graph is as it was before).
 */
int flame_add(struct flame *f, const char *const *names, size_t n, uint64_t count);

/**
 * flame_svg() - draw the graph
 * @f: the graph
 * @out: where the SVG document goes
 * @title: its title (escaped for XML here, as every name is)
 *
 * Return: 0, or -1 when writing failed.
 */
int flame_svg(const struct flame *f, FILE *out, const char *title);

/**
 * flame_text() - the graph as an indented call tree
 * @f: the graph
 * @out: where the lines go
 * @min_share: leave out each function (with its callees) of fewer samples
 *	than this share of all (0 to 1)
 *
 * One line a function: its share of all samples, then its name indented
 * two spaces a level, callers above their callees, the hottest first.
 *
 * Return: 0, or -1 when writing failed or memory ran out.
 */
int flame_text(const struct flame *f, FILE *out, double min_share);

/**
 * flame_free() - free a graph
 * @f: the graph, or NULL
 */
void flame_free(struct flame *f);

#endif /* NTTRACE_TOOLS_FLAME_H */
