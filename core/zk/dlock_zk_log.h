/* dlock_zk_log.h: the ZooKeeper C client's own log. */
#ifndef DLOCK_ZK_LOG_H
#define DLOCK_ZK_LOG_H

#include "../dlock_err.h"

/* Routes the ZooKeeper client's own log: to `path` (appended, INFO level) when
 * path is non-empty, otherwise nowhere. Process-wide. Returns DLOCK_OK or
 * DLOCK_EINVAL when the file cannot be opened (logging then stays off). */
int dlock_zklog_configure(const char *path, dlock_err *err);

#endif
