package harness

import (
	"testing"
	"time"
)

// Each scraper gets its own grid of ticks, the first a fifth of an interval
// before its first request; a request up to four fifths of an interval late
// keeps its tick, a later one takes the next.
func TestExporterTicksPerScraper(t *testing.T) {
	e := &Exporter{}
	e.RenderEachScrape(time.Second, func(time.Time) string { return "" })
	t0 := time.Date(2026, 1, 1, 9, 41, 44, 950_000_000, time.UTC)
	ms := func(d int) time.Time { return t0.Add(time.Duration(d) * time.Millisecond) }
	for _, c := range []struct {
		scraper string
		at      time.Time
		want    time.Time
	}{
		{"a", ms(0), ms(-200)},    // its first request
		{"a", ms(1000), ms(800)},  // on time
		{"a", ms(1790), ms(800)},  // 0.79 s late: still that tick
		{"a", ms(1810), ms(1800)}, // the next tick's scrape, early
		{"b", ms(500), ms(300)},   // another scraper, its own grid
		{"b", ms(1500), ms(1300)}, //
		{"a", ms(3000), ms(2800)}, // a's grid unchanged by b
	} {
		if got := e.tick(c.scraper, c.at); !got.Equal(c.want) {
			t.Errorf("%s at %s: tick %s, want %s", c.scraper, c.at.Format("05.000"), got.Format("05.000"), c.want.Format("05.000"))
		}
	}
}
