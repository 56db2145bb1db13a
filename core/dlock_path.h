/* dlock_path.h: validation of lock paths and connect strings, and the lock
 * node naming scheme shared with Apache Curator (`_c_<guid>-lock-<seq>`). */
#ifndef DLOCK_PATH_H
#define DLOCK_PATH_H

#include <stddef.h>
#include <stdint.h>

#include "dlock_err.h"

#define DLOCK_PATH_MAX  1024 /* longest lock path accepted, in bytes */
#define DLOCK_HOSTS_MAX 4096 /* longest connect string accepted */
#define DLOCK_GUID_LEN  36   /* 8-4-4-4-12 hex digits and dashes */

/* Checks that path[0..len) names a znode a lock may live at: absolute, no
 * empty, "." or ".." segment, no trailing slash, valid UTF-8 without the
 * characters ZooKeeper rejects (controls, reserved ranges, and every character
 * outside the Basic Multilingual Plane), not the root, not under /zookeeper, and at most
 * DLOCK_PATH_MAX bytes. Returns DLOCK_OK or DLOCK_EINVAL with err->msg set. */
int dlock_path_validate(const char *path, size_t len, dlock_err *err);

/* Checks a connect string "host:port[,host:port...][/chroot]". Returns DLOCK_OK
 * or DLOCK_EINVAL with err->msg set. */
int dlock_hosts_validate(const char *hosts, size_t len, dlock_err *err);

/* Writes a fresh random (version 4) GUID and a NUL into out[DLOCK_GUID_LEN+1].
 * Returns DLOCK_OK or DLOCK_ENOMEM when no randomness is available. */
int dlock_guid(char out[DLOCK_GUID_LEN + 1], dlock_err *err);

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
