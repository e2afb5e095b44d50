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

# The port `reviewbot serve --listen 127.0.0.1:0` logged into file $1
# (event=listening ... port=N), waited for up to $2 tenths of a second
# (default 50); prints nothing and fails when it did not come.
serve_port() {
	local log=$1 tries=${2:-50} i port
	for ((i = 0; i < tries; i++)); do
		port=$(sed -n 's/.*event=listening .*port=\([0-9]*\).*/\1/p' "$log")
		[ -n "$port" ] && { echo "$port"; return 0; }
		sleep 0.1
	done
	return 1
}
