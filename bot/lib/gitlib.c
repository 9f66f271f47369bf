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
 * Most of warnwatch never lets libgit2 talk to a network (mail goes
 * through libcurl, b4 and git run as programs of their own), so the
 * certificates are not read at start.  This executable therefore defines the
 * one mbedTLS function libgit2 calls to read them.  The dynamic linker
 * resolves a symbol to the executable's definition before any library's
 * (ELF symbol interposition, as LD_PRELOAD'ed allocators work), so libgit2's
 * call lands here and reads nothing.  The chain stays empty: any TLS
 * session libgit2 opened would fail certificate verification -- it fails
 * closed, never open.  Only libgit2 calls this function (libcurl uses
 * OpenSSL or GnuTLS); tests/unit/t-gitlib.c checks that the definition is
 * the one in use.
 *
 * `serve` fetches public-inbox epochs over https (bot/mail/epoch.c): it
 * calls gitlib_enable_tls(), after which this definition hands the call on
 * to mbedTLS's own (dlsym RTLD_NEXT) and the system's bundle is loaded
 * into libgit2, once, in that process only.
 */
#include "gitlib.h"
#include "strbuf.h"

#include <dlfcn.h>
#include <git2.h>
#include <pthread.h>

struct mbedtls_x509_crt;

int mbedtls_x509_crt_parse_file(struct mbedtls_x509_crt *chain, const char *path);
int gitlib_ca_reads;	/* how often libgit2 asked: for the unit test */
static bool tls_wanted;	/* gitlib_enable_tls(): read them after all */

int mbedtls_x509_crt_parse_file(struct mbedtls_x509_crt *chain, const char *path)
{
	int (*real)(struct mbedtls_x509_crt *, const char *);

	gitlib_ca_reads++;
	if (!tls_wanted)
		return 0;
	*(void **)&real = dlsym(RTLD_NEXT, "mbedtls_x509_crt_parse_file");
	return real ? real(chain, path) : -1;
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

/* "Name <addr>" -> a signature libgit2 accepts, at time `when`. */
static int make_signature(git_signature **out, const char *author,
			  git_time_t when)
{
	struct strbuf name = STRBUF_INIT, email = STRBUF_INIT;
	const char *lt = author ? strchr(author, '<') : NULL;
	const char *gt = lt ? strchr(lt, '>') : NULL;
	int ret;

	if (lt && gt) {
		strbuf_add(&name, author, lt - author);
		strbuf_add(&email, lt + 1, gt - lt - 1);
	} else if (author) {
		strbuf_addstr(&name, author);
	}
	/* libgit2 refuses angle brackets and newlines in either part. */
	for (size_t i = 0; i < name.len; i++)
		if (strchr("<>\r\n", name.buf[i]))
			name.buf[i] = ' ';
	for (size_t i = 0; i < email.len; i++)
		if (strchr("<>\r\n ", email.buf[i]))
			email.buf[i] = '_';
	strbuf_trim(&name);
	strbuf_trim(&email);
	if (!name.len)
		strbuf_addstr(&name, "unknown");
	if (!email.len)
		strbuf_addstr(&email, "unknown@localhost");
	ret = git_signature_new(out, name.buf, email.buf, when, 0);
	strbuf_release(&email);
	strbuf_release(&name);
	return ret < 0 ? error_code(WW_EINPUT, "bad author '%s': %s",
				    author ? author : "", gitlib_error()) : 0;
}

int gitlib_commit(struct git_oid *out, struct git_repository *repo, const char *ref,
		  const char *author, int64_t when, const char *message,
		  const struct git_tree *tree, const struct git_commit *parent)
{
	git_signature *sig = NULL;
	int ret;

	ret = make_signature(&sig, author ? author : "warnwatch <warnwatch@localhost>",
			     when);
	if (ret < 0)
		return ret;
	if (git_commit_create(out, repo, ref, sig, sig, NULL, message, tree,
			      parent ? 1 : 0, parent ? &parent : NULL) < 0)
		ret = error("%s", gitlib_error());
	git_signature_free(sig);
	return ret;
}

int gitlib_blob_read(struct git_blob **out, size_t *size, struct git_repository *repo,
		     const struct git_oid *oid, size_t max)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_odb *odb = NULL;
	git_object_t type;
	size_t len;
	int ret = 0;

	*out = NULL;
	*size = 0;
	git_oid_tostr(hex, sizeof(hex), oid);
	if (git_repository_odb(&odb, repo) < 0)
		return error("cannot open the object database: %s", gitlib_error());
	ret = git_odb_read_header(&len, &type, odb, oid);
	if (ret < 0) {
		ret = error_code(ret == GIT_ENOTFOUND ? WW_ENOTFOUND : WW_ERROR,
				 "blob %s: %s", hex, gitlib_error());
		goto out;
	}
	*size = len;
	if (type != GIT_OBJECT_BLOB)
		ret = error_code(WW_ENOTFOUND, "object %s is not a blob", hex);
	else if (len > max)
		ret = error_code(WW_ETOOBIG, "blob %s is %zu bytes, more than %zu",
				 hex, len, max);
	else if (git_blob_lookup(out, repo, oid) < 0)
		ret = error("blob %s: %s", hex, gitlib_error());
out:
	git_odb_free(odb);
	return ret;
}

void gitlib_init(void)
{
	pthread_once(&started, start);
}

static pthread_once_t tls_once = PTHREAD_ONCE_INIT;
static int tls_ret;

static void load_cas(void)
{
	gitlib_init();
	tls_wanted = true;
	if (git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, GITLIB_CA_FILE, NULL) < 0)
		tls_ret = error("cannot load '%s' into libgit2: %s", GITLIB_CA_FILE,
				gitlib_error());
}

int gitlib_enable_tls(void)
{
	pthread_once(&tls_once, load_cas);
	return tls_ret;
}
