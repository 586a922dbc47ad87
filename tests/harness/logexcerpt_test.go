package harness

import (
	"strings"
	"testing"
)

func TestLogExcerptCollapsesRepeatsAndKeepsTheEnd(t *testing.T) {
	var b strings.Builder
	b.WriteString("level=INFO msg=\"Server is ready\"\n")
	for range 500 {
		b.WriteString("level=WARN msg=\"Error on ingesting samples that are too old\" num_dropped=23\n")
	}
	b.WriteString("level=ERROR msg=\"rule evaluation failed\" err=\"boom\"\n")

	got := logExcerpt(b.String(), 6000)
	want := strings.Join([]string{
		"level=INFO msg=\"Server is ready\"",
		"level=WARN msg=\"Error on ingesting samples that are too old\" num_dropped=23",
		"  (499 more lines with this msg)",
		"level=ERROR msg=\"rule evaluation failed\" err=\"boom\"",
	}, "\n")
	if got != want {
		t.Errorf("excerpt:\n%s\nwant:\n%s", got, want)
	}

	long := logExcerpt(strings.Repeat("level=INFO msg=\"a\"\nlevel=INFO msg=\"b\"\n", 1000)+"the last line", 100)
	if !strings.HasSuffix(long, "the last line") || !strings.HasPrefix(long, "(") || len(long) > 130 {
		t.Errorf("a long log: %q, want its last 100 bytes after a count", long)
	}
}
