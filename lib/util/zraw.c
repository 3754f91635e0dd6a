/*
 * Raw mail is kept deflated with a preset dictionary of the header lines,
 * trailers and diff lines that kernel list mail repeats in every message:
 * a message is too short for deflate to learn them from itself.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#define ZLIB_CONST /* next_in is const: raw is only borrowed */
#include <zlib.h>

#include "mlq-int.h"

/*
 * Level 1 with the dictionary is both faster and smaller than level 6
 * without it (measured on linux-nfs: 32.7 vs 34.3 MB per 80 MB of mail, and
 * a sixth less worker CPU).
 */
#ifndef MLQ_ZRAW_LEVEL
#define MLQ_ZRAW_LEVEL 1
#endif

/*
 * Frozen: every blob written with it names it by its Adler-32 and cannot be
 * read without it.  A better one gets a new array and a lookup by Adler-32.
 * Most frequent last: deflate reaches the end of a dictionary cheapest.
 */
static const char zraw_dict[] =
    "Content-Disposition: attachment; filename=\"\n"
    "Content-Type: multipart/signed; micalg=pgp-sha256; protocol="
    "\"application/pgp-signature\"; boundary=\"\n"
    "Content-Type: multipart/mixed; boundary=\"\n"
    "Content-Type: text/plain; charset=iso-8859-1\n"
    "Content-Type: text/plain; charset=\"us-ascii\"\n"
    "Content-Type: text/plain; charset=us-ascii\n"
    "Content-Transfer-Encoding: quoted-printable\n"
    "User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:91.0) Gecko/2"
    "0100101 Thunderbird/91.0\n"
    "User-Agent: Mutt/1.10.1 (2018-07-13)\n"
    "X-Mailer: git-send-email 2.31.1\n"
    "X-MS-Exchange-CrossTenant-originalarrivaltime: \n"
    "X-MS-Exchange-CrossTenant-fromentityheader: Hosted\n"
    "X-MS-Exchange-Transport-CrossTenantHeadersStamped: \n"
    "X-MS-Exchange-AntiSpam-MessageData: \n"
    "X-Microsoft-Antispam-Message-Info: \n"
    "X-Forefront-Antispam-Report: CIP:255.255.255.255;CTRY:;LANG:"
    "en;SCL:1;SRV:;IPV:NLI;SFV:NSPM;H:;PTR:;CAT:NONE;SFS:\n"
    "Authentication-Results: spf=none (sender IP is ) smtp.mailfr"
    "om=; dkim=none (message not signed) header.d=none;\n"
    "ARC-Seal: i=1; a=rsa-sha256; s=arcselector9901; d=microsoft."
    "com; cv=none;\n"
    "ARC-Message-Signature: i=1; a=rsa-sha256; c=relaxed/relaxed;"
    " d=microsoft.com;\n"
    "ARC-Authentication-Results: i=1; mx.microsoft.com 1; spf=pas"
    "s smtp.mailfrom=oracle.com; dmarc=pass action=none header.fr"
    "om=oracle.com; dkim=pass header.d=oracle.com; arc=none\n"
    "Thread-Topic: \n"
    "Thread-Index: \n"
    "Accept-Language: en-US\n"
    "Content-Language: en-US\n"
    "X-MS-Has-Attach: \n"
    "X-MS-TNEF-Correlator: \n"
    "X-Proofpoint-Virus-Version: vendor=nai engine=6000 definitio"
    "ns=\n"
    "X-Proofpoint-Spam-Details: rule=notspam policy=default score"
    "=0 \n"
    "X-Google-Smtp-Source: \n"
    "X-Gm-Message-State: \n"
    "X-Google-DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxe"
    "d;\n"
    "        d=1e100.net; s=20161025;\n"
    "        h=x-gm-message-state:from:to:cc:subject:date:message"
    "-id:in-reply-to\n"
    "         :references:mime-version:content-transfer-encoding;"
    "\n"
    "X-Received: by 2002: with SMTP id \n"
    "DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed;\n"
    "        d=gmail.com; s=20161025;\n"
    "        h=from:to:cc:subject:date:message-id:in-reply-to:ref"
    "erences\n"
    "         :mime-version:content-transfer-encoding;\n"
    "        bh=\n"
    "        b=\n"
    "Received: from mail-\n"
    " ([209.85.\n"
    " (ORCPT <rfc822;\n"
    "Received: by mail-\n"
    " with SMTP id \n"
    "Received: from vger.kernel.org (vger.kernel.org [209.132.180"
    ".67])\n"
    "\tby mail.lfdr.de (Postfix) with ESMTP id \n"
    "\tfor <lists+\n"
    "Received: (majordomo@vger.kernel.org) by vger.kernel.org via"
    " listexpand\n"
    "        id \n"
    " (ORCPT <rfc822;lists+\n"
    " -0400\n"
    " -0700 (PDT)\n"
    " +0000 (UTC)\n"
    " +0200 (CEST)\n"
    " +0100 (CET)\n"
    "Return-Path: <\n"
    "X-Original-To: lists+\n"
    "Delivered-To: lists+\n"
    "Sender: \n"
    "Precedence: bulk\n"
    "List-ID: <\n"
    "X-Mailing-List: \n"
    "@vger.kernel.org\n"
    "\n"
    "Signed-off-by: \n"
    "Reviewed-by: \n"
    "Acked-by: \n"
    "Tested-by: \n"
    "Reported-by: \n"
    "Fixes: \n"
    "Cc: stable@vger.kernel.org\n"
    "---\n"
    " 1 file changed, 1 insertion(+), 1 deletion(-)\n"
    " 2 files changed, \n"
    " insertions(+), \n"
    " deletions(-)\n"
    "diff --git a/\n"
    "index \n"
    "--- a/\n"
    "+++ b/\n"
    "@@ -\n"
    " \treturn 0;\n"
    " }\n"
    " \n"
    " static int \n"
    " \tstruct \n"
    "-- \n"
    "2.20.1\n"
    "\n"
    "MIME-Version: 1.0\n"
    "Content-Type: text/plain; charset=\"UTF-8\"\n"
    "Content-Transfer-Encoding: 8bit\n"
    "In-Reply-To: <\n"
    "References: <\n"
    "Message-ID: <\n"
    "Message-Id: <\n"
    "Date: \n"
    "Subject: Re: [PATCH v2 \n"
    "Subject: [PATCH \n"
    "From: \n"
    "To: \n"
    "Cc: \n";

enum mlq_status
mlq_zraw_pack(const char *raw, size_t len, struct mlq_arena *a,
    const unsigned char **out, size_t *outlen, struct mlq_err *err)
{
	z_stream z;
	unsigned char *buf, *kept;
	uLong cap;
	int rc;

	if (len > UINT32_MAX)
		return mlq_err_set(err, MLQ_EINPUT, "message too large to store");
	memset(&z, 0, sizeof(z));
	if ((rc = deflateInit(&z, MLQ_ZRAW_LEVEL)) != Z_OK)
		return mlq_err_set(err, MLQ_ENOMEM, "deflate: %s", zError(rc));
	/*
	 * Deflated apart and kept at its size: the bound is the mail's own
	 * size, and a parsed message waits in the ingest ring.
	 */
	cap = deflateBound(&z, (uLong)len);
	if ((buf = malloc(cap)) == NULL) {
		deflateEnd(&z);
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	}
	rc = deflateSetDictionary(&z, (const Bytef *)zraw_dict,
	    sizeof(zraw_dict) - 1);
	z.next_in = (z_const Bytef *)raw;
	z.avail_in = (uInt)len;
	z.next_out = buf;
	z.avail_out = (uInt)cap;
	if (rc == Z_OK)
		rc = deflate(&z, Z_FINISH);
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(buf);
		return mlq_err_set(err, MLQ_ENOMEM, "deflate: %s", zError(rc));
	}
	kept = mlq_arena_alloc(a, z.total_out);
	if (kept != NULL)
		memcpy(kept, buf, z.total_out);
	free(buf);
	if (kept == NULL)
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	*out = kept;
	*outlen = z.total_out;
	return MLQ_OK;
}

enum mlq_status
mlq_zraw_unpack(const void *zdata, size_t zlen, size_t rawlen,
    struct mlq_buf *out, struct mlq_err *err)
{
	z_stream z;
	size_t start = out->len;
	int rc;

	if (zlen > UINT32_MAX || rawlen > UINT32_MAX)
		return mlq_err_set(err, MLQ_EDB,
		    "stored message is corrupt: "
		    "too large");
	if (!mlq_buf_grow(out, rawlen))
		return mlq_err_set(err, MLQ_ENOMEM, "out of memory");
	memset(&z, 0, sizeof(z));
	if ((rc = inflateInit(&z)) != Z_OK)
		return mlq_err_set(err, MLQ_ENOMEM, "inflate: %s", zError(rc));
	z.next_in = (z_const Bytef *)zdata;
	z.avail_in = (uInt)zlen;
	z.next_out = (Bytef *)out->data + start;
	z.avail_out = (uInt)rawlen;
	rc = inflate(&z, Z_FINISH);
	/* Blobs from before the dictionary have none and never stop here. */
	if (rc == Z_NEED_DICT &&
	    z.adler ==
		adler32(1L, (const Bytef *)zraw_dict, sizeof(zraw_dict) - 1) &&
	    inflateSetDictionary(&z, (const Bytef *)zraw_dict,
		sizeof(zraw_dict) - 1) == Z_OK)
		rc = inflate(&z, Z_FINISH);
	inflateEnd(&z);
	if (rc != Z_STREAM_END || z.total_out != rawlen) {
		out->data[start] = '\0';
		return mlq_err_set(err, MLQ_EDB,
		    "stored message is corrupt: %s",
		    rc == Z_NEED_DICT	     ? "unknown dictionary"
			: rc != Z_STREAM_END ? zError(rc)
					     : "wrong length");
	}
	out->len = start + rawlen;
	out->data[out->len] = '\0';
	return MLQ_OK;
}
