package seq

import "strings"

// minLabelWords is the fewest words other than options a cut default name
// keeps: the program and its first operand (go test, make lint, npm run).
const minLabelWords = 2

// labels are the names the rows print. A name the steps file gave is
// printed as it is. A default name (the step's command) is cut to the
// fewest words that tell it apart from every other step's command, keeping
// at least two that are not options and never ending inside a shell quote,
// with … for the words left out: go build…, go test…, go vet… for three go
// commands, go test ./a/… and go test ./b/… for two. The step is #N on its
// row either way; its whole argv is in the record (ctx get seq:ID). A
// command given twice keeps its default name.
func labels(steps []StepResult) []string {
	cmds := make([]*command, len(steps))
	for i := range steps {
		cmds[i] = defaultCommand(&steps[i])
	}
	out := make([]string, len(steps))
	for i, c := range cmds {
		out[i] = steps[i].Name
		if c == nil {
			continue
		}
		k := c.least()
		for k < len(c.words) && (!apart(cmds, i, k) || !c.closed(k)) {
			k++
		}
		if k < len(c.words) {
			out[i] = cutName(strings.Join(c.words[:k], " ") + "…")
		}
	}
	return out
}

// command is the words of a step's command line: argv elements, or a shell
// string's space-separated words.
type command struct {
	words []string
	shell bool
}

// prefix is the command's first k words (all of them when fewer).
func (c *command) prefix(k int) string {
	return strings.Join(c.words[:min(k, len(c.words))], " ")
}

// least is the fewest words a label keeps: up to the minLabelWords-th
// word that is not an option.
func (c *command) least() int {
	n := 0
	for i, w := range c.words {
		if !strings.HasPrefix(w, "-") {
			n++
		}
		if n == minLabelWords {
			return i + 1
		}
	}
	return len(c.words)
}

// closed reports whether the first k words of a shell string end outside
// any quote (an argv's words always do).
func (c *command) closed(k int) bool {
	if !c.shell {
		return true
	}
	var quote rune
	escaped := false
	for _, r := range c.prefix(k) {
		switch {
		case escaped:
			escaped = false
		case r == '\\' && quote != '\'':
			escaped = true
		case quote == 0 && (r == '\'' || r == '"'):
			quote = r
		case r == quote:
			quote = 0
		}
	}
	return quote == 0
}

// apart reports whether the first k words of step i's command differ from
// the first k (or all, when fewer) of every other default-named step's.
func apart(cmds []*command, i, k int) bool {
	for j, c := range cmds {
		if j != i && c != nil && c.prefix(k) == cmds[i].prefix(k) {
			return false
		}
	}
	return true
}

// defaultCommand is the step's command when its name is the default one
// (the command, as defaultName makes it), nil when the steps file named
// it.
func defaultCommand(r *StepResult) *command {
	if len(r.Argv) == 3 && r.Argv[0] == "sh" && r.Argv[1] == "-c" {
		if w := strings.Fields(r.Argv[2]); len(w) > 0 && cutName(strings.Join(w, " ")) == r.Name {
			return &command{words: w, shell: true}
		}
	}
	if len(r.Argv) > 0 && cutName(strings.Join(strings.Fields(strings.Join(r.Argv, " ")), " ")) == r.Name {
		return &command{words: r.Argv}
	}
	return nil
}

// cutName cuts a name to 40 characters, the last one … when cut.
func cutName(name string) string {
	if r := []rune(name); len(r) > 40 {
		return string(r[:39]) + "…"
	}
	return name
}
