/* dlock_my_admin.h: the operator's side of the MySQL/MariaDB driver (the
 * dlock command): held locks by name, the forced break. */
#ifndef DLOCK_MY_ADMIN_H
#define DLOCK_MY_ADMIN_H

#include <stddef.h>
#include <stdint.h>

#include "dlock_sql_driver.h"

/* The SQL expression of name[0..len)'s server lock name on c (its database
 * qualifies it; hashed when long), malloc()ed; NULL when out of memory or
 * the name is empty or too long. dlock_my.c's. */
char *dlock_my_lock_name_sql(const dlock_sql_conn *c, const char *name, size_t len);

/* The driver's list and terminate (contracts in dlock_sql_driver.h). list:
 * the names in the token table that start with prefix and whose server lock
 * is held now, one holder each (waiters are not visible, see dlock_my.c).
 * terminate: KILL CONNECTION of the session IS_USED_LOCK names (two
 * statements: a session that released in between is ended all the same). */
int dlock_my_admin_list(dlock_sql_conn *c, const char *prefix, size_t len, int64_t deadline,
                        dlock_lock_entry **out, size_t *count, dlock_err *err);
int dlock_my_admin_break(dlock_sql_conn *c, const char *name, size_t len, int slots,
                         int64_t deadline, int *broken, dlock_err *err);

#endif
