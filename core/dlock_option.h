/* dlock_option.h: the constructors' options as one table (name, type, range,
 * the backends that accept each, its INI twin, where it is stored) and the
 * checks that read it: unknown names, ranges, options of another backend.
 * Plain C: the glue turns PHP values into the C values checked here. Adding
 * an option is one row in dlock_option.c (and a value in dlock_option_id). */
#ifndef DLOCK_OPTION_H
#define DLOCK_OPTION_H

#include <stddef.h>
#include <stdint.h>

#include "dlock_backend.h"
#include "dlock_err.h"

/* Limits of option and INI values. */
#define DLOCK_DATA_MAX            1000000 /* bytes; the server caps a request at ~1 MiB */
#define DLOCK_SESSION_TIMEOUT_MIN 100     /* ms */
#define DLOCK_SESSION_TIMEOUT_MAX 3600000
#define DLOCK_CONNECT_TIMEOUT_MAX 3600.0
#define DLOCK_AUTH_MAX            1024
#define DLOCK_LEASE_MIN           0.1 /* s */
#define DLOCK_LEASE_MAX           86400.0
#define DLOCK_WAIT_REPLICAS_MAX   100
#define DLOCK_TIMEOUT_MAX         31536000.0 /* one year, in seconds */

/* The options, in the order the "unknown option" message lists them. */
typedef enum dlock_option_id {
	DLOCK_OPT_DSN = 0,
	DLOCK_OPT_HOSTS,
	DLOCK_OPT_SESSION_TIMEOUT,
	DLOCK_OPT_CONNECT_TIMEOUT,
	DLOCK_OPT_LEASE,
	DLOCK_OPT_MAX_HOLD,
	DLOCK_OPT_WAIT_REPLICAS,
	DLOCK_OPT_FORMAT,
	DLOCK_OPT_DATA,
	DLOCK_OPT_AUTH,
	DLOCK_OPT_PASSWORD_FILE,
	DLOCK_OPT_REENTRANT,
	DLOCK_OPT_REVOCABLE,
	DLOCK_OPTIONS /* how many there are */
} dlock_option_id;

/* What PHP value an option takes and how it is stored. */
typedef enum dlock_option_type {
	DLOCK_OT_STRING,  /* a string: checked and stored by the row's set(), else by the glue
	                     (with max > 0: at most max bytes) */
	DLOCK_OT_INT,     /* an int in [min, max], stored as an int at offset */
	DLOCK_OT_SECONDS, /* an int or float number of seconds in [min, max], stored as
	                     int64_t milliseconds at offset */
	DLOCK_OT_BOOL     /* a bool, stored by the glue */
} dlock_option_type;

#define DLOCK_BACKEND_BIT(id) (1u << (unsigned)(id))
#define DLOCK_BACKENDS_ALL    ((1u << DLOCK_BACKENDS) - 1u)

#define DLOCK_OPTF_CEIL  1u /* SECONDS: milliseconds rounded up, not down */
#define DLOCK_OPTF_WHERE 2u /* names the server: at most one such option is given */

#define DLOCK_OPT_GLUE ((size_t)-1) /* offset of an option the glue stores itself */

/* One option. */
typedef struct dlock_option {
	dlock_option_id id;
	const char *name;       /* the key in the constructors' $options array */
	dlock_option_type type; /* what value it takes */
	double min, max;        /* INT, SECONDS: accepted range, inclusive; STRING: max bytes */
	const char *unit;       /* INT: appended to the range message, e.g. " (milliseconds)" */
	unsigned flags;         /* DLOCK_OPTF_* */
	unsigned backends;      /* DLOCK_BACKEND_BIT()s of the backends that accept it */
	const char *scope_note; /* appended to "applies to <backends>" when another backend is
	                           given it; "@" stands for that backend's name */
	const char *ini;        /* its INI twin ("dlock.lease") or NULL */
	size_t offset;          /* INT, SECONDS: its field in dlock_target; else DLOCK_OPT_GLUE */
	/* STRING: checks s[0..len) and stores it in t; DLOCK_OK, or a status with
	 * err->msg the whole message ("option \"x\" ..."). NULL: the glue stores it */
	int (*set)(dlock_target *t, const char *s, size_t len, dlock_err *err);
} dlock_option;

/* The option called name[0..len), or NULL when there is none. */
const dlock_option *dlock_option_find(const char *name, size_t len);

/* The row of option id (id < DLOCK_OPTIONS). */
const dlock_option *dlock_option_get(dlock_option_id id);

/* Writes the options' names, ", "-separated in table order, to buf (size
 * bytes, truncated with a NUL). */
void dlock_option_names(char *buf, size_t size);

/* Checks integer v for INT option o and stores it in t. DLOCK_OK, or
 * DLOCK_EINVAL with err->msg the range message. */
int dlock_option_set_int(const dlock_option *o, int64_t v, dlock_target *t, dlock_err *err);

/* Checks v seconds (finite, in o's range) for SECONDS option o and stores it
 * in t as milliseconds. DLOCK_OK, or DLOCK_EINVAL with err->msg the range
 * message. */
int dlock_option_set_seconds(const dlock_option *o, double v, dlock_target *t, dlock_err *err);

/* Checks the length of a STRING option o the glue stores (o->max bytes at
 * most when max > 0). DLOCK_OK, or DLOCK_EINVAL with err->msg. */
int dlock_option_check_len(const dlock_option *o, size_t len, dlock_err *err);

/* Checks the options given (given[0..n), in the order given) once the
 * backend is known: at most one DLOCK_OPTF_WHERE option, then every option
 * accepted by backend, the first that is not named. DLOCK_OK, or
 * DLOCK_EINVAL with err->msg the message (without the argument's name). */
int dlock_option_check_scope(const dlock_option *const *given, size_t n, dlock_backend_id backend,
                             dlock_err *err);

#endif
