// Package httpserve is how the playground's small servers (container-exporter,
// kube-state-exporter, profile-store, profile-replay) serve HTTP: on a
// listener opened before anything else starts, so a port in use fails at once
// and clearly, until SIGINT or SIGTERM (or their context) ends them.
package httpserve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Run is a command's server: ListenAndServe until SIGINT or SIGTERM, which
// end it without an error.
func Run(addr string, h http.Handler, started func(ctx context.Context, addr string) error) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return ListenAndServe(ctx, addr, h, started)
}

// ListenAndServe listens on addr ("listen on ADDR: ..." when it cannot),
// calls started, when not nil, with ctx and the address it listens on (the
// command's own start: a collector, an address file, its banner; an error
// from it stops there), then serves h until ctx is done.
func ListenAndServe(ctx context.Context, addr string, h http.Handler, started func(ctx context.Context, addr string) error) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	if started != nil {
		if err := started(ctx, ln.Addr().String()); err != nil {
			ln.Close()
			return err
		}
	}
	return Serve(ctx, ln, h)
}

// Serve serves h on ln until ctx is done, then closes the server without
// draining it: the playground stops these servers with its own processes, and
// what reads them (Prometheus, hotpath-notify, the panel) retries. A server
// closed that way returns nil.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
