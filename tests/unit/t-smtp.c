/*
 * Unit tests for bot/mail/smtp.c that need no server: CRLF conversion, input
 * checks, a refused connection, password files.  Real sending is tested
 * end to end against aiosmtpd (tests/e2e/t0100-review.sh).
 */
#include "smtp.h"
#include "safefs.h"
#include "tap.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/* A loopback port nobody listens on: bind, read the port, close. */
static int closed_port(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(fd, (struct sockaddr *)&sa, &len))
		return 1;
	port = ntohs(sa.sin_port);
	close(fd);
	return port;
}

int main(void)
{
	struct strbuf sb = STRBUF_INIT, url = STRBUF_INIT;
	struct mail_addr_list rcpt = MAIL_ADDR_LIST_INIT, none = MAIL_ADDR_LIST_INIT;
	struct smtp_opts o = SMTP_OPTS_INIT;
	char path[] = "/tmp/t-smtp.XXXXXX";
	int fd;

	smtp_crlf(&sb, "a\nb\r\nc\rd", 8);
	is_str(sb.buf, "a\r\nb\r\nc\r\nd\r\n", "every line ends in CRLF, one final CRLF");
	strbuf_reset(&sb);
	smtp_crlf(&sb, "x\n", 2);
	is_str(sb.buf, "x\r\n", "no doubled final CRLF");

	mail_addr_add(&rcpt, "", "to@example.org");
	o.url = "http://127.0.0.1/";
	is(smtp_send(&o, "me@example.org", &rcpt, "x\n", 2), WW_EINPUT, "non-SMTP URL refused");
	o.url = "file:///etc/passwd";
	is(smtp_send(&o, "me@example.org", &rcpt, "x\n", 2), WW_EINPUT, "file:// refused");
	strbuf_addf(&url, "smtp://127.0.0.1:%d", closed_port());
	o.url = url.buf;
	o.starttls = SMTP_TLS_NO;
	is(smtp_send(&o, "me@example.org", &none, "x\n", 2), WW_EINPUT, "no recipients");
	is(smtp_send(&o, "me@x\r\nRCPT TO:<y@z>", &rcpt, "x\n", 2), WW_EINPUT,
	   "a sender with CR/LF is refused");
	o.connect_timeout_s = 5;
	is(smtp_send(&o, "me@example.org", &rcpt, "x\n", 2), WW_ENET,
	   "nothing listening: WW_ENET");
	ok(strstr(error_last(), url.buf) != NULL, "message names the server: %s", error_last());

	fd = mkstemp(path);
	ok(fd >= 0, "temp file");
	if (write(fd, "s3cret\nsecond line\n", 19) != 19)
		ok(0, "write");
	close(fd);
	chmod(path, 0600);
	is(safefs_read_secret(&sb, path), 0, "reads a 0600 password file");
	is_str(sb.buf, "s3cret", "first line, no newline");
	chmod(path, 0644);
	is(safefs_read_secret(&sb, path), WW_EINPUT, "refuses a world-readable one");
	ok(strstr(error_last(), "chmod 600") != NULL, "and says what to do: %s", error_last());
	unlink(path);
	is(safefs_read_secret(&sb, path), WW_ENOTFOUND, "missing file");

	mail_addr_list_clear(&rcpt);
	strbuf_release(&sb);
	strbuf_release(&url);
	return done_testing();
}
