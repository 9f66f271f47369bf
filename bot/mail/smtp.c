/*
 * SMTP submission through libcurl.  See smtp.h.
 */
#include "smtp.h"
#include "env.h"
#include "config.h"
#include "archive.h"
#include "redact.h"
#include "safefs.h"

#include <curl/curl.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

struct upload {
	const char *buf;
	size_t len, pos;
};

static size_t read_cb(char *dst, size_t size, size_t nmemb, void *data)
{
	struct upload *u = data;
	size_t n = size * nmemb;

	if (n > u->len - u->pos)
		n = u->len - u->pos;
	memcpy(dst, u->buf + u->pos, n);
	u->pos += n;
	return n;
}

void smtp_crlf(struct strbuf *out, const char *msg, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (msg[i] == '\r') {
			strbuf_addstr(out, "\r\n");
			if (i + 1 < len && msg[i + 1] == '\n')
				i++;
		} else if (msg[i] == '\n') {
			strbuf_addstr(out, "\r\n");
		} else {
			strbuf_addch(out, msg[i]);
		}
	}
	if (out->len < 2 || memcmp(out->buf + out->len - 2, "\r\n", 2) != 0)
		strbuf_addstr(out, "\r\n");
}

static int map_error(CURLcode rc, const char *url, const char *detail)
{
	const char *why = *detail ? detail : curl_easy_strerror(rc);

	switch (rc) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
		return error_code(WW_ENET, "cannot talk to SMTP server '%s': %s", url, why);
	case CURLE_USE_SSL_FAILED:
		/* Said before AUTH and MAIL: nothing, no password, went out. */
		return error_code(WW_ENET, "SMTP server '%s' does not offer STARTTLS, "
				  "which starttls = required or a password needs: nothing sent", url);
	case CURLE_SSL_CACERT_BADFILE:
		/* Our configuration, not the server, is at fault. */
		return error("cannot use the CA bundle for SMTP server '%s': %s", url, why);
	case CURLE_OPERATION_TIMEDOUT:
		return error_code(WW_ETIMEOUT, "SMTP server '%s' timed out: %s", url, why);
	case CURLE_LOGIN_DENIED:
		return error("SMTP server '%s' refused the login: %s", url, why);
	default:
		return error("SMTP server '%s' refused the message: %s", url, why);
	}
}

/* The server's refusal, for messages ("451 4.3.0 try again later"). */
struct dialog {
	struct strbuf last;	/* its first 4xx/5xx answer, or its last one */
	bool refused;		/* `last` is a refusal: later answers (to QUIT) do not count */
	bool echo;		/* WARNWATCH_SMTP_DEBUG: the dialogue on stderr */
	bool in_auth;		/* after our AUTH, while the server says 334: credentials */
	bool in_starttls;	/* after our STARTTLS, until its answer */
	bool tls_required;	/* a refused STARTTLS ends the session */
	bool starttls_refused;	/* `last` refused STARTTLS (454: no TLS now) */
};

static bool is_refusal(const char *reply)
{
	return (reply[0] == '4' || reply[0] == '5') &&
	       reply[1] >= '0' && reply[1] <= '9' && reply[2] >= '0' && reply[2] <= '9';
}

/*
 * Our command, on stderr.  What AUTH sends is the password, merely
 * base64-encoded: it is hidden, so that a debug log can be shown to
 * others.  Only "AUTH <mechanism>" is left.
 */
static void echo_out(struct dialog *d, const char *data, size_t size)
{
	size_t n = size;	/* what can be shown */

	if (size >= 5 && !memcmp(data, "AUTH ", 5)) {
		d->in_auth = true;
		for (n = 5; n < size && data[n] != ' ' && data[n] != '\r' && data[n] != '\n'; n++)
			;
	} else if (d->in_auth) {
		n = 0;
	}
	if (!d->echo)
		return;
	if (n == size || data[n] == '\r' || data[n] == '\n')
		fprintf(stderr, "> %.*s", (int)size, data);
	else
		fprintf(stderr, "> %.*s%s[credentials hidden]\r\n", (int)n, data, n ? " " : "");
}

static int debug_cb(CURL *curl, curl_infotype type, char *data, size_t size,
		    void *arg)
{
	struct dialog *d = arg;

	if (type == CURLINFO_HEADER_OUT) {
		echo_out(d, data, size);
		d->in_starttls = size >= 8 && !memcmp(data, "STARTTLS", 8);
	}
	if (d->echo && (type == CURLINFO_TEXT || type == CURLINFO_HEADER_IN))
		fprintf(stderr, "%c %.*s", type == CURLINFO_HEADER_IN ? '<' : '*',
			(int)size, data);
	if (type == CURLINFO_HEADER_IN)
		d->in_auth = d->in_auth && size >= 3 && !memcmp(data, "334", 3);
	if (type != CURLINFO_HEADER_IN || d->refused)
		return 0;
	/* One reply line a call; keep it printable and short. */
	strbuf_reset(&d->last);
	for (size_t i = 0; i < size && d->last.len < 200; i++) {
		unsigned char c = data[i];

		if (c == '\r' || c == '\n')
			break;
		strbuf_addch(&d->last, c >= ' ' && c < 0x7f ? c : '?');
	}
	d->refused = is_refusal(d->last.buf);
	if (d->refused && d->in_starttls) {
		/* Fatal only when TLS is required; with "try", libcurl goes on
		 * in clear text and a later refusal is the one to quote. */
		d->starttls_refused = d->tls_required;
		d->refused = d->tls_required;
	}
	return 0;
}

/*
 * Why the session failed.  A 4xx/5xx answer is a refusal, whatever
 * libcurl calls it (a refused RCPT is CURLE_SEND_ERROR): quote it.  A
 * session that broke after the whole message went out has an unknown
 * fate -- the server may have queued it and died before its "250" --
 * like a timeout: WW_ETIMEOUT, so that nobody sends it again blindly.
 */
static int session_error(CURL *curl, CURLcode rc, const char *url,
			 const char *detail, const struct dialog *d, size_t len)
{
	curl_off_t sent = 0;

	if (rc == CURLE_LOGIN_DENIED && d->last.len)
		return error("SMTP server '%s' refused the login: %s", url, d->last.buf);
	if (d->starttls_refused)
		/* Before AUTH and MAIL: nothing, no password, went out. */
		return error_code(WW_ENET, "SMTP server '%s' refused STARTTLS (%s), which "
				  "starttls = required or a password needs: nothing sent",
				  url, d->last.buf);
	if (rc != CURLE_OPERATION_TIMEDOUT && d->refused)
		return error("SMTP server '%s' refused the message: %s", url, d->last.buf);
	if ((rc == CURLE_SEND_ERROR || rc == CURLE_RECV_ERROR || rc == CURLE_GOT_NOTHING) &&
	    curl_easy_getinfo(curl, CURLINFO_SIZE_UPLOAD_T, &sent) == CURLE_OK &&
	    sent >= (curl_off_t)len)
		return error_code(WW_ETIMEOUT, "SMTP server '%s' ended the session after the "
				  "whole message was sent, before it answered (it may have "
				  "been delivered): %s", url,
				  *detail ? detail : curl_easy_strerror(rc));
	return map_error(rc, url, detail);
}

int smtp_send(const struct smtp_opts *o, const char *from,
	      const struct mail_addr_list *rcpt, const char *msg, size_t len)
{
	char errbuf[CURL_ERROR_SIZE] = "";
	struct curl_slist *to = NULL;
	struct strbuf data = STRBUF_INIT, addr = STRBUF_INIT;
	struct upload up;
	struct dialog dlg = { .last = STRBUF_INIT };
	CURL *curl = NULL;
	CURLcode rc;
	int ret;

	if (!o->url || (!starts_with(o->url, "smtp://") && !starts_with(o->url, "smtps://")))
		return error_code(WW_EINPUT, "SMTP URL '%s' must start with smtp:// or smtps://",
				  o->url ? o->url : "");
	if (!rcpt->nr)
		return error_code(WW_EINPUT, "no recipient to send to");
	if (!mail_addr_valid(from))
		return error_code(WW_EINPUT, "invalid sender address '%s'", from);
	ret = archive_curl_init();
	if (ret)
		return ret;
	curl = curl_easy_init();
	if (!curl)
		return error("cannot initialise libcurl");

	smtp_crlf(&data, msg, len);
	up = (struct upload){ data.buf, data.len, 0 };
	for (size_t i = 0; i < rcpt->nr; i++) {
		strbuf_reset(&addr);
		strbuf_addf(&addr, "<%s>", rcpt->v[i].addr);
		to = curl_slist_append(to, addr.buf);
	}
	strbuf_reset(&addr);
	strbuf_addf(&addr, "<%s>", from);

	curl_easy_setopt(curl, CURLOPT_URL, o->url);
	/* Only SMTP, whatever the URL says, and no redirection to elsewhere. */
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
	/* The server's answers, for "why did the server refuse?" (and the
	 * whole dialogue on stderr with WARNWATCH_SMTP_DEBUG). */
	dlg.echo = env_get(ENV_WARNWATCH_SMTP_DEBUG) != NULL;
	curl_easy_setopt(curl, CURLOPT_DEBUGFUNCTION, debug_cb);
	curl_easy_setopt(curl, CURLOPT_DEBUGDATA, &dlg);
	curl_easy_setopt(curl, CURLOPT_VERBOSE, 1L);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, (long)(o->connect_timeout_s ? o->connect_timeout_s : 30));
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, (long)(o->timeout_s ? o->timeout_s : 120));
	/* A password never crosses in clear text: with AUTH (a user, or a
	 * password in the URL, which libcurl logs in with), "try" is
	 * "required"; only an explicit starttls = no (a local MTA) allows it. */
	dlg.tls_required = o->starttls == SMTP_TLS_REQUIRED || o->user ||
			   redact_needed(o->url);
	if (starts_with(o->url, "smtp://") && o->starttls != SMTP_TLS_NO)
		curl_easy_setopt(curl, CURLOPT_USE_SSL, dlg.tls_required ?
				 (long)CURLUSESSL_ALL : (long)CURLUSESSL_TRY);
	if (o->ca_file)
		curl_easy_setopt(curl, CURLOPT_CAINFO, o->ca_file);
	if (o->user) {
		curl_easy_setopt(curl, CURLOPT_USERNAME, o->user);
		curl_easy_setopt(curl, CURLOPT_PASSWORD, o->password ? o->password : "");
	}
	curl_easy_setopt(curl, CURLOPT_MAIL_FROM, addr.buf);
	curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, to);
	curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, (curl_off_t)data.len);
	curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_cb);
	curl_easy_setopt(curl, CURLOPT_READDATA, &up);

	rc = curl_easy_perform(curl);
	ret = rc == CURLE_OK ? 0 : session_error(curl, rc, o->url, errbuf, &dlg, data.len);

	curl_slist_free_all(to);
	curl_easy_cleanup(curl);
	strbuf_release(&data);
	strbuf_release(&addr);
	strbuf_release(&dlg.last);
	return ret;
}

int smtp_opts_from_config(struct smtp_opts *o, struct strbuf *password,
			  struct strbuf *ca_file, const struct config *c)
{
	static const char *const tls[] = { "no", "try", "required", NULL };
	struct strbuf path = STRBUF_INIT;
	unsigned long t;
	int mode, ret;

	o->url = config_get(c, "smtp", "url");
	if (!o->url || !*o->url)
		return error_code(WW_EINPUT, "no [smtp] url in the configuration "
				  "(needed to send mail)");
	ret = config_get_enum(&mode, c, "smtp", "starttls", tls, SMTP_TLS_TRY);
	if (!ret)
		ret = config_get_uint(&t, c, "smtp", "timeout", 120, 1, 3600);
	if (ret)
		return ret;
	o->starttls = mode;
	o->timeout_s = (unsigned int)t;
	o->connect_timeout_s = t < 30 ? (unsigned int)t : 30;
	o->user = config_get(c, "smtp", "user");
	/* A path like the others: relative to the configuration file. */
	if (!config_get_path(ca_file, c, "smtp", "ca-file"))
		o->ca_file = ca_file->buf;
	if (!config_get_path(&path, c, "smtp", "password-file")) {
		ret = safefs_read_secret(password, path.buf);
		o->password = password->buf;
	} else if (o->user) {
		ret = error_code(WW_EINPUT, "[smtp] user is set but no password-file");
	}
	strbuf_release(&path);
	return ret;
}

