/*
 * When each source polls next: its interval plus jitter, a capped
 * exponential backoff after failures, or what Retry-After asked for.
 * Timers are libevent's (monotonic); next_poll is only for display.
 */
#include "config.h"

#include <stdlib.h>
#include <time.h>

#include <event2/event.h>

#include "util/log.h"
#include "mlqd.h"

/* A dead source is still tried at least this often. */
#define SCHED_BACKOFF_CAP (6 * 3600)
/* Nor does a server's Retry-After keep us away longer than this. */
#define SCHED_RETRY_AFTER_CAP (24 * 3600)

int64_t
sched_backoff(int64_t interval, int failures)
{
	int64_t delay = interval, cap;

	cap = interval > SCHED_BACKOFF_CAP ? interval : SCHED_BACKOFF_CAP;
	while (failures-- > 0 && delay < cap)
		delay *= 2;
	return delay < cap ? delay : cap;
}

void
sched_arm(struct source *src, int64_t delay, bool jitter)
{
	struct timeval tv;
	int64_t ms = delay * 1000;

	/* Up to a tenth more, so sources on one interval drift apart. */
	if (jitter && delay > 0)
		ms += random() % (delay * 100 + 1);
	tv.tv_sec = (time_t)(ms / 1000);
	tv.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	src->next_poll = (int64_t)time(NULL) + (ms + 999) / 1000;
	evtimer_add(src->timer, &tv);
	mlq_debug("source '%s': next poll in %lld.%03llds", src->name,
	    (long long)(ms / 1000), (long long)(ms % 1000));
}

void
sched_done(struct source *src, bool ok)
{
	int64_t delay;

	if (ok && src->again) {
		src->failures = 0;
		src->again = false;
		sched_arm(src, 0, false);
		return;
	}
	src->again = false;
	if (ok) {
		src->failures = 0;
		delay = src->interval;
	} else {
		src->failures++;
		delay = sched_backoff(src->interval, src->failures);
	}
	if (src->retry_after > 0) {
		delay = src->retry_after < SCHED_RETRY_AFTER_CAP
		    ? src->retry_after
		    : SCHED_RETRY_AFTER_CAP;
		src->retry_after = 0;
		mlq_warnx("source '%s': the server asks to retry after %llds",
		    src->name, (long long)delay);
		sched_arm(src, delay, false);
		return;
	}
	if (!ok)
		mlq_warnx("source '%s': failure %d, backing off %llds",
		    src->name, src->failures, (long long)delay);
	sched_arm(src, delay, true);
}
