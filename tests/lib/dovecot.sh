# dovecot as a personal IMAP server on 127.0.0.1 (notes/testbed.md §10):
# user "maint", password "Pw-s3cr3t.maint", mail in a maildir owned by dovecot's
# system user.  Source after test-lib.sh.

need dovecot
id dovecot >/dev/null 2>&1 || skip_all "no dovecot system user"

DOVE="$TMP/dovecot"
DOVE_MAIL="$DOVE/mail/maint/Maildir"

# dove_start: configure and start; sets DOVE_PORT.
dove_start() {
	_uid=$(id -u dovecot) _gid=$(id -g dovecot)
	DOVE_PORT=$(free_port)
	mkdir -p "$DOVE/run" "$DOVE/state" "$DOVE_MAIL/new" "$DOVE_MAIL/cur" \
	    "$DOVE_MAIL/tmp"
	chmod 755 "$DOVE" "$DOVE/mail"
	printf 'maint:{PLAIN}Pw-s3cr3t.maint:%s:%s::%s\n' "$_uid" "$_gid" \
	    "$DOVE/mail/maint" >"$DOVE/users"
	cat >"$DOVE/dovecot.conf" <<EOC
base_dir = $DOVE/run
state_dir = $DOVE/state
log_path = $DOVE/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:~/Maildir
first_valid_uid = 1
passdb {
  driver = passwd-file
  args = $DOVE/users
}
userdb {
  driver = passwd-file
  args = $DOVE/users
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $DOVE_PORT
  }
  inet_listener imaps {
    port = 0
  }
}
EOC
	chown -R "$_uid:$_gid" "$DOVE/mail"
	dovecot -c "$DOVE/dovecot.conf" || return 1
	test_on_exit "dove_stop"
	wait_for 20 _pi_wait_port "$DOVE_PORT"
}

dove_stop() {
	[ -f "$DOVE/run/master.pid" ] || return 0
	test_cleanup_pid "$(cat "$DOVE/run/master.pid")"
}

# dove_deliver FILE...: drop messages into the maildir, as an MDA would.
dove_deliver() {
	for _f in "$@"; do
		_n="$(date +%s).$$.$(basename "$_f").mlqtest"
		cp "$_f" "$DOVE_MAIL/tmp/$_n"
		chown dovecot:dovecot "$DOVE_MAIL/tmp/$_n"
		mv "$DOVE_MAIL/tmp/$_n" "$DOVE_MAIL/new/$_n"
	done
}
