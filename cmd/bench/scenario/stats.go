package scenario

import (
	"math"
	"slices"
	"time"
)

// Latency is a distribution's summary in milliseconds.
type Latency struct {
	N    int     `json:"n"`
	P50  float64 `json:"p50_ms"`
	P99  float64 `json:"p99_ms"`
	P999 float64 `json:"p99_9_ms"`
	Max  float64 `json:"max_ms"`
}

// summarize sorts d in place and returns its percentiles (nearest rank).
func summarize(d []time.Duration) Latency {
	if len(d) == 0 {
		return Latency{}
	}
	slices.Sort(d)
	at := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(d)))) - 1
		return ms(d[min(max(i, 0), len(d)-1)])
	}
	return Latency{N: len(d), P50: at(0.50), P99: at(0.99), P999: at(0.999), Max: ms(d[len(d)-1])}
}

func ms(d time.Duration) float64 { return round3(float64(d) / float64(time.Millisecond)) }

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

// median of the values (the mean of the middle two for an even count); 0 for none.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// ratio a/b rounded to 3 decimals, 0 when b is 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return round3(a / b)
}
