package tokens

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/cctx-dev/cctx/internal/reader"
)

var bedrockSuffix = regexp.MustCompile(`-v\d+(:\d+)?$`)

// versionSuffix is what may follow a table entry's name: nothing, a date
// or "latest". "claude-opus-4-9" is not "claude-opus-4" with a suffix: a
// model that has no row of its own is never priced as an older one (it is
// estimated at its family's newest row, see Prices.EstimatedAs).
var versionSuffix = regexp.MustCompile(`^(-\d{8}|-latest)?$`)

// families are the model families an unknown model id is estimated by.
var families = []string{"opus", "sonnet", "haiku", "fable"}

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

	mu     sync.Mutex
	cache  map[string]found       // model name → its row, filled by lookup
	newest map[string]*ModelPrice // family → its newest row; nil until needed
}

// found is the row that prices a model: its own, or (estimated) its
// family's newest; m is nil for a model without a price.
type found struct {
	m         *ModelPrice
	estimated bool
}

// ModelPrice is the price of the model named Match, with or without a
// date suffix (claude-sonnet-4-5 and claude-sonnet-4-5-20250929).
type ModelPrice struct {
	Match  string  `json:"match"`
	Input  float64 `json:"input"`
	Output float64 `json:"output"`
	// Absolute cache prices, when a model departs from the multipliers
	// (0: the table's multiplier of Input).
	CacheWrite5m float64 `json:"cache_write_5m,omitempty"`
	CacheWrite1h float64 `json:"cache_write_1h,omitempty"`
	CacheReadAbs float64 `json:"cache_read,omitempty"`
	// LongContext prices the whole request when its prompt (input + cache)
	// is larger than Above tokens.
	LongContext *LongContext `json:"long_context,omitempty"`
	// Where the row's prices come from and when they were checked.
	Source string `json:"source,omitempty"`
	Date   string `json:"date,omitempty"`
}

// LongContext is a model's price for a request whose prompt is larger
// than Above tokens. Cache prices left 0 are the table's multipliers of
// this Input.
type LongContext struct {
	Above        int64   `json:"above"`
	Input        float64 `json:"input"`
	Output       float64 `json:"output"`
	CacheWrite5m float64 `json:"cache_write_5m,omitempty"`
	CacheWrite1h float64 `json:"cache_write_1h,omitempty"`
	CacheRead    float64 `json:"cache_read,omitempty"`
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
		if m.Match == "" || !nonNegative(m.Input, m.Output, m.CacheWrite5m, m.CacheWrite1h, m.CacheReadAbs) {
			return nil, fmt.Errorf("price table: model entry %q needs a match and non-negative prices", m.Match)
		}
		if lc := m.LongContext; lc != nil && (lc.Above < 0 || !nonNegative(lc.Input, lc.Output, lc.CacheWrite5m, lc.CacheWrite1h, lc.CacheRead)) {
			return nil, fmt.Errorf("price table: model entry %q: long_context needs non-negative prices and threshold", m.Match)
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

func nonNegative(vs ...float64) bool {
	for _, v := range vs {
		if v < 0 {
			return false
		}
	}
	return true
}

// Model finds the price of a model, or nil: its own row, else the newest
// row of its family (an estimate, see EstimatedAs).
func (p *Prices) Model(model string) *ModelPrice {
	return p.find(model).m
}

// EstimatedAs names the row that prices a model that has none of its own:
// the newest row of its family ("claude-opus-5-5" for "claude-opus-6").
// It is "" for a model with a row of its own, and for one without a
// family or whose family has no row (that model has no price).
func (p *Prices) EstimatedAs(model string) string {
	if f := p.find(model); f.estimated {
		return f.m.Match
	}
	return ""
}

// Estimated lists the models this table has priced by an estimate so far
// (see EstimatedAs), sorted: a command warns once for each.
func (p *Prices) Estimated() []string {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for model, f := range p.cache {
		if f.estimated {
			out = append(out, model)
		}
	}
	slices.Sort(out)
	return out
}

// EstimateNote is the warning that says a model's cost is estimated.
func (p *Prices) EstimateNote(model string) string {
	return fmt.Sprintf("model %s has no price: its cost is estimated at the %s rates (the newest %s in the price table; set one with --pricing FILE)",
		model, p.EstimatedAs(model), Family(model))
}

// Warnings are what a command says of the prices of its output: which
// models have no price (their cost is unknown: unpriced), and each model
// priced by an estimate so far.
func (p *Prices) Warnings(unpriced []string) []string {
	var out []string
	if len(unpriced) > 0 {
		out = append(out, fmt.Sprintf("no price for model(s) %s: their cost is unknown (add them with --pricing FILE)", strings.Join(unpriced, ", ")))
	}
	for _, m := range p.Estimated() {
		out = append(out, p.EstimateNote(m))
	}
	return out
}

func (p *Prices) find(model string) found {
	if p == nil {
		return found{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if f, ok := p.cache[model]; ok {
		return f
	}
	if p.cache == nil {
		p.cache = map[string]found{}
	}
	f := found{m: p.lookup(model)}
	if f.m == nil {
		if fam := Family(model); fam != "" {
			f.m = p.newestOf(fam)
			f.estimated = f.m != nil
		}
	}
	p.cache[model] = f
	return f
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

// Family is the family of a Claude model id: "opus", "sonnet", "haiku" or
// "fable", the first of them among the parts of its name
// ("claude-opus-6", "claude-3-5-sonnet-20241022"); "" when it is not a
// Claude model or names none of them ("gpt-4", "claude-2", "").
func Family(model string) string {
	name := NormalizeModel(model)
	if !strings.HasPrefix(name, "claude-") {
		return ""
	}
	for _, part := range strings.Split(name, "-")[1:] {
		if slices.Contains(families, part) {
			return part
		}
	}
	return ""
}

// newestOf is the row of family with the highest version: the numbers in
// its name compared in turn (opus-5-5 > opus-5 > opus-4-8 > 3-opus).
// Called with p.mu held.
func (p *Prices) newestOf(family string) *ModelPrice {
	if p.newest == nil {
		p.newest = map[string]*ModelPrice{}
		for i := range p.Models {
			m := &p.Models[i]
			fam := Family(m.Match)
			if fam == "" {
				continue
			}
			if cur := p.newest[fam]; cur == nil || slices.Compare(version(m.Match), version(cur.Match)) > 0 {
				p.newest[fam] = m
			}
		}
	}
	return p.newest[family]
}

// version is the numbers among the parts of a model name, dates left out:
// [4 8] for claude-opus-4-8, [3 5] for claude-3-5-sonnet-20241022.
func version(name string) []int {
	var v []int
	for _, part := range strings.Split(NormalizeModel(name), "-") {
		if n, err := strconv.Atoi(part); err == nil && len(part) < 8 {
			v = append(v, n)
		}
	}
	return v
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
// price (its own, or estimated: see EstimatedAs). Cache writes without the
// 5m/1h split are priced as 5-minute writes; a long-context request pays
// the long-context rates for all its tokens; fast responses pay the fast
// multiplier. The client-side "<synthetic>" model costs nothing.
func (p *Prices) Cost(r *Response) (float64, bool) {
	c, ok, _ := p.price(r)
	return c, ok
}

// price is Cost, and whether the cost is an estimate.
func (p *Prices) price(r *Response) (cost float64, known, estimated bool) {
	if r.Model == reader.SyntheticModel {
		return 0, p != nil, false
	}
	f := p.find(r.Model)
	m := f.m
	if m == nil {
		return 0, false, false
	}
	u := r.Usage
	in, out := m.Input, m.Output
	w5, w1, rd := m.CacheWrite5m, m.CacheWrite1h, m.CacheReadAbs
	if lc := m.LongContext; lc != nil && u.Context() > lc.Above {
		in, out = lc.Input, lc.Output
		w5, w1, rd = lc.CacheWrite5m, lc.CacheWrite1h, lc.CacheRead
	}
	if w5 == 0 {
		w5 = in * p.CacheWrite5m
	}
	if w1 == 0 {
		w1 = in * p.CacheWrite1h
	}
	if rd == 0 {
		rd = in * p.CacheRead
	}
	split5m, split1h := u.CacheCreation5m, u.CacheCreation1h
	if rest := u.CacheCreation - split5m - split1h; rest > 0 {
		split5m += rest
	}
	cost = float64(u.Input)*in + float64(u.Output)*out +
		float64(split5m)*w5 + float64(split1h)*w1 + float64(u.CacheRead)*rd
	cost *= perMillion
	if u.Speed == "fast" {
		cost *= p.Fast
	}
	cost += float64(u.WebSearch) * p.WebSearchPer1000 / 1000
	return cost, true, f.estimated
}
