// Package load drives HTTP services at a request rate that varies over time:
// the playground needs traffic that swings (so "CPU that does not track load"
// shows) yet is bounded and reproducible.
package load

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Rate is the wanted requests per second, elapsed time after the start.
type Rate func(elapsed time.Duration) float64

// Constant is a flat rate.
func Constant(rps float64) Rate { return func(time.Duration) float64 { return rps } }

// Sine swings between low and high with the given period, starting at the
// middle and rising: CPU that follows load then draws the same wave.
func Sine(low, high float64, period time.Duration) Rate {
	mid, amp := (low+high)/2, (high-low)/2
	return func(e time.Duration) float64 {
		return mid + amp*math.Sin(2*math.Pi*e.Seconds()/period.Seconds())
	}
}

// Square alternates high (first half of each period) and low.
func Square(low, high float64, period time.Duration) Rate {
	return func(e time.Duration) float64 {
		if e%period < period/2 {
			return high
		}
		return low
	}
}

// ParseRate reads a rate spec: "50" (constant), "sine:LOW:HIGH:PERIOD" or
// "square:LOW:HIGH:PERIOD", PERIOD a Go duration such as 5m.
func ParseRate(spec string) (Rate, error) {
	parts := strings.Split(spec, ":")
	if len(parts) == 1 {
		v, err := strconv.ParseFloat(spec, 64)
		if err != nil || v < 0 {
			return nil, fmt.Errorf("rate %q: want a number >= 0, sine:LOW:HIGH:PERIOD or square:LOW:HIGH:PERIOD", spec)
		}
		return Constant(v), nil
	}
	if len(parts) != 4 || (parts[0] != "sine" && parts[0] != "square") {
		return nil, fmt.Errorf("rate %q: want sine:LOW:HIGH:PERIOD or square:LOW:HIGH:PERIOD", spec)
	}
	low, err1 := strconv.ParseFloat(parts[1], 64)
	high, err2 := strconv.ParseFloat(parts[2], 64)
	period, err3 := time.ParseDuration(parts[3])
	if err1 != nil || err2 != nil || err3 != nil || low < 0 || high < low || period <= 0 {
		return nil, fmt.Errorf("rate %q: want 0 <= LOW <= HIGH and a positive Go duration PERIOD", spec)
	}
	if parts[0] == "sine" {
		return Sine(low, high, period), nil
	}
	return Square(low, high, period), nil
}
