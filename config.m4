dnl config.m4 for the dlock extension: distributed locks on Apache ZooKeeper, Redis,
dnl PostgreSQL and MySQL/MariaDB.

PHP_ARG_ENABLE([dlock],
  [whether to enable dlock support],
  [AS_HELP_STRING([--enable-dlock], [Enable dlock (distributed locks on ZooKeeper)])],
  [yes])

PHP_ARG_WITH([dlock-zookeeper],
  [for the dlock ZooKeeper backend],
  [AS_HELP_STRING([[--with-dlock-zookeeper[=DIR]]], [dlock: the ZooKeeper backend, libzookeeper_mt under DIR (default: auto, built when found in /usr/local or /usr; no: left out)])],
  [auto], [no])

PHP_ARG_WITH([dlock-redis],
  [for the dlock Redis backend],
  [AS_HELP_STRING([[--with-dlock-redis[=DIR]]], [dlock: the Redis backend, hiredis under DIR (default: auto; no: left out)])],
  [auto], [no])

PHP_ARG_WITH([dlock-pgsql],
  [for the dlock PostgreSQL backend],
  [AS_HELP_STRING([[--with-dlock-pgsql]], [dlock: the PostgreSQL backend, libpq through pkg-config (default: auto; no: left out)])],
  [auto], [no])

PHP_ARG_WITH([dlock-mysql],
  [for the dlock MySQL/MariaDB backend],
  [AS_HELP_STRING([[--with-dlock-mysql]], [dlock: the MySQL/MariaDB backend, MariaDB Connector/C through pkg-config (default: auto; no: left out)])],
  [auto], [no])

PHP_ARG_WITH([dlock-redis-tls],
  [for TLS (rediss://) in the dlock Redis backend],
  [AS_HELP_STRING([[--without-dlock-redis-tls]], [dlock: no rediss:// even when hiredis has hiredis_ssl (default: auto, built when hiredis_ssl >= 1.0 and OpenSSL are found)])],
  [auto], [no])

dnl The 0.2 spellings of the two prefixes, still read.
PHP_ARG_WITH([hiredis-dir], [for hiredis], [AS_HELP_STRING([[--with-hiredis-dir=DIR]], [dlock: same as --with-dlock-redis=DIR])], [no], [no])
PHP_ARG_WITH([zookeeper-dir], [for libzookeeper_mt], [AS_HELP_STRING([[--with-zookeeper-dir=DIR]], [dlock: same as --with-dlock-zookeeper=DIR])], [no], [no])

if test "$PHP_DLOCK" != "no"; then
  dnl The lock core keeps process-wide state (the session pool, the registry
  dnl of held locks) and a session's waits are not shared between threads:
  dnl thread-safe (ZTS) builds are refused rather than half supported.
  if test "$PHP_THREAD_SAFETY" = "yes"; then
    AC_MSG_ERROR([dlock supports only non-thread-safe (NTS) PHP builds; this PHP is ZTS])
  fi
  dnl Each backend is built when its client library is found (or required
  dnl with =yes/=DIR, left out with =no); DLOCK_BUILT and DLOCK_OFF say which.
  DLOCK_SOURCES="dlock.c dlock_shared.c dlock_revoke_glue.c dlock_lock_class.c dlock_rw_class.c dlock_multi_class.c dlock_metrics.c core/dlock_err.c core/dlock_wait.c core/dlock_participant.c core/dlock_dsn.c core/dlock_dsn_part.c core/dlock_dsn_tls.c core/dlock_target.c core/dlock_name.c core/dlock_option.c core/dlock_handle.c core/dlock_backends.c core/dlock_held.c core/dlock_fault.c core/dlock_idle.c core/dlock_revoke.c core/dlock_stats.c dlock_admin_class.c"
  DLOCK_BUILT=""
  DLOCK_REDIS_FOUND=""
  DLOCK_OFF=""
  dlock_want() { dnl $1 value of the switch; prints auto, yes or no
    case "$1" in no) echo no ;; auto) echo auto ;; *) echo yes ;; esac
  }
  dlock_missing() { dnl $1 switch value, $2 backend, $3 what is missing
    if test "`dlock_want $1`" = "yes"; then
      AC_MSG_ERROR([the dlock $2 backend was asked for, but $3])
    fi
    DLOCK_OFF="$DLOCK_OFF $2 ($3)"
  }

  dnl ZooKeeper: libzookeeper_mt >= 3.5 (zoo_create2)
  test "$PHP_ZOOKEEPER_DIR" != "no" && test "$PHP_DLOCK_ZOOKEEPER" = "auto" && PHP_DLOCK_ZOOKEEPER=$PHP_ZOOKEEPER_DIR
  if test "$PHP_DLOCK_ZOOKEEPER" = "no"; then
    DLOCK_OFF="$DLOCK_OFF zookeeper (--without-dlock-zookeeper)"
  else
    AC_MSG_CHECKING([for zookeeper/zookeeper.h])
    ZK_DIR=""
    for i in $PHP_DLOCK_ZOOKEEPER /usr/local /usr; do
      if test -r "$i/include/zookeeper/zookeeper.h"; then
        ZK_DIR=$i
        break
      fi
    done
    if test -z "$ZK_DIR"; then
      AC_MSG_RESULT([not found])
      dlock_missing "$PHP_DLOCK_ZOOKEEPER" zookeeper "zookeeper/zookeeper.h was not found: install libzookeeper-mt-dev"
    else
      AC_MSG_RESULT([found in $ZK_DIR])
      PHP_CHECK_LIBRARY([zookeeper_mt], [zoo_create2],
        [PHP_ADD_INCLUDE([$ZK_DIR/include])
         PHP_ADD_LIBRARY_WITH_PATH([zookeeper_mt], [$ZK_DIR/$PHP_LIBDIR], [DLOCK_SHARED_LIBADD])
         AC_DEFINE([DLOCK_WITH_ZOOKEEPER], [1], [dlock: the ZooKeeper backend is built])
         DLOCK_BUILT="$DLOCK_BUILT zookeeper"
         DLOCK_SOURCES="$DLOCK_SOURCES core/zk/dlock_zk_backend.c core/zk/dlock_zk_err.c core/zk/dlock_zk_path.c core/zk/dlock_zk_rule.c core/zk/dlock_zk_reaper.c core/zk/dlock_zk_session.c core/zk/dlock_zk_probe.c core/zk/dlock_zk_resolver.c core/zk/dlock_zk_watch.c core/zk/dlock_zk_log.c core/zk/dlock_zk_call.c core/zk/dlock_zk_create.c core/zk/dlock_zk_pool.c core/zk/dlock_zk_lock.c core/zk/dlock_zk_enqueue.c core/zk/dlock_zk_hold.c core/zk/dlock_zk_queue.c core/zk/dlock_zk_revoke.c core/zk/dlock_zk_admin.c"],
        [dlock_missing "$PHP_DLOCK_ZOOKEEPER" zookeeper "libzookeeper_mt with zoo_create2 (ZooKeeper >= 3.5) was not found"],
        [-L$ZK_DIR/$PHP_LIBDIR -lpthread])
    fi
  fi

  dnl Redis: hiredis >= 0.13 (redisGetReplyFromReader)
  test "$PHP_HIREDIS_DIR" != "no" && test "$PHP_DLOCK_REDIS" = "auto" && PHP_DLOCK_REDIS=$PHP_HIREDIS_DIR
  if test "$PHP_DLOCK_REDIS" = "no"; then
    DLOCK_OFF="$DLOCK_OFF redis (--without-dlock-redis)"
  else
    AC_MSG_CHECKING([for hiredis/hiredis.h])
    HIREDIS_DIR=""
    for i in $PHP_DLOCK_REDIS /usr/local /usr; do
      if test -r "$i/include/hiredis/hiredis.h"; then
        HIREDIS_DIR=$i
        break
      fi
    done
    if test -z "$HIREDIS_DIR"; then
      AC_MSG_RESULT([not found])
      dlock_missing "$PHP_DLOCK_REDIS" redis "hiredis/hiredis.h was not found: install libhiredis-dev"
    else
      AC_MSG_RESULT([found in $HIREDIS_DIR])
      PHP_CHECK_LIBRARY([hiredis], [redisGetReplyFromReader],
        [PHP_ADD_INCLUDE([$HIREDIS_DIR/include])
         PHP_ADD_LIBRARY_WITH_PATH([hiredis], [$HIREDIS_DIR/$PHP_LIBDIR], [DLOCK_SHARED_LIBADD])
         AC_DEFINE([DLOCK_WITH_REDIS], [1], [dlock: the Redis backend is built])
         DLOCK_BUILT="$DLOCK_BUILT redis"
         DLOCK_REDIS_FOUND=yes
         DLOCK_SOURCES="$DLOCK_SOURCES core/redis/dlock_redis_conn.c core/redis/dlock_redis_script.c core/redis/dlock_redis_pool.c core/redis/dlock_redis_watchdog.c core/redis/dlock_redis_lock.c core/redis/dlock_redis_hold.c core/redis/dlock_redis_backend.c core/redis/dlock_redis_revoke.c core/redis/dlock_redis_admin.c"],
        [dlock_missing "$PHP_DLOCK_REDIS" redis "hiredis with redisGetReplyFromReader (hiredis >= 0.13) was not found"],
        [-L$HIREDIS_DIR/$PHP_LIBDIR])
    fi
  fi

  dnl rediss://: hiredis 1.x's hiredis_ssl (redisInitiateSSL, with the SSL
  dnl object made by dlock) and OpenSSL. Debian 12's hiredis 0.14.1 has none:
  dnl the build then refuses rediss:// naming the version (phpinfo() says so).
  DLOCK_REDIS_TLS_NOTE=""
  if test "$DLOCK_REDIS_FOUND" = "yes" && test "$PHP_DLOCK_REDIS_TLS" != "no"; then
    AC_MSG_CHECKING([for hiredis_ssl and OpenSSL (rediss://)])
    SSL_LIBS=""
    if test -r "$HIREDIS_DIR/include/hiredis/hiredis_ssl.h"; then
      if test -n "$PKG_CONFIG" && $PKG_CONFIG --exists openssl; then
        SSL_CFLAGS=`$PKG_CONFIG --cflags openssl`
        SSL_LIBS=`$PKG_CONFIG --libs openssl`
      elif test -r /usr/include/openssl/ssl.h; then
        SSL_CFLAGS=""
        SSL_LIBS="-lssl -lcrypto"
      fi
    fi
    if test -z "$SSL_LIBS"; then
      AC_MSG_RESULT([no])
      DLOCK_REDIS_TLS_NOTE="hiredis/hiredis_ssl.h or OpenSSL's headers not found"
    else
      AC_MSG_RESULT([headers found])
      dnl a link test of our own: libhiredis_ssl must come before libhiredis
      dnl and OpenSSL on the link line, which PHP_CHECK_LIBRARY does not do
      dlock_save_LIBS=$LIBS
      dlock_save_CPPFLAGS=$CPPFLAGS
      LIBS="-L$HIREDIS_DIR/$PHP_LIBDIR -lhiredis_ssl -lhiredis $SSL_LIBS $LIBS"
      CPPFLAGS="$CPPFLAGS -I$HIREDIS_DIR/include $SSL_CFLAGS"
      AC_MSG_CHECKING([for redisInitiateSSL in -lhiredis_ssl])
      AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <openssl/ssl.h>
#include <hiredis/hiredis.h>
#include <hiredis/hiredis_ssl.h>]],
                                      [[return redisInitiateSSL((redisContext *)0, (SSL *)0);]])],
        [dlock_ssl_ok=yes], [dlock_ssl_ok=no])
      LIBS=$dlock_save_LIBS
      CPPFLAGS=$dlock_save_CPPFLAGS
      AC_MSG_RESULT([$dlock_ssl_ok])
      if test "$dlock_ssl_ok" = "yes"; then
        PHP_EVAL_INCLINE([$SSL_CFLAGS])
        PHP_ADD_LIBRARY_WITH_PATH([hiredis_ssl], [$HIREDIS_DIR/$PHP_LIBDIR], [DLOCK_SHARED_LIBADD])
        PHP_EVAL_LIBLINE([$SSL_LIBS], [DLOCK_SHARED_LIBADD])
        AC_DEFINE([DLOCK_WITH_REDIS_TLS], [1], [dlock: rediss:// through hiredis_ssl])
        DLOCK_SOURCES="$DLOCK_SOURCES core/redis/dlock_redis_tls.c"
      else
        DLOCK_REDIS_TLS_NOTE="libhiredis_ssl with redisInitiateSSL did not link"
      fi
    fi
    if test -n "$DLOCK_REDIS_TLS_NOTE"; then
      if test "$PHP_DLOCK_REDIS_TLS" = "yes"; then
        AC_MSG_ERROR([rediss:// was asked for (--with-dlock-redis-tls), but $DLOCK_REDIS_TLS_NOTE: install libhiredis-dev >= 1.0 and libssl-dev])
      fi
      AC_MSG_NOTICE([dlock: rediss:// left out ($DLOCK_REDIS_TLS_NOTE)])
    fi
  fi

  dnl The SQL backends: libpq (PostgreSQL) and MariaDB Connector/C (MySQL
  dnl and MariaDB), found through pkg-config where it knows them. They share
  dnl core/sql's generic files.
  DLOCK_SQL=""
  if test "$PHP_DLOCK_PGSQL" = "no"; then
    DLOCK_OFF="$DLOCK_OFF postgres (--without-dlock-pgsql)"
  else
    AC_MSG_CHECKING([for libpq (the PostgreSQL backend)])
    PQ_CFLAGS="" PQ_LIBS=""
    if test -n "$PKG_CONFIG" && $PKG_CONFIG --exists libpq; then
      PQ_CFLAGS=`$PKG_CONFIG --cflags libpq`
      PQ_LIBS=`$PKG_CONFIG --libs libpq`
    elif test -r /usr/include/postgresql/libpq-fe.h; then
      PQ_CFLAGS="-I/usr/include/postgresql"
      PQ_LIBS="-lpq"
    fi
    if test -z "$PQ_LIBS"; then
      AC_MSG_RESULT([not found])
      dlock_missing "$PHP_DLOCK_PGSQL" postgres "libpq-fe.h was not found: install libpq-dev"
    else
      AC_MSG_RESULT([$PQ_CFLAGS $PQ_LIBS])
      PHP_EVAL_INCLINE([$PQ_CFLAGS])
      PHP_EVAL_LIBLINE([$PQ_LIBS], [DLOCK_SHARED_LIBADD])
      AC_DEFINE([DLOCK_WITH_POSTGRES], [1], [dlock: the PostgreSQL backend is built])
      DLOCK_BUILT="$DLOCK_BUILT postgres"
      DLOCK_SQL=yes
      DLOCK_SOURCES="$DLOCK_SOURCES core/sql/dlock_pg.c core/sql/dlock_pg_conn.c core/sql/dlock_pg_setup.c core/sql/dlock_pg_admin.c"
    fi
  fi
  if test "$PHP_DLOCK_MYSQL" = "no"; then
    DLOCK_OFF="$DLOCK_OFF mysql (--without-dlock-mysql)"
  else
    AC_MSG_CHECKING([for MariaDB Connector/C (the MySQL backend)])
    MY_CFLAGS="" MY_LIBS=""
    if test -n "$PKG_CONFIG" && $PKG_CONFIG --exists libmariadb; then
      MY_CFLAGS=`$PKG_CONFIG --cflags libmariadb`
      MY_LIBS=`$PKG_CONFIG --libs libmariadb`
    elif test -r /usr/include/mariadb/mysql.h; then
      MY_CFLAGS="-I/usr/include/mariadb"
      MY_LIBS="-lmariadb"
    fi
    if test -z "$MY_LIBS"; then
      AC_MSG_RESULT([not found])
      dlock_missing "$PHP_DLOCK_MYSQL" mysql "mariadb/mysql.h was not found: install libmariadb-dev"
    else
      AC_MSG_RESULT([$MY_CFLAGS $MY_LIBS])
      PHP_EVAL_INCLINE([$MY_CFLAGS])
      PHP_EVAL_LIBLINE([$MY_LIBS], [DLOCK_SHARED_LIBADD])
      AC_DEFINE([DLOCK_WITH_MYSQL], [1], [dlock: the MySQL/MariaDB backend is built])
      DLOCK_BUILT="$DLOCK_BUILT mysql"
      DLOCK_SQL=yes
      DLOCK_SOURCES="$DLOCK_SOURCES core/sql/dlock_my.c core/sql/dlock_my_session.c core/sql/dlock_my_conn.c core/sql/dlock_my_admin.c"
    fi
  fi
  if test -n "$DLOCK_SQL"; then
    DLOCK_SOURCES="$DLOCK_SOURCES core/sql/dlock_sha256.c core/sql/dlock_sql_pool.c core/sql/dlock_sql_lock.c core/sql/dlock_sql_hold.c core/sql/dlock_sql_sem.c core/sql/dlock_sql_backend.c"
  fi
  if test -z "$DLOCK_BUILT"; then
    AC_MSG_ERROR([dlock needs at least one backend, and none was built:$DLOCK_OFF])
  fi
  AC_MSG_NOTICE([dlock backends built:$DLOCK_BUILT])
  if test -n "$DLOCK_OFF"; then
    AC_MSG_WARN([dlock backends left out:$DLOCK_OFF])
  fi
  PHP_ADD_LIBRARY([pthread], [1], [DLOCK_SHARED_LIBADD])
  PHP_SUBST([DLOCK_SHARED_LIBADD])

  AC_DEFINE([HAVE_DLOCK], [1], [Whether dlock is enabled])
  PHP_NEW_EXTENSION([dlock], [$DLOCK_SOURCES],
    [$ext_shared], [], [-DTHREADED -DZEND_ENABLE_STATIC_TSRMLS_CACHE=1 -Wall -Wextra -Wno-unused-parameter])
  PHP_ADD_BUILD_DIR([$ext_builddir/core])
  PHP_ADD_BUILD_DIR([$ext_builddir/core/redis])
  PHP_ADD_BUILD_DIR([$ext_builddir/core/sql])
  PHP_ADD_BUILD_DIR([$ext_builddir/core/zk])
fi
