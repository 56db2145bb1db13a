/* dlock_zk_path.h: the queue node naming scheme shared with Apache Curator
 * (`_c_<guid>-<marker><seq>`). */
#ifndef DLOCK_ZK_PATH_H
#define DLOCK_ZK_PATH_H

#include <stdint.h>

#include "../dlock_name.h"

/* Parses a child's name as a queue node of `marker`: the whole name must be
 * "_c_" <GUID> "-" <marker> <the server's %010d sequence>, the shape Curator's
 * protected mode and dlock write; anything else (a nested lock's container
 * such as "clock-0") is not a queue node. Returns 1 and stores the sequence
 * in *seq (and, when text is not NULL, where its text starts in name), or 0. */
int dlock_name_seq(const char *name, const char *marker, int32_t *seq, const char **text);

/* Orders two sequence suffixes exactly as Apache Curator orders its queue:
 * as strings (Curator sorts children by the text after the marker). That is
 * the numeric order until the server's signed 32-bit counter wraps; after
 * it, "-2147483648" sorts first. Every client of a queue must agree on its
 * order, and Curator's cannot change, so dlock follows it: <0, 0, >0. */
int dlock_seq_cmp(const char *a, const char *b);

#endif
