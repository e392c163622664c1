import json, os, sys
out = sys.argv[1]
H = ("<script>alert(1)</script><img src=x onerror=alert(2)><a href=\"javascript:alert(3)\">j</a>"
     "</style><style>*{display:none}</style>\x1b[31mRED\x1b[0m \u202eevil\u202c "
     "<iframe src=\"https://example.com/\"></iframe> [click](javascript:alert(4)) "
     "![x](https://example.com/t.png) <https://example.com/a> ``` &lt;b&gt; \" ' &amp; {{.}} $x$")
SID = "0bad0bad-0000-4000-8000-000000000001"
lines = []
st = {"prev": None, "n": 0}
def add(o, parent=True):
    st["n"] += 1
    u = "h%04d-0000-4000-8000-000000000000" % st["n"]
    b = {"parentUuid": st["prev"] if parent else None, "isSidechain": False, "userType": "external", "cwd": "/tmp/" + H,
         "sessionId": SID, "version": "2.1.0", "gitBranch": H, "uuid": u, "timestamp": "2026-03-03T10:%02d:00.000Z" % st["n"]}
    b.update(o); lines.append(b); st["prev"] = u; return u
def user(c, **kw): return add({"type": "user", "message": {"role": "user", "content": c}, **kw})
def asst(mid, blocks, model=H):
    for bl in blocks:
        add({"type": "assistant", "requestId": "req_" + mid, "message": {"id": "msg_" + mid, "role": "assistant", "model": model,
             "content": [bl], "usage": {"input_tokens": 1, "output_tokens": 2}}})
def res(tid, c, err=False):
    r = {"type": "tool_result", "tool_use_id": tid, "content": c}
    if err: r["is_error"] = True
    return user([r], toolUseResult={"stdout": c if isinstance(c, str) else "", "x": H})
lines.append({"type": "custom-title", "customTitle": H, "sessionId": SID})
user("PROMPT-ONE " + H)
asst("01", [{"type": "thinking", "thinking": "THINK " + H, "signature": "s"},
            {"type": "text", "text": "TEXT " + H + "\n\n<div onclick=\"alert(5)\">block html</div>\n\n| a | b |\n|---|---|\n| " + H.replace("|", "\\|") + " | x |\n"},
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "echo " + H, "description": "DESC " + H}}])
res("t1", "RESULT " + H)
asst("02", [{"type": "tool_use", "id": "t2", "name": "TOOL" + H, "input": {H: H, "n": 1}},
            {"type": "tool_use", "id": "t3", "name": "Edit", "input": {"file_path": "/x/" + H, "old_string": "OLD " + H, "new_string": "NEW " + H}},
            {"type": "tool_use", "id": "t4", "name": "TodoWrite", "input": {"todos": [{"content": "TODO " + H, "status": H}]}},
            {"type": "tool_use", "id": "t5", "name": "Task", "input": {"description": "AGENT " + H, "prompt": "AP " + H, "subagent_type": H}},
            {"type": H},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png\" onerror=\"alert(9)", "data": "AAAA"}},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "javascript:alert(11)"}}])
user([{"type": "tool_result", "tool_use_id": "t2", "content": [{"type": "text", "text": "ERR " + H}], "is_error": True},
      {"type": "tool_result", "tool_use_id": "t3", "content": "EDITED " + H},
      {"type": "tool_result", "tool_use_id": "t4", "content": "ok"},
      {"type": "tool_result", "tool_use_id": "t5", "content": [{"type": "text", "text": "AGENT-RESULT " + H}]}])
user("[Request interrupted by user] " + H)
user("<command-name>/review</command-name><command-args>ARGS " + H + "</command-args>")
user("<local-command-stdout>OUT " + H + "</local-command-stdout>")
user([{"type": "text", "text": "PROMPT-TWO " + H}, {"type": "image", "source": {"type": "url", "url": "https://example.com/i.png"}}])
asst("03", [{"type": "text", "text": "[ref]: javascript:alert(12)\n\n[a link][ref] and <javascript:alert(13)> and www.example.com"}])
last = st["prev"]
st["n"] += 1
b = "h%04d-0000-4000-8000-000000000000" % st["n"]
lines.append({"parentUuid": None, "logicalParentUuid": last, "isSidechain": False, "cwd": "/tmp/" + H, "sessionId": SID, "gitBranch": H,
              "type": "system", "subtype": "compact_boundary", "content": H, "timestamp": "2026-03-03T11:00:00.000Z", "uuid": b,
              "compactMetadata": {"trigger": H, "preTokens": 1234}})
st["prev"] = b
user("SUMMARY " + H, isCompactSummary=True)
user("PROMPT-THREE " + H)
asst("04", [{"type": "text", "text": "```\n" + H + "\n```\nafter the fence `" + H.replace("`", "") + "`"}])
d = os.path.join(out, "-tmp-hostile")
os.makedirs(d, exist_ok=True)
with open(os.path.join(d, SID + ".jsonl"), "w") as f:
    for l in lines: f.write(json.dumps(l, ensure_ascii=False) + "\n")
