/* dlock_zk_path.c: the queue node naming scheme shared with Apache Curator
 * (`_c_<guid>-<marker><seq>`): parsing a child's name and ordering sequences. */
#include "dlock_zk_path.h"

#include <stdio.h>
#include <string.h>

/* Non-zero when s starts with a GUID as Curator and dlock write it: 8-4-4-4-12
 * hex digits (either case) and dashes. */
static int guid_at(const char *s)
{
	size_t i;

	for (i = 0; i < DLOCK_GUID_LEN; i++) {
		char c = s[i];

		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (c != '-') {
				return 0;
			}
		} else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
			return 0;
		}
	}
	return 1;
}

int dlock_name_seq(const char *name, const char *marker, int32_t *seq, const char **text)
{
	const char *s;
	size_t mlen = strlen(marker), len = strlen(name), slen;
	long long v = 0;
	int neg = 0, digits = 0;

	/* the whole name: "_c_" GUID "-" marker and the server's %010d counter */
	if (len < 3 + DLOCK_GUID_LEN + 1 + mlen + 10 || memcmp(name, "_c_", 3) != 0 ||
	    !guid_at(name + 3) || name[3 + DLOCK_GUID_LEN] != '-' ||
	    memcmp(name + 3 + DLOCK_GUID_LEN + 1, marker, mlen) != 0) {
		return 0;
	}
	s = name + 3 + DLOCK_GUID_LEN + 1 + mlen;
	slen = strlen(s);
	if (*s == '-') { /* the server formats a wrapped counter as %010d */
		neg = 1;
		s++;
	}
	if (slen != 10 && !(neg && slen == 11)) {
		return 0;
	}
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || ++digits > 10) {
			return 0;
		}
		v = v * 10 + (*s - '0');
	}
	if (digits == 0) {
		return 0;
	}
	v = neg ? -v : v;
	if (v < INT32_MIN || v > INT32_MAX) {
		return 0;
	}
	if (text) {
		*text = name + 3 + DLOCK_GUID_LEN + 1 + mlen;
	}
	*seq = (int32_t)v;
	return 1;
}

int dlock_seq_cmp(const char *a, const char *b)
{
	int c = strcmp(a, b);

	return (c > 0) - (c < 0);
}
