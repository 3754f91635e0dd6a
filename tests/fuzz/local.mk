# tests/fuzz: the fuzz harnesses, included from Makefile.am where this
# section used to be, so that their edits stay out of Makefile.am.
# check_PROGRAMS is defined here, the first place that needs it.
#
# Each harness is a libFuzzer program with --enable-fuzzing (CC=clang)
# and always a replay program (replay.c) that make check runs over the
# fixtures, ../shared's mail, the seeds and every kept crash (T140).
# `make fuzz` runs each fuzzer for FUZZ_SECONDS over a working corpus
# in the build tree (doc/fuzzing.md).
FUZZ_TARGETS = classify patch query conf http atom msg mbox maildir subject \
	trailer imap
FUZZ_UTIL = tests/fuzz/fuzz.c tests/fuzz/fuzz.h
check_PROGRAMS = $(UNIT_TESTS) tests/helpers/seccomp-run \
	tests/fuzz/replay-classify \
	tests/fuzz/replay-patch \
	tests/fuzz/replay-query \
	tests/fuzz/replay-conf \
	tests/fuzz/replay-http \
	tests/fuzz/replay-atom \
	tests/fuzz/replay-msg \
	tests/fuzz/replay-mbox \
	tests/fuzz/replay-maildir \
	tests/fuzz/replay-subject \
	tests/fuzz/replay-trailer \
	tests/fuzz/replay-imap
tests_helpers_seccomp_run_SOURCES = tests/helpers/seccomp-run.c
tests_fuzz_replay_classify_SOURCES = tests/fuzz/fuzz-classify.c tests/fuzz/replay.c $(FUZZ_UTIL)
tests_fuzz_replay_classify_LDADD = $(MLQ_LIBS)
tests_fuzz_replay_patch_SOURCES = tests/fuzz/fuzz-patch.c tests/fuzz/replay.c $(FUZZ_UTIL)
tests_fuzz_replay_patch_LDADD = $(MLQ_LIBS)
tests_fuzz_replay_query_SOURCES = tests/fuzz/fuzz-query.c tests/fuzz/replay.c $(FUZZ_UTIL)
tests_fuzz_replay_query_LDADD = $(MLQ_LIBS)
tests_fuzz_replay_query_CPPFLAGS = $(AM_CPPFLAGS) $(SQLITE_CFLAGS)
tests_fuzz_replay_query_LDFLAGS = $(AM_LDFLAGS) -Wl,--wrap=sqlite3_prepare_v2
tests_fuzz_replay_conf_SOURCES = tests/fuzz/fuzz-conf.c tests/fuzz/replay.c $(FUZZ_UTIL)
tests_fuzz_replay_conf_LDADD = $(MLQ_LIBS)
tests_fuzz_replay_http_SOURCES = tests/fuzz/fuzz-http.c daemon/wire.c daemon/wire.h tests/fuzz/replay.c $(FUZZ_UTIL)
tests_fuzz_replay_http_LDADD = $(MLQ_LIBS)
tests_fuzz_replay_http_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/daemon $(ZLIB_CFLAGS)
tests_fuzz_replay_atom_SOURCES = tests/fuzz/fuzz-atom.c daemon/wire.c daemon/wire.h tests/fuzz/replay.c $(FUZZ_UTIL)
tests_fuzz_replay_atom_LDADD = $(MLQ_LIBS)
tests_fuzz_replay_atom_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/daemon $(ZLIB_CFLAGS)
tests_fuzz_replay_msg_SOURCES = tests/fuzz/fuzz-msg.c tests/fuzz/replay.c $(FUZZ_UTIL)
tests_fuzz_replay_msg_LDADD = $(MLQ_LIBS)
tests_fuzz_replay_mbox_SOURCES = tests/fuzz/fuzz-mbox.c tests/fuzz/replay.c $(FUZZ_UTIL)
tests_fuzz_replay_mbox_LDADD = $(MLQ_LIBS)
tests_fuzz_replay_maildir_SOURCES = tests/fuzz/fuzz-maildir.c tests/fuzz/replay.c $(FUZZ_UTIL)
tests_fuzz_replay_maildir_LDADD = $(MLQ_LIBS)
tests_fuzz_replay_subject_SOURCES = tests/fuzz/fuzz-subject.c tests/fuzz/replay.c $(FUZZ_UTIL)
tests_fuzz_replay_subject_LDADD = $(MLQ_LIBS)
tests_fuzz_replay_trailer_SOURCES = tests/fuzz/fuzz-trailer.c tests/fuzz/replay.c $(FUZZ_UTIL)
tests_fuzz_replay_trailer_LDADD = $(MLQ_LIBS)
tests_fuzz_replay_imap_SOURCES = tests/fuzz/fuzz-imap.c daemon/wire.c daemon/wire.h tests/fuzz/replay.c $(FUZZ_UTIL)
tests_fuzz_replay_imap_LDADD = $(MLQ_LIBS)
tests_fuzz_replay_imap_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/daemon $(ZLIB_CFLAGS)
if FUZZING
noinst_PROGRAMS = \
	tests/fuzz/fuzz-classify \
	tests/fuzz/fuzz-patch \
	tests/fuzz/fuzz-query \
	tests/fuzz/fuzz-conf \
	tests/fuzz/fuzz-http \
	tests/fuzz/fuzz-atom \
	tests/fuzz/fuzz-msg \
	tests/fuzz/fuzz-mbox \
	tests/fuzz/fuzz-maildir \
	tests/fuzz/fuzz-subject \
	tests/fuzz/fuzz-trailer \
	tests/fuzz/fuzz-imap
tests_fuzz_fuzz_classify_SOURCES = tests/fuzz/fuzz-classify.c $(FUZZ_UTIL)
tests_fuzz_fuzz_classify_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_classify_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_classify_LDADD = $(MLQ_LIBS)
tests_fuzz_fuzz_patch_SOURCES = tests/fuzz/fuzz-patch.c $(FUZZ_UTIL)
tests_fuzz_fuzz_patch_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_patch_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_patch_LDADD = $(MLQ_LIBS)
tests_fuzz_fuzz_query_SOURCES = tests/fuzz/fuzz-query.c $(FUZZ_UTIL)
tests_fuzz_fuzz_query_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_query_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer -Wl,--wrap=sqlite3_prepare_v2
tests_fuzz_fuzz_query_LDADD = $(MLQ_LIBS)
tests_fuzz_fuzz_query_CPPFLAGS = $(AM_CPPFLAGS) $(SQLITE_CFLAGS)
tests_fuzz_fuzz_conf_SOURCES = tests/fuzz/fuzz-conf.c $(FUZZ_UTIL)
tests_fuzz_fuzz_conf_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_conf_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_conf_LDADD = $(MLQ_LIBS)
tests_fuzz_fuzz_http_SOURCES = tests/fuzz/fuzz-http.c daemon/wire.c daemon/wire.h $(FUZZ_UTIL)
tests_fuzz_fuzz_http_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_http_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_http_LDADD = $(MLQ_LIBS)
tests_fuzz_fuzz_http_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/daemon $(ZLIB_CFLAGS)
tests_fuzz_fuzz_atom_SOURCES = tests/fuzz/fuzz-atom.c daemon/wire.c daemon/wire.h $(FUZZ_UTIL)
tests_fuzz_fuzz_atom_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_atom_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_atom_LDADD = $(MLQ_LIBS)
tests_fuzz_fuzz_atom_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/daemon $(ZLIB_CFLAGS)
tests_fuzz_fuzz_msg_SOURCES = tests/fuzz/fuzz-msg.c $(FUZZ_UTIL)
tests_fuzz_fuzz_msg_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_msg_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_msg_LDADD = $(MLQ_LIBS)
tests_fuzz_fuzz_mbox_SOURCES = tests/fuzz/fuzz-mbox.c $(FUZZ_UTIL)
tests_fuzz_fuzz_mbox_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_mbox_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_mbox_LDADD = $(MLQ_LIBS)
tests_fuzz_fuzz_maildir_SOURCES = tests/fuzz/fuzz-maildir.c $(FUZZ_UTIL)
tests_fuzz_fuzz_maildir_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_maildir_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_maildir_LDADD = $(MLQ_LIBS)
tests_fuzz_fuzz_subject_SOURCES = tests/fuzz/fuzz-subject.c $(FUZZ_UTIL)
tests_fuzz_fuzz_subject_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_subject_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_subject_LDADD = $(MLQ_LIBS)
tests_fuzz_fuzz_trailer_SOURCES = tests/fuzz/fuzz-trailer.c $(FUZZ_UTIL)
tests_fuzz_fuzz_trailer_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_trailer_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_trailer_LDADD = $(MLQ_LIBS)
tests_fuzz_fuzz_imap_SOURCES = tests/fuzz/fuzz-imap.c daemon/wire.c daemon/wire.h $(FUZZ_UTIL)
tests_fuzz_fuzz_imap_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_imap_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_imap_LDADD = $(MLQ_LIBS)
tests_fuzz_fuzz_imap_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/daemon $(ZLIB_CFLAGS)
endif

# What mlqd reads off the network, apart from the sockets (daemon/wire.h),
# so the http, atom and imap harnesses link it without mlqd.
daemon_mlqd_SOURCES += daemon/wire.c daemon/wire.h

# The seeds, crash inputs and dictionaries go into the tarball; seed.sh
# cuts seeds from ../shared into the build tree for make fuzz.
dist_noinst_SCRIPTS = tests/fuzz/seed.sh
dist-hook:
	cp -pR $(srcdir)/tests/fuzz/seeds $(srcdir)/tests/fuzz/crashes \
	    $(srcdir)/tests/fuzz/dict $(distdir)/tests/fuzz/

FUZZ_SECONDS = 60
# Mail of 300 kB among the seeds makes every mutation slow; bugs need less.
FUZZ_MAX_LEN = 65536
FUZZ_FLAGS =
FUZZ_SHARED = $(top_srcdir)/../shared
if FUZZING
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
	    $(MAKE) $(AM_MAKEFLAGS) tests/fuzz/fuzz-$$t >/dev/null; \
	    c=fuzz-corpus/$$t; s=fuzz-corpus/seed-$$t; \
	    test -d $$s || $(SHELL) $(srcdir)/tests/fuzz/seed.sh $$t $$s \
		'$(FUZZ_SHARED)'; \
	    mkdir -p $$c fuzz-corpus/crash-$$t; \
	    dirs="$$c $$s"; \
	    for d in seeds/$$t crashes/$$t; do \
		test ! -d $(srcdir)/tests/fuzz/$$d || \
		    dirs="$$dirs $(srcdir)/tests/fuzz/$$d"; \
	    done; \
	    case $$t in \
	    msg|mbox|maildir|http|classify|trailer|imap) \
		dirs="$$dirs $(srcdir)/tests/fixtures";; \
	    patch) test ! -d '$(FUZZ_SHARED)/corpus/patches' || \
		dirs="$$dirs $(FUZZ_SHARED)/corpus/patches";; \
	    esac; \
	    dict=$(srcdir)/tests/fuzz/dict/$$t.dict; \
	    echo "fuzz-$$t: $(FUZZ_SECONDS)s over $$dirs"; \
	    tests/fuzz/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) -dict=$$dict \
		-rss_limit_mb=2048 -max_len=$(FUZZ_MAX_LEN) -timeout=30 \
		-print_final_stats=1 \
		-artifact_prefix=fuzz-corpus/crash-$$t/ $(FUZZ_FLAGS) $$dirs \
		2>fuzz-corpus/$$t.log || { \
		tail -n 40 fuzz-corpus/$$t.log >&2; exit 1; }; \
	    grep -E '^(#[0-9]+.*DONE|stat::)' fuzz-corpus/$$t.log || :; \
	done
else
fuzz:
	@echo "make fuzz: configure with --enable-fuzzing CC=clang" >&2; exit 1
endif
.PHONY: fuzz
