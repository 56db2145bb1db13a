/* dlock_build.h: which backends this build has (DLOCK_WITH_ZOOKEEPER,
 * DLOCK_WITH_REDIS, DLOCK_WITH_POSTGRES, DLOCK_WITH_MYSQL). The extension's
 * configure finds the client libraries and defines them in config.h; a
 * standalone build of the core (its C tests, the benchmark) links every
 * backend. Included only where a backend is named: the backend table and
 * the SQL files shared by two backends. */
#ifndef DLOCK_BUILD_H
#define DLOCK_BUILD_H

#ifdef HAVE_CONFIG_H
#include "config.h"
#else
#define DLOCK_WITH_ZOOKEEPER 1
#define DLOCK_WITH_REDIS     1
#define DLOCK_WITH_POSTGRES  1
#define DLOCK_WITH_MYSQL     1
#endif

#endif
