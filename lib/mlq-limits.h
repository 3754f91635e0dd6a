/* Every bound libmlq enforces, with its reason.  Each may be overridden. */
#ifndef MLQ_LIMITS_H
#define MLQ_LIMITS_H

/* Larger than any list accepts; caps memory per message. */
#ifndef MLQ_MAX_MESSAGE_BYTES
#define MLQ_MAX_MESSAGE_BYTES (64u * 1024 * 1024)
#endif

/* Real mail has a few dozen headers; thousands means a broken or hostile one. */
#ifndef MLQ_MAX_ADDRS
#define MLQ_MAX_ADDRS 4096
#endif

/* A References header longer than this is truncated to its newest ids. */
#ifndef MLQ_MAX_REFS
#define MLQ_MAX_REFS 256
#endif

/* A patch touching more files than this is described by the first ones. */
#ifndef MLQ_MAX_PATCH_FILES
#define MLQ_MAX_PATCH_FILES 20000
#endif

/*
 * Messages in flight between reader, parse workers and writer: enough for
 * the workers to keep parsing through the writer's commits (70 ms a
 * batch at 10x linux-nfs), which 256 were not, and through more of its
 * syncs (up to 300 ms), which 1,024 were not.  The bytes below, not the
 * count, bound the memory a run of large messages takes.
 */
#ifndef MLQ_INGEST_QUEUE
#define MLQ_INGEST_QUEUE 2048
#endif

/*
 * Raw bytes in flight between reader, parse workers and writer; a parsed
 * message takes about 1.6 times its raw size (17 KB for linux-nfs's
 * average of 10.5).  A run of big messages stops at this instead.
 */
#ifndef MLQ_INGEST_QUEUE_BYTES
#define MLQ_INGEST_QUEUE_BYTES (16u * 1024 * 1024)
#endif

/*
 * How much nicer than the writer the parse workers run.  The writer is the
 * pipeline's narrow end, yet with two workers and the writer runnable on
 * two cores it waited for a core 4.2-4.5 s of a 14-20 s import of
 * linux-nfs; a worker at a lower priority gives way to it at once (whole
 * imports 7% faster at 1x and 10x).  Linux only, where each thread has
 * its own nice value.
 */
#ifndef MLQ_INGEST_WORKER_NICE
#define MLQ_INGEST_WORKER_NICE 10
#endif

/* Messages per transaction during an import. */
#ifndef MLQ_INGEST_BATCH
#define MLQ_INGEST_BATCH 2000
#endif

/* Parse workers at most, whatever the core count. */
#ifndef MLQ_INGEST_MAX_WORKERS
#define MLQ_INGEST_MAX_WORKERS 16
#endif

/* A config or secrets file is a few hundred bytes; more is not one. */
#ifndef MLQ_MAX_CONF_BYTES
#define MLQ_MAX_CONF_BYTES (1024u * 1024)
#endif

/* Missed digest periods mailed after downtime; older ones are stale. */
#ifndef MLQ_DIGEST_CATCHUP
#define MLQ_DIGEST_CATCHUP 4
#endif

/* Backoff between failed digest sends, doubling from MIN to MAX seconds. */
#ifndef MLQ_DIGEST_RETRY_MIN
#define MLQ_DIGEST_RETRY_MIN 60
#endif
#ifndef MLQ_DIGEST_RETRY_MAX
#define MLQ_DIGEST_RETRY_MAX 3600
#endif

/*
 * Open questions and unreviewed submissions are looked for this many days
 * back from their deadline: a digest of a decade of archive stays short.
 */
#ifndef MLQ_DIGEST_LOOKBACK_DAYS
#define MLQ_DIGEST_LOOKBACK_DAYS 28
#endif

/* Reviewers listed in a digest; items per section. */
#ifndef MLQ_DIGEST_REVIEWERS
#define MLQ_DIGEST_REVIEWERS 10
#endif
#ifndef MLQ_DIGEST_MAX_ITEMS
#define MLQ_DIGEST_MAX_ITEMS 500
#endif

/* A subject in a digest is cut to this many code points. */
#ifndef MLQ_DIGEST_SUBJECT_COLS
#define MLQ_DIGEST_SUBJECT_COLS 200
#endif

/* Seconds one SMTP exchange may take, connection included. */
#ifndef MLQ_SMTP_TIMEOUT
#define MLQ_SMTP_TIMEOUT 120
#endif

#endif
