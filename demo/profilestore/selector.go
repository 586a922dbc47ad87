package profilestore

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Matcher is one label matcher of a selector: name, op (=, !=, =~, !~), value.
type Matcher struct {
	Name, Op, Value string
	re              *regexp.Regexp
}

func (m *Matcher) compile() error {
	if m.Op == "=~" || m.Op == "!~" {
		re, err := regexp.Compile("^(?:" + m.Value + ")$")
		if err != nil {
			return fmt.Errorf("regexp of %s: %v", m.Name, err)
		}
		m.re = re
	}
	return nil
}

// Matches applies the matcher to a label value ("" when the label is absent,
// as in Prometheus and Pyroscope: {namespace=""} matches series without one).
func (m Matcher) Matches(v string) bool {
	switch m.Op {
	case "=":
		return v == m.Value
	case "!=":
		return v != m.Value
	case "=~":
		return m.re.MatchString(v)
	default:
		return !m.re.MatchString(v)
	}
}

func matchAll(ms []Matcher, labels map[string]string) bool {
	for _, m := range ms {
		if !m.Matches(labels[m.Name]) {
			return false
		}
	}
	return true
}

// ParseSelector parses a label selector such as
// {service_name="api", instance=~"10\\.0\\..*"} into matchers.
func ParseSelector(sel string) ([]Matcher, error) {
	s := strings.TrimSpace(sel)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return nil, fmt.Errorf("%q: want {name=\"value\", ...}", sel)
	}
	s = strings.TrimSpace(s[1 : len(s)-1])
	var out []Matcher
	for s != "" {
		i := strings.IndexAny(s, "=!")
		if i <= 0 {
			return nil, fmt.Errorf("%q: want name=\"value\" at %q", sel, s)
		}
		name := strings.TrimSpace(s[:i])
		// a label name that is not an identifier is quoted, as Prometheus 3
		// and Pyroscope write one with a dot: {"http.route"="/search"}
		if strings.HasPrefix(name, `"`) {
			unq, err := strconv.Unquote(name)
			if err != nil {
				return nil, fmt.Errorf("%q: label name %s: %v", sel, name, err)
			}
			name = unq
		}
		m := Matcher{Name: name}
		rest := s[i:]
		for _, op := range []string{"=~", "!~", "!=", "="} {
			if strings.HasPrefix(rest, op) {
				m.Op, rest = op, strings.TrimSpace(rest[len(op):])
				break
			}
		}
		if m.Op == "" || !validLabelName(m.Name) {
			return nil, fmt.Errorf("%q: bad matcher at %q", sel, s)
		}
		if !strings.HasPrefix(rest, `"`) {
			return nil, fmt.Errorf("%q: the value of %s must be a double-quoted string", sel, m.Name)
		}
		end := closingQuote(rest)
		if end < 0 {
			return nil, fmt.Errorf("%q: unterminated string after %s%s", sel, m.Name, m.Op)
		}
		v, err := strconv.Unquote(rest[:end+1])
		if err != nil {
			return nil, fmt.Errorf("%q: value of %s: %v", sel, m.Name, err)
		}
		m.Value = v
		if err := m.compile(); err != nil {
			return nil, fmt.Errorf("%q: %v", sel, err)
		}
		out = append(out, m)
		s = strings.TrimSpace(rest[end+1:])
		if strings.HasPrefix(s, ",") {
			s = strings.TrimSpace(s[1:])
		} else if s != "" {
			return nil, fmt.Errorf("%q: want a comma before %q", sel, s)
		}
	}
	return out, nil
}

func validLabelName(n string) bool {
	for i, c := range n {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '.')) {
			return false
		}
	}
	return n != ""
}

// closingQuote is the index of the quote ending the string s starts with.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}
