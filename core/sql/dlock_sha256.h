/* dlock_sha256.h: SHA-256 (FIPS 180-4) of a byte string, for the names of
 * SQL locks (PostgreSQL advisory keys). A leaf. */
#ifndef DLOCK_SHA256_H
#define DLOCK_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* Writes the 32-byte SHA-256 digest of data[0..len) to out. */
void dlock_sha256(const void *data, size_t len, unsigned char out[32]);

/* The first 8 bytes of SHA-256(data[0..len)) as a big-endian signed 64-bit
 * number: the same value as PostgreSQL's
 * ('x' || left(encode(sha256(data), 'hex'), 16))::bit(64)::bigint. */
int64_t dlock_sha256_key(const void *data, size_t len);

#endif
