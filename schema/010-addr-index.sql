-- mlq database, version 10.  Frozen once released.
-- Who sent and received each message moves from msg_email, a B-tree keyed
-- by address, to addr, a contentless FTS5 index of address terms.  The
-- B-tree took a random leaf write per address of every message: a fifth
-- of the writer's time, and most of the pages a batch dirtied in a large
-- database.  FTS5 appends and merges instead.
-- A term is a role ('f' From, 'a' any role), the reversed domain in hex,
-- 'g', the local part (before the last '@') in hex: a domain is a prefix
-- query, an address one term (mlq__addr_term in lib/util/text.c).
CREATE VIRTUAL TABLE addr USING fts5(a, content = '', detail = none,
	tokenize = 'ascii');
INSERT INTO addr(addr, rank) VALUES ('automerge', 16);
INSERT INTO addr(rowid, a)
	SELECT msg, group_concat(term, ' ') FROM (
		SELECT me.msg AS msg,
		    CASE me.role WHEN 1 THEN 'f' || t.x || ' a' || t.x
			ELSE 'a' || t.x END AS term
		FROM msg_email me JOIN (
			SELECT id, lower(hex(rdomain)) || 'g' || lower(hex(
			    CASE WHEN instr(email, '@') > 0
				THEN substr(rtrim(email, replace(email, '@', '')),
				    1, length(rtrim(email, replace(email, '@', ''))) - 1)
				ELSE email END)) AS x
			FROM email) t ON t.id = me.email
		ORDER BY me.msg)
	GROUP BY msg ORDER BY msg;
DROP TABLE msg_email;
DROP TABLE email;
