package tokens

import (
	"os"
	"testing"

	"github.com/cctx-dev/cctx/internal/tree"
)

func BenchmarkZZCountTree(b *testing.B) {
	p := os.Getenv("ZZ")
	if p == "" {
		b.Skip()
	}
	tr, err := tree.LoadQuiet(p, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	prices := DefaultPrices()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		CountTree(tr, "", "", prices)
	}
}
