package incidents

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// Compress is the gzip story's compression middleware: it gzips responses for
// clients that accept it. Healthy, it reuses writers from a sync.Pool
// (Reset keeps the ~1 MB flate compressor). With the incident on it creates a
// writer per response, as chi's middleware did: gzip.NewWriterLevel, whose
// first Write calls compress/flate.NewWriter and allocates a new compressor
// every time, the 19 GB per minute of the story.
//
//go:noinline
func Compress(level int, perResponse *Switch, next http.Handler) http.Handler {
	pool := sync.Pool{New: func() any {
		gz, err := gzip.NewWriterLevel(nil, level)
		if err != nil {
			panic(err) // callers check level with ValidCompressLevel
		}
		return gz
	}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			next.ServeHTTP(w, r)
			return
		}
		var gz *gzip.Writer
		if perResponse.On() {
			gz, _ = gzip.NewWriterLevel(w, level)
		} else {
			gz = pool.Get().(*gzip.Writer)
			gz.Reset(w)
			defer pool.Put(gz)
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Add("Vary", "Accept-Encoding")
		w.Header().Del("Content-Length")
		next.ServeHTTP(&gzipResponseWriter{ResponseWriter: w, gz: gz}, r)
		_ = gz.Close()
	})
}

// ValidCompressLevel says whether level is one gzip accepts.
func ValidCompressLevel(level int) error {
	if _, err := gzip.NewWriterLevel(nil, level); err != nil {
		return fmt.Errorf("gzip level %d: %w", level, err)
	}
	return nil
}

type gzipResponseWriter struct {
	http.ResponseWriter
	gz *gzip.Writer
}

func (g *gzipResponseWriter) Write(p []byte) (int, error) { return g.gz.Write(p) }

// Flag is one feature flag of the document the gzipper serves (Flipt, the
// story's service, is a feature-flag server).
type Flag struct {
	Key         string   `json:"key"`
	Enabled     bool     `json:"enabled"`
	Description string   `json:"description"`
	Segments    []string `json:"segments"`
}

// FlagsDocument is the JSON body every gzipper response carries: n flags,
// a few KB, rendered once so the handler itself costs little.
func FlagsDocument(n int) []byte {
	flags := make([]Flag, n)
	for i := range flags {
		flags[i] = Flag{
			Key:         fmt.Sprintf("flag-%04d", i),
			Enabled:     i%3 != 0,
			Description: "rolls out the new checkout flow to a share of the users in the segments below",
			Segments:    []string{"beta-testers", fmt.Sprintf("region-%d", i%7), "internal"},
		}
	}
	b, _ := json.Marshal(map[string]any{"flags": flags})
	return b
}

// FlagsHandler writes the document; behind Compress it is the gzip story's API.
//
//go:noinline
func FlagsHandler(doc []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(doc)
	})
}
