package playground

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// MetricSample is one line of a /metrics page.
type MetricSample struct {
	Name   string
	Labels map[string]string
	Value  float64
}

// Key is the sample's identity: name and sorted labels.
func (s MetricSample) Key() string { return s.Name + "{" + FormatLabels(s.Labels) + "}" }

// FormatLabels renders labels as in the exposition format, sorted by name.
func FormatLabels(l map[string]string) string {
	var b strings.Builder
	for i, k := range sortedKeys(l) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k)
		b.WriteString("=")
		b.WriteString(strconv.Quote(l[k]))
	}
	return b.String()
}

// ScrapeMetrics fetches and parses a Prometheus text exposition page.
func ScrapeMetrics(ctx context.Context, url string) ([]MetricSample, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return ParseMetrics(resp.Body)
}

// ParseMetrics parses the text exposition format (comments skipped,
// timestamps ignored).
func ParseMetrics(r io.Reader) ([]MetricSample, error) {
	var out []MetricSample
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		s, err := parseLine(line)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", line, err)
		}
		out = append(out, s)
	}
	return out, sc.Err()
}

func parseLine(line string) (MetricSample, error) {
	s := MetricSample{Labels: map[string]string{}}
	i := strings.IndexAny(line, "{ ")
	if i < 0 {
		return s, fmt.Errorf("no value")
	}
	s.Name = line[:i]
	rest := line[i:]
	if rest[0] == '{' {
		rest = rest[1:]
		for {
			rest = strings.TrimLeft(rest, " ,")
			if rest == "" {
				return s, fmt.Errorf("unterminated labels")
			}
			if rest[0] == '}' {
				rest = rest[1:]
				break
			}
			eq := strings.IndexByte(rest, '=')
			if eq < 0 || len(rest) < eq+2 || rest[eq+1] != '"' {
				return s, fmt.Errorf("bad label")
			}
			name := strings.TrimSpace(rest[:eq])
			val, n, err := unquote(rest[eq+1:])
			if err != nil {
				return s, err
			}
			s.Labels[name] = val
			rest = rest[eq+1+n:]
		}
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return s, fmt.Errorf("no value")
	}
	v, err := strconv.ParseFloat(fields[0], 64)
	if err != nil {
		return s, err
	}
	s.Value = v
	return s, nil
}

// unquote reads a double-quoted label value with \\, \" and \n escapes and
// returns it with the number of bytes consumed.
func unquote(s string) (string, int, error) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			if i+1 >= len(s) {
				return "", 0, fmt.Errorf("bad escape")
			}
			i++
			if s[i] == 'n' {
				b.WriteByte('\n')
			} else {
				b.WriteByte(s[i])
			}
		case '"':
			return b.String(), i + 1, nil
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, fmt.Errorf("unterminated label value")
}

// Sum adds the values of the samples named name (all label sets).
func Sum(samples []MetricSample, name string) float64 {
	t := 0.0
	for _, s := range samples {
		if s.Name == name {
			t += s.Value
		}
	}
	return t
}

// Named returns the samples named name, sorted by key.
func Named(samples []MetricSample, name string) []MetricSample {
	var out []MetricSample
	for _, s := range samples {
		if s.Name == name {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}
