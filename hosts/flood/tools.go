package flood

import (
	"sync"

	"github.com/ctxhq/ctx/cmdline"
)

// rule classifies one program's command line: name is the program (after
// wrappers), a its arguments.
type rule func(name string, a []Arg) Class

// outcome is a verdict not yet given a tool name.
type outcome struct {
	verdict Verdict
	family  Family
}

func (o outcome) class(name string) Class {
	if o.verdict == Flood {
		return flood(name, o.family)
	}
	return Class{Verdict: o.verdict, Tool: name}
}

var (
	test    = outcome{Flood, FamilyTest}
	build   = outcome{Flood, FamilyBuild}
	lint    = outcome{Flood, FamilyLint}
	install = outcome{Flood, FamilyInstall}
	waits   = outcome{verdict: Interactive}
)

// always floods with family f.
func always(o outcome) rule { return func(name string, _ []Arg) Class { return o.class(name) } }

// unless floods with o unless one of the words is present, which makes the
// command interactive (a debugger, a watch mode).
func unless(o outcome, words ...string) rule {
	return func(name string, a []Arg) Class {
		if hasAny(a, words...) {
			return interactive(name)
		}
		return o.class(name)
	}
}

// unlessWatch floods with o unless a watch option (hasWatch, or one of the
// extra short forms) is present.
func unlessWatch(o outcome, extra ...string) rule {
	return func(name string, a []Arg) Class {
		if hasWatch(a) || hasAny(a, extra...) {
			return interactive(name)
		}
		return o.class(name)
	}
}

// when floods with o when one of the words is present, and is quiet otherwise.
func when(o outcome, words ...string) rule {
	return func(name string, a []Arg) Class {
		if hasAny(a, words...) {
			return o.class(name)
		}
		return none
	}
}

// bySub decides on the first positional word (the subcommand); an unlisted
// one is quiet.
func bySub(subs map[string]outcome) rule {
	return func(name string, a []Arg) Class {
		if o, ok := subs[firstPositional(a)]; ok {
			return o.class(name)
		}
		return none
	}
}

// named gives a rule that ignores the program's own name.
func named(f func(a []Arg) Class) rule { return func(_ string, a []Arg) Class { return f(a) } }

var (
	toolsOnce sync.Once
	tools     map[string]rule
)

// lookup finds the rule for a program. The table is built on first use, so a
// ctx command that never classifies pays nothing for it.
func lookup(name string) (rule, bool) {
	toolsOnce.Do(func() {
		tools = map[string]rule{}
		for _, eco := range []map[string]rule{pythonTools(), jsTools(), nativeTools(), otherTools(), systemTools()} {
			for names, r := range eco {
				for _, n := range splitNames(names) {
					tools[n] = r
				}
			}
		}
	})
	r, ok := tools[name]
	return r, ok
}

// splitNames splits a table key: the programs sharing one rule, separated by
// spaces.
func splitNames(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	return out
}

// classifyTool classifies a program by its rule; ok is false for a program
// the table does not know.
func classifyTool(name string, a []Arg) (Class, bool) {
	if r, ok := lookup(name); ok {
		return r(name, a), true
	}
	if cmdline.IsPython(name) {
		return python(name, a), true
	}
	return none, false
}

func pythonTools() map[string]rule {
	return map[string]rule{
		"pytest py.test":               unless(test, "--pdb", "--trace", "-f", "--looponfail"),
		"tox nox ward nosetests green": always(test),
		"mypy pylint flake8 pyright pycodestyle pydocstyle bandit pyflakes pyre vulture": always(lint),
		"ruff": func(name string, a []Arg) Class {
			if hasWatch(a) || firstPositional(a) == "server" {
				return interactive(name)
			}
			return flood(name, FamilyLint)
		},
		"black isort autopep8 yapf":   when(lint, "--check", "--diff", "-c"),
		"pip pip3":                    pip,
		"uv":                          named(uv),
		"poetry pipenv pdm rye hatch": pyProject,
		"conda mamba micromamba": func(name string, a []Arg) Class {
			switch firstPositional(a) {
			case "install", "create", "update":
				if hasAny(a, "-y", "--yes") {
					return flood(name, FamilyInstall)
				}
				return interactive(name)
			}
			return none
		},
		"coverage": bySub(map[string]outcome{"run": test}),
	}
}

func jsTools() map[string]rule {
	return map[string]rule{
		"npm":                       named(npm),
		"yarn":                      named(yarn),
		"pnpm":                      named(pnpm),
		"bun":                       named(bun),
		"jest":                      func(name string, a []Arg) Class { return unlessWatching(name, a, test, "--watch", "--watchAll") },
		"vitest":                    named(vitest),
		"mocha ava tap uvu jasmine": unlessWatch(test, "-w"),
		"playwright": func(name string, a []Arg) Class {
			switch firstPositional(a) {
			case "test":
				return unless(test, "--ui", "--debug")(name, a)
			case "show-report", "codegen", "open":
				return interactive(name)
			}
			return none
		},
		"cypress": bySub(map[string]outcome{"run": test, "open": waits}),
		"karma": func(name string, a []Arg) Class {
			if has(a, "--single-run") {
				return flood(name, FamilyTest)
			}
			return interactive(name)
		},
		"tsc vue-tsc tsgo": func(name string, a []Arg) Class {
			if hasWatch(a) || has(a, "-w") {
				return interactive(name)
			}
			if has(a, "--init") {
				return none
			}
			return flood(name, FamilyLint)
		},
		"eslint stylelint oxlint standard xo tslint markdownlint markdownlint-cli2": always(lint),
		"prettier": when(lint, "--check", "-c", "--list-different", "-l", "--write", "-w"),
		"biome":    bySub(map[string]outcome{"check": lint, "lint": lint, "ci": lint, "format": lint}),
		"webpack rollup esbuild parcel tsup": func(name string, a []Arg) Class {
			if hasWatch(a) || has(a, "-w") || firstPositional(a) == "serve" {
				return interactive(name)
			}
			return flood(name, FamilyBuild)
		},
		"vite next nuxt astro remix svelte-kit ng turbo nx lerna": jsFramework,
	}
}

// nativeTools are Go, Rust, the JVM, C and C++ and their build systems.
func nativeTools() map[string]rule {
	return map[string]rule{
		"go":        named(goTool),
		"gotestsum": always(test),
		"golangci-lint staticcheck govulncheck revive errcheck gosec": always(lint),
		"cargo":                                named(cargo),
		"mvn mvnw gradle gradlew sbt lein ant": jvm,
		"javac kotlinc scalac": func(name string, a []Arg) Class {
			return manyFiles(name, a, ".java", ".kt", ".scala")
		},
		"make gmake bmake": makeTool,
		"cmake":            when(build, "--build"),
		"ninja scons meson bazel bazelisk buck buck2 pants please ctest xcodebuild": buildSystem,
		"gcc g++ cc c++ clang clang++": func(name string, a []Arg) Class {
			if has(a, "-E") {
				return flood(name, FamilyBuild)
			}
			return manyFiles(name, a, ".c", ".cc", ".cpp", ".cxx", ".c++", ".m", ".mm", ".s", ".S")
		},
		"clang-tidy cppcheck shellcheck hadolint actionlint yamllint tflint cpplint": always(lint),
	}
}

// otherTools are the remaining language ecosystems.
func otherTools() map[string]rule {
	return map[string]rule{
		"rspec phpunit pest behat cucumber ctest3 busted bats prove":                always(test),
		"rubocop standardrb reek phpstan psalm phpcs swiftlint ktlint detekt credo": always(lint),
		"rake rails": bySub(map[string]outcome{"test": test, "spec": test, "test:all": test, "test:system": test,
			"server": waits, "s": waits, "console": waits, "c": waits, "dbconsole": waits}),
		"bundle bundler": func(name string, a []Arg) Class {
			switch firstPositional(a) {
			case "", "install", "update":
				return flood(name, FamilyInstall)
			case "exec":
				return classifyWrapped(afterPositional(a, "exec"))
			}
			return none
		},
		"gem":      bySub(map[string]outcome{"install": install}),
		"composer": bySub(map[string]outcome{"install": install, "update": install, "require": install, "test": test}),
		"php": func(_ string, a []Arg) Class {
			if len(a) >= 2 && a[0].Value == "artisan" && a[1].Value == "test" {
				return flood("artisan", FamilyTest)
			}
			return none
		},
		"mix": bySub(map[string]outcome{"test": test, "compile": test, "credo": test, "dialyzer": test,
			"deps.get": install, "deps.update": install, "phx.server": waits}),
		"dotnet": bySub(map[string]outcome{"test": test, "build": build, "publish": build, "pack": build,
			"restore": install, "watch": waits, "run": waits}),
		"swift":        bySub(map[string]outcome{"test": test, "build": build}),
		"flutter dart": bySub(map[string]outcome{"test": test, "analyze": lint, "build": build, "compile": build, "run": waits, "attach": waits}),
		"deno": func(name string, a []Arg) Class {
			switch firstPositional(a) {
			case "test", "bench":
				return unlessWatch(test)(name, a)
			case "task":
				return scriptByName(name, afterPositional(a, "task"))
			}
			return bySub(map[string]outcome{"check": lint, "lint": lint, "compile": build})(name, a)
		},
		"zig": func(name string, a []Arg) Class {
			if firstPositional(a) == "build" && has(a, "run") {
				return none
			}
			return bySub(map[string]outcome{"test": test, "build": build})(name, a)
		},
		"stack cabal dune": bySub(map[string]outcome{"test": test, "build": build, "install": build}),
		"terraform tofu": func(name string, a []Arg) Class {
			switch firstPositional(a) {
			case "apply", "destroy", "import":
				if has(a, "-auto-approve") {
					return flood(name, FamilyBuild)
				}
				return interactive(name)
			}
			return bySub(map[string]outcome{"plan": build, "init": build, "validate": build, "console": waits})(name, a)
		},
	}
}

// systemTools are system package managers, git, search, file readers and logs.
func systemTools() map[string]rule {
	return map[string]rule{
		"apt-get apt aptitude dnf yum zypper": func(name string, a []Arg) Class {
			switch sub := firstPositional(a); sub {
			case "install", "upgrade", "dist-upgrade", "full-upgrade", "update", "reinstall", "build-dep":
				if sub == "update" || hasAny(a, "-y", "--yes", "--assume-yes", "-qy", "-yq", "--non-interactive", "-n") {
					return flood(name, FamilyInstall)
				}
				return interactive(name)
			}
			return none
		},
		"apk":              bySub(map[string]outcome{"add": install, "update": install, "upgrade": install}),
		"brew":             bySub(map[string]outcome{"install": install, "upgrade": install, "update": install, "reinstall": install, "bundle": install}),
		"git":              named(git),
		"grep egrep fgrep": grep,
		"rg ag ack": func(name string, a []Arg) Class {
			if hasAny(a, "-q", "--quiet") {
				return none
			}
			return flood(name, FamilySearch)
		},
		"find fd fdfind": find,
		"cat tac zcat":   catTool,
		"tail":           func(name string, a []Arg) Class { return tailHead(name, a, true) },
		"head":           func(name string, a []Arg) Class { return tailHead(name, a, false) },
		"docker podman":  docker,
		"docker-compose": compose,
		"kubectl oc":     kubectl,
		"journalctl":     journalctl,
		"dmesg":          unless(outcome{Flood, FamilyLogs}, "-w", "--follow", "-W", "--follow-new"),
	}
}

// unlessWatching floods with o unless one of the flags is set and not
// explicitly false (jest --watch, --watchAll=false).
func unlessWatching(name string, a []Arg, o outcome, flags ...string) Class {
	if watching(a, flags...) {
		return interactive(name)
	}
	return o.class(name)
}

func journalctl(name string, a []Arg) Class {
	if has(a, "--follow") || hasShortFlag(a, 'f') {
		return interactive(name)
	}
	if n, ok := countOption(a, "-n", "--lines"); ok {
		if n.unknown {
			return Class{Verdict: Dynamic}
		}
		if n.n <= boundLines && !n.all {
			return bounded(name)
		}
	}
	return flood(name, FamilyLogs)
}
