// Package httpserve is how the playground's small servers (container-exporter,
// profile-store, profile-replay) serve HTTP: on a listener the command opened
// itself, so a port in use fails at once and clearly, until their context
// ends.
package httpserve

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

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
