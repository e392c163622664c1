package termsafe

import (
	"bytes"
	"testing"
)

// BenchmarkJSONPlain is the scan of a report with nothing to change: the
// usual case, every byte of a tokens --json looked at once.
func BenchmarkJSONPlain(b *testing.B) {
	row := []byte(`{"session_id":"c27e4d9e-fd8d-4051-bda9-20d370765100","project":"/home/dev/src/ml2","path":"/home/dev/.claude/projects/-home-dev-src-ml2/c27e4d9e-fd8d-4051-bda9-20d370765100.jsonl","total":{"input_tokens":602,"output_tokens":73199,"cost_usd":7.33253,"cost_estimated":false}},`)
	doc := bytes.Repeat(row, 256<<10/len(row))
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if out := JSON(doc); &out[0] != &doc[0] {
			b.Fatal("changed")
		}
	}
}
