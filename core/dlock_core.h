/* dlock_core.h: the public face of the lock core (plain C, no Zend types):
 * the seam (dlock_handle.h, the backend table in dlock_backend.h), DSNs,
 * names, kinds, options and errors. The backends live in their wings (core/zk,
 * core/redis, core/sql) and are reached only through the seam. */
#ifndef DLOCK_CORE_H
#define DLOCK_CORE_H

#include "dlock_backend.h"
#include "dlock_dsn.h"
#include "dlock_err.h"
#include "dlock_handle.h"
#include "dlock_kind.h"
#include "dlock_name.h"
#include "dlock_option.h"

#define DLOCK_CORE_VERSION "0.3.0"

#endif
