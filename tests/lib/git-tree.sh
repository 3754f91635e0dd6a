# A git tree made with git itself for the tests of followed trees (T600,
# T601).  Source after test-lib.sh: $R is the tree, g() runs git in it,
# and master holds one commit, "base": f.c with variables a to g, eight
# lines apart so that no hunk's context reaches another's.
need git

export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME="Ann Dev" GIT_AUTHOR_EMAIL=ann@example.org
export GIT_COMMITTER_NAME="Ann Dev" GIT_COMMITTER_EMAIL=ann@example.org
R="$TMP/linux"
git init -q -b master "$R"
g() { git -C "$R" "$@"; }
for v in a b c d e g; do printf 'int %s;\n\n\n\n\n\n\n\n' "$v"; done >"$R/f.c"
g add f.c
g commit -qm "base"
