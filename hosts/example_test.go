package hosts_test

import (
	"fmt"

	"github.com/ctxhq/ctx/hosts"
)

func ExampleRewrite() {
	for _, cmd := range []string{
		"cd api && FOO=1 go test ./... 2>&1",
		"go test ./... | tail -20",
		"git log --oneline -5",
		"tail -f logs/app.log",
	} {
		d := hosts.Rewrite(cmd)
		fmt.Printf("%-10s %s\n", d.Reason, d.Command)
	}
	// Output:
	// wrapped    cd api && FOO=1 ctx run -- go test ./... 2>&1
	// piped      go test ./... | tail -20
	// bounded    git log --oneline -5
	// interactive tail -f logs/app.log
}
