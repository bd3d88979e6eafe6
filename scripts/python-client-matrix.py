#!/usr/bin/env python3
"""The client matrix with the Python MCP SDK (`mcp`): every tool once with valid input and once per
error a caller can cause (test/helpers/mcp-client-cases.mjs), over stdio and over
Streamable HTTP; each result must be a success with structured content, or an isError result whose
text JSON carries the expected code. Run through scripts/python-client-matrix.sh.

Usage: python-client-matrix.py CASES_JSON stdio NODE CLI ROOT CACHE_DIR
       python-client-matrix.py CASES_JSON http URL TOKEN
Prints one line per mismatch, then 'N passed, N failed'; exits 1 on any failure.
"""
import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client


def field(obj, *names):
    for n in names:
        if hasattr(obj, n):
            return getattr(obj, n)
    return None


async def run_calls(session, calls):
    await session.initialize()
    listed = {t.name for t in (await session.list_tools()).tools}
    wanted = {c["tool"] for c in calls}
    failures = [] if listed == wanted else [f"tools/list differs: {sorted(listed ^ wanted)}"]
    passed = 0
    for c in calls:
        label = f"{c['tool']} {json.dumps(c['args'])}"
        try:
            r = await session.call_tool(c["tool"], c["args"])
        except Exception as e:  # a client-side rejection is exactly what the matrix looks for
            failures.append(f"{label}: the client raised {type(e).__name__}: {str(e)[:200]}")
            continue
        is_error = bool(field(r, "is_error", "isError"))
        text = "".join(getattr(b, "text", "") for b in r.content)
        if c.get("code") is None:
            ok = not is_error and isinstance(field(r, "structured_content", "structuredContent"), dict)
            why = f"expected success, got {text[:200]}"
        else:
            try:
                code = json.loads(text).get("code")
            except ValueError:
                code = f"unparsable text {text[:100]!r}"
            ok = is_error and code == c["code"]
            why = f"expected {c['code']}, got {code if is_error else 'a success'}"
        if ok:
            passed += 1
        else:
            failures.append(f"{label}: {why}")
    return passed, failures


async def main(argv):
    cases = json.load(open(argv[1]))
    calls = cases["calls"]
    mode = argv[2]
    if mode == "stdio":
        node, cli, root, cache = argv[3:7]
        # every tool, those listed only by name included
        # index_folder / index_repo open folders beside the workspace: the user allows them
        env = {"LSPGATE_CACHE_DIR": cache, "LSPGATE_ALLOWED_ROOTS": cases["allowed_roots"]}
        params = StdioServerParameters(command=node, args=[cli, "mcp", "--root", root, "--tools", cases["tools"]], env=env)
        async with stdio_client(params) as streams:
            async with ClientSession(*streams[:2]) as session:
                passed, failures = await run_calls(session, calls)
    else:
        import httpx2 as httpx  # the SDK's own HTTP client package

        url, token = argv[3:5]
        async with httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120) as http:
            async with streamable_http_client(url, http_client=http) as streams:
                async with ClientSession(*streams[:2]) as session:
                    passed, failures = await run_calls(session, calls)
    for f in failures:
        print(f"FAIL {mode}: {f}")
    print(f"{mode}: {passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv)))
