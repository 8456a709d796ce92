package logs_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/ctxhq/ctx/profiles/logs"
)

func ExampleMiner() {
	m := logs.NewMiner(logs.Options{})
	for _, line := range []string{
		"2015-10-18 18:01:47,978 INFO app.Master: Created attempt_01 in 12 ms",
		"2015-10-18 18:01:48,101 INFO app.Master: Created attempt_02 in 9 ms",
		"2015-10-18 18:01:49,350 INFO app.Master: Shutting down",
	} {
		m.Add([]byte(line))
	}
	for _, t := range m.Templates() {
		fmt.Printf("%d %d %q\n", t.ID, t.Count, t.Text)
	}
	// Output:
	// 0 2 "<*> INFO app.Master: Created <*> in <*>"
	// 1 1 "<*> INFO app.Master: Shutting down"
}

func ExampleWriteTemplates() {
	in := "[10.30 16:49:06] chrome.exe - a.example.com:443 close, 1190 bytes (1.16 KB) sent, lifetime 00:02\r\n" +
		"[10.30 16:49:07] git.exe *64 - b.example.org:80 close, 0 bytes sent, lifetime <1 sec\r\n" +
		"[10.30 16:49:08] git.exe - b.example.org:80 error : Could not connect through proxy p.example.org:5070\r\n"
	err := logs.WriteTemplates(context.Background(), strings.NewReader(in), os.Stdout, logs.Options{})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// 1	<*> - <*> close, <*> sent, lifetime <*>
	// 2	<*> - <*> close, <*> sent, lifetime <*>
	// 3	<*> - <*> error : Could not connect through proxy <*>
}
