#include "config.h"

#include <string.h>

#include "mlq-int.h"
#include "tap.h"

static const char *
digest(const char *s, size_t n, size_t chunk)
{
	static char hex[41];
	struct mlq__sha1 c;
	unsigned char d[20];
	size_t i, take;

	mlq__sha1_init(&c);
	for (i = 0; i < n; i += take) {
		take = n - i < chunk ? n - i : chunk;
		mlq__sha1_update(&c, s + i, take);
	}
	mlq__sha1_final(&c, d);
	mlq__sha1_hex(d, hex);
	return hex;
}

static const char *
million_a(size_t chunk)
{
	static char hex[41];
	char buf[1000];
	struct mlq__sha1 c;
	unsigned char d[20];
	size_t i;

	memset(buf, 'a', sizeof(buf));
	mlq__sha1_init(&c);
	for (i = 0; i < 1000000; i += chunk)
		mlq__sha1_update(&c, buf, chunk);
	mlq__sha1_final(&c, d);
	mlq__sha1_hex(d, hex);
	return hex;
}

int
main(void)
{
	static const char v448[] =
	    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	static const char v896[] =
	    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
	    "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

	static const struct {
		size_t n;
		const char *hex;
	} edges[] = {
		{ 55, "c1c8bbdc22796e28c0e15163d20899b65621d65a" },
		{ 56, "c2db330f6083854c99d4b5bfb6e8f29f201be699" },
		{ 63, "03f09f5b158a7a8cdad920bddc29b81c18a551f5" },
		{ 64, "0098ba824b5c16427bd7a1122a5a442a25ec644d" },
		{ 65, "11655326c708d70319be2610e8a57d9a5b959d3b" },
	};
	char buf[65];
	size_t i;

	plan(13);
	is_str(digest("abc", 3, 64), "a9993e364706816aba3e25717850c26c9cd0d89d",
	    "FIPS 180 one-block vector \"abc\"");
	is_str(digest("", 0, 64), "da39a3ee5e6b4b0d3255bfef95601890afd80709",
	    "empty message");
	is_str(digest(v448, strlen(v448), 64),
	    "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
	    "FIPS 180 two-block 448-bit vector");
	is_str(digest(v448, strlen(v448), 1),
	    "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
	    "448-bit vector fed a byte at a time");
	is_str(digest(v896, strlen(v896), 7),
	    "a49b2446a02c645bf419f995b67091253a04a259",
	    "896-bit vector in odd chunks");
	is_str(million_a(1000), "34aa973cd4c4daa4f61eeb2bdbad27316534016f",
	    "a million 'a'");
	is_str(million_a(8), "34aa973cd4c4daa4f61eeb2bdbad27316534016f",
	    "a million 'a' in 8-byte pieces");
	is_str(digest("The quick brown fox jumps over the lazy dog", 43, 64),
	    "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12", "pangram");
	for (i = 0; i < MLQ__ARRAY_SIZE(edges); i++) {
		memset(buf, 'a', edges[i].n);
		is_str(digest(buf, edges[i].n, 3), edges[i].hex,
		    "%zu bytes: padding at a block edge", edges[i].n);
	}
	return done_testing();
}
