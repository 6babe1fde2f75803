# ruff: noqa: E501 - hand-written dialogue reads better unwrapped
"""Hand-written sessions for ss-017..ss-031 (see build_shapes.py): the turns and the facts to keep.

Each story is ordinary work on a made-up codebase, written turn by turn the way a user and an
agent talk. Facts are what a resumed agent must know: the goal, every instruction the user gave,
the next step, and the decisions, failures and files of the session document.
"""

from __future__ import annotations

from typing import Any


def F(kind: str, value: str, *any_of: str) -> dict[str, Any]:
    """One fact."""
    return {"kind": kind, "value": value, **({"any_of": list(any_of)} if any_of else {})}


STORIES: list[tuple[str, str, str, str, str, list[tuple[Any, ...]], list[dict[str, Any]]]] = [
    (
        "ss-017",
        "claude_code",
        "8d0c2f7a-41b6-4f0e-9b1e-2a6c5d3e7f10",
        "/home/maya/ledgerly",
        "ledgerly",
        [
            (
                "user",
                "The CSV export of invoices times out for accounts with more than 50k invoices. "
                "Can you make the export stream instead of building the whole file in memory?",
            ),
            (
                "user",
                "Keep it to the standard library, no pandas. Don't change the column order, finance imports "
                "these files into their spreadsheet macros.",
            ),
            ("assistant", "I'll read the export view and the serializer first."),
            (
                "tool",
                "read",
                {"file_path": "backend/exports/invoices.py"},
                "def export_invoices(request):\n"
                "    rows = [serialize(i) for i in Invoice.objects.filter(account=request.account)]\n"
                "    return HttpResponse(to_csv(rows))",
            ),
            ("tool", "bash", {"command": "pytest tests/exports -q"}, "....\n4 passed in 1.92s"),
            (
                "assistant",
                "Found that to_csv joins every row into one string before the response starts, "
                "which is where the 50k accounts run out of time.",
            ),
            (
                "assistant",
                "We decided to use StreamingHttpResponse with csv.writer over a generator, "
                "because it keeps memory flat and the first bytes leave at once.",
            ),
            (
                "tool",
                "edit",
                {
                    "file_path": "backend/exports/invoices.py",
                    "old_string": "HttpResponse(to_csv(rows))",
                    "new_string": "StreamingHttpResponse(stream_rows(qs))",
                },
                "The file has been updated.",
            ),
            (
                "tool",
                "edit",
                {
                    "file_path": "backend/exports/csv_stream.py",
                    "old_string": "",
                    "new_string": "def stream_rows(qs): ...",
                },
                "The file has been updated.",
            ),
            (
                "tool",
                "bash",
                {"command": "pytest tests/exports -q"},
                "..F..\nFAILED tests/exports/test_invoices.py::"
                "test_header_order\n1 failed, 4 passed in 2.10s",
            ),
            (
                "assistant",
                "The header row comes out after the first chunk now; iterating qs.iterator() first "
                "didn't work because the header was yielded lazily after it.",
            ),
            (
                "tool",
                "todo",
                [
                    ("Stream the invoice export", "completed"),
                    ("Fix header order in the stream", "in_progress"),
                    ("Add a 60k-invoice load test", "pending"),
                ],
                "Todos updated",
            ),
            (
                "assistant",
                "Next I'll yield the header row before touching the queryset and rerun the export tests.",
            ),
        ],
        [
            F("goal", "make the export stream"),
            F("instruction", "Keep it to the standard library, no pandas"),
            F("instruction", "Don't change the column order"),
            F("next_step", "60k-invoice load test"),
            F("next_step", "yield the header row"),
            F("decision", "StreamingHttpResponse"),
            F("file", "backend/exports/csv_stream.py"),
        ],
    ),
    (
        "ss-018",
        "claude_code",
        "c41e9b20-7a55-4d8e-b1f3-90de6a2b4c77",
        "/srv/work/forge-ci",
        "forge-ci",
        [
            (
                "user",
                "Our GitHub Actions cache never hits on the Rust job. Please figure out why and fix the workflow.",
            ),
            ("assistant", "I'll look at the workflow and the cache step."),
            (
                "tool",
                "read",
                {"file_path": ".github/workflows/rust.yml"},
                "- uses: actions/cache@v4\n  with:\n"
                "    key: cargo-${{ hashFiles('**/Cargo.toml') }}-${{ github.run_id }}",
            ),
            (
                "assistant",
                "Root cause: the cache key includes github.run_id, so every run writes a new key "
                "and nothing is ever restored.",
            ),
            (
                "user",
                "Use Swatinem/rust-cache, not a hand-rolled actions/cache step. Never cache the target/ "
                "directory for release builds, it has bitten us before.",
            ),
            (
                "tool",
                "edit",
                {
                    "file_path": ".github/workflows/rust.yml",
                    "old_string": "actions/cache@v4",
                    "new_string": "Swatinem/rust-cache@v2",
                },
                "The file has been updated.",
            ),
            (
                "tool",
                "bash",
                {"command": "act -j test --dryrun"},
                "[rust/test] ✅  Success - Main Swatinem/rust-cache",
            ),
            (
                "assistant",
                "We settled on keying the cache by Cargo.lock only, with a separate release job that "
                "skips the cache entirely.",
            ),
            (
                "tool",
                "edit",
                {
                    "file_path": ".github/workflows/release.yml",
                    "old_string": "cache: true",
                    "new_string": "cache: false",
                },
                "The file has been updated.",
            ),
            ("user", "After that, open the PR against the ci-cleanup branch."),
            ("assistant", "Is the self-hosted runner still on the old Ubuntu 20.04 image?"),
        ],
        [
            F("goal", "cache never hits"),
            F("instruction", "Use Swatinem/rust-cache, not a hand-rolled"),
            F("instruction", "Never cache the target/ directory"),
            F("next_step", "open the PR against the ci-cleanup"),
            F("decision", "Cargo.lock"),
            F("file", ".github/workflows/release.yml"),
            F("question", "Ubuntu 20.04"),
        ],
    ),
    (
        "ss-019",
        "claude_code",
        "f2a7d913-0c4e-4b8a-a6d2-3e1b5c9f8a02",
        "/Users/omar/atlas-api",
        "atlas-api",
        [
            (
                "user",
                "Add per-tenant rate limits to the public API; the enterprise tenants need 10x the default.",
            ),
            (
                "user",
                "We deploy on Python 3.9, so no match statements. Always read the limit from the tenants "
                "table, never from an env var.",
            ),
            ("tool", "read", {"file_path": "gateway/ratelimit.py"}, "LIMIT = int(os.environ['RATE_LIMIT'])"),
            (
                "assistant",
                "I'm going with a token bucket per tenant in Redis, keyed by tenant id, since the "
                "gateway already talks to Redis for sessions.",
            ),
            (
                "tool",
                "edit",
                {
                    "file_path": "gateway/ratelimit.py",
                    "old_string": "LIMIT = int(os.environ",
                    "new_string": "def limit_for(tenant): return tenant.rate_limit",
                },
                "The file has been updated.",
            ),
            (
                "tool",
                "write",
                {
                    "file_path": "migrations/0042_tenant_rate_limit.sql",
                    "content": "ALTER TABLE tenants ADD COLUMN rate_limit integer NOT NULL DEFAULT 100;",
                },
                "File created successfully",
            ),
            ("tool", "bash", {"command": "pytest tests/gateway -q"}, "......\n6 passed in 0.88s"),
            (
                "tool",
                "todo",
                [
                    ("Token bucket per tenant", "completed"),
                    ("Migration for tenants.rate_limit", "completed"),
                    ("Backfill enterprise tenants to 1000", "pending"),
                    ("Document the 429 headers", "pending"),
                ],
                "Todos updated",
            ),
            ("assistant", "Both pieces are done and the gateway tests pass."),
        ],
        [
            F("goal", "per-tenant rate limits"),
            F("instruction", "no match statements"),
            F("instruction", "Always read the limit from the tenants table"),
            F("next_step", "Backfill enterprise tenants"),
            F("next_step", "429 headers"),
            F("decision", "token bucket"),
            F("file", "migrations/0042_tenant_rate_limit.sql"),
        ],
    ),
    (
        "ss-020",
        "claude_code",
        "0b9e4c61-5d2a-47f3-8e0c-b7a1d6f2e934",
        "/home/lin/mobile-app",
        "mobile-app",
        [
            ("user", "The Android build fails on CI since the Gradle 8.5 upgrade. Get it green again."),
            (
                "tool",
                "bash",
                {"command": "./gradlew assembleDebug"},
                "FAILURE: Build failed with an exception.\n"
                "* What went wrong: Namespace not specified for module :core-ui\nBUILD FAILED in 41s",
            ),
            (
                "assistant",
                "Turns out AGP 8 needs a namespace in every module's build.gradle instead of the "
                "package attribute in the manifest.",
            ),
            (
                "user",
                "Don't bump compileSdk in this change, that's a separate ticket. Keep the manifest "
                "package attribute until the release branch is cut.",
            ),
            (
                "tool",
                "edit",
                {
                    "file_path": "core-ui/build.gradle",
                    "old_string": "android {",
                    "new_string": "android {\n    namespace 'com.acme.coreui'",
                },
                "The file has been updated.",
            ),
            ("tool", "bash", {"command": "./gradlew assembleDebug"}, "BUILD SUCCESSFUL in 1m 12s"),
            (
                "assistant",
                "Removing the package attribute as well broke the release variant's R class, so I "
                "reverted that part.",
            ),
            ("user", "Then run the instrumented tests on the emulator before you push."),
        ],
        [
            F("goal", "Android build fails on CI"),
            F("instruction", "Don't bump compileSdk"),
            F("instruction", "Keep the manifest package attribute"),
            F("next_step", "instrumented tests"),
            F("failure", "R class"),
            F("file", "core-ui/build.gradle"),
        ],
    ),
    (
        "ss-021",
        "claude_code",
        "7e3f0a58-9b1c-4e62-8d4f-1c2b3a4d5e6f",
        "/home/sam/billing-svc",
        "billing-svc",
        [
            (
                "user",
                "Stripe webhooks are being processed twice when the worker restarts. I want them idempotent.",
            ),
            ("user", "Must not add a new table for this; we're under a schema freeze until the 20th."),
            ("tool", "read", {"file_path": "billing/webhooks.py"}, "def handle(event):\n    apply(event)"),
            (
                "assistant",
                "Found that handle() acks the queue message only after apply() returns, so a restart "
                "mid-apply redelivers the event.",
            ),
            (
                "assistant",
                "We decided to store processed event ids in the existing payments.metadata jsonb "
                "column and check it inside the same transaction.",
            ),
            (
                "tool",
                "edit",
                {
                    "file_path": "billing/webhooks.py",
                    "old_string": "apply(event)",
                    "new_string": "if not seen(event.id): apply(event)",
                },
                "The file has been updated.",
            ),
            (
                "tool",
                "bash",
                {"command": "pytest tests/billing/test_webhooks.py -q"},
                ".......\n7 passed in 0.64s",
            ),
            ("assistant", "Still need to replay last week's dead-letter queue once this is deployed."),
            ("assistant", "Should the replay skip events older than 30 days?"),
        ],
        [
            F("goal", "idempotent"),
            F("instruction", "Must not add a new table"),
            F("next_step", "replay last week's dead-letter queue"),
            F("decision", "payments.metadata"),
            F("file", "billing/webhooks.py"),
            F("question", "older than 30 days"),
        ],
    ),
    (
        "ss-022",
        "opencode",
        "ses_5f2a9c1d8e7b",
        "/home/ana/shopfront",
        "shopfront",
        [
            (
                "user",
                "The product page flashes unstyled content on first load. Fix the FOUC on /products/:id.",
            ),
            ("user", "Use CSS modules, not styled-components. We ship to Safari 15, so no :has() selectors."),
            (
                "tool",
                "read",
                {"file_path": "src/pages/ProductPage.tsx"},
                "import styled from 'styled-components'",
            ),
            (
                "assistant",
                "The root cause is that styled-components injects styles after hydration on this route.",
            ),
            (
                "tool",
                "edit",
                {
                    "file_path": "src/pages/ProductPage.tsx",
                    "oldString": "styled-components",
                    "newString": "./ProductPage.module.css",
                },
                "Edit applied successfully.",
            ),
            (
                "tool",
                "write",
                {"file_path": "src/pages/ProductPage.module.css", "content": ".page { display: grid; }"},
                "Wrote file successfully.",
            ),
            (
                "tool",
                "bash",
                {"command": "npm run test -- ProductPage"},
                "Tests: 1 failed, 11 passed, 12 total",
            ),
            (
                "assistant",
                "The snapshot test fails because class names are now hashed. Next step is updating the "
                "snapshot and checking the Lighthouse CLS score.",
            ),
        ],
        [
            F("goal", "FOUC"),
            F("instruction", "Use CSS modules, not styled-components"),
            F("instruction", "no :has() selectors"),
            F("next_step", "updating the snapshot"),
            F("file", "src/pages/ProductPage.module.css"),
        ],
    ),
    (
        "ss-023",
        "opencode",
        "ses_91d0b3e4a6c2",
        "/work/infra-tf",
        "infra-tf",
        [
            ("user", "Move the staging Postgres to the new VPC without downtime longer than five minutes."),
            ("user", "Never run terraform apply yourself; only plan. Keep the old instance until Friday."),
            ("tool", "read", {"file_path": "envs/staging/db.tf"}, 'resource "aws_db_instance" "staging" {}'),
            (
                "assistant",
                "We opted for a read replica in the new VPC and a promote at cutover, since a snapshot "
                "restore would take about forty minutes.",
            ),
            (
                "tool",
                "edit",
                {
                    "file_path": "envs/staging/db.tf",
                    "oldString": "vpc_security_group_ids",
                    "newString": "replicate_source_db",
                },
                "Edit applied successfully.",
            ),
            (
                "tool",
                "bash",
                {"command": "terraform plan -out staging.plan"},
                "Plan: 2 to add, 0 to change, 0 to destroy.",
            ),
            (
                "assistant",
                "The DMS approach failed because the staging cluster uses an extension DMS does not copy.",
            ),
            (
                "tool",
                "todo",
                [("Replica in new VPC", "completed"), ("Schedule cutover window with QA", "pending")],
                "ok",
            ),
        ],
        [
            F("goal", "new VPC"),
            F("instruction", "Never run terraform apply yourself"),
            F("instruction", "Keep the old instance until Friday"),
            F("next_step", "cutover window"),
            F("decision", "read replica"),
            F("failure", "DMS"),
            F("file", "envs/staging/db.tf"),
        ],
    ),
    (
        "ss-024",
        "opencode",
        "ses_c7e85a0f2b19",
        "/home/raj/searchd",
        "searchd",
        [
            ("user", "Search results ignore accents: 'cafe' should find 'café'. Can you fix the analyzer?"),
            (
                "tool",
                "read",
                {"file_path": "index/analyzer.go"},
                "func Analyze(s string) []string { return strings.Fields(s) }",
            ),
            (
                "user",
                "Stay compatible with the existing index format; we can't reindex production this month.",
            ),
            (
                "assistant",
                "I chose to fold accents at query time only, using unicode normalization, so stored "
                "tokens keep their current form.",
            ),
            (
                "tool",
                "edit",
                {
                    "file_path": "index/analyzer.go",
                    "oldString": "strings.Fields(s)",
                    "newString": "strings.Fields(fold(s))",
                },
                "Edit applied successfully.",
            ),
            ("tool", "bash", {"command": "go test ./index/..."}, "ok  \tsearchd/index\t0.214s"),
            (
                "assistant",
                "Folding at index time too would have needed a reindex, so we ruled it out for now.",
            ),
            ("assistant", "Remaining: add a test for German umlauts and update the analyzer doc."),
        ],
        [
            F("goal", "ignore accents"),
            F("instruction", "Stay compatible with the existing index format"),
            F("next_step", "German umlauts"),
            F("decision", "query time"),
            F("file", "index/analyzer.go"),
        ],
    ),
    (
        "ss-025",
        "opencode",
        "ses_3b6f1d9a0e42",
        "/home/kim/notes-app",
        "notes-app",
        [
            (
                "user",
                "Let's add offline sync to the notes app with a conflict policy that never loses an edit.",
            ),
            (
                "user",
                "Prefer last-writer-wins per field, not per note. Don't use IndexedDB directly, go through "
                "the idb-keyval wrapper we already have.",
            ),
            ("tool", "read", {"file_path": "src/sync/queue.ts"}, "export const queue: Op[] = []"),
            (
                "assistant",
                "Decision: every field edit carries a hybrid logical clock so merges are per field.",
            ),
            (
                "tool",
                "edit",
                {
                    "file_path": "src/sync/queue.ts",
                    "oldString": "Op[] = []",
                    "newString": "Op[] = await load()",
                },
                "Edit applied successfully.",
            ),
            (
                "tool",
                "write",
                {"file_path": "src/sync/hlc.ts", "content": "export function tick() {}"},
                "Wrote file successfully.",
            ),
            (
                "tool",
                "bash",
                {"command": "npx vitest run src/sync"},
                "Test Files  2 passed (2)\n Tests  9 passed (9)",
            ),
            ("assistant", "Next, I'll wire the queue into the service worker's background sync."),
        ],
        [
            F("goal", "offline sync"),
            F("instruction", "last-writer-wins per field"),
            F("instruction", "Don't use IndexedDB directly"),
            F("next_step", "background sync"),
            F("decision", "hybrid logical clock"),
            F("file", "src/sync/hlc.ts"),
        ],
    ),
    (
        "ss-026",
        "codex",
        "0199f3a2-6c1d-7e80-b4a5-2d9c8e7f6a10",
        "/home/ivo/payroll",
        "payroll",
        [
            (
                "user",
                "Payslip PDFs render the wrong month for employees paid on the last day of the month. "
                "Fix the period calculation.",
            ),
            (
                "user",
                "Do not touch the tax tables module. Use the existing dateutil dependency, no new packages.",
            ),
            ("tool", "read", {"file_path": "payroll/periods.py"}, "end = start + timedelta(days=30)"),
            (
                "assistant",
                "Found that period_end adds 30 days instead of taking the month's last day, so "
                "January 31 rolls into March.",
            ),
            (
                "tool",
                "edit",
                {
                    "file_path": "payroll/periods.py",
                    "old_string": "start + timedelta(days=30)",
                    "new_string": "start + relativedelta(day=31)",
                },
                "Success. Updated the following files:\nM payroll/periods.py",
            ),
            ("tool", "bash", {"command": "pytest tests/test_periods.py -q"}, "........\n8 passed in 0.21s"),
            (
                "tool",
                "todo",
                [
                    ("Fix period_end", "completed"),
                    ("Regenerate March payslips for affected staff", "pending"),
                ],
                "Plan updated",
            ),
            ("assistant", "The fix is in and the period tests pass."),
        ],
        [
            F("goal", "wrong month"),
            F("instruction", "Do not touch the tax tables module"),
            F("instruction", "no new packages"),
            F("next_step", "Regenerate March payslips"),
            F("file", "payroll/periods.py"),
        ],
    ),
    (
        "ss-027",
        "codex",
        "0199f3b7-2a4e-7c11-9d3f-5b6a7c8d9e0f",
        "/home/zoe/geo-tiles",
        "geo-tiles",
        [
            ("user", "Tile generation takes 40 minutes for the country layer; get it under ten."),
            (
                "user",
                "The output must stay byte-identical to the current tiles, downstream caches key on the hash.",
            ),
            (
                "tool",
                "bash",
                {"command": "python -m cProfile -s cumtime tiles/build.py --layer country | head"},
                "  ncalls  tottime  cumtime\n  812000   512.3   1903.1 simplify.py:44(simplify)",
            ),
            (
                "assistant",
                "Turns out simplify() runs once per zoom level on the full geometry instead of reusing "
                "the previous zoom's result.",
            ),
            ("assistant", "We'll use a per-feature cache of the simplified geometry keyed by tolerance."),
            (
                "tool",
                "edit",
                {
                    "file_path": "tiles/simplify.py",
                    "old_string": "def simplify(geom, tol):",
                    "new_string": "@lru_cache(maxsize=None)\ndef simplify(geom, tol):",
                },
                "Success.",
            ),
            (
                "tool",
                "bash",
                {"command": "make tiles-country && sha256sum -c tiles.sha256"},
                "tiles/country.mbtiles: OK\nreal 8m41s",
            ),
            (
                "assistant",
                "Multiprocessing the zoom levels failed because the shapely objects could not be pickled.",
            ),
            ("assistant", "Then I'll apply the same cache to the coastline layer."),
        ],
        [
            F("goal", "under ten"),
            F("instruction", "byte-identical"),
            F("next_step", "coastline layer"),
            F("decision", "per-feature cache"),
            F("failure", "pickled"),
            F("file", "tiles/simplify.py"),
        ],
    ),
    (
        "ss-028",
        "codex",
        "0199f3c9-8b2d-7f44-a1e6-0c3d4e5f6a7b",
        "/home/eli/authd",
        "authd",
        [
            ("user", "Rotate the JWT signing key without logging everyone out. Can you plan and start it?"),
            (
                "user",
                "Always keep two keys valid during rotation. Never log token contents, even at debug level.",
            ),
            ("tool", "read", {"file_path": "authd/keys.go"}, 'var signingKey = loadKey("current")'),
            (
                "assistant",
                "Decision: publish both keys in the JWKS with kid headers and sign with the new one "
                "after a 24-hour overlap.",
            ),
            (
                "tool",
                "edit",
                {
                    "file_path": "authd/keys.go",
                    "old_string": 'loadKey("current")',
                    "new_string": 'loadKeySet("current", "next")',
                },
                "Success.",
            ),
            (
                "tool",
                "edit",
                {
                    "file_path": "authd/jwks.go",
                    "old_string": "keys: []Key{current}",
                    "new_string": "keys: []Key{current, next}",
                },
                "Success.",
            ),
            (
                "tool",
                "bash",
                {"command": "go test ./authd/..."},
                "--- FAIL: TestVerifyOldKid (0.00s)\nFAIL\tauthd\t0.311s",
            ),
            (
                "tool",
                "todo",
                [
                    ("JWKS publishes both keys", "completed"),
                    ("Verify tokens by kid", "in_progress"),
                    ("Flip signing to the next key after 24h", "pending"),
                ],
                "Plan updated",
            ),
            (
                "assistant",
                "TestVerifyOldKid fails because verification still ignores the kid header. I'll make "
                "Verify pick the key by kid next.",
            ),
        ],
        [
            F("goal", "Rotate the JWT signing key"),
            F("instruction", "Always keep two keys valid"),
            F("instruction", "Never log token contents"),
            F("next_step", "Flip signing"),
            F("next_step", "pick the key by kid"),
            F("decision", "kid"),
            F("file", "authd/jwks.go"),
        ],
    ),
    (
        "ss-029",
        "codex",
        "0199f3d4-1e6f-7a22-8c9b-4d5e6f7a8b9c",
        "/home/pat/docs-site",
        "docs-site",
        [
            (
                "user",
                "The docs search returns stale pages after a deploy. Please make the index rebuild on deploy.",
            ),
            ("tool", "read", {"file_path": "scripts/deploy.sh"}, "rsync -a build/ $HOST:/var/www/docs"),
            ("user", "Keep the deploy under two minutes. Don't pull in Algolia, we self-host."),
            (
                "assistant",
                "I'm going with building the pagefind index in CI right after the site build, so the "
                "deploy only copies files.",
            ),
            (
                "tool",
                "edit",
                {
                    "file_path": "scripts/deploy.sh",
                    "old_string": "rsync -a build/",
                    "new_string": "npx pagefind --site build && rsync -a build/",
                },
                "Success.",
            ),
            ("tool", "bash", {"command": "npm run build"}, "Compiled successfully.\nDone in 48.2s"),
            (
                "assistant",
                "After that I'll add a smoke test that searches for a page added in the last commit.",
            ),
        ],
        [
            F("goal", "rebuild on deploy"),
            F("instruction", "under two minutes"),
            F("instruction", "Don't pull in Algolia"),
            F("next_step", "smoke test"),
            F("decision", "pagefind"),
            F("file", "scripts/deploy.sh"),
        ],
    ),
    (
        "ss-030",
        "generic",
        "run-2026-06-11-a41",
        "/srv/agents/inventory",
        "inventory",
        [
            ("user", "Stock counts drift negative after concurrent orders. Make the reservation atomic."),
            ("user", "Use SELECT ... FOR UPDATE, not an advisory lock. We support Postgres 12, so no MERGE."),
            ("tool", "read", {"path": "inventory/reserve.py"}, "qty = get(sku); set(sku, qty - n)"),
            (
                "assistant",
                "Found that reserve() reads and writes the count in two statements without a lock.",
            ),
            (
                "tool",
                "edit",
                {},
                "Edited inventory/reserve.py: the count is locked with SELECT ... FOR UPDATE",
            ),
            ("tool", "bash", {"command": "pytest tests/test_reserve.py -q"}, "...\n3 passed in 0.52s"),
            (
                "tool",
                "todo",
                [
                    ("Lock the row in reserve()", "completed"),
                    ("Load test with 200 concurrent orders", "pending"),
                ],
                "ok",
            ),
        ],
        [
            F("goal", "reservation atomic"),
            F("instruction", "Use SELECT ... FOR UPDATE, not an advisory lock"),
            F("instruction", "no MERGE"),
            F("next_step", "200 concurrent orders"),
            F("file", "inventory/reserve.py"),
        ],
    ),
    (
        "ss-031",
        "generic",
        "run-2026-06-11-b07",
        "/srv/agents/mailer",
        "mailer",
        [
            (
                "user",
                "Bounce emails are not marking contacts as undeliverable. Wire the SES bounce webhook into "
                "the contacts service.",
            ),
            ("user", "Never delete a contact on bounce, only flag it. Keep retries at most three."),
            ("tool", "read", {"path": "mailer/webhooks/ses.py"}, "def on_bounce(msg): pass"),
            (
                "assistant",
                "We decided to flag hard bounces immediately and soft bounces after three in a week.",
            ),
            (
                "tool",
                "write",
                {},
                "Created mailer/contacts/bounce.py: flag_undeliverable() with a reason code",
            ),
            ("tool", "edit", {}, "Edited mailer/webhooks/ses.py: on_bounce calls flag_undeliverable"),
            ("tool", "bash", {"command": "pytest tests/webhooks -q"}, "F..\n1 failed, 2 passed in 0.40s"),
            (
                "assistant",
                "The signature check failed on the fixture because it was captured with an old "
                "certificate. Next step: refresh the SES fixture and rerun the webhook tests.",
            ),
        ],
        [
            F("goal", "Bounce emails"),
            F("instruction", "Never delete a contact on bounce"),
            F("instruction", "retries at most three"),
            F("next_step", "refresh the SES fixture"),
            F("decision", "hard bounces"),
            F("file", "mailer/contacts/bounce.py"),
            F("file", "mailer/webhooks/ses.py"),
        ],
    ),
]
