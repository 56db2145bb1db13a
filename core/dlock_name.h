/* dlock_name.h: validation of lock names (paths) and ZooKeeper connect
 * strings, which every DSN parser applies, and GUIDs. */
#ifndef DLOCK_NAME_H
#define DLOCK_NAME_H

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

#endif
