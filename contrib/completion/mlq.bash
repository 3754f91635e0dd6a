# bash completion for mlq and mlqd.  The commands, their options and the
# values of --status, --tag and --format come from `mlq help`, so they
# cannot go stale; --list names come from the database (`mlq lists`).

_mlq_help() # the help text of command $1 (no database, no config needed)
{
	mlq help "$1" 2>/dev/null
}

_mlq_values() # the words after "$1:" in `mlq help search`, on any line
{
	_mlq_help search | awk -v k="$1:" '
	    $1 == k { f = 1; $1 = ""; print; next }
	    /^[a-z-]+:/ { f = 0 }
	    f && /^ / { print }'
}

_mlq()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local words=("${COMP_WORDS[@]}") cword=$COMP_CWORD cmd i opts

	# The command: the first word that is not an option or its value.
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		--db | -c | --config) ((i++)) ;;
		-*) ;;
		*) cmd=${words[i]}; break ;;
		esac
	done

	case $prev in
	--db | -o | --cover | -c | --config)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--status)
		COMPREPLY=($(compgen -W "$(_mlq_values statuses)" -- "$cur"))
		return ;;
	--tag)
		if [[ $cmd == mark ]]; then
			COMPREPLY=($(compgen -W "$(_mlq_values tags |
			    tr ' ' '\n' | sed -n '/./{s/^/+/p; s/^+/-/p}')" \
			    -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_mlq_values tags)" -- "$cur"))
		fi
		return ;;
	--format)
		COMPREPLY=($(compgen -W "$(_mlq_help "$cmd" |
		    sed -n 's/.*--format \([a-z|]*\).*/\1/p' | head -n 1 |
		    tr '|' ' ')" -- "$cur"))
		return ;;
	--list)
		COMPREPLY=($(compgen -W "$(mlq lists 2>/dev/null |
		    awk '{ print $1 }')" -- "$cur"))
		return ;;
	esac

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--db --config -c --help --version" \
			    -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(mlq help 2>/dev/null |
			    awk 'NR > 2 && NF { print $1 }') help" -- "$cur"))
		fi
		return
	fi
	if [[ $cmd == help ]]; then
		COMPREPLY=($(compgen -W "$(mlq help 2>/dev/null |
		    awk 'NR > 2 && NF { print $1 }')" -- "$cur"))
		return
	fi
	if [[ $cur == -* ]]; then
		opts=$(_mlq_help "$cmd" | sed -n 's/^usage: //p' |
		    grep -o -- '--*[a-z][a-z-]*' | sort -u)
		COMPREPLY=($(compgen -W "$opts --help --db --config" -- "$cur"))
		return
	fi
	case $cmd in
	import) COMPREPLY=($(compgen -f -- "$cur")) ;;
	esac
}
complete -o filenames -F _mlq mlq

_mlqd()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	case $prev in
	-c | --config | --db)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	esac
	COMPREPLY=($(compgen -W "$(mlqd --help 2>/dev/null |
	    grep -o -- '--*[a-z][a-z-]*' | sort -u)" -- "$cur"))
}
complete -o filenames -F _mlqd mlqd
