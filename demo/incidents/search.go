package incidents

import (
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"time"
)

// The shop's routes, the endpoint story: a service whose average hides a
// route. /search matches a product catalogue against the query's terms, then
// ranks the matches; with the incident on it matches each term with a
// case-insensitive regular expression compiled per request and run over
// every product's raw text, where healthy it looks the lower-cased terms up
// in text lower-cased once at start-up: the route's CPU per request grows
// several times over while /healthz, a few microseconds, is untouched. When
// the cheap route's traffic grows at the same time, the service's CPU per
// request barely moves.

// Product is one entry of the shop's catalogue.
type Product struct {
	Name, Description string
	lower             string // Name and Description lower-cased, once
}

// Catalogue is n products of generated names and descriptions, seeded by
// their index so every run scores the same text.
func Catalogue(n int) []Product {
	colours := []string{"blue", "red", "green", "black", "white", "grey", "yellow"}
	kinds := []string{"shoes", "jacket", "scarf", "backpack", "lamp", "mug", "chair", "tent"}
	out := make([]Product, n)
	for i := range out {
		c, k := colours[i%len(colours)], kinds[(i/len(colours))%len(kinds)]
		p := Product{
			Name:        fmt.Sprintf("%s %s no. %d", strings.ToUpper(c[:1])+c[1:], k, i),
			Description: fmt.Sprintf("A %s %s for every day, made to last, sold with a two-year warranty and free returns within %d days.", c, k, 14+i%30),
		}
		p.lower = strings.ToLower(p.Name + " " + p.Description)
		out[i] = p
	}
	return out
}

// SearchHandler answers GET /search?q=TERMS with how many products match
// every term. Healthy, each term is lower-cased once per request and looked
// up in the products' lower-cased text; with the incident on (the change
// that "made search case-insensitive properly"), each term becomes a
// regexp.Compile("(?i)"+term) per request, matched against every product's
// raw text. Then the matches are ranked, again until the request's thread
// has spent rankCPU on it (as BuildsHandler spends its jobs): the route's
// healthy cost is then about the same on every machine, and the incident
// adds the matching's real cost to it.
//
//go:noinline
func SearchHandler(products []Product, rankCPU time.Duration, perRequestRegexp *Switch) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query().Get("q")
		if q == "" {
			q = "blue shoes"
		}
		terms := strings.Fields(q)
		var n int
		if perRequestRegexp.On() {
			n = matchRegexp(products, terms)
		} else {
			n = matchLower(products, terms)
		}
		spend(rankCPU, func() { rank(products, terms) })
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprintf(w, "{\"query\":%q,\"matches\":%d}\n", q, n)
	})
}

// matchLower counts the products whose lower-cased text holds every term.
//
//go:noinline
func matchLower(products []Product, terms []string) int {
	for i, t := range terms {
		terms[i] = strings.ToLower(t)
	}
	n := 0
	for _, p := range products {
		if containsAll(p.lower, terms) {
			n++
		}
	}
	return n
}

func containsAll(text string, terms []string) bool {
	for _, t := range terms {
		if !strings.Contains(text, t) {
			return false
		}
	}
	return true
}

// matchRegexp counts the same with a case-insensitive expression per term,
// compiled on every request and run over each product's name and
// description.
//
//go:noinline
func matchRegexp(products []Product, terms []string) int {
	res := make([]*regexp.Regexp, len(terms))
	for i, t := range terms {
		res[i] = regexp.MustCompile("(?i)" + regexp.QuoteMeta(t))
	}
	n := 0
	for _, p := range products {
		all := true
		for _, re := range res {
			if !re.MatchString(p.Name) && !re.MatchString(p.Description) {
				all = false
				break
			}
		}
		if all {
			n++
		}
	}
	return n
}

// rank orders the products by how often they name the terms, the name
// counting double.
//
//go:noinline
func rank(products []Product, terms []string) []int {
	score := make([]int, len(products))
	order := make([]int, len(products))
	for i, p := range products {
		order[i] = i
		for _, t := range terms {
			score[i] += 2*strings.Count(p.lower[:len(p.Name)], t) + strings.Count(p.lower, t)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return score[order[a]] > score[order[b]] })
	return order
}

// HealthHandler is the shop's cheap route: a load balancer's health check,
// a few microseconds of work.
//
//go:noinline
func HealthHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("ok\n"))
	})
}
