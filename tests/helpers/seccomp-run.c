/*
 * seccomp-run FILE DEFAULT CMD [ARG...]: runs CMD under a seccomp filter
 * that allows the system calls whose numbers FILE lists (one a line) and
 * answers every other one with DEFAULT: "eperm" (fail with EPERM, as a
 * systemd unit with SystemCallErrorNumber=EPERM does) or "kill" (SIGSYS,
 * as one without).  For tests of contrib/mlqd.service's filter.
 */
#include "config.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#endif

int
main(int argc, char **argv)
{
#ifdef NATIVE_ARCH
	struct sock_filter prog[1024];
	struct sock_fprog fp;
	unsigned nrs[900], def;
	size_t n = 0, k = 0, i;
	FILE *f;

	if (argc < 4 ||
	    (strcmp(argv[2], "eperm") != 0 && strcmp(argv[2], "kill") != 0)) {
		fprintf(stderr, "usage: seccomp-run FILE eperm|kill CMD...\n");
		return 2;
	}
	if ((f = fopen(argv[1], "r")) == NULL) {
		perror(argv[1]);
		return 2;
	}
	while (n < sizeof(nrs) / sizeof(nrs[0]) && fscanf(f, "%u", &nrs[n]) == 1)
		n++;
	fclose(f);
	def = strcmp(argv[2], "kill") == 0 ? SECCOMP_RET_KILL_PROCESS
					   : SECCOMP_RET_ERRNO | EPERM;
	/* Another architecture: killed, as SystemCallArchitectures=native. */
	prog[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	    offsetof(struct seccomp_data, arch));
	prog[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
	    NATIVE_ARCH, 1, 0);
	prog[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
	    SECCOMP_RET_KILL_PROCESS);
	prog[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	    offsetof(struct seccomp_data, nr));
	for (i = 0; i < n; i++) {
		prog[k++] = (struct sock_filter)BPF_JUMP(
		    BPF_JMP | BPF_JEQ | BPF_K, nrs[i], 0, 1);
		prog[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
		    SECCOMP_RET_ALLOW);
	}
	prog[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, def);
	fp.len = (unsigned short)k;
	fp.filter = prog;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp) != 0) {
		perror("seccomp");
		return 2;
	}
	execvp(argv[3], argv + 3);
	perror(argv[3]);
	return 127;
#else
	(void)argc;
	(void)argv;
	fprintf(stderr, "seccomp-run: no filter for this architecture\n");
	return 77;
#endif
}
