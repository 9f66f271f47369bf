/*
 * error.c: the last message is per thread.  libmicrohttpd calls
 * httpd_open() (and so error_code()) on its own thread while the main
 * thread may be building a message of its own.
 */
#include "ww.h"
#include "tap.h"

#include <pthread.h>

static pthread_barrier_t both_set;
static char thread_saw[256];

static void *other_thread(void *unused)
{
	(void)unused;
	error_code(WW_ENOTFOUND, "'/x' not found");
	/* Both threads have stored a message before either reads one. */
	pthread_barrier_wait(&both_set);
	error_prefix(WW_ENOTFOUND, "dashboard");
	snprintf(thread_saw, sizeof(thread_saw), "%s", error_last());
	return NULL;
}

int main(void)
{
	struct error_state es;
	pthread_t t;
	int ret;

	error_clear();
	is_str(error_last(), "", "no message at first");
	is(error("a %s", "b"), WW_ERROR, "error() returns WW_ERROR");
	is_str(error_last(), "a b", "and stores the message");
	is(error_prefix(WW_EINPUT, "ctx"), WW_EINPUT, "error_prefix keeps the code");
	is_str(error_last(), "ctx: a b", "and prefixes the message");
	error_clear();

	/* A failure held aside across cleanup that stores messages of its own. */
	error_code(WW_ENET, "cannot reach '%s'", "h");
	is(error_state_capture(&es, WW_ENET), WW_ENET, "capture returns the code");
	is_str(error_last(), "", "and clears the store");
	error("cleanup failed too");
	is(error_state_restore(&es), WW_ENET, "restore returns the captured code");
	is_str(error_last(), "cannot reach 'h'", "and the captured message is back");
	error_clear();
	error_state_capture(&es, WW_ESTATE);
	is_str(es.msg, "failed with no message (code -12)",
	       "a failure without a message is never captured with an empty one");
	error_clear();

	pthread_barrier_init(&both_set, NULL, 2);
	ret = pthread_create(&t, NULL, other_thread, NULL);
	is(ret, 0, "second thread started");
	error_code(WW_ECHILD, "b4 failed with status 1");
	pthread_barrier_wait(&both_set);
	error_prefix(WW_ECHILD, "fetching <m@x>");
	pthread_join(t, NULL);
	pthread_barrier_destroy(&both_set);

	is_str(error_last(), "fetching <m@x>: b4 failed with status 1",
	       "the main thread's message is its own");
	is_str(thread_saw, "dashboard: '/x' not found",
	       "the other thread's message is its own");
	return done_testing();
}
