/* TEMPORARY stub until the MySQL driver lands */
#include "dlock_sql_driver.h"
static int s_connect(const dlock_target *t, int64_t d, const dlock_interrupt *i, dlock_sql_conn **o, dlock_err *e)
{ (void)t; (void)d; (void)i; *o = NULL; return dlock_err_set(e, DLOCK_ECONNECT, 0, "mysql: not yet"); }
static void s_close(dlock_sql_conn *c) { (void)c; }
const dlock_sql_driver dlock_my_driver = {"mysql", 0, s_connect, s_close, s_close, 0, 0, 0, 0, 0, 0};
