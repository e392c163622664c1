package reader

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// Peek's walk, as it was written with members and closures: the oracle
// of the one without them, which Peek is (it runs on every line).
func peekByMembers(line []byte) (typ, role string, sidechain bool) {
	b := line
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return "", "", false
	}
	sawSidechain := false
	// done: the type (or role) is known, and so is isSidechain unless the
	// line is no user or assistant line, where it does not matter.
	done := func() bool {
		kind := typ
		if kind == "" {
			kind = role
		}
		return kind != "" && (sawSidechain || kind != "user" && kind != "assistant")
	}
	i = skipSpace(b, i+1)
	for i < len(b) && b[i] == '"' {
		ks := i
		if i = skipString(b, i); i < 0 {
			return
		}
		key := b[ks+1 : i-1]
		if i = skipSpace(b, i); i >= len(b) || b[i] != ':' {
			return
		}
		vs := skipSpace(b, i+1)
		if string(key) == "message" && vs < len(b) && b[vs] == '{' && role == "" {
			// Only the start of the message is read: role comes before
			// the content in every version seen.
			eachMember(b[vs:], func(k, v []byte) bool {
				if string(k) == "role" {
					role = wordStr(v)
					return false
				}
				return true
			})
			if done() {
				return // the common case: the rest is the payload
			}
		}
		if i = skipValue(b, vs); i < 0 {
			return
		}
		switch string(key) {
		case "isSidechain":
			sidechain, sawSidechain = string(b[vs:i]) == "true", true
		case "type":
			typ = wordStr(b[vs:i])
		}
		if done() {
			return
		}
		if i = skipSpace(b, i); i >= len(b) || b[i] != ',' {
			return
		}
		i = skipSpace(b, i+1)
	}
	return
}

// Peek reads what its walk with members read, on every line of the
// repository's transcripts, on those lines cut short or with a byte
// changed, and on crafted ones (keys in other orders, a message before
// its type, malformed messages).
func TestPeekIsTheMembersWalk(t *testing.T) {
	lines := [][]byte{
		[]byte(`{"message":{"role":"assistant"},"isSidechain":true}`),
		[]byte(`{"message":{"model":"m","role":"user","content":[]},"type":"assistant","isSidechain":false}`),
		[]byte(`{"message":{"model":"m",,"role":"user"},"type":"x"}`),
		[]byte(`{"message":{"model":"m" "role":"user"},"type":"x"}`),
		[]byte(`{"message":{},"type":"user","isSidechain":true}`),
		[]byte(`{"message":{"role":7},"type":"user"}`),
		[]byte(`{"message":{"role":"a\u0073sistant"},"isSidechain":false}`),
		[]byte(`{"message":{"role":"user"},"message":{"role":"assistant"},"isSidechain":false}`),
		[]byte(`{"type":"user","type":"assistant","isSidechain":false}`),
		[]byte(`{"isSidechain":false,"type":"user"`),
		[]byte(` { "isSidechain" : true , "type" : "assistant" } `),
	}
	lines = append(lines, testdataLines(t)...)
	r := rand.New(rand.NewPCG(11, 12))
	for i, n := 0, len(lines); i < n; i++ {
		l := lines[i]
		if len(l) < 2 {
			continue
		}
		// Cuts and changes in the first bytes, where Peek reads.
		k := min(len(l), 400)
		flip := bytes.Clone(l)
		const odd = "{}[]\",:\\x0 t"
		flip[r.IntN(k)] = odd[r.IntN(len(odd))]
		lines = append(lines, bytes.Clone(l[:r.IntN(k)]), flip)
	}
	kinds := map[string]bool{}
	for _, l := range lines {
		typ, role, side := Peek(l)
		wt, wr, ws := peekByMembers(l)
		if typ != wt || role != wr || side != ws {
			t.Fatalf("Peek(%.300q) = %q %q %v, the members walk %q %q %v", l, typ, role, side, wt, wr, ws)
		}
		kinds[typ+"/"+role] = true
	}
	if len(kinds) < 5 {
		t.Fatalf("only %v read: the test shows nothing", kinds)
	}
}
