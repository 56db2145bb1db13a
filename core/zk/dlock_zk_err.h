/* dlock_zk_err.h: ZooKeeper return codes as dlock statuses. */
#ifndef DLOCK_ZK_ERR_H
#define DLOCK_ZK_ERR_H

#include "../dlock_err.h"

/* Maps a ZooKeeper return code to the closest dlock status (DLOCK_OK for
 * ZOK, DLOCK_EZK for a code with no closer status). */
int dlock_zk_status(int zrc);

#endif
