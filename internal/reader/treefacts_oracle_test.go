package reader

// The gjson-based tree facts reader the scanner replaced, kept as the
// oracle: on real lines both must agree.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cctx-dev/cctx/internal/testcorpus"
	"github.com/tidwall/gjson"
)

func TestTreeFactsAgreeWithGJSON(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/projects/*/*.jsonl")
	files = append(files, testcorpus.Files("*/*.jsonl", "*/*/subagents/*.jsonl")...)
	more, _ := filepath.Glob("../../testdata/projects/*/*/subagents/*.jsonl")
	files = append(files, more...)
	n := 0
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(b, []byte("\n")) {
			if line = trimSpace(line); len(line) == 0 {
				continue
			}
			n++
			got, want := ExtractTreeFacts(line), extractTreeFactsGJSON(line)
			if fmt.Sprintf("%+v", deref(got)) != fmt.Sprintf("%+v", deref(want)) {
				t.Fatalf("%s: facts differ on %.200s\n got %+v\nwant %+v", p, line, deref(got), deref(want))
			}
			checkFactsPass(t, line)
		}
	}
	if n < 300 { // the samples alone hold more: the globs found nothing
		t.Errorf("only %d lines", n)
	}
}

// checkFactsPass: the envelope with the facts gathered in the same walk
// (Options.Facts) is the envelope without them, and the facts are those
// ExtractTreeFacts reads from the line on its own.
func checkFactsPass(t *testing.T, line []byte) {
	t.Helper()
	plain, ok := parseEnvelope(line, nil, nil)
	var fp factsPass
	both, ok2 := parseEnvelope(line, nil, &fp)
	if ok != ok2 || fmt.Sprintf("%+v", plain) != fmt.Sprintf("%+v", both) {
		t.Fatalf("gathering facts changes the envelope of %.200q:\n%+v\n%+v", line, plain, both)
	}
	if !ok {
		return
	}
	if got, want := deref(fp.f), deref(ExtractTreeFacts(line)); got != want {
		t.Fatalf("facts in the envelope walk differ on %.300q\n got %s\nwant %s", line, got, want)
	}
}

// deref prints the pointed-to preserved data, not the pointers.
func deref(f TreeFacts) string {
	seg, msgs := f.PreservedSegment, f.PreservedMessages
	f.PreservedSegment, f.PreservedMessages = nil, nil
	s := fmt.Sprintf("%+v", f)
	if seg != nil {
		s += fmt.Sprintf(" seg=%+v", *seg)
	}
	if msgs != nil {
		s += fmt.Sprintf(" msgs=%+v", *msgs)
	}
	return s
}

// FuzzTreeFacts: any bytes, no panic; on well-formed lines the scanner
// reads what gjson reads.
func FuzzTreeFacts(f *testing.F) {
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","is_error":true},{"type":"text","text":"hi"}]}}`))
	f.Add([]byte(`{"message":{"content":[{"type":"tool_use","id":"x","name":"Task","input":{"prompt":"go","description":"d","subagent_type":"s"}}]},"type":"assistant"}`))
	f.Add([]byte(`{"type":"system","compactMetadata":{"preservedSegment":{"headUuid":"h","anchorUuid":"a","tailUuid":"t"},"preservedMessages":{"anchorUuid":"a","uuids":["1","2"]}}}`))
	f.Add([]byte(`{"type":"user","message":{"content":"  typed  "},"toolUseResult":{"totalTokens":5,"agentType":"x"},"attachment":{"type":"hook"},"data":{"agentId":"g"}}`))
	f.Add([]byte(`{"attachment":{"type":"queued_command","prompt":"typed while it worked","commandMode":"prompt"},"type":"attachment","uuid":"q"}`))
	f.Add([]byte(`{"type":"attachment","attachment":{"type":"queued_command","prompt":[{"type":"text","text":"<ide_selection>x</ide_selection>"},{"type":"image"},{"type":"text","text":"and this"}]}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		checkFactsPass(t, trimSpace(line))
		got := ExtractTreeFacts(line)
		if !wellFormedForFacts(line) {
			return
		}
		if want := extractTreeFactsGJSON(line); deref(got) != deref(want) {
			t.Fatalf("facts differ on %q\n got %s\nwant %s", line, deref(got), deref(want))
		}
	})
}

// wellFormedForFacts: a valid object where every value the facts read has
// the type the format gives it (gjson and the scanner read odd types in
// different but equally harmless ways: a string where an array belongs, an
// object where a string belongs).
func wellFormedForFacts(line []byte) bool {
	if !Valid(line) || !gjson.ValidBytes(line) {
		return false
	}
	s := string(line)
	for _, p := range []string{"type", "sourceToolAssistantUUID", "parentToolUseID", "attachment.type", "data.agentId", "toolUseResult.agentType"} {
		if v := gjson.Get(s, p); v.Exists() && v.Type != gjson.String {
			return false
		}
	}
	for _, p := range []string{"message", "compactMetadata", "toolUseResult", "attachment", "data"} {
		if v := gjson.Get(s, p); v.Exists() && !v.IsObject() {
			return false
		}
	}
	if v := gjson.Get(s, "message.content"); v.Exists() && v.Type != gjson.String && !v.IsArray() {
		return false
	}
	if v := gjson.Get(s, "attachment.prompt"); v.Exists() && v.Type != gjson.String && !v.IsArray() {
		return false
	}
	okPrompt := true
	gjson.Get(s, "attachment.prompt").ForEach(func(_, b gjson.Result) bool {
		for _, k := range []string{"type", "text"} {
			if v := b.Get(k); b.IsObject() && v.Exists() && v.Type != gjson.String {
				okPrompt = false
			}
		}
		return okPrompt
	})
	if !okPrompt {
		return false
	}
	ok := true
	gjson.Get(s, "message.content").ForEach(func(_, b gjson.Result) bool {
		if b.Type != gjson.JSON || !b.IsObject() && !b.IsArray() {
			return true
		}
		for _, k := range []string{"type", "id", "name", "tool_use_id", "text"} {
			if v := b.Get(k); v.Exists() && v.Type != gjson.String {
				ok = false
			}
		}
		if v := b.Get("input"); v.Exists() && !v.IsObject() {
			ok = false
		}
		return ok
	})
	if v := gjson.Get(s, "compactMetadata.preservedMessages.uuids"); v.Exists() && !v.IsArray() {
		return false
	}
	return ok
}

// extractTreeFactsGJSON reads the tree facts of a raw line. It parses only the
// fields it needs and never fails: odd shapes give empty facts.
func extractTreeFactsGJSON(raw []byte) TreeFacts {
	var f TreeFacts
	s := view(raw)
	res := gjson.GetMany(s, "type", "message.content", "sourceToolAssistantUUID", "attachment.type", "compactMetadata", "toolUseResult", "parentToolUseID", "data.agentId")
	typ := res[0].Str
	content := res[1]
	f.SourceToolAssistantUUID = str(res[2])
	f.AttachmentType = str(res[3])
	f.ParentToolUseID = str(res[6])
	f.ProgressAgentID = str(res[7])

	if a := gjson.Get(s, "attachment"); typ == "attachment" && f.AttachmentType == "queued_command" {
		// A queued input: its prompt is a user message's content.
		switch p := a.Get("prompt"); {
		case p.Type == gjson.String:
			f.setPrompt(p.Str)
		case p.IsArray():
			var texts []string
			p.ForEach(func(_, b gjson.Result) bool {
				if b.Get("type").Str == "text" && b.Get("text").Type == gjson.String {
					texts = append(texts, b.Get("text").Str)
				}
				return true
			})
			f.setPrompt(texts...)
		}
	}
	switch {
	case content.Type == gjson.String:
		if typ == "user" {
			f.setPrompt(content.Str)
		}
	case content.IsArray():
		var texts []string
		content.ForEach(func(_, b gjson.Result) bool {
			switch b.Get("type").Str {
			case "tool_use":
				tu := ToolUseFact{ID: str(b.Get("id")), Name: str(b.Get("name"))}
				if IsSpawnTool(tu.Name) {
					in := b.Get("input")
					tu.Description = str(in.Get("description"))
					tu.SubagentType = str(in.Get("subagent_type"))
					if p := in.Get("prompt"); p.Type == gjson.String {
						tu.PromptHash = HashPrompt(p.Str)
					}
				}
				f.ToolUses = append(f.ToolUses, tu)
			case "tool_result":
				f.ToolResults = append(f.ToolResults, str(b.Get("tool_use_id")))
				if b.Get("is_error").Bool() {
					f.ResultError = true
				}
			case "text":
				if typ == "user" {
					texts = append(texts, b.Get("text").Str)
				}
			}
			return true
		})
		if len(texts) > 0 && len(f.ToolResults) == 0 {
			f.setPrompt(texts...)
		}
	}

	if cm := res[4]; cm.IsObject() {
		if ps := cm.Get("preservedSegment"); ps.IsObject() {
			f.PreservedSegment = &PreservedSegment{
				HeadUUID:   str(ps.Get("headUuid")),
				AnchorUUID: str(ps.Get("anchorUuid")),
				TailUUID:   str(ps.Get("tailUuid")),
			}
		}
		if pm := cm.Get("preservedMessages"); pm.IsObject() {
			m := &PreservedMessages{AnchorUUID: str(pm.Get("anchorUuid"))}
			pm.Get("uuids").ForEach(func(_, u gjson.Result) bool {
				m.UUIDs = append(m.UUIDs, str(u))
				return true
			})
			f.PreservedMessages = m
		}
	}
	if tr := res[5]; tr.IsObject() {
		f.AgentTotalTokens = count(tr.Get("totalTokens"))
		f.AgentToolCalls = count(tr.Get("totalToolUseCount"))
		f.AgentType = str(tr.Get("agentType"))
	}
	return f
}
