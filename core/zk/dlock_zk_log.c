/* dlock_zk_log.c: where the ZooKeeper C client writes its own log (the
 * dlock.log_file setting); off by default. */
#include "dlock_zk_log.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#ifndef THREADED
#define THREADED
#endif
#include <zookeeper/zookeeper.h>

static FILE *zklog_stream;

int dlock_zklog_configure(const char *path, dlock_err *err)
{
	FILE *f = NULL;
	int rc = DLOCK_OK;

	if (path && *path) {
		f = fopen(path, "a");
		if (!f) {
			rc = dlock_err_set(err, DLOCK_EINVAL, 0, "cannot open ZooKeeper log file: %s",
			                   strerror(errno));
		}
	}
	if (f) {
		setvbuf(f, NULL, _IOLBF, 0);
		zoo_set_log_stream(f);
		zoo_set_debug_level(ZOO_LOG_LEVEL_INFO);
	} else {
		zoo_set_debug_level((ZooLogLevel)0);
	}
	if (zklog_stream) {
		fclose(zklog_stream);
	}
	zklog_stream = f;
	return rc;
}
