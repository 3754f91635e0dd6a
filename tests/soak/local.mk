# tests/soak: the soak test of issue 32 (doc/soak.md), included from
# Makefile.am.  Never part of `make check`: `make soak` runs mlqd for
# SOAK_SECONDS against SOAK_SOURCE_COUNT local sources while mail arrives, and
# keeps the samples, figures and log in soak-out/.
SOAK_SECONDS = 180
SOAK_SOURCE_COUNT = 50
dist_noinst_SCRIPTS += tests/soak/soak.sh tests/soak/deliver.pl \
	tests/soak/slowproxy.py tests/soak/garbage.py tests/soak/analyze.py
soak: all
	LC_ALL=C.UTF-8 TZ=UTC top_builddir='$(abs_top_builddir)' \
	    top_srcdir='$(abs_top_srcdir)' SOAK_OUT='$(abs_top_builddir)/soak-out' \
	    DURATION=$(SOAK_SECONDS) SOURCES=$(SOAK_SOURCE_COUNT) \
	    $(SHELL) $(top_srcdir)/tests/soak/soak.sh
clean-local: clean-soak
clean-soak:
	rm -rf soak-out
.PHONY: soak clean-soak
