#include "config.h"

#include <stdint.h>
#include <string.h>

#include "mlq-int.h"

/* SHA-1 as FIPS 180-4 section 6.1 describes it: 512-bit blocks, big-endian. */

static uint32_t
rol(uint32_t x, unsigned n)
{
	return (x << n) | (x >> (32 - n));
}

static uint32_t
load_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static void
store_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* f_t and K_t for the four rounds of twenty (FIPS 180-4 4.1.1, 4.2.1). */
static uint32_t
round_f(unsigned t, uint32_t b, uint32_t c, uint32_t d)
{
	if (t < 20)
		return (b & c) | (~b & d);
	if (t < 40 || t >= 60)
		return b ^ c ^ d;
	return (b & c) | (b & d) | (c & d);
}

static const uint32_t round_k[4] = { 0x5a827999, 0x6ed9eba1, 0x8f1bbcdc,
	0xca62c1d6 };

static void
sha1_block(uint32_t h[5], const unsigned char *blk)
{
	uint32_t w[80], a, b, c, d, e, tmp;
	unsigned t;

	for (t = 0; t < 16; t++)
		w[t] = load_be32(blk + 4 * t);
	for (; t < 80; t++)
		w[t] = rol(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
	a = h[0];
	b = h[1];
	c = h[2];
	d = h[3];
	e = h[4];
	for (t = 0; t < 80; t++) {
		tmp = rol(a, 5) + round_f(t, b, c, d) + e + round_k[t / 20] +
		    w[t];
		e = d;
		d = c;
		c = rol(b, 30);
		b = a;
		a = tmp;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

void
mlq__sha1_init(struct mlq__sha1 *c)
{
	c->h[0] = 0x67452301;
	c->h[1] = 0xefcdab89;
	c->h[2] = 0x98badcfe;
	c->h[3] = 0x10325476;
	c->h[4] = 0xc3d2e1f0;
	c->len = 0;
	c->fill = 0;
}

void
mlq__sha1_update(struct mlq__sha1 *c, const void *p, size_t n)
{
	const unsigned char *in = p;
	size_t take;

	c->len += n;
	if (c->fill > 0) {
		take = sizeof(c->block) - c->fill;
		if (take > n)
			take = n;
		memcpy(c->block + c->fill, in, take);
		c->fill += take;
		in += take;
		n -= take;
		if (c->fill < sizeof(c->block))
			return;
		sha1_block(c->h, c->block);
		c->fill = 0;
	}
	for (; n >= sizeof(c->block); in += 64, n -= 64)
		sha1_block(c->h, in);
	if (n > 0) {
		memcpy(c->block, in, n);
		c->fill = n;
	}
}

void
mlq__sha1_final(struct mlq__sha1 *c, unsigned char out[20])
{
	uint64_t bits = c->len * 8;
	unsigned i;

	/* Pad with 0x80, zeroes up to 56 mod 64, then the bit length. */
	c->block[c->fill++] = 0x80;
	if (c->fill > 56) {
		memset(c->block + c->fill, 0, sizeof(c->block) - c->fill);
		sha1_block(c->h, c->block);
		c->fill = 0;
	}
	memset(c->block + c->fill, 0, 56 - c->fill);
	store_be32(c->block + 56, (uint32_t)(bits >> 32));
	store_be32(c->block + 60, (uint32_t)bits);
	sha1_block(c->h, c->block);
	for (i = 0; i < 5; i++)
		store_be32(out + 4 * i, c->h[i]);
	c->fill = 0;
}

void
mlq__sha1_hex(const unsigned char d[20], char out[41])
{
	mlq__hex(out, d, 20);
	out[40] = '\0';
}
