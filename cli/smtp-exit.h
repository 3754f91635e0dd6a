/* How mlq-smtp answers `mlq digest --send` (cli/smtp-run.c). */
#ifndef MLQ_SMTP_EXIT_H
#define MLQ_SMTP_EXIT_H

/* 0 is sent; sysexits.h values, so a shell user reads them too. */
enum {
	MLQ_SMTP_EXIT_USAGE = 64,   /* EX_USAGE */
	MLQ_SMTP_EXIT_REFUSED = 69, /* EX_UNAVAILABLE: a 5xx, TLS or login */
	MLQ_SMTP_EXIT_FAILED = 74,  /* EX_IOERR: anything else */
	MLQ_SMTP_EXIT_RETRY = 75,   /* EX_TEMPFAIL: a 4xx or the network */
	MLQ_SMTP_EXIT_INPUT = 78,   /* EX_CONFIG */
};

#endif
