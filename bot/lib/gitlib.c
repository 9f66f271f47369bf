/*
 * libgit2's start-up, without the CA bundle.
 *
 * Debian builds libgit2 with mbedTLS, and git_libgit2_init() parses every
 * certificate of /etc/ssl/certs/ca-certificates.crt (about 140 PEM blocks,
 * base64 decoded in constant time) before returning: 56 million
 * instructions, 60% of checking a one-hunk patch, several times grep's
 * whole run over a 150,000-line diff.  Nothing can turn it off at run
 * time: the path is compiled in and read inside git_libgit2_init().
 *
 * warnwatch never lets libgit2 talk to a network (mail and archives go
 * through libcurl, b4 and git run as programs of their own), so the
 * certificates are never needed.  This executable therefore defines the
 * one mbedTLS function libgit2 calls to read them.  The dynamic linker
 * resolves a symbol to the executable's definition before any library's
 * (ELF symbol interposition, as LD_PRELOAD'ed allocators work), so libgit2's
 * call lands here and reads nothing.  The chain stays empty: any TLS
 * session libgit2 opened would fail certificate verification -- it fails
 * closed, never open.  Only libgit2 calls this function (libcurl uses
 * OpenSSL or GnuTLS); tests/unit/t-gitlib.c checks that the definition is
 * the one in use.
 */
#include "gitlib.h"

#include <git2.h>
#include <pthread.h>

struct mbedtls_x509_crt;

int mbedtls_x509_crt_parse_file(struct mbedtls_x509_crt *chain, const char *path);
int gitlib_ca_reads;	/* how often libgit2 asked: for the unit test */

int mbedtls_x509_crt_parse_file(struct mbedtls_x509_crt *chain, const char *path)
{
	(void)chain;
	(void)path;
	gitlib_ca_reads++;
	return 0;
}

const char *gitlib_error(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown libgit2 error";
}

static pthread_once_t started = PTHREAD_ONCE_INIT;

static void start(void)
{
	git_libgit2_init();
}

void gitlib_init(void)
{
	pthread_once(&started, start);
}
