# realrun.sh is sourced by each profile's testdata/realrun/gen.sh. It defines
# rec NAME CMD…, which runs CMD under sh -c in the current directory and
# records it as the fixture NAME in $here (the layout is described in
# profiles/gotest/testdata/realrun/README.md): cmd, exit, and stdout/stderr
# when not empty.
rec() {
	name=$1
	shift
	mkdir -p "$here/$name"
	echo "$*" > "$here/$name/cmd"
	sh -c "$*" > "$here/$name/stdout" 2> "$here/$name/stderr"
	echo $? > "$here/$name/exit"
	[ -s "$here/$name/stderr" ] || rm "$here/$name/stderr"
	[ -s "$here/$name/stdout" ] || rm "$here/$name/stdout"
}
