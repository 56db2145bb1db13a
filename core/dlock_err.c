/* dlock_err.c: formatting of error records and mapping of ZooKeeper codes. */
#include "dlock_err.h"

#include <stdarg.h>
#include <stdio.h>

#ifndef THREADED
#define THREADED
#endif
#include <zookeeper/zookeeper.h>

void dlock_err_clear(dlock_err *err)
{
	if (err) {
		err->zrc = 0;
		err->msg[0] = '\0';
	}
}

int dlock_err_set(dlock_err *err, int status, int zrc, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->zrc = zrc;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return status;
}

int dlock_err_from_zk(int zrc)
{
	switch (zrc) {
	case ZOK:
		return DLOCK_OK;
	case ZCONNECTIONLOSS:
	case ZOPERATIONTIMEOUT:
	case ZCLOSING:
		return DLOCK_ECONNLOSS;
	case ZSESSIONEXPIRED:
	case ZINVALIDSTATE:
	case ZSESSIONMOVED:
		return DLOCK_ESESSION;
	case ZNOAUTH:
	case ZAUTHFAILED:
	case ZINVALIDACL:
		return DLOCK_EAUTH;
	case ZBADARGUMENTS:
		return DLOCK_EINVAL;
	case ZSYSTEMERROR:
		return DLOCK_ENOMEM;
	default:
		return DLOCK_EZK;
	}
}

const char *dlock_status_name(int status)
{
	static const char *const names[] = {
	    "DLOCK_OK",       "DLOCK_ETIMEDOUT", "DLOCK_EINVAL",       "DLOCK_ENOMEM",
	    "DLOCK_ECONNECT", "DLOCK_ECONNLOSS", "DLOCK_ESESSION",     "DLOCK_ELOST",
	    "DLOCK_ENOTHELD", "DLOCK_EINTR",     "DLOCK_EFORKED",      "DLOCK_EAUTH",
	    "DLOCK_EZK",      "DLOCK_EDEADLK",   "DLOCK_EUNSUPPORTED", "DLOCK_ESERVER",
	};

	if (status < 0 || (size_t)status >= sizeof(names) / sizeof(names[0])) {
		return "DLOCK_E?";
	}
	return names[status];
}
