dnl config.m4 for the dlock extension: distributed locks on Apache ZooKeeper, Redis,
dnl PostgreSQL and MySQL/MariaDB.

PHP_ARG_ENABLE([dlock],
  [whether to enable dlock support],
  [AS_HELP_STRING([--enable-dlock], [Enable dlock (distributed locks on ZooKeeper)])],
  [yes])

PHP_ARG_WITH([hiredis-dir],
  [for hiredis (the Redis backend)],
  [AS_HELP_STRING([[--with-hiredis-dir[=DIR]]], [dlock: prefix of hiredis (default: /usr/local, /usr)])],
  [yes], [no])

PHP_ARG_WITH([zookeeper-dir],
  [for the ZooKeeper C client (libzookeeper_mt)],
  [AS_HELP_STRING([[--with-zookeeper-dir[=DIR]]], [dlock: prefix of libzookeeper_mt (default: /usr/local, /usr)])],
  [yes], [no])

if test "$PHP_DLOCK" != "no"; then
  dnl The lock core keeps process-wide state (the session pool, the registry
  dnl of held locks) and a session's waits are not shared between threads:
  dnl thread-safe (ZTS) builds are refused rather than half supported.
  if test "$PHP_THREAD_SAFETY" = "yes"; then
    AC_MSG_ERROR([dlock supports only non-thread-safe (NTS) PHP builds; this PHP is ZTS])
  fi
  AC_MSG_CHECKING([for zookeeper/zookeeper.h])
  ZK_DIR=""
  for i in $PHP_ZOOKEEPER_DIR /usr/local /usr; do
    if test -r "$i/include/zookeeper/zookeeper.h"; then
      ZK_DIR=$i
      break
    fi
  done
  if test -z "$ZK_DIR"; then
    AC_MSG_RESULT([not found])
    AC_MSG_ERROR([zookeeper/zookeeper.h not found: install libzookeeper-mt-dev or pass --with-zookeeper-dir])
  fi
  AC_MSG_RESULT([found in $ZK_DIR])

  PHP_ADD_INCLUDE([$ZK_DIR/include])
  PHP_CHECK_LIBRARY([zookeeper_mt], [zoo_create2],
    [PHP_ADD_LIBRARY_WITH_PATH([zookeeper_mt], [$ZK_DIR/$PHP_LIBDIR], [DLOCK_SHARED_LIBADD])],
    [AC_MSG_ERROR([libzookeeper_mt with zoo_create2 (ZooKeeper >= 3.5) not found])],
    [-L$ZK_DIR/$PHP_LIBDIR -lpthread])
  AC_MSG_CHECKING([for hiredis/hiredis.h])
  HIREDIS_DIR=""
  for i in $PHP_HIREDIS_DIR /usr/local /usr; do
    if test -r "$i/include/hiredis/hiredis.h"; then
      HIREDIS_DIR=$i
      break
    fi
  done
  if test -z "$HIREDIS_DIR"; then
    AC_MSG_RESULT([not found])
    AC_MSG_ERROR([hiredis/hiredis.h not found: install libhiredis-dev or pass --with-hiredis-dir])
  fi
  AC_MSG_RESULT([found in $HIREDIS_DIR])
  PHP_ADD_INCLUDE([$HIREDIS_DIR/include])
  PHP_CHECK_LIBRARY([hiredis], [redisGetReplyFromReader],
    [PHP_ADD_LIBRARY_WITH_PATH([hiredis], [$HIREDIS_DIR/$PHP_LIBDIR], [DLOCK_SHARED_LIBADD])],
    [AC_MSG_ERROR([hiredis with redisGetReplyFromReader (hiredis >= 0.13) not found])],
    [-L$HIREDIS_DIR/$PHP_LIBDIR])
  dnl The SQL backends: libpq (PostgreSQL) and MariaDB Connector/C (MySQL
  dnl and MariaDB), found through pkg-config where it knows them.
  AC_MSG_CHECKING([for libpq (the PostgreSQL backend)])
  if test -n "$PKG_CONFIG" && $PKG_CONFIG --exists libpq; then
    PQ_CFLAGS=`$PKG_CONFIG --cflags libpq`
    PQ_LIBS=`$PKG_CONFIG --libs libpq`
  elif test -r /usr/include/postgresql/libpq-fe.h; then
    PQ_CFLAGS="-I/usr/include/postgresql"
    PQ_LIBS="-lpq"
  else
    AC_MSG_RESULT([not found])
    AC_MSG_ERROR([libpq-fe.h not found: install libpq-dev])
  fi
  AC_MSG_RESULT([$PQ_CFLAGS $PQ_LIBS])
  AC_MSG_CHECKING([for MariaDB Connector/C (the MySQL backend)])
  if test -n "$PKG_CONFIG" && $PKG_CONFIG --exists libmariadb; then
    MY_CFLAGS=`$PKG_CONFIG --cflags libmariadb`
    MY_LIBS=`$PKG_CONFIG --libs libmariadb`
  elif test -r /usr/include/mariadb/mysql.h; then
    MY_CFLAGS="-I/usr/include/mariadb"
    MY_LIBS="-lmariadb"
  else
    AC_MSG_RESULT([not found])
    AC_MSG_ERROR([mariadb/mysql.h not found: install libmariadb-dev])
  fi
  AC_MSG_RESULT([$MY_CFLAGS $MY_LIBS])
  PHP_EVAL_INCLINE([$PQ_CFLAGS $MY_CFLAGS])
  PHP_EVAL_LIBLINE([$PQ_LIBS $MY_LIBS], [DLOCK_SHARED_LIBADD])
  PHP_ADD_LIBRARY([pthread], [1], [DLOCK_SHARED_LIBADD])
  PHP_SUBST([DLOCK_SHARED_LIBADD])

  AC_DEFINE([HAVE_DLOCK], [1], [Whether dlock is enabled])
  PHP_NEW_EXTENSION([dlock],
    [dlock.c dlock_shared.c dlock_lock_class.c dlock_rw_class.c dlock_multi_class.c core/dlock_err.c core/dlock_wait.c core/dlock_participant.c core/dlock_dsn.c core/dlock_name.c core/dlock_handle.c core/dlock_fault.c core/redis/dlock_redis_conn.c core/redis/dlock_redis_script.c core/redis/dlock_redis_pool.c core/redis/dlock_redis_watchdog.c core/redis/dlock_redis_lock.c core/redis/dlock_redis_backend.c core/sql/dlock_pg.c core/sql/dlock_pg_conn.c core/sql/dlock_sha256.c core/sql/dlock_my.c core/sql/dlock_my_conn.c core/sql/dlock_sql_pool.c core/sql/dlock_sql_lock.c core/sql/dlock_sql_sem.c core/sql/dlock_sql_backend.c core/zk/dlock_zk_backend.c core/zk/dlock_zk_err.c core/zk/dlock_zk_path.c core/zk/dlock_zk_rule.c core/zk/dlock_zk_reaper.c core/zk/dlock_zk_session.c core/zk/dlock_zk_call.c core/zk/dlock_zk_create.c core/zk/dlock_zk_registry.c core/zk/dlock_zk_pool.c core/zk/dlock_zk_lock.c core/zk/dlock_zk_hold.c core/zk/dlock_zk_queue.c],
    [$ext_shared], [], [-DTHREADED -DZEND_ENABLE_STATIC_TSRMLS_CACHE=1])
  PHP_ADD_BUILD_DIR([$ext_builddir/core])
  PHP_ADD_BUILD_DIR([$ext_builddir/core/redis])
  PHP_ADD_BUILD_DIR([$ext_builddir/core/sql])
  PHP_ADD_BUILD_DIR([$ext_builddir/core/zk])
fi
