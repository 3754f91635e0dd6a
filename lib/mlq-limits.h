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

/* Messages in flight between reader, parse workers and writer. */
#ifndef MLQ_INGEST_QUEUE
#define MLQ_INGEST_QUEUE 256
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

#endif
