package capsulecmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/capsule"
	"github.com/ctxhq/ctx/capsule/publish"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/store"
)

// exitAmbiguous: the publication may or may not have been applied.
const exitAmbiguous = 4

// newPublishProvider looks up a provider and reads its credentials; a
// variable so a test can prove --preview never reaches it.
var newPublishProvider = publish.New

type capsulePublishOptions struct {
	handle         string
	to             string
	target         string
	record         bool
	discuss        bool
	preview        bool
	retryAmbiguous bool
	timeout        time.Duration
	json           bool
}

func newCapsulePublishCmd(ios *cli.IO) *cobra.Command {
	o := &capsulePublishOptions{}
	c := &cobra.Command{
		Use:   "publish capsule:ID --to github|jira|slack --target T [--record|--discuss] [--preview]",
		Short: "Put a handoff where the team works: a GitHub issue, a Jira ticket or a Slack thread",
		Long: `Publish a capsule. RECORD (github, jira: title, goal, current state, evidence,
rejected hypotheses, constraints, requested next action) creates an issue
(--target owner/repo, PROJ) or appends a comment (owner/repo#12, PROJ-12).
DISCUSS (slack: summary, why discussion is needed, trimmed evidence, requested
discussion) posts a message (--target C0123ABC) or replies in a thread
(C0123ABC:1503435956.000247). A critical unit a view does not carry is named as
a pointer back to the capsule. Mentions are inert.

--preview composes and prints the view and returns before any provider is
looked up, any credential read or any network client built. Always preview
first: a provider write is an external side effect with no undo.

Credentials come from the environment only: CTX_GITHUB_TOKEN; CTX_JIRA_BASE_URL,
CTX_JIRA_EMAIL, CTX_JIRA_API_TOKEN; CTX_SLACK_BOT_TOKEN. API bases:
CTX_GITHUB_API_URL, CTX_SLACK_API_URL.

The idempotency key sha256(capsule id + provider + target + operation) is
stored before the call. A retry of a published key makes no call and prints
the earlier reference; a retry after an ambiguous outcome is refused unless
--retry-ambiguous. Each attempt leaves a delivery receipt (ctx capsule
deliveries): provider, operation, external reference, status, key and a safe
destination label — never a token or the body. Deleting a capsule never
deletes what was published.

Exit status: 0 published (or previewed); 1 failed (nothing was applied), or
bad input; 2 usage; 4 ambiguous (it may have been applied: look before
retrying).`,
		Example: `  ctx capsule publish capsule:9d2e01c4b7aa --to github --target acme/api --preview
  CTX_GITHUB_TOKEN=… ctx capsule publish capsule:9d2e01c4b7aa --to github --target acme/api
  ctx capsule publish capsule:9d2e01c4b7aa --to slack --target C0123ABC --discuss --preview`,
		Args: cli.ExactArgs(1, "ctx capsule publish capsule:ID --to PROVIDER --target T"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.handle = args[0]
			return runCapsulePublish(cmd.Context(), ios, o)
		},
	}
	c.Flags().StringVar(&o.to, "to", "", "the provider: github, jira or slack")
	c.Flags().StringVar(&o.target, "target", "", "where: owner/repo[#N] (github), PROJ or PROJ-N (jira), CHANNEL[:THREAD_TS] (slack)")
	c.Flags().BoolVar(&o.record, "record", false, "compose the RECORD view (default for github and jira)")
	c.Flags().BoolVar(&o.discuss, "discuss", false, "compose the DISCUSS view (default for slack)")
	c.Flags().BoolVar(&o.preview, "preview", false, "print the composed view; look up no provider, read no credential, open no connection")
	c.Flags().BoolVar(&o.retryAmbiguous, "retry-ambiguous", false, "publish even though an earlier attempt may have been applied")
	c.Flags().DurationVar(&o.timeout, "timeout", 30*time.Second, "how long to wait for the provider")
	c.Flags().BoolVar(&o.json, "json", false, "print the view (preview) or the delivery receipt as JSON")
	return c
}

func runCapsulePublish(ctx context.Context, ios *cli.IO, o *capsulePublishOptions) error {
	op := ""
	switch {
	case o.record && o.discuss:
		return cli.Usagef("give --record or --discuss, not both")
	case o.record:
		op = publish.Record
	case o.discuss:
		op = publish.Discuss
	case o.to == "slack":
		op = publish.Discuss
	case o.to == "github" || o.to == "jira":
		op = publish.Record
	default:
		return cli.Usagef("--to %q: want github, jira or slack", o.to)
	}
	if o.target == "" {
		return cli.Usagef("give the destination with --target (see ctx capsule publish --help)")
	}
	st, err := cli.OpenStore(ios, false)
	if err != nil {
		return err
	}
	defer st.Close()
	id, c, err := capsule.Load(st, o.handle)
	if err != nil {
		return err
	}
	v, err := publish.Compose(c, capsule.Handle(id), op)
	if err != nil {
		return err
	}
	if o.preview {
		// Returns before any provider, credential or network client exists.
		return printPublishPreview(ios, o, v)
	}
	p, err := newPublishProvider(o.to, ios.Getenv, o.timeout)
	if err != nil {
		return err
	}
	r, perr := publish.Publish(orBackground(ctx), st, p, id, v, o.target, o.retryAmbiguous)
	if r == nil {
		return perr
	}
	if o.json {
		if err := cli.WriteJSON(ios.Out, r); err != nil {
			return err
		}
	} else {
		switch {
		case r.Replayed:
			fmt.Fprintf(ios.Out, "published (earlier; no call made) %s\n", r.ExternalReference)
		default:
			fmt.Fprintf(ios.Out, "%s %s\n", r.Status, orDash(r.ExternalReference))
		}
		fmt.Fprintf(ios.Out, "destination %s · %s · key %s\n", r.Destination, r.Operation, r.IdempotencyKey[:16])
	}
	var oe *publish.OutcomeError
	if errors.As(perr, &oe) && oe.Outcome == publish.Ambiguous {
		fmt.Fprintf(ios.Err, "ctx: %v\n  hint: it may have been applied; look at %s before rerunning with --retry-ambiguous\n", perr, r.Destination)
		return &cli.ExitError{Code: exitAmbiguous}
	}
	return perr
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func printPublishPreview(ios *cli.IO, o *capsulePublishOptions, v *publish.View) error {
	if o.json {
		return cli.WriteJSON(ios.Out, map[string]any{"preview": true, "provider": o.to, "target": o.target, "view": v})
	}
	fmt.Fprintf(ios.Out, "preview: %s to %s %s (nothing was sent; no credential was read)\n\n", strings.ToUpper(v.Operation), o.to, o.target)
	if v.Title != "" {
		fmt.Fprintf(ios.Out, "title: %s\n\n", v.Title)
	}
	fmt.Fprint(ios.Out, v.Body)
	for _, cu := range v.Critical {
		fmt.Fprintf(ios.Out, "critical %s (%s): %s\n", cu.ID, cu.Field, cu.Verdict)
	}
	return nil
}

type capsuleDeliveriesOptions struct{ json bool }

func newCapsuleDeliveriesCmd(ios *cli.IO) *cobra.Command {
	o := &capsuleDeliveriesOptions{}
	c := &cobra.Command{
		Use:   "deliveries [--json]",
		Short: "List delivery receipts of capsule publications",
		Long: `List one delivery receipt per publication attempt, oldest first: provider,
operation, destination label, status (published, ambiguous, failed) and
external reference. Receipts never hold a token or the published body.

Exit status: 0 listed; 2 usage.`,
		Example: `  ctx capsule deliveries
  ctx capsule deliveries --json`,
		Args: cli.ExactArgs(0, "ctx capsule deliveries"),
		RunE: func(cmd *cobra.Command, args []string) error { return runCapsuleDeliveries(ios, o) },
	}
	c.Flags().BoolVar(&o.json, "json", false, "print one JSON object per line")
	return c
}

func runCapsuleDeliveries(ios *cli.IO, o *capsuleDeliveriesOptions) error {
	return listRows(ios, func(st *store.Store, tw io.Writer) error {
		return publish.Receipts(st, func(r publish.Receipt) error {
			if o.json {
				return writeJSONCompact(ios.Out, r)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.At, r.Status, r.Operation, r.Destination, orDash(r.ExternalReference), r.Capsule[:20])
			return nil
		})
	})
}

func writeJSONCompact(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
