package httpserve

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

var okHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") })

// answersOK fails the test unless addr serves okHandler.
func answersOK(t *testing.T, addr string) {
	t.Helper()
	resp, err := http.Get("http://" + addr)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "ok" {
		t.Fatalf("body %q, want ok", body)
	}
}

// endsWithoutError cancels a server's context and fails the test unless the
// server (what, its error on done) returns nil within 5s.
func endsWithoutError(t *testing.T, cancel context.CancelFunc, done <-chan error, what string) {
	t.Helper()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s after its context ended: %v, want nil", what, err)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("%s still running 5s after its context ended", what)
	}
}

func TestServeAnswersUntilTheContextEnds(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, okHandler) }()
	answersOK(t, ln.Addr().String())
	endsWithoutError(t, cancel, done, "Serve")
	if _, err := http.Get("http://" + ln.Addr().String()); err == nil {
		t.Fatal("the server still answers after its context ended")
	}
}

func TestServeReportsAFailedListener(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	if err := Serve(context.Background(), ln, http.NotFoundHandler()); err == nil {
		t.Fatal("Serve on a closed listener returned nil")
	}
}

func TestListenAndServeCallsStartedWithTheAddressItListensOn(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- ListenAndServe(ctx, "127.0.0.1:0", okHandler, func(_ context.Context, addr string) error { addrs <- addr; return nil })
	}()
	select {
	case addr := <-addrs:
		answersOK(t, addr)
	case err := <-done:
		t.Fatalf("ListenAndServe returned %v before calling started", err)
	}
	endsWithoutError(t, cancel, done, "ListenAndServe")
}

func TestListenAndServeFailsOnAPortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	called := false
	err = ListenAndServe(context.Background(), ln.Addr().String(), okHandler, func(context.Context, string) error { called = true; return nil })
	if err == nil || !strings.HasPrefix(err.Error(), "listen on "+ln.Addr().String()+": ") {
		t.Fatalf("ListenAndServe on a port in use: %v, want listen on %s: ...", err, ln.Addr())
	}
	if called {
		t.Fatal("started was called without a listener")
	}
}

func TestListenAndServeStopsAtStartedsError(t *testing.T) {
	var addr string
	err := ListenAndServe(context.Background(), "127.0.0.1:0", okHandler, func(_ context.Context, a string) error {
		addr = a
		return errors.New("no address file")
	})
	if err == nil || err.Error() != "no address file" {
		t.Fatalf("ListenAndServe: %v, want started's error", err)
	}
	// the listener is closed again: the port can be had
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("%s still taken after started failed: %v", addr, err)
	}
	ln.Close()
}
