package evaluate

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/textparse"
)

// WriteOpenMetrics appends OpenMetrics text (samples with timestamps, ending
// in "# EOF"), read by the parser `promtool tsdb create-blocks-from
// openmetrics` reads it with; each series' samples in time order.
func (h *History) WriteOpenMetrics(ctx context.Context, text []byte) error {
	p := textparse.NewOpenMetricsParser(text, labels.NewSymbolTable())
	app := h.db.Appender(ctx)
	for n := 0; ; n++ {
		e, err := p.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			_ = app.Rollback()
			return fmt.Errorf("parse: %w", err)
		}
		if e != textparse.EntrySeries {
			continue
		}
		_, ts, v := p.Series()
		var l labels.Labels
		p.Labels(&l)
		if ts == nil {
			_ = app.Rollback()
			return fmt.Errorf("%s: a sample without a timestamp", l)
		}
		if _, err := app.Append(0, l, *ts, v); err != nil {
			_ = app.Rollback()
			return fmt.Errorf("%s at %d: %w", l, *ts, err)
		}
		// a commit now and then bounds the appender's memory
		if n%100000 == 99999 {
			if err := app.Commit(); err != nil {
				return err
			}
			app = h.db.Appender(ctx)
		}
	}
	return app.Commit()
}
