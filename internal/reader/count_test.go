package reader

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"
)

// asCounted is a full read of a line as Options.Count reads it: no
// content, and uuids only on an inline sidechain's line.
func asCounted(e Entry) Entry {
	e.Content, e.TextHead = 0, ""
	if !e.Sidechain || e.AgentID != "" {
		e.UUID, e.ParentUUID = "", ""
	}
	return e
}

// The rule of Options.Count, line by line: what it leaves out, what it
// still reads, and that it rejects what a full read rejects.
func TestCountReadsWhatACounterNeeds(t *testing.T) {
	const usage = `"usage":{"input_tokens":3,"output_tokens":7}`
	cases := []struct {
		name         string
		line         string
		ok           bool
		uuid, parent string
		content      bool // Content read (never with Count)
	}{
		{"main assistant line: no uuids", `{"parentUuid":"p1","isSidechain":false,"type":"assistant","uuid":"u1","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"hi"}],` + usage + `}}`, true, "", "", false},
		{"inline sidechain: uuids kept", `{"parentUuid":"p2","isSidechain":true,"type":"assistant","uuid":"u2","message":{"id":"m","content":[{"type":"text","text":"hi"}],` + usage + `}}`, true, "u2", "p2", false},
		{"inline sidechain, keys after the uuids", `{"uuid":"u3","parentUuid":"p3","type":"user","message":{"content":"x"},"isSidechain":true}`, true, "u3", "p3", false},
		{"agent file's sidechain: its agent names it", `{"parentUuid":"p4","isSidechain":true,"agentId":"a1","type":"assistant","uuid":"u4","message":{` + usage + `}}`, true, "", "", false},
		{"escaped uuid on an inline sidechain", `{"parentUuid":"p\u0035","isSidechain":true,"uuid":"u\u0035","type":"user"}`, true, "u5", "p5", false},
		{"uuid that is no string", `{"parentUuid":null,"isSidechain":true,"uuid":7,"type":"user"}`, true, "", "", false},
		{"malformed content is still rejected", `{"type":"assistant","message":{"content":[{"type":"text","text":"hi"},],` + usage + `}}`, false, "", "", false},
		{"content cut short", `{"type":"assistant","message":{"content":[{"type":"text","text":"hi}`, false, "", "", false},
		{"bad escape inside content is accepted as a full read does", `{"type":"assistant","message":{"content":"a\qb",` + usage + `}}`, true, "", "", false},
		{"content that is no array", `{"type":"assistant","message":{"content":12,` + usage + `}}`, true, "", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := parseEntry([]byte(c.line), &lineStrings{}, nil, readForCount)
			full, fok := parseEntry([]byte(c.line), &lineStrings{}, nil, readFull)
			if ok != c.ok || fok != c.ok {
				t.Fatalf("ok: count %v, full %v, want %v", ok, fok, c.ok)
			}
			if !ok {
				return
			}
			if got.UUID != c.uuid || got.ParentUUID != c.parent {
				t.Errorf("uuid %q parent %q, want %q %q", got.UUID, got.ParentUUID, c.uuid, c.parent)
			}
			if got.Content != 0 || got.TextHead != "" {
				t.Errorf("content read: %v %q", got.Content, got.TextHead)
			}
			if !reflect.DeepEqual(got, asCounted(full)) {
				t.Errorf("count  %+v\nfull   %+v", got, asCounted(full))
			}
			if got.HasUsage != full.HasUsage || got.Usage != full.Usage {
				t.Errorf("usage %+v, full read %+v", got.Usage, full.Usage)
			}
		})
	}
}

// On every line of the repository's transcripts, and on those lines cut
// short or with a byte changed, Options.Count accepts and rejects what a
// full read does, and reads the same of what it reads (warnings
// included: they come from the same fields).
func TestCountIsAFullReadLessContent(t *testing.T) {
	lines := testdataLines(t)
	r := rand.New(rand.NewPCG(9, 10))
	for i, n := 0, len(lines); i < n; i++ {
		l := lines[i]
		if len(l) < 2 {
			continue
		}
		flip := bytes.Clone(l)
		const odd = "{}[]\",:\\x0 "
		flip[r.IntN(len(flip))] = odd[r.IntN(len(odd))]
		lines = append(lines, bytes.Clone(l[:r.IntN(len(l))]), flip)
	}
	bad, inline := 0, 0
	cs, fs := &lineStrings{}, &lineStrings{}
	for _, l := range lines {
		l = trimSpace(l)
		if len(l) == 0 || hasNUL(l) {
			continue
		}
		got, ok := parseEntry(l, cs, nil, readForCount)
		full, fok := parseEntry(l, fs, nil, readFull)
		if !fok {
			bad++
		}
		if fok && full.Sidechain && full.AgentID == "" && full.UUID != "" {
			inline++
		}
		if ok != fok || ok && !reflect.DeepEqual(got, asCounted(full)) {
			t.Fatalf("line %.300q:\ncount %v %+v\nfull  %v %+v", l, ok, got, fok, asCounted(full))
		}
	}
	if bad == 0 || bad == len(lines) || inline == 0 {
		t.Fatalf("%d of %d lines malformed, %d of inline sidechains: the test shows nothing", bad, len(lines), inline)
	}
}
