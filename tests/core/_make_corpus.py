"""Regenerate ``positives.jsonl``: realistic log and config lines holding FAKE secrets.

Run by hand (``python tests/core/_make_corpus.py``); the output is committed so the tests never
depend on randomness. Every secret is random with the real shape of its type, never a real key.
Each line records ``expect``: the ``[kind, secret]`` pairs the scrubber must redact, in order.
"""

# ruff: noqa: E501  (a table of corpus lines reads best one case per line)
from __future__ import annotations

import base64
import json
import random
import string
import uuid
from pathlib import Path

rng = random.Random(20261129)
ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "-_"


def rand(alphabet: str, n: int) -> str:
    while True:
        s = "".join(rng.choice(alphabet) for _ in range(n))
        if any(c.isdigit() for c in s) and any(c.isupper() for c in s) and any(c.islower() for c in s):
            return s


def upper(n: int) -> str:
    return "".join(rng.choice(string.ascii_uppercase + string.digits) for _ in range(n))


def hexs(n: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def b64url(obj: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")


def jwt() -> str:
    head = b64url({"alg": "HS256", "typ": "JWT"})
    body = b64url(
        {
            "sub": str(rng.randint(1000, 99999)),
            "iat": rng.randint(1_600_000_000, 1_800_000_000),
            "role": "user",
        }
    )
    return f"{head}.{body}.{rand(URLSAFE, 43)}"


def ghp(prefix: str = "ghp") -> str:
    return f"{prefix}_{rand(ALNUM, 36)}"


def gpat() -> str:
    return f"github_pat_11{rand(ALNUM, 20)}_{rand(ALNUM, 59)}"


def openai_legacy() -> str:
    return f"sk-{rand(ALNUM, 20)}T3BlbkFJ{rand(ALNUM, 20)}"


def openai_proj() -> str:
    return f"sk-proj-{rand(URLSAFE, 20)}{rand(ALNUM, 60)}T3BlbkFJ{rand(URLSAFE, 20)}{rand(ALNUM, 20)}"


def anthropic() -> str:
    return f"sk-ant-api03-{rand(URLSAFE, 40)}{rand(ALNUM, 53)}-{rand(ALNUM, 6)}AA"


def stripe(prefix: str = "sk_live_") -> str:
    return prefix + "51" + rand(ALNUM, 97)


def npm() -> str:
    return "npm_" + rand(ALNUM, 36)


def akia(prefix: str = "AKIA") -> str:
    return prefix + "".join(rng.choice(string.ascii_uppercase + "234567") for _ in range(16))


def aws_secret() -> str:
    return rand(ALNUM + "/+", 40)


def aiza() -> str:
    return "AIza" + rand(URLSAFE, 35)


def slack(prefix: str = "xoxb") -> str:
    return f"{prefix}-{rng.randint(10**11, 10**12)}-{rng.randint(10**12, 10**13)}-{rand(ALNUM, 24)}"


def uid() -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def pw() -> str:
    return rand(ALNUM + "!@#%^*", 16).replace("@", "#")


def pem_body(lines: int) -> list[str]:
    raw = bytes(rng.getrandbits(8) for _ in range(48 * lines))
    text = base64.b64encode(raw).decode()
    return [text[i : i + 64] for i in range(0, len(text), 64)]


def slots(n: int) -> str:
    return "\n".join(f"{{{i}}}" for i in range(n))


P: list[tuple[str, list[tuple[str, str]]]] = []


def add(template: str, *pairs: tuple[str, str]) -> None:
    """``template`` holds ``{0}``, ``{1}``... for the secrets in ``pairs``."""
    P.append((template.format(*(s for _, s in pairs)), list(pairs)))


for _ in range(2):
    add("Authorization: Bearer {0}", ("jwt", jwt()))
    add(
        '2024-05-02T10:14:07.221Z DEBUG http.client send: b"GET /v1/me HTTP/1.1\\r\\nAuthorization: Bearer {0}"',
        ("bearer_token", rand(ALNUM, 40)),
    )
add(
    "curl -H 'Authorization: Bearer {0}' https://api.example.com/v2/orders",
    ("bearer_token", rand(URLSAFE, 48)),
)
add('  "headers": {{"authorization": "bearer {0}"}},', ("bearer_token", rand(ALNUM, 32)))
add("INFO  [auth] issued access_token={0} expires_in=3600", ("jwt", jwt()))
add('{{"id_token": "{0}", "token_type": "Bearer"}}', ("jwt", jwt()))
add("Set-Cookie: session={0}; Path=/; HttpOnly", ("jwt", jwt()))
add("redirect to https://app.example.com/callback#access_token={0}&state=xyz", ("jwt", jwt()))
for prefix in ("ghp", "gho", "ghu", "ghs", "ghr"):
    add(
        "remote: Invalid username or token {0} for https://github.com/acme/api.git",
        ("github_token", ghp(prefix)),
    )
add("GITHUB_TOKEN={0}", ("github_token", ghp()))
add("git clone https://x-access-token:{0}@github.com/acme/infra.git", ("github_token", ghp("ghs")))
add("  token: {0}   # fine-grained, expires 2025-01-01", ("github_token", gpat()))
add('gh auth login --with-token <<< "{0}"', ("github_token", gpat()))
add("Authorization: token {0}", ("github_token", ghp()))
add("OPENAI_API_KEY={0}", ("openai_key", openai_legacy()))
add("export OPENAI_API_KEY={0}", ("openai_key", openai_proj()))
add('client = OpenAI(api_key="{0}")', ("openai_key", openai_proj()))
add(
    "openai.AuthenticationError: Error code: 401 - Incorrect API key provided: {0}.",
    ("openai_key", openai_legacy()),
)
add("  openai_api_key: {0}", ("openai_key", openai_proj()))
add("ANTHROPIC_API_KEY={0}", ("anthropic_key", anthropic()))
add('anthropic.Anthropic(api_key="{0}")', ("anthropic_key", anthropic()))
add("x-api-key: {0}", ("anthropic_key", anthropic()))
add("STRIPE_SECRET_KEY={0}", ("stripe_key", stripe()))
add("stripe.api_key = '{0}'", ("stripe_key", stripe("rk_live_")))
add("[billing] charging customer cus_Nff8x2 with key {0}", ("stripe_key", stripe("sk_test_")))
add("//registry.npmjs.org/:_authToken={0}", ("npm_token", npm()))
add("npm notice using token {0} for publish", ("npm_token", npm()))
add("NPM_TOKEN={0}", ("npm_token", npm()))
add("aws_access_key_id = {0}", ("aws_access_key", akia()))
add("aws_secret_access_key = {0}", ("aws_secret_key", aws_secret()))
add("export AWS_ACCESS_KEY_ID={0}", ("aws_access_key", akia()))
add("export AWS_SECRET_ACCESS_KEY={0}", ("aws_secret_key", aws_secret()))
add("export AWS_SESSION_TOKEN={0}", ("env_secret", rand(ALNUM + "/+", 120)))
add("botocore: signing with credentials {0} (temporary)", ("aws_access_key", akia("ASIA")))
add('  "AccessKeyId": "{0}",', ("aws_access_key", akia("ASIA")))
add('  "SecretAccessKey": "{0}",', ("secret", aws_secret()))
add("AWS_SECRET_ACCESS_KEY: {0}", ("aws_secret_key", aws_secret()))
add("GET https://maps.googleapis.com/maps/api/geocode/json?address=Paris&key={0}", ("google_api_key", aiza()))
add(
    'const firebaseConfig = {{ apiKey: "{0}", authDomain: "demo.firebaseapp.com" }};',
    ("google_api_key", aiza()),
)
add("GOOGLE_API_KEY={0}", ("google_api_key", aiza()))
add("SLACK_BOT_TOKEN={0}", ("slack_token", slack()))
add("slack_sdk.errors.SlackApiError: invalid_auth for token {0}", ("slack_token", slack("xoxp")))
add('  "token": "{0}",', ("slack_token", slack("xoxa")))
add("posting to webhook with {0}", ("slack_token", slack("xoxr")))
add("legacy token {0} rejected", ("slack_token", slack("xoxs")))
add(
    "SLACK_WEBHOOK=https://hooks.slack.com/services/{0}",
    ("slack_webhook", f"T{upper(8)}/B{upper(10)}/{rand(ALNUM, 24)}"),
)
add("HEROKU_API_KEY={0}", ("heroku_api_key", uid()))
add("export HEROKU_API_KEY={0}", ("heroku_api_key", uid()))
add('  "heroku_api_key": "{0}"', ("heroku_api_key", uid()))
add("heroku-token: {0}", ("heroku_api_key", uid()))
add("DATABASE_URL=postgres://app_user:{0}@db.internal:5432/app_prod", ("connection_string", pw()))
add("sqlalchemy.url = postgresql+psycopg://svc:{0}@10.0.3.17:5432/orders", ("connection_string", pw()))
add("engine = create_engine('postgresql+asyncpg://api:{0}@pg-primary/api')", ("connection_string", pw()))
add("MYSQL_URL=mysql://root:{0}@127.0.0.1:3306/shop", ("connection_string", pw()))
add("connecting to mysql+pymysql://reporter:{0}@analytics-db:3306/events ...", ("connection_string", pw()))
add("REDIS_URL=redis://:{0}@cache.internal:6379/0", ("connection_string", pw()))
add(
    "celery broker: rediss://default:{0}@redis-12345.c1.cloud.redislabs.com:12345",
    ("connection_string", pw()),
)
add("MONGO_URI=mongodb://admin:{0}@mongo-0.mongo:27017/?authSource=admin", ("connection_string", pw()))
add(
    "client = MongoClient('mongodb+srv://atlas:{0}@cluster0.ab1cd.mongodb.net/prod')",
    ("connection_string", pw()),
)
add("amqp://guest:{0}@rabbitmq:5672/ connection refused", ("connection_string", pw()))
add(
    "pip install --index-url https://deploy:{0}@pypi.internal.example.com/simple pkg",
    ("url_credentials", pw()),
)
add("export DB_SECRET={0}", ("env_secret", pw()))
add("export JWT_SIGNING_KEY={0}", ("env_secret", hexs(64)))
add("export SENTRY_AUTH={0}", ("env_secret", hexs(32)))
add("export APP_SECRET='{0}'", ("env_secret", pw()))
add("export SMTP_PASS={0}", ("env_secret", pw()))
add("API_KEY={0}", ("api_key", hexs(32)))
add("api_key: {0}", ("api_key", rand(ALNUM, 32)))
add("api key: {0}", ("api_key", rand(ALNUM, 24)))
add("API Key: {0}", ("api_key", rand(ALNUM, 24)))
add("X-Api-Key: {0}", ("api_key", rand(ALNUM, 40)))
add('{{"apiKey": "{0}", "region": "eu-west-1"}}', ("api_key", rand(ALNUM, 32)))
add("requests.get(url, params={{'apikey': '{0}'}})", ("api_key", hexs(32)))
add("MAILGUN_API_KEY={0}", ("api_key", "key-" + hexs(32)))
add("password={0}", ("password", pw()))
add("Password: {0}", ("password", pw()))
add("PASSWORD={0}", ("password", pw()))
add('{{"username": "admin", "password": "{0}"}}', ("password", pw()))
add("  password: '{0}'", ("password", pw()))
add("DB_PASSWORD={0}", ("password", pw()))
add("POSTGRES_PASSWORD: {0}", ("password", pw()))
add("mysql> CREATE USER 'app'@'%' IDENTIFIED BY 'x'; -- dbPassword={0}", ("password", pw()))
add('  "password": "{0}"', ("password", "correct horse battery " + rand(ALNUM, 6)))
add("ldap bind failed for cn=svc,dc=corp passwd={0}", ("password", pw()))
add("keystore passphrase: {0}", ("password", pw()))
add("psql --set=pwd={0} -h db", ("password", pw()))
add("./deploy.sh --password={0} --env prod", ("password", pw()))
add("SECRET_KEY={0}", ("secret", rand(ALNUM + "!#%^*", 50)))
add("client_secret={0}&grant_type=client_credentials", ("secret", rand(URLSAFE, 40)))
add('  "clientSecret": "{0}",', ("secret", rand(URLSAFE, 34)))
add("WEBHOOK_SECRET={0}", ("secret", "whsec_" + rand(ALNUM, 32)))
add("secret: {0}", ("secret", rand(ALNUM, 30)))
add("app.config['SECRET_KEY'] = '{0}'", ("secret", hexs(48)))
add("auth_token={0}", ("token", hexs(40)))
add("refresh_token: {0}", ("token", rand(URLSAFE, 64)))
add("TWILIO_AUTH_TOKEN={0}", ("token", hexs(32)))
add("csrfToken='{0}'", ("token", rand(URLSAFE, 43)))
add("DISCORD_TOKEN={0}", ("token", rand(URLSAFE, 24) + "." + rand(URLSAFE, 6) + "." + rand(URLSAFE, 27)))
add("credentials={0}", ("secret", rand(ALNUM, 28)))
add("private_key: {0}", ("private_key", rand(ALNUM, 44) + "="))
add("Proxy-Authorization: Basic {0}", ("basic_auth", base64.b64encode(f"proxy:{pw()}".encode()).decode()))
add("curl -u admin:{0} https://api.example.com/v1/health", ("basic_auth", pw()))
add("+ curl -sS --user deploy:{0} -X POST https://ci.example.com/hooks/42", ("basic_auth", pw()))
add("Authorization: Basic {0}", ("basic_auth", base64.b64encode(f"admin:{pw()}".encode()).decode()))
add("authorization: {0}", ("authorization", rand(URLSAFE, 40)))
add(
    "ssh -i key.pem ubuntu@host # OPENAI_API_KEY={0} GITHUB_TOKEN={1}",
    ("openai_key", openai_legacy()),
    ("github_token", ghp()),
)
add("env: API_KEY={0} DB_PASSWORD={1} region=us-east-1", ("api_key", hexs(32)), ("password", pw()))
add("DSN postgres://u:{0}@h/db token={1}", ("connection_string", pw()), ("jwt", jwt()))

body = pem_body(4)
add(
    "-----BEGIN RSA PRIVATE KEY-----\n" + slots(len(body)) + "\n-----END RSA PRIVATE KEY-----",
    *[("private_key", b) for b in body],
)
body = pem_body(3)
add(
    "-----BEGIN OPENSSH PRIVATE KEY-----\n" + slots(len(body)) + "\n-----END OPENSSH PRIVATE KEY-----",
    *[("ssh_private_key", b) for b in body],
)
body = pem_body(3)
add(
    "-----BEGIN CERTIFICATE-----\n" + slots(len(body)) + "\n-----END CERTIFICATE-----",
    *[("certificate", b) for b in body],
)
one = "\\n".join(pem_body(3))
# The generic `"private_key": "..."` rule sees the whole value; the union is redacted.
add(
    '  "private_key": "{0}",',
    ("private_key", f"-----BEGIN PRIVATE KEY-----\\n{one}\\n-----END PRIVATE KEY-----\\n"),
)
add(
    'PEM="-----BEGIN PRIVATE KEY-----\\n{0}\\n-----END PRIVATE KEY-----"',
    ("private_key", "\\n".join(pem_body(2))),
)
body = pem_body(2)
add(
    "-----BEGIN EC PRIVATE KEY-----\n" + slots(len(body)) + "\n(log truncated)",
    *[("private_key", b) for b in body],
)

if __name__ == "__main__":
    out = Path(__file__).with_name("positives.jsonl")
    with out.open("w", encoding="utf-8") as fh:
        for line, pairs in P:
            fh.write(json.dumps({"line": line, "expect": pairs}, ensure_ascii=False) + "\n")
    print(f"wrote {len(P)} positive cases to {out}")
