package capsulecmd

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/capsule/relay"
	"github.com/ctxhq/ctx/internal/cli"
)

func newRelayCmd(ios *cli.IO) *cobra.Command {
	c := &cobra.Command{
		Use:   "relay",
		Short: "Serve a capsule relay",
	}
	c.AddCommand(newRelayServeCmd(ios))
	return c
}

type relayServeOptions struct {
	addr        string
	ttl, maxTTL time.Duration
	maxBytes    int64
	maxTotal    int64
	allowRemote bool
	json        bool
}

func newRelayServeCmd(ios *cli.IO) *cobra.Command {
	o := &relayServeOptions{}
	c := &cobra.Command{
		Use:   "serve --addr 127.0.0.1:PORT",
		Short: "Keep capsules in memory for ctx capsule send/receive, with TTL and size limits",
		Long: `Serve a relay: POST /v1/capsules stores a valid capsule (its id is the BLAKE3
of its bytes) for ?ttl= (default --ttl, at most --max-ttl), forgetting it after
the first read with ?delete_after_read=1; GET /v1/capsules/ID returns it.
Capsules live in memory only (at most --max-total bytes); expired ones are
gone. The relay never learns lineage or verdicts. A bind beyond loopback is
refused unless --allow-remote (it serves plain HTTP, without access control).

Exit status: 0 stopped; 1 the address is refused or cannot be bound; 2 usage.`,
		Example: `  ctx relay serve --addr 127.0.0.1:7777 --ttl 2h`,
		Args:    cli.ExactArgs(0, "ctx relay serve --addr HOST:PORT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRelayServe(cmd.Context(), ios, o)
		},
	}
	c.Flags().StringVar(&o.addr, "addr", "127.0.0.1:7777", "the address to listen on")
	c.Flags().DurationVar(&o.ttl, "ttl", relay.DefaultTTL, "how long a capsule is kept when the sender names no TTL")
	c.Flags().DurationVar(&o.maxTTL, "max-ttl", relay.DefaultMaxTTL, "the longest TTL a sender may ask for")
	c.Flags().Int64Var(&o.maxBytes, "max-bytes", 256<<10, "the largest capsule accepted")
	c.Flags().Int64Var(&o.maxTotal, "max-total", relay.DefaultMaxTotal, "bytes kept over all capsules")
	c.Flags().BoolVar(&o.allowRemote, "allow-remote", false, "allow a bind beyond loopback")
	c.Flags().BoolVar(&o.json, "json", false, `print {"url": …} on stdout once listening`)
	return c
}

func runRelayServe(ctx context.Context, ios *cli.IO, o *relayServeOptions) error {
	if err := relay.CheckBind(o.addr, o.allowRemote); err != nil {
		return err
	}
	s := relay.NewServer()
	s.DefaultTTL, s.MaxTTL, s.MaxCapsule, s.MaxTotal = o.ttl, o.maxTTL, o.maxBytes, o.maxTotal
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("relay: %w", err)
	}
	if o.json {
		if err := cli.WriteJSON(ios.Out, map[string]string{"url": "http://" + ln.Addr().String()}); err != nil {
			ln.Close()
			return err
		}
	}
	fmt.Fprintf(ios.Err, "ctx relay serving on http://%s\n", ln.Addr())
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second}
	ctx = orBackground(ctx)
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
