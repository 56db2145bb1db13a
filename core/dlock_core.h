/* dlock_core.h: the public face of the lock core (plain C, no Zend types). */
#ifndef DLOCK_CORE_H
#define DLOCK_CORE_H

#include "dlock_err.h"
#include "dlock_mutex.h"
#include "dlock_path.h"
#include "dlock_pool.h"
#include "dlock_queue.h"
#include "dlock_session.h"

#define DLOCK_CORE_VERSION "0.1.0"

#endif
