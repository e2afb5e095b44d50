# Shell helpers shared by the test runners (sourced; needs $repo set).

# Word-split a command string; make words that name existing files (relative
# to the caller's folder, else to the repo) absolute, since the runners run
# commands from other folders.
resolve_cmd() {
	local w words out=()
	read -r -a words <<<"$1"
	for w in "${words[@]}"; do
		if [[ "$w" == */* && "$w" != /* ]]; then
			if [ -e "$w" ]; then
				w="$(cd "$(dirname "$w")" && pwd)/$(basename "$w")"
			elif [ -e "$repo/$w" ]; then
				w="$repo/$w"
			fi
		fi
		out+=("$w")
	done
	printf '%s\n' "${out[@]}"
}
