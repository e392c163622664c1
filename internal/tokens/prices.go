package tokens

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
)

var bedrockSuffix = regexp.MustCompile(`-v\d+(:\d+)?$`)

// versionSuffix is what may follow a table entry's name: nothing, a date
// or "latest". "claude-opus-4-8" is not "claude-opus-4" with a suffix: an
// unknown newer model is unpriced (and named in a warning), never priced
// as an older one.
var versionSuffix = regexp.MustCompile(`^(-\d{8}|-latest)?$`)

//go:embed prices.json
var defaultPrices []byte

// Prices is a dated price table, in USD per million tokens. A nil *Prices
// prices nothing.
type Prices struct {
	Date             string       `json:"date"`
	Source           string       `json:"source"`
	CacheRead        float64      `json:"cache_read_multiplier"`
	CacheWrite5m     float64      `json:"cache_write_5m_multiplier"`
	CacheWrite1h     float64      `json:"cache_write_1h_multiplier"`
	Fast             float64      `json:"fast_multiplier"`
	WebSearchPer1000 float64      `json:"web_search_per_1000"`
	Models           []ModelPrice `json:"models"`

	mu    sync.Mutex
	cache map[string]*ModelPrice // model name → price (nil: none), filled by Model
}

// ModelPrice is the price of the model named Match, with or without a
// date suffix (claude-sonnet-4-5 and claude-sonnet-4-5-20250929).
type ModelPrice struct {
	Match  string  `json:"match"`
	Input  float64 `json:"input"`
	Output float64 `json:"output"`
	// Absolute cache prices, when a model departs from the multipliers.
	CacheWrite5m float64 `json:"cache_write_5m,omitempty"`
	CacheWrite1h float64 `json:"cache_write_1h,omitempty"`
	CacheReadAbs float64 `json:"cache_read,omitempty"`
	// LongContext prices the whole request when its prompt (input + cache)
	// is larger than Above tokens.
	LongContext *struct {
		Above  int64   `json:"above"`
		Input  float64 `json:"input"`
		Output float64 `json:"output"`
	} `json:"long_context,omitempty"`
}

// DefaultPrices is the embedded table.
func DefaultPrices() *Prices {
	p, err := ParsePrices(defaultPrices)
	if err != nil {
		panic("embedded prices.json: " + err.Error()) // a build defect, caught by the tests
	}
	return p
}

// LoadPrices reads a table in the embedded table's format (--pricing).
func LoadPrices(path string) (*Prices, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p, err := ParsePrices(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// ParsePrices parses a price table and checks it.
func ParsePrices(b []byte) (*Prices, error) {
	var p Prices
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("price table: %w", err)
	}
	if len(p.Models) == 0 {
		return nil, fmt.Errorf("price table: no models")
	}
	for _, m := range p.Models {
		if m.Match == "" || m.Input < 0 || m.Output < 0 {
			return nil, fmt.Errorf("price table: model entry %q needs a match and non-negative prices", m.Match)
		}
	}
	if p.CacheRead == 0 {
		p.CacheRead = 0.1
	}
	if p.CacheWrite5m == 0 {
		p.CacheWrite5m = 1.25
	}
	if p.CacheWrite1h == 0 {
		p.CacheWrite1h = 2
	}
	if p.Fast == 0 {
		p.Fast = 1
	}
	return &p, nil
}

// Model finds the price of a model, or nil.
func (p *Prices) Model(model string) *ModelPrice {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if m, ok := p.cache[model]; ok {
		return m
	}
	if p.cache == nil {
		p.cache = map[string]*ModelPrice{}
	}
	m := p.lookup(model)
	p.cache[model] = m
	return m
}

func (p *Prices) lookup(model string) *ModelPrice {
	name := NormalizeModel(model)
	var best *ModelPrice
	for i := range p.Models {
		m := &p.Models[i]
		if !strings.HasPrefix(name, m.Match) || !versionSuffix.MatchString(name[len(m.Match):]) {
			continue
		}
		if best == nil || len(m.Match) > len(best.Match) {
			best = m
		}
	}
	return best
}

// NormalizeModel strips what providers add around Anthropic's model
// names: "anthropic/" or "us.anthropic." prefixes, Bedrock's "-v1:0"
// suffix and a "[1m]" context marker.
func NormalizeModel(model string) string {
	m := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndex(m, "/"); i >= 0 {
		m = m[i+1:]
	}
	if i := strings.Index(m, "claude-"); i > 0 {
		m = m[i:]
	}
	m = strings.TrimSuffix(m, "[1m]")
	m = bedrockSuffix.ReplaceAllString(m, "")
	if i := strings.Index(m, "@"); i > 0 { // Vertex: claude-sonnet-4@20250514
		m = m[:i]
	}
	return m
}

const perMillion = 1e-6

// Cost is the cost of one response in USD, and whether its model has a
// price. Cache writes without the 5m/1h split are priced as 5-minute
// writes; a long-context request pays the long-context rate for all its
// tokens; fast responses pay the fast multiplier.
func (p *Prices) Cost(r *Response) (float64, bool) {
	m := p.Model(r.Model)
	if m == nil {
		return 0, false
	}
	u := r.Usage
	in, out := m.Input, m.Output
	if lc := m.LongContext; lc != nil && u.Context() > lc.Above {
		in, out = lc.Input, lc.Output
	}
	w5, w1, rd := in*p.CacheWrite5m, in*p.CacheWrite1h, in*p.CacheRead
	if m.CacheWrite5m > 0 {
		w5 = m.CacheWrite5m
	}
	if m.CacheWrite1h > 0 {
		w1 = m.CacheWrite1h
	}
	if m.CacheReadAbs > 0 {
		rd = m.CacheReadAbs
	}
	split5m, split1h := u.CacheCreation5m, u.CacheCreation1h
	if rest := u.CacheCreation - split5m - split1h; rest > 0 {
		split5m += rest
	}
	cost := float64(u.Input)*in + float64(u.Output)*out +
		float64(split5m)*w5 + float64(split1h)*w1 + float64(u.CacheRead)*rd
	cost *= perMillion
	if u.Speed == "fast" {
		cost *= p.Fast
	}
	cost += float64(u.WebSearch) * p.WebSearchPer1000 / 1000
	return cost, true
}
