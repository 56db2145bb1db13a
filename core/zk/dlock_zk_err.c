/* dlock_zk_err.c: ZooKeeper return codes as dlock statuses. */
#include "dlock_zk_err.h"

#ifndef THREADED
#define THREADED
#endif
#include <zookeeper/zookeeper.h>

int dlock_zk_status(int zrc)
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
