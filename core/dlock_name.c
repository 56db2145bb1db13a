/* dlock_name.c: what every DSN parser checks (lock names as paths, ZooKeeper
 * connect strings) and GUIDs, which ZooKeeper nodes and Redis owners carry. */
#include "dlock_name.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

/* Decodes one UTF-8 character at s (n bytes left). Returns its length and
 * stores the code point, or 0 for an invalid or overlong sequence. */
static size_t utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len, i;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	} else if ((s[0] & 0xE0) == 0xC0) {
		len = 2;
		c = s[0] & 0x1F;
	} else if ((s[0] & 0xF0) == 0xE0) {
		len = 3;
		c = s[0] & 0x0F;
	} else if ((s[0] & 0xF8) == 0xF0) {
		len = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n) {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80) {
			return 0;
		}
		c = (c << 6) | (s[i] & 0x3F);
	}
	if ((len == 2 && c < 0x80) || (len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    c > 0x10FFFF) {
		return 0;
	}
	*cp = c;
	return len;
}

/* ZooKeeper's PathUtils rejects these code points in any path. */
static int zk_forbidden(uint32_t c)
{
	return c < 0x20 || (c >= 0x7F && c <= 0x9F) || (c >= 0xD800 && c <= 0xF8FF) ||
	       (c >= 0xFFF0 && c <= 0xFFFF);
}

int dlock_path_validate(const char *path, size_t len, dlock_err *err)
{
	const unsigned char *p = (const unsigned char *)path;
	size_t i = 0, seg_start = 1, n;
	uint32_t cp;

	if (len == 0) {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "must not be empty");
	}
	if (len > DLOCK_PATH_MAX) {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "must be at most %d bytes long, %zu given",
		                     DLOCK_PATH_MAX, len);
	}
	if (memchr(path, '\0', len)) {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "must not contain NUL bytes");
	}
	if (p[0] != '/') {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "must be absolute (start with \"/\")");
	}
	if (len == 1) {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "must name a node below \"/\"");
	}
	if (p[len - 1] == '/') {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "must not end with \"/\"");
	}
	for (i = 1; i <= len; i++) {
		if (i == len || p[i] == '/') {
			size_t seg = i - seg_start;

			if (seg == 0) {
				return dlock_err_set(err, DLOCK_EINVAL, 0,
				                     "must not contain empty segments (\"//\")");
			}
			if ((seg == 1 && p[seg_start] == '.') ||
			    (seg == 2 && p[seg_start] == '.' && p[seg_start + 1] == '.')) {
				return dlock_err_set(err, DLOCK_EINVAL, 0,
				                     "must not contain \".\" or \"..\" segments");
			}
			seg_start = i + 1;
		}
	}
	for (i = 0; i < len; i += n) {
		n = utf8_next(p + i, len - i, &cp);
		if (n == 0) {
			return dlock_err_set(err, DLOCK_EINVAL, 0, "must be valid UTF-8");
		}
		if (cp > 0xFFFF) {
			/* the server checks paths as UTF-16: such a character is a
			 * surrogate pair there, which its path check refuses */
			return dlock_err_set(err, DLOCK_EINVAL, 0,
			                     "must not contain characters outside the Basic Multilingual "
			                     "Plane (U+%04X): ZooKeeper refuses them in paths",
			                     cp);
		}
		if (zk_forbidden(cp)) {
			return dlock_err_set(err, DLOCK_EINVAL, 0,
			                     "must not contain control or reserved characters (U+%04X)", cp);
		}
	}
	if (strncmp(path, "/zookeeper", 10) == 0 && (len == 10 || p[10] == '/')) {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "must not be under /zookeeper (reserved)");
	}
	return DLOCK_OK;
}

static int host_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
	       c == '-' || c == '_';
}

int dlock_hosts_validate(const char *hosts, size_t len, dlock_err *err)
{
	size_t i = 0, servers = 0;

	if (len == 0) {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "must not be empty");
	}
	if (len > DLOCK_HOSTS_MAX) {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "must be at most %d bytes long",
		                     DLOCK_HOSTS_MAX);
	}
	if (memchr(hosts, '\0', len)) {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "must not contain NUL bytes");
	}
	while (i < len && hosts[i] != '/') {
		size_t host_start = i, host_len;
		unsigned long port = 0;
		size_t digits = 0;

		if (hosts[i] == '[') { /* [ipv6]:port */
			while (i < len && hosts[i] != ']') {
				i++;
			}
			if (i == len) {
				return dlock_err_set(err, DLOCK_EINVAL, 0, "has an unterminated \"[\"");
			}
			i++;
		} else {
			while (i < len && host_char((unsigned char)hosts[i])) {
				i++;
			}
		}
		host_len = i - host_start;
		if (host_len == 0 || i == len || hosts[i] != ':') {
			return dlock_err_set(err, DLOCK_EINVAL, 0,
			                     "must be \"host:port[,host:port...][/chroot]\"; server %zu is "
			                     "malformed",
			                     servers + 1);
		}
		i++;
		while (i < len && hosts[i] >= '0' && hosts[i] <= '9' && digits < 6) {
			port = port * 10 + (unsigned long)(hosts[i] - '0');
			i++;
			digits++;
		}
		if (digits == 0 || port == 0 || port > 65535) {
			return dlock_err_set(err, DLOCK_EINVAL, 0, "server %zu has no valid port (1-65535)",
			                     servers + 1);
		}
		servers++;
		if (i < len && hosts[i] == ',') {
			i++;
			if (i == len || hosts[i] == '/') {
				return dlock_err_set(err, DLOCK_EINVAL, 0, "has a trailing \",\"");
			}
		} else if (i < len && hosts[i] != '/') {
			return dlock_err_set(err, DLOCK_EINVAL, 0,
			                     "has an unexpected character after server %zu", servers);
		}
	}
	if (i < len) { /* chroot */
		dlock_err sub;

		if (dlock_path_validate(hosts + i, len - i, &sub) != DLOCK_OK) {
			return dlock_err_set(err, DLOCK_EINVAL, 0, "chroot %s", sub.msg);
		}
	}
	return DLOCK_OK;
}

int dlock_guid(char out[DLOCK_GUID_LEN + 1], dlock_err *err)
{
	unsigned char b[16];
	size_t got = 0;

	while (got < sizeof(b)) {
		ssize_t n = getrandom(b + got, sizeof(b) - got, 0);

		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			return dlock_err_set(err, DLOCK_ENOMEM, 0, "getrandom() failed: %s", strerror(errno));
		}
		got += (size_t)n;
	}
	b[6] = (unsigned char)((b[6] & 0x0F) | 0x40); /* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3F) | 0x80); /* RFC 4122 variant */
	snprintf(out, DLOCK_GUID_LEN + 1,
	         "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
	         b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
	         b[15]);
	return DLOCK_OK;
}
