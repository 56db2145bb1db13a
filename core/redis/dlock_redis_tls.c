/* dlock_redis_tls.c: the TLS handshake of a rediss:// connection (OpenSSL
 * context from the DSN's knobs, server name check, SNI) handed to
 * hiredis_ssl, and the one question the read loop asks of it. */
#include "../dlock_build.h"

/* only in builds whose hiredis has hiredis_ssl (configure's
 * DLOCK_WITH_REDIS_TLS); the standalone core build leaves it out */
#ifdef DLOCK_WITH_REDIS_TLS

#include "dlock_redis_tls.h"

#include "../dlock_dsn.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>

#include <hiredis/hiredis_ssl.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

static pthread_once_t dlock_redis_tls_once = PTHREAD_ONCE_INIT;

static void dlock_redis_tls_init(void)
{
	redisInitOpenSSL(); /* OpenSSL's own one-time set-up (a no-op on 1.1+) */
}

/* The DSN's TLS knobs, pointing into a split copy of t->params. */
typedef struct dlock_redis_tls_cfg {
	const char *cacert, *cacertdir, *cert, *key, *sni;
	int verify; /* 0 only for verify=off */
} dlock_redis_tls_cfg;

static void dlock_redis_tls_read_cfg(int n, const char **keys, const char **vals,
                                     dlock_redis_tls_cfg *cfg)
{
	int i;

	memset(cfg, 0, sizeof(*cfg));
	cfg->verify = 1;
	for (i = 0; i < n; i++) {
		if (strcmp(keys[i], "cacert") == 0) {
			cfg->cacert = vals[i];
		} else if (strcmp(keys[i], "cacertdir") == 0) {
			cfg->cacertdir = vals[i];
		} else if (strcmp(keys[i], "cert") == 0) {
			cfg->cert = vals[i];
		} else if (strcmp(keys[i], "key") == 0) {
			cfg->key = vals[i];
		} else if (strcmp(keys[i], "sni") == 0) {
			cfg->sni = vals[i];
		} else if (strcmp(keys[i], "verify") == 0) {
			cfg->verify = strcasecmp(vals[i], "off") != 0;
		}
	}
}

/* OpenSSL's reason for the last failure, or what when it has none. */
static const char *dlock_redis_tls_reason(const char *what)
{
	const char *r = ERR_reason_error_string(ERR_peek_last_error());

	return r ? r : what;
}

/* Makes *out a context with cfg's trust and client certificate. Returns
 * DLOCK_OK, or DLOCK_ECONNECT naming the file, or DLOCK_ENOMEM (*out NULL). */
static int dlock_redis_tls_ctx(const dlock_redis_tls_cfg *cfg, const char *where, SSL_CTX **out,
                               dlock_err *err)
{
	SSL_CTX *sctx = SSL_CTX_new(TLS_client_method());

	*out = NULL;
	if (!sctx) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	SSL_CTX_set_min_proto_version(sctx, TLS1_2_VERSION);
	SSL_CTX_set_verify(sctx, cfg->verify ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, NULL);
	if (cfg->verify && (cfg->cacert || cfg->cacertdir)) {
		if (SSL_CTX_load_verify_locations(sctx, cfg->cacert, cfg->cacertdir) != 1) {
			dlock_err_set(
			    err, DLOCK_ECONNECT, 0,
			    "cannot connect to %s: cannot load %s %s (missing, unreadable or not PEM: %s)",
			    where, cfg->cacert ? "cacert" : "cacertdir",
			    cfg->cacert ? cfg->cacert : cfg->cacertdir, dlock_redis_tls_reason("unreadable"));
			goto fail;
		}
	} else if (cfg->verify && SSL_CTX_set_default_verify_paths(sctx) != 1) {
		dlock_err_set(err, DLOCK_ECONNECT, 0,
		              "cannot connect to %s: cannot load the system's CA store: %s", where,
		              dlock_redis_tls_reason("unreadable"));
		goto fail;
	}
	if (!cfg->cert != !cfg->key) {
		dlock_err_set(err, DLOCK_ECONNECT, 0,
		              "cannot connect to %s: a client certificate needs both cert and key", where);
		goto fail;
	}
	if (cfg->cert && SSL_CTX_use_certificate_chain_file(sctx, cfg->cert) != 1) {
		dlock_err_set(err, DLOCK_ECONNECT, 0, "cannot connect to %s: cannot load cert %s: %s",
		              where, cfg->cert, dlock_redis_tls_reason("unreadable"));
		goto fail;
	}
	if (cfg->key && (SSL_CTX_use_PrivateKey_file(sctx, cfg->key, SSL_FILETYPE_PEM) != 1 ||
	                 SSL_CTX_check_private_key(sctx) != 1)) {
		/* the path only: OpenSSL's reason never quotes the key */
		dlock_err_set(err, DLOCK_ECONNECT, 0,
		              "cannot connect to %s: cannot load key %s (or it does not match cert): %s",
		              where, cfg->key, dlock_redis_tls_reason("unreadable"));
		goto fail;
	}
	*out = sctx;
	return DLOCK_OK;
fail:
	SSL_CTX_free(sctx);
	return DLOCK_ECONNECT;
}

int dlock_redis_tls_start(redisContext *ctx, const dlock_target *t, const char *host, int64_t limit,
                          const char *where, void **out, dlock_err *err)
{
	const char *keys[16], *vals[16], *name;
	char *buf = NULL;
	unsigned char addr[16];
	dlock_redis_tls_cfg cfg;
	SSL_CTX *sctx = NULL;
	SSL *ssl = NULL;
	struct timeval tv;
	int64_t ms;
	int n, ip, rc = DLOCK_ECONNECT;

	*out = NULL;
	pthread_once(&dlock_redis_tls_once, dlock_redis_tls_init);
	if ((n = dlock_dsn_params_split(t->params, &buf, keys, vals, 16)) < 0) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	dlock_redis_tls_read_cfg(n, keys, vals, &cfg);
	ERR_clear_error();
	if ((rc = dlock_redis_tls_ctx(&cfg, where, &sctx, err)) != DLOCK_OK) {
		goto done;
	}
	if (!(ssl = SSL_new(sctx))) {
		rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		goto done;
	}
	/* the name the certificate must carry: sni= (e.g. when dialling an
	 * address whose certificate names the host), else the DSN's host */
	name = cfg.sni ? cfg.sni : host;
	ip = inet_pton(AF_INET, name, addr) == 1 || inet_pton(AF_INET6, name, addr) == 1;
	if ((!ip && SSL_set_tlsext_host_name(ssl, name) != 1) ||
	    (cfg.verify && !ip && SSL_set1_host(ssl, name) != 1) ||
	    (cfg.verify && ip && X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name) != 1)) {
		rc = dlock_err_set(err, DLOCK_ECONNECT, 0, "cannot connect to %s: bad server name", where);
		goto done;
	}
	/* the handshake is a blocking one: its socket waits at most until limit */
	ms = limit - dlock_now_ms();
	if (ms < 1) {
		ms = 1;
	}
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	redisSetTimeout(ctx, tv);
	if (redisInitiateSSL(ctx, ssl) != REDIS_OK) {
		long v = SSL_get_verify_result(ssl);

		if (v != X509_V_OK) {
			rc = dlock_err_set(err, DLOCK_ECONNECT, 0,
			                   "cannot connect to %s: TLS: the server's certificate was refused: "
			                   "%s",
			                   where, X509_verify_cert_error_string(v));
		} else if (dlock_now_ms() >= limit - 5) {
			rc = dlock_err_set(err, DLOCK_ECONNECT, 0,
			                   "cannot connect to %s: no TLS handshake within connect_timeout "
			                   "(a server without TLS on that port?)",
			                   where);
		} else {
			rc = dlock_err_set(err, DLOCK_ECONNECT, 0,
			                   "cannot connect to %s: TLS handshake failed: %s (a server without "
			                   "TLS on that port?)",
			                   where, ctx->errstr[0] ? ctx->errstr : "connection closed");
		}
		goto done; /* on failure hiredis leaves ssl to us */
	}
	/* from here the context reads only after poll() says so: non-blocking,
	 * so a TLS record that is not application data (a 1.3 session ticket)
	 * makes a read return nothing instead of waiting for the next reply */
	ctx->flags &= ~REDIS_BLOCK;
	if (fcntl(ctx->fd, F_SETFL, fcntl(ctx->fd, F_GETFL) | O_NONBLOCK) != 0) {
		rc = dlock_err_set(err, DLOCK_ECONNECT, 0, "cannot connect to %s: fcntl: %s", where,
		                   strerror(errno));
		goto done_owned;
	}
	*out = ssl;
	rc = DLOCK_OK;
done_owned:
	ssl = NULL; /* ctx owns it now */
done:
	if (ssl) {
		SSL_free(ssl);
	}
	SSL_CTX_free(sctx); /* NULL-safe; the SSL object keeps its own reference */
	free(buf);
	return rc;
}

int dlock_redis_tls_pending(void *ssl)
{
	return ssl && SSL_pending((SSL *)ssl) > 0;
}

#else
typedef int dlock_redis_tls_unused; /* ISO C wants something in a file */
#endif
