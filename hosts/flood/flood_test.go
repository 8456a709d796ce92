package flood

import (
	"strings"
	"testing"
)

func args(s string) []Arg {
	var a []Arg
	for _, w := range strings.Fields(s) {
		a = append(a, Arg{Value: w, Static: !strings.HasPrefix(w, "$"), Glob: strings.ContainsAny(w, "*?[")})
	}
	return a
}

func TestClassify(t *testing.T) {
	tests := []struct {
		cmd    string
		want   Verdict
		family Family
	}{
		{"pytest -q", Flood, FamilyTest},
		{"python3.12 -X dev -W error -m pytest", Flood, FamilyTest},
		{"python -m pip install -r r.txt", Flood, FamilyInstall},
		{"python", Interactive, ""},
		{"python -c print(1)", None, ""},
		{"go test ./...", Flood, FamilyTest},
		{"go run .", None, ""},
		{"cargo +nightly --color always test", Flood, FamilyTest},
		{"cargo fmt", None, ""},
		{"cargo fmt --check", Flood, FamilyLint},
		{"npm --prefix web run build", Flood, FamilyBuild},
		{"npm run dev:server", Interactive, ""},
		{"npm run db:migrate", None, ""},
		{"npm test -- --watchAll=false", Flood, FamilyTest},
		{"yarn", Flood, FamilyInstall},
		{"yarn eslint src", Flood, FamilyLint},
		{"pnpm --filter api exec vitest run", Flood, FamilyTest},
		{"vitest --watch=false", Flood, FamilyTest},
		{"jest --watch", Interactive, ""},
		{"make -j 8 -C build", Flood, FamilyBuild},
		{"make -f ci.mk serve", Interactive, ""},
		{"make $TARGET", Dynamic, ""},
		{"gcc a.c b.c", None, ""},
		{"gcc a.c b.c c.c", Flood, FamilyBuild},
		{"clang -c src/*.c", Flood, FamilyBuild},
		{"git log", Flood, FamilyVCS},
		{"git log -50", Bounded, ""},
		{"git log -51", Flood, FamilyVCS},
		{"git log -n2 -p", Bounded, ""},
		{"git log -3 --patch", Flood, FamilyVCS},
		{"git -C a -c x=y --no-pager diff --stat", Bounded, ""},
		{"git diff --stat -p", Flood, FamilyVCS},
		{"git show HEAD:README.md", None, ""},
		{"git grep -q foo", None, ""},
		{"grep -rn foo", Flood, FamilySearch},
		{"grep -nA3 -r foo .", Flood, FamilySearch},
		{"grep -e -r file", None, ""},
		{"grep -d recurse foo .", Flood, FamilySearch},
		{"grep -rq foo .", None, ""},
		{"find . -maxdepth 1", Bounded, ""},
		{"find . -maxdepth 3 -name x", Flood, FamilySearch},
		{"find . -ok rm {} ;", Interactive, ""},
		{"cat app.log.3", Flood, FamilyRead},
		{"cat var/logs/today.txt", Flood, FamilyRead},
		{"cat notes.txt", None, ""},
		{"cat", None, ""},
		{"tail -n 201 x.log", Flood, FamilyRead},
		{"tail -n 200 x.log", Bounded, ""},
		{"tail -fn 20 x.log", Interactive, ""},
		{"tail -c 2K x", Bounded, ""},
		{"tail -c 1MB x", Flood, FamilyRead},
		{"tail -n 20", None, ""},
		{"head -c -10 x", Flood, FamilyRead},
		{"docker logs --tail all web", Flood, FamilyLogs},
		{"docker logs -n 10 web", Bounded, ""},
		{"docker -H tcp://h run -d img", None, ""},
		{"docker exec -ti web sh", Interactive, ""},
		{"kubectl logs --tail=-1 pod", Flood, FamilyLogs},
		{"journalctl -n 1000", Flood, FamilyLogs},
		{"journalctl -xe", Flood, FamilyLogs},
		{"timeout --signal KILL 5m pytest", Flood, FamilyTest},
		{"timeout 5", None, ""},
		{"env -i A=1 -u B go test", Flood, FamilyTest},
		{"env -S 'go test'", Dynamic, ""},
		{"nice -n 5 $CMD", Dynamic, ""},
		{"sudo make", Privileged, ""},
		{"apt-get install foo", Interactive, ""},
		{"apt-get -y install foo", Flood, FamilyInstall},
		{"apt-get update", Flood, FamilyInstall},
		{"terraform apply", Interactive, ""},
		{"pytest --help", None, ""},
		{"ng build --watch", Interactive, ""},
		{"nx run web:test", Flood, FamilyTest},
		{"turbo dev", Interactive, ""},
		{"hatch run types:check", Flood, FamilyLint},
		{"hatch run lint:all", None, ""},
		{"uv run --python 3.12 mypy .", Flood, FamilyLint},
		{"bundle", Flood, FamilyInstall},
		{"rails server", Interactive, ""},
		{"ls -R", None, ""},
	}
	for _, tt := range tests {
		c := Classify(args(tt.cmd))
		if c.Verdict != tt.want || c.Family != tt.family {
			t.Errorf("Classify(%q) = %+v, want verdict %d family %q", tt.cmd, c, tt.want, tt.family)
		}
		if c.Verdict == Flood && c.Tool == "" {
			t.Errorf("Classify(%q): flood without a tool", tt.cmd)
		}
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int
		ok   bool
	}{
		{"10", 10, true}, {"2b", 1024, true}, {"1K", 1024, true}, {"1KiB", 1024, true}, {"1KB", 1000, true},
		{"3M", 3 << 20, true}, {"1G", 1 << 30, true}, {"x", 0, false}, {"", 0, false}, {"1Q", 0, false},
		{"9999999999999", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseSize(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseSize(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func FuzzClassify(f *testing.F) {
	f.Add("git log -n 5 -p")
	f.Add("npx -y -- vitest run --watch=0")
	f.Add("tail -c +3M -n -")
	f.Fuzz(func(t *testing.T, s string) {
		a := args(s)
		if len(a) == 0 {
			return
		}
		a[0].Static = true
		c := Classify(a)
		if c.Verdict == Flood && c.Family == "" {
			t.Errorf("Classify(%q): flood without a family", s)
		}
	})
}
