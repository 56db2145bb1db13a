/* dlock_core.h: the public face of the lock core (plain C, no Zend types).
 * Layers, top to bottom: lock/queue -> rule, pool -> session -> reaper ->
 * the ZooKeeper C client; err, path and fault are leaves. */
#ifndef DLOCK_CORE_H
#define DLOCK_CORE_H

#include "dlock_backend.h"
#include "dlock_dsn.h"
#include "dlock_err.h"
#include "dlock_handle.h"
#include "dlock_lock.h"
#include "dlock_path.h"
#include "dlock_pool.h"
#include "dlock_queue.h"
#include "dlock_rule.h"
#include "dlock_session.h"

#define DLOCK_CORE_VERSION "0.2.0"

#endif
