# tests/fuzz: the fuzz harnesses, included from Makefile.am where this
# section used to be (so the harnesses' edits stay out of Makefile.am).
# check_PROGRAMS is defined here, the first place that needs it.

# Fuzz targets: libFuzzer programs with --enable-fuzzing (clang), and
# always replay programs that make check runs over the fixtures.
FUZZ_TARGETS = msg mbox
check_PROGRAMS = $(UNIT_TESTS) tests/fuzz/replay-msg tests/fuzz/replay-mbox \
	tests/helpers/seccomp-run
tests_helpers_seccomp_run_SOURCES = tests/helpers/seccomp-run.c
tests_fuzz_replay_msg_SOURCES = tests/fuzz/fuzz-msg.c tests/fuzz/replay.c
tests_fuzz_replay_msg_LDADD = $(MLQ_LIBS)
tests_fuzz_replay_mbox_SOURCES = tests/fuzz/fuzz-mbox.c tests/fuzz/replay.c
tests_fuzz_replay_mbox_LDADD = $(MLQ_LIBS)
if FUZZING
noinst_PROGRAMS = tests/fuzz/fuzz-msg tests/fuzz/fuzz-mbox
tests_fuzz_fuzz_msg_SOURCES = tests/fuzz/fuzz-msg.c
tests_fuzz_fuzz_msg_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_msg_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_msg_LDADD = $(MLQ_LIBS)
tests_fuzz_fuzz_mbox_SOURCES = tests/fuzz/fuzz-mbox.c
tests_fuzz_fuzz_mbox_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_mbox_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_mbox_LDADD = $(MLQ_LIBS)
endif

# What mlqd reads off the network, apart from the sockets (daemon/wire.h),
# so the http and imap harnesses below link it without mlqd.
daemon_mlqd_SOURCES += daemon/wire.c daemon/wire.h
