import json, zlib, struct, base64, os, sys

out = sys.argv[1]

def png(w, h):
    rows = b""
    for y in range(h):
        row = b"\x00"
        for x in range(w):
            r = int(40 + 180 * x / w); g = int(90 + 120 * y / h); b = 200
            if 8 < y < 14 and 6 < x < w - 6: r, g, b = 250, 250, 250
            if 20 < y < 24 and 6 < x < w // 2: r, g, b = 220, 60, 60
            row += bytes([r, g, b])
        rows += row
    def chunk(t, d):
        c = struct.pack(">I", len(d)) + t + d
        return c + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")

SID = "7d3c2a10-5b1e-4c2f-9a8e-0123456789ab"
CWD = "/home/alice/src/weather"
lines = []
state = {"prev": None, "n": 0, "sec": 0}

def ts():
    state["sec"] += 7
    s = state["sec"]
    return "2026-03-02T09:%02d:%02d.000Z" % (14 + s // 60, s % 60)

def add(obj, parent=True):
    state["n"] += 1
    u = "u%04d-0000-4000-8000-000000000000" % state["n"]
    base = {"parentUuid": state["prev"] if parent else None, "isSidechain": False, "userType": "external",
            "cwd": CWD, "sessionId": SID, "version": "2.1.0", "gitBranch": "feat/retry", "uuid": u, "timestamp": ts()}
    base.update(obj)
    lines.append(base)
    state["prev"] = u
    return u

def user(content, **kw):
    return add({"type": "user", "message": {"role": "user", "content": content}, **kw})

def usage(i, o, cr, cw):
    return {"input_tokens": i, "output_tokens": o, "cache_read_input_tokens": cr, "cache_creation_input_tokens": cw}

def asst(mid, blocks, u=(4, 120, 18000, 900)):
    for b in blocks:
        add({"type": "assistant", "requestId": "req_" + mid, "message": {"id": "msg_" + mid, "type": "message", "role": "assistant",
             "model": "claude-sonnet-4-5-20250929", "content": [b], "usage": usage(*u)}})

def result(tid, text, err=False, extra=None):
    c = {"type": "tool_result", "tool_use_id": tid, "content": text}
    if err: c["is_error"] = True
    kw = {"toolUseResult": extra} if extra else {}
    return user([c], **kw)

user("The weather CLI crashes when the API times out. Can you find out why and fix it?")
asst("01", [{"type": "thinking", "thinking": "The user reports a crash on timeout. The HTTP client is the first place to look: a missing timeout and an unchecked error would explain it.", "signature": "sig"},
            {"type": "text", "text": "I'll start by looking at how the client makes its requests."},
            {"type": "tool_use", "id": "toolu_01", "name": "Grep", "input": {"pattern": "http.Get", "path": "internal", "output_mode": "content"}}], (12, 180, 15200, 2400))
result("toolu_01", "internal/api/client.go:42:\tresp, err := http.Get(url)")
asst("02", [{"type": "tool_use", "id": "toolu_02", "name": "Read", "input": {"file_path": CWD + "/internal/api/client.go", "offset": 36, "limit": 12}}], (4, 95, 17600, 310))
result("toolu_02", "    36\tfunc Fetch(city string) (*Forecast, error) {\n    37\t\turl := base + \"/forecast?q=\" + city\n    38\t\tresp, err := http.Get(url)\n    39\t\tdefer resp.Body.Close()\n    40\t\tif err != nil {\n    41\t\t\treturn nil, err\n    42\t\t}\n    43\t\tvar f Forecast\n    44\t\treturn &f, json.NewDecoder(resp.Body).Decode(&f)\n    45\t}")
asst("03", [{"type": "text", "text": "Found it: `Fetch` uses `http.Get`, which has **no timeout**, and it defers `resp.Body.Close()` before checking `err`:\n\n```go\nresp, err := http.Get(url)\ndefer resp.Body.Close() // panics when err != nil: resp is nil\n```\n\nI'll give the package one client with a timeout and check the error first."},
            {"type": "tool_use", "id": "toolu_03", "name": "Edit", "input": {"file_path": CWD + "/internal/api/client.go",
             "old_string": "\tresp, err := http.Get(url)\n\tdefer resp.Body.Close()\n\tif err != nil {\n\t\treturn nil, err\n\t}",
             "new_string": "\tresp, err := client.Get(url)\n\tif err != nil {\n\t\treturn nil, wrap(err)\n\t}\n\tdefer resp.Body.Close()"}}], (4, 410, 18100, 1200))
result("toolu_03", "The file " + CWD + "/internal/api/client.go has been updated.")
asst("04", [{"type": "tool_use", "id": "toolu_04", "name": "Bash", "input": {"command": "go test ./...", "description": "Run the tests"}}], (4, 60, 19000, 500))
result("toolu_04", "--- FAIL: TestFetchTimeout (2.00s)\n    client_test.go:31: want ErrTimeout, got context deadline exceeded\nFAIL\nFAIL\tweather/internal/api\t2.014s\nok  \tweather/cmd\t0.108s", err=True)
asst("05", [{"type": "text", "text": "One test expects a typed error. I'll add `ErrTimeout` and wrap deadline errors in it."},
            {"type": "tool_use", "id": "toolu_05", "name": "Write", "input": {"file_path": CWD + "/internal/api/errors.go",
             "content": "package api\n\nimport (\n\t\"context\"\n\t\"errors\"\n\t\"fmt\"\n)\n\n// ErrTimeout is returned when the forecast service does not answer in time.\nvar ErrTimeout = errors.New(\"forecast service timed out\")\n\nfunc wrap(err error) error {\n\tif errors.Is(err, context.DeadlineExceeded) {\n\t\treturn fmt.Errorf(\"%w: %v\", ErrTimeout, err)\n\t}\n\treturn err\n}\n"}}], (4, 380, 19600, 800))
result("toolu_05", "File created successfully at: " + CWD + "/internal/api/errors.go")
asst("06", [{"type": "tool_use", "id": "toolu_06", "name": "Bash", "input": {"command": "go test ./...", "description": "Run the tests again"}}], (4, 58, 20500, 420))
result("toolu_06", "ok  \tweather/internal/api\t0.412s\nok  \tweather/cmd\t0.108s")
asst("07", [{"type": "text", "text": "All tests pass. The change:\n\n| File | Change |\n|---|---|\n| `internal/api/client.go` | one `http.Client` with a 10 s timeout; `err` checked before `resp` is used |\n| `internal/api/errors.go` | `ErrTimeout`, wrapping deadline errors |\n\nSee the [net/http documentation](https://pkg.go.dev/net/http#Client) on `Client.Timeout`."}], (4, 210, 21000, 300))
img = base64.b64encode(png(96, 40)).decode()
user([{"type": "text", "text": "Here is the screenshot from the crash report a user sent. Does the fix cover it?"},
      {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": img}}])
asst("08", [{"type": "tool_use", "id": "toolu_08", "name": "Task", "input": {"description": "Find HTTP calls without a timeout", "prompt": "List every HTTP call in the repository that is made without a timeout (http.Get, http.Post, http.DefaultClient). Give file:line for each.", "subagent_type": "Explore"}}], (4, 150, 22000, 2600))
result("toolu_08", [{"type": "text", "text": "Found 2 calls without a timeout:\n- cmd/geo.go:18 http.Get (geocoding)\n- internal/alerts/poll.go:55 http.DefaultClient.Do"}],
       extra={"agentId": "a1b2c3d", "status": "completed", "totalTokens": 9100})
asst("09", [{"type": "text", "text": "Yes: the stack trace in the screenshot is the nil `resp` dereference fixed above. The agent found two more calls without a timeout:\n\n1. `cmd/geo.go:18`, `http.Get` for geocoding\n2. `internal/alerts/poll.go:55`, `http.DefaultClient.Do`\n\nShall I switch them to the shared client too?"}], (4, 160, 23500, 700))
last = state["prev"]
# compaction
state["n"] += 1
bu = "u%04d-0000-4000-8000-000000000000" % state["n"]
lines.append({"parentUuid": None, "logicalParentUuid": last, "isSidechain": False, "userType": "external", "cwd": CWD, "sessionId": SID,
              "version": "2.1.0", "gitBranch": "feat/retry", "type": "system", "subtype": "compact_boundary", "content": "Conversation compacted",
              "isMeta": False, "timestamp": ts(), "uuid": bu, "level": "info", "compactMetadata": {"trigger": "manual", "preTokens": 48213}})
state["prev"] = bu
user("This session is being continued from a previous conversation that ran out of context. Summary:\n\n1. **Crash**: `Fetch` deferred `resp.Body.Close()` before checking `err`, and `http.Get` had no timeout.\n2. **Fix**: one client with a 10 s timeout, `ErrTimeout` for deadline errors; tests pass.\n3. **Open**: two more calls without a timeout (`cmd/geo.go:18`, `internal/alerts/poll.go:55`).", isCompactSummary=True, isVisibleInTranscriptOnly=True)
user([{"type": "text", "text": "<ide_opened_file>The user opened the file " + CWD + "/cmd/geo.go in the IDE. This may or may not be related to the current task.</ide_opened_file>"},
      {"type": "text", "text": "Yes, switch them to the shared client, then commit."}])
asst("10", [{"type": "tool_use", "id": "toolu_10", "name": "TodoWrite", "input": {"todos": [
    {"content": "Use the shared client in cmd/geo.go", "status": "completed", "activeForm": "x"},
    {"content": "Use the shared client in internal/alerts/poll.go", "status": "in_progress", "activeForm": "x"},
    {"content": "Commit", "status": "pending", "activeForm": "x"}]}}], (4, 140, 9000, 5200))
result("toolu_10", "Todos have been modified successfully.")
asst("11", [{"type": "tool_use", "id": "toolu_11", "name": "Bash", "input": {"command": "git commit -am 'api: one HTTP client with a timeout for every call'", "description": "Commit the fix"}}], (4, 90, 14000, 600))
result("toolu_11", "[feat/retry 3f9c2e1] api: one HTTP client with a timeout for every call\n 4 files changed, 38 insertions(+), 12 deletions(-)")
asst("12", [{"type": "text", "text": "Committed as `3f9c2e1`: every HTTP call now goes through the shared client with a 10 s timeout."}], (4, 40, 14800, 200))

d = os.path.join(out, "-home-alice-src-weather")
os.makedirs(os.path.join(d, SID, "subagents"), exist_ok=True)
with open(os.path.join(d, SID + ".jsonl"), "w") as f:
    for l in lines:
        f.write(json.dumps(l, ensure_ascii=False) + "\n")

# the subagent
state.update(prev=None, n=900, sec=200)
alines = lines
lines = []
def sadd(obj):
    state["n"] += 1
    u = "s%04d-0000-4000-8000-000000000000" % state["n"]
    base = {"parentUuid": state["prev"], "isSidechain": True, "userType": "external", "cwd": CWD, "sessionId": SID, "agentId": "a1b2c3d",
            "version": "2.1.0", "gitBranch": "feat/retry", "uuid": u, "timestamp": ts()}
    base.update(obj)
    lines.append(base)
    state["prev"] = u
sadd({"type": "user", "message": {"role": "user", "content": "List every HTTP call in the repository that is made without a timeout (http.Get, http.Post, http.DefaultClient). Give file:line for each."}})
sadd({"type": "assistant", "requestId": "req_s1", "message": {"id": "msg_s1", "type": "message", "role": "assistant", "model": "claude-haiku-4-5-20251001",
      "content": [{"type": "tool_use", "id": "toolu_s1", "name": "Grep", "input": {"pattern": "http\\.(Get|Post|DefaultClient)", "output_mode": "content"}}], "usage": usage(10, 80, 3000, 2000)}})
sadd({"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_s1", "content": "cmd/geo.go:18:\tresp, err := http.Get(geoURL)\ninternal/alerts/poll.go:55:\tresp, err := http.DefaultClient.Do(req)\ninternal/api/client.go:12:\tvar client = &http.Client{Timeout: 10 * time.Second}"}]}})
sadd({"type": "assistant", "requestId": "req_s2", "message": {"id": "msg_s2", "type": "message", "role": "assistant", "model": "claude-haiku-4-5-20251001",
      "content": [{"type": "text", "text": "Found 2 calls without a timeout:\n- cmd/geo.go:18 http.Get (geocoding)\n- internal/alerts/poll.go:55 http.DefaultClient.Do"}], "usage": usage(10, 60, 4000, 300)}})
with open(os.path.join(d, SID, "subagents", "agent-a1b2c3d.jsonl"), "w") as f:
    for l in lines:
        f.write(json.dumps(l, ensure_ascii=False) + "\n")
with open(os.path.join(d, SID, "subagents", "agent-a1b2c3d.meta.json"), "w") as f:
    json.dump({"agentType": "Explore", "toolUseId": "toolu_08", "description": "Find HTTP calls without a timeout"}, f)
