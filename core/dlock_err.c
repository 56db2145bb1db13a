/* dlock_err.c: formatting of error records and status names. */
#include "dlock_err.h"

#include <stdarg.h>
#include <stdio.h>

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
