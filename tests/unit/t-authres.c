/*
 * Unit tests for bot/mail/authres.c (issue 40): the results the trusted
 * MTA wrote, read for the From: domain; a header anyone else wrote, or
 * one below the MTA's own, is not believed.
 */
#include "authres.h"
#include "tap.h"

#define MX "smtp.subspace.kernel.org"

static enum authres_result check(const char *headers, const char *domain)
{
	struct strbuf why = STRBUF_INIT;
	enum authres_result r = authres_check(&why, headers, strlen(headers), MX, domain);

	printf("# %s\n", why.buf);
	strbuf_release(&why);
	return r;
}

int main(void)
{
	/* As lore archives a mail from vger's MTA (folded, comments). */
	is(check("Received: from x by " MX "\n"
		 "Authentication-Results: " MX ";\n"
		 "\tdkim=pass (2048-bit key) header.d=example.org header.i=@example.org\n"
		 "\theader.b=\"abc;def\"; arc=none smtp.client-ip=192.0.2.1\n"
		 "From: Kim <kim@example.org>\n", "example.org"),
	   AUTHRES_PASS, "dkim=pass for the From: domain, by the trusted MTA");
	is(check("Authentication-Results: " MX "; dkim=pass header.d=mail.example.org\n",
		 "example.org"), AUTHRES_FAIL,
	   "a signer below the From: domain does not own it");
	is(check("Authentication-Results: " MX "; dkim=pass header.d=example.org\n",
		 "lists.example.org"), AUTHRES_PASS, "a parent signer owns a subdomain");
	is(check("Authentication-Results: " MX "; dkim=pass header.d=org\n", "example.org"),
	   AUTHRES_FAIL, "a signer without a dot aligns with nothing");
	is(check("Authentication-Results: " MX "; dkim=pass header.d=evil.example\n",
		 "example.org"), AUTHRES_FAIL, "a pass for another domain is no pass");
	is(check("Authentication-Results: " MX "; dkim=fail header.d=example.org;\n"
		 " dmarc=pass (p=none) header.from=example.org\n", "example.org"),
	   AUTHRES_PASS, "dmarc=pass for the From: domain");
	is(check("Authentication-Results: " MX "; dkim=pass header.i=kim@Example.ORG\n",
		 "example.org"), AUTHRES_PASS, "header.i's domain, case ignored");
	is(check("Authentication-Results: " MX "; dkim=none; spf=pass smtp.mailfrom=example.org\n",
		 "example.org"), AUTHRES_FAIL, "SPF alone says nothing of From:");
	is(check("Authentication-Results: " MX "; none\n", "example.org"), AUTHRES_FAIL,
	   "no result");
	/* Forged: another authserv-id, or ours below the MTA's own. */
	is(check("Authentication-Results: mx.evil.example; dkim=pass header.d=example.org\n",
		 "example.org"), AUTHRES_NONE, "another authserv-id is not believed");
	is(check("Authentication-Results: (" MX ") mx.evil.example; dkim=pass "
		 "header.d=example.org\n", "example.org"), AUTHRES_NONE,
	   "  nor our name in a comment");
	is(check("Authentication-Results: " MX "; dkim=fail header.d=example.org\n"
		 "Received: from evil\n"
		 "Authentication-Results: " MX "; dkim=pass header.d=example.org\n",
		 "example.org"), AUTHRES_FAIL, "only the topmost of ours counts");
	is(check("Authentication-Results: " MX "; dkim=pass (header.d=example.org) "
		 "header.d=evil.example\n", "example.org"), AUTHRES_FAIL,
	   "a property in a comment is no property");
	/* ARC: the trusted MTA's own hop. */
	is(check("ARC-Authentication-Results: i=1; " MX "; dkim=pass header.d=example.org\n",
		 "example.org"), AUTHRES_PASS, "ARC-Authentication-Results of the MTA");
	is(check("ARC-Authentication-Results: i=1; mx.google.com; dkim=pass header.d=example.org\n",
		 "example.org"), AUTHRES_NONE, "  of another hop: not believed");
	is(check("From: kim@example.org\n", "example.org"), AUTHRES_NONE, "no header");
	ok(authres_aligned("Example.org", "example.ORG") &&
	   !authres_aligned("badexample.org", "example.org"),
	   "alignment is by labels, case ignored");
	return done_testing();
}
