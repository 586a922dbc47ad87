package playground

import (
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ReadmeShots are the browser check's screenshots the README shows: each
// story's diff (`make demo-screenshots` copies them into docs/img).
var ReadmeShots = []string{"println", "epoll", "gzip"}

// checkResult is one entry of demo-check's result.json.
type checkResult struct {
	Name        string   `json:"name"`
	OK          bool     `json:"ok"`
	Skipped     string   `json:"skipped"`
	Verdict     string   `json:"verdict"`
	Screenshots []string `json:"screenshots"`
}

// Shot is one copied screenshot.
type Shot struct {
	Story, From, To string
	Verdict         string
	Before, After   int64 // bytes
}

// CopyScreenshots copies the diff screenshot of each story from a browser
// check's output (its result.json names them) into dir as
// playground-<story>-diff.png, reduced to a 256-colour palette (the pages
// are flat UI colours: a fraction of the bytes, no visible change). Only a
// check that passed is copied; when one is missing or failed, nothing is.
func CopyScreenshots(checkDir, dir string, stories []string) ([]Shot, error) {
	b, err := os.ReadFile(filepath.Join(checkDir, "result.json"))
	if err != nil {
		return nil, fmt.Errorf("no browser check results (%v): run make demo-test first", err)
	}
	var results []checkResult
	if err := json.Unmarshal(b, &results); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(checkDir, "result.json"), err)
	}
	var shots []Shot
	for _, story := range stories {
		var found *checkResult
		for i := range results {
			if strings.HasPrefix(results[i].Name, story+"/") {
				found = &results[i]
			}
		}
		switch {
		case found == nil:
			return nil, fmt.Errorf("the last browser check has no %s story", story)
		case found.Skipped != "":
			return nil, fmt.Errorf("the last browser check skipped %s: %s", story, found.Skipped)
		case !found.OK:
			return nil, fmt.Errorf("the last browser check failed %s (%s): not a picture for the README", story, found.Verdict)
		}
		src := ""
		for _, p := range found.Screenshots {
			if strings.HasSuffix(p, "-diff.png") {
				src = p
			}
		}
		if src == "" {
			return nil, fmt.Errorf("the last browser check saved no diff screenshot for %s", story)
		}
		shots = append(shots, Shot{Story: story, From: src, To: filepath.Join(dir, "playground-"+story+"-diff.png"), Verdict: found.Verdict})
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for i := range shots {
		s := &shots[i]
		before, after, err := palettePNG(s.From, s.To)
		if err != nil {
			return nil, err
		}
		s.Before, s.After = before, after
	}
	return shots, nil
}

// palettePNG rewrites a PNG with at most 256 colours: the most frequent
// ones, every other pixel mapped to the nearest of them (no dithering: UI
// fills stay flat, only anti-aliased edges move).
func palettePNG(from, to string) (int64, int64, error) {
	f, err := os.Open(from)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	st, _ := f.Stat()
	img, err := png.Decode(f)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", from, err)
	}
	out := Quantize(img)
	tmp := to + ".tmp"
	w, err := os.Create(tmp)
	if err != nil {
		return 0, 0, err
	}
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(w, out); err != nil {
		w.Close()
		return 0, 0, err
	}
	if err := w.Close(); err != nil {
		return 0, 0, err
	}
	if err := os.Rename(tmp, to); err != nil {
		return 0, 0, err
	}
	ost, err := os.Stat(to)
	if err != nil {
		return 0, 0, err
	}
	return st.Size(), ost.Size(), nil
}

// Quantize maps an image onto a palette of its 256 most frequent colours.
func Quantize(img image.Image) *image.Paletted {
	bounds := img.Bounds()
	key := func(c color.Color) uint32 {
		r, g, b, _ := c.RGBA()
		return r>>8<<16 | g>>8<<8 | b>>8
	}
	counts := map[uint32]int{}
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			counts[key(img.At(x, y))]++
		}
	}
	colors := make([]uint32, 0, len(counts))
	for c := range counts {
		colors = append(colors, c)
	}
	sort.Slice(colors, func(i, j int) bool {
		if counts[colors[i]] != counts[colors[j]] {
			return counts[colors[i]] > counts[colors[j]]
		}
		return colors[i] < colors[j]
	})
	if len(colors) > 256 {
		colors = colors[:256]
	}
	pal := make(color.Palette, len(colors))
	index := map[uint32]uint8{}
	for i, c := range colors {
		pal[i] = color.RGBA{uint8(c >> 16), uint8(c >> 8), uint8(c), 255}
		index[c] = uint8(i)
	}
	nearest := func(c uint32) uint8 {
		if i, ok := index[c]; ok {
			return i
		}
		r, g, b := int(c>>16&255), int(c>>8&255), int(c&255)
		best, bestD := 0, 1<<30
		for i, p := range colors {
			dr, dg, db := r-int(p>>16&255), g-int(p>>8&255), b-int(p&255)
			if d := 2*dr*dr + 4*dg*dg + 3*db*db; d < bestD {
				best, bestD = i, d
			}
		}
		index[c] = uint8(best)
		return uint8(best)
	}
	out := image.NewPaletted(bounds, pal)
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			out.SetColorIndex(x, y, nearest(key(img.At(x, y))))
		}
	}
	return out
}
