"""The secret pattern table behind :mod:`summarizer.core.scrub` (internal).

Each :class:`Rule` names a ``kind`` (the placeholder says ``[REDACTED:<kind>]``), a compiled
pattern whose group ``v`` (or the whole match) is the secret, the lowercase trigger strings one of
which must occur in a text before the pattern runs (the cheap prefilter), a priority (lower wins
when two matches overlap: a specific ``ghp_`` token beats the generic ``token=`` rule that saw
the same value), an optional validator that rejects look-alikes, and the character class that must not
precede a match. The generic ``key = value`` rule is :data:`KEYWORDS` plus Python checks in the
engine (the key is found by walking back from the keyword, then classified by :func:`generic_kind`).

Every pattern stays within one line (separators are spaces and tabs, never newlines), so the engine can
run each rule only on the lines that contain one of its triggers.

Rulings encoded here (docs/scrubbing.md):

* Prefix-literal rules (``sk-``, ``ghp_``, ``AKIA``, ``AIza``, ``xox``, ``npm_``, ``eyJ``) never match
  inside hyphenated or underscored words: ``risk-assessment``, ``task-runner``, ``sk-learn``.
* A UUID is a secret only next to a Heroku key name; bare UUIDs, ``tx_``/``job_``/``run_`` ids,
  git SHAs and ``file.py:123`` coordinates are left alone.
* Key names are case-insensitive and can be spelled ``API_KEY``, ``apiKey``, ``api key``,
  ``X-Api-Key`` or JSON ``"password"``; the keyword must start a name component, so ``bypass`` is
  not ``pass`` and ``tokenizer``/``token_count`` are not ``token``.
"""

from __future__ import annotations

import functools
import re
from binascii import a2b_base64

from summarizer.core.lazyre import lazy
from summarizer.core.records import record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "GATE",
    "GENERIC_KEYWORDS",
    "KEYWORDS",
    "RULES",
    "SESSION_GATE",
    "SESSION_RULE",
    "Rule",
    "b64_text",
    "entropy",
    "generic_kind",
    "looks_random",
    "plausible_value",
]


@record(frozen=True)
class Rule:
    """One secret type: how to find it, when to bother looking, and how to tell it from noise."""

    kind: str
    pattern: re.Pattern[str]
    triggers: tuple[str, ...]
    priority: int
    validate: Callable[[re.Match[str]], bool] | None = None
    left: re.Pattern[str] | None = None  # a character that must not precede the match


def looks_random(body: str, *, min_run: int = 16) -> bool:
    """True for machine-made key material, False for hyphenated prose like ``learn-model-v2``.

    Real keys have a long alphanumeric run with digits and either mixed case or hex; prose joined by
    hyphens has short runs and (almost) no digits.
    """
    runs = re.findall(r"[A-Za-z0-9]+", body)
    if not runs or max(len(r) for r in runs) < min_run:
        return False
    digits = sum(c.isdigit() for c in body)
    if digits < 2:
        return False
    mixed = any(c.islower() for c in body) and any(c.isupper() for c in body)
    hexish = re.fullmatch(r"[0-9a-fA-F_-]+", body) is not None and len(body) >= 24
    return mixed or hexish


def entropy(value: str) -> float:
    """Shannon entropy in bits per character: key material is near 6 (base64), prose near 4 or below."""
    if not value:
        return 0.0
    counts: dict[str, int] = {}
    for ch in value:
        counts[ch] = counts.get(ch, 0) + 1
    from math import log2  # only for values under a secret-looking key

    n = len(value)
    return -sum(c / n * log2(c / n) for c in counts.values())


_B64 = lazy(r"[A-Za-z0-9+/]*={0,2}")


def b64_text(value: str) -> str | None:
    """``value`` base64-decoded as text (printable, lines allowed), or None when it is not."""
    padded = value.rstrip("=")
    padded += "=" * (-len(padded) % 4)
    # What base64.b64decode(validate=True) does, without importing base64 (and struct) on the
    # cold path: only the alphabet and final padding, then the C decoder.
    if not _B64.fullmatch(padded):
        return None
    try:
        text = a2b_base64(padded).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None
    return text if text.replace("\n", "").replace("\r", "").replace("\t", "").isprintable() else None


def _docker_auth_ok(m: re.Match[str]) -> bool:
    """A docker config ``auth`` is base64 of ``user:password``; anything else is not one."""
    text = b64_text(m.group("v"))
    return text is not None and ":" in text.strip(":")


def _hf_ok(m: re.Match[str]) -> bool:
    """Hugging Face tokens are mixed-case letters (and digits): not an identifier like hf_hub_download."""
    body = m.group("b")
    return any(c.isupper() for c in body) and any(c.islower() for c in body) and entropy(body) > 3.5


def _keyed_ok(m: re.Match[str]) -> bool:
    """A value under a known key name with no prefix of its own: random enough to be key material."""
    return entropy(m.group("v")) > 3.0


def _group_random(group: str, min_run: int = 16) -> Callable[[re.Match[str]], bool]:
    def check(m: re.Match[str]) -> bool:
        return looks_random(m.group(group), min_run=min_run)

    return check


def _jwt_ok(m: re.Match[str]) -> bool:
    """A header plus at least 8 characters of payload/signature (not a sentence-ending `eyJ...`.)."""
    return sum(len(part) for part in m.group("v").split(".")[1:]) >= 8


def _userinfo_ok(m: re.Match[str]) -> bool:
    """Not a port and a path (`https://host:443/@scope/pkg`): those have no password in them."""
    head = m.group("v").partition("/")[0]
    return not ("/" in m.group("v") and head.isdigit())


def _session_ok(m: re.Match[str]) -> bool:
    """A session id: 8+ characters with a digit (`session=prod` and `sessions=3` are not ids)."""
    value = m.group("v")
    return len(value) >= 8 and any(c.isdigit() for c in value) and plausible_value(value, m.group("n"))


def _bearer_ok(m: re.Match[str]) -> bool:
    value = m.group("v")
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


# Values that say something about a secret without being one (a log line mentioning a token).
_NOT_SECRETS = frozenset(
    """none null nil undefined true false yes no on off ok set unset empty blank missing present
    absent required optional valid invalid expired revoked refreshed rotated hidden masked redacted
    str string int bytes bool secretstr secretbytes any object dict list
    xxx xxxx xxxxx *** **** ***** ... <redacted> <hidden> <secret> <password> <token>""".split()  # noqa: SIM905 - a word list reads better as prose
)

_CODE_REFERENCE = lazy(
    r"""(?x)
    [A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:[(\[].*)?$  # settings.DB_PASSWORD, os.environ[...], .get(...)
    | [A-Za-z_]\w*\(.*$                          # get_password()
    | [A-Za-z_]\w*\[.*$                          # os.environ["X"]
    | \$\{?[A-Za-z_]\w*\}?:?-?.*$                # $VAR, ${VAR}, ${VAR:-default}
    | [A-Za-z_][\w$.]*\{.*$                      # object reprs: token=Token{a64f992 ...} (Android)
    | [A-Za-z_][\w$.]*@[0-9a-f]{6,8}$             # Java default toString: com.acme.Token@1b6d3586
    | \{\{.*\}\}$ | %\(\w+\)s$ | <[^>]*>$        # templates and <placeholders>
    """
)


def plausible_value(value: str, key: str, *, min_len: int = 3) -> bool:
    """Is ``value`` (assigned to a secret-looking ``key``) a real secret rather than noise?

    ``min_len`` is 3 for bare values (``token: 12`` is a count); a quoted value is deliberate, so
    the engine passes 1 for those (``password: "X"``).
    """
    stripped = value.strip()
    if len(stripped) < min_len or stripped.startswith("[REDACTED:"):
        return False
    low = stripped.lower()
    if low in _NOT_SECRETS or low == key.lower() or set(low) <= set("*x.-_#•"):
        return False
    if stripped.isdigit() and len(stripped) <= 4:  # `token: 12`, `secrets: 3` are counts
        return False
    if stripped.startswith(("/", "./", "../", "~/")):  # PWD=/home/dev, password_file paths
        return False
    return _CODE_REFERENCE.match(stripped) is None


# The last name component(s) that make a key secret, and the kind each one reports.
GENERIC_KEYWORDS: dict[str, str] = {
    "password": "password",
    "passwd": "password",
    "passphrase": "password",
    "pwd": "password",
    "pass": "password",
    "secret": "secret",
    "secretaccesskey": "secret",
    "clientsecret": "secret",
    "secretkey": "secret",
    "credential": "secret",
    "credentials": "secret",
    "token": "token",
    "apikey": "api_key",
    "accesskey": "api_key",
    "privatekey": "private_key",
    "authkey": "api_key",
}


@functools.lru_cache(maxsize=4096)
def generic_kind(key: str) -> str | None:
    """The kind for a secret-looking key name, or None when the key is not secret-like.

    The name is split into components on ``_ . - space`` and camelCase humps; the last component,
    or the last two or three joined (``api key`` -> ``apikey``), must be a keyword.
    """
    spaced = re.sub(r"([a-z0-9])([A-Z])|([A-Z])([A-Z][a-z])", r"\1\3 \2\4", key)
    parts = [p for p in re.split(r"[\s_.\-]+", spaced.lower()) if p]
    if not parts:
        return None
    if parts == ["pass"]:
        return None  # `--- PASS: TestAdd`, "tests pass: ..." (DB_PASS and smtpPass still count)
    for width in (3, 2, 1):
        if len(parts) >= width and (kind := GENERIC_KEYWORDS.get("".join(parts[-width:]))):
            return kind
    return None


_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
# Characters that must not precede a match (checked by the engine, not by a leading lookbehind:
# a pattern that starts with its literal prefix lets `re` skip ahead with a fast literal scan).
_WORDY = lazy(r"[\w\-]")  # no match inside words or hyphenated words: risk-assessment
_ALNUM = lazy(r"[A-Za-z0-9_]")
_SCHEME_LEFT = lazy(r"[\w+.\-]")
_R = r"(?![\w\-])"
_SEP = r"[\"']?[ \t]*(?:[:=]|=>)[ \t]*[\"']?"
KEYWORDS = lazy(
    r"(?i)(?P<kw>pass(?:word|wd|phrase)?|pwd|secret(?:[_.\-]?key)?|credentials?|token|api[ _.\-]?key"
    r"|access[_.\-]?key|private[_.\-]?key|auth[_.\-]?key)(?P<q>[\"']?)\]?[ \t]*(?::(?!:)|=(?!=)|=>)[ \t]*"
    r"(?:\"(?P<dq>(?:[^\"\\\n]|\\.)*)\"|'(?P<sq>[^'\n]*)'|(?P<v>[^\s\"'`,;&<>)}\]]+))"
)

RULES: tuple[Rule, ...] = (
    Rule(
        "anthropic_key",
        lazy(r"(?P<v>sk-ant-[A-Za-z0-9]{2,10}-[A-Za-z0-9_\-]{20,})" + _R),
        ("sk-ant-",),
        10,
        _group_random("v"),
        _WORDY,
    ),
    Rule(
        "openai_key",
        lazy(r"(?P<v>sk-(?:(?:proj|svcacct|admin|None)-)?(?P<b>[A-Za-z0-9_\-]{20,}))" + _R),
        ("sk-",),
        11,
        _group_random("b"),
        _WORDY,
    ),
    Rule(
        "stripe_key",
        lazy(r"(?P<v>[srp]k_(?:live|test)_[A-Za-z0-9]{16,})" + _R),
        ("sk_live_", "rk_live_", "sk_test_", "rk_test_", "pk_live_"),
        10,
        _group_random("v", 12),
        _WORDY,
    ),
    Rule(
        "github_token",
        lazy(r"(?P<v>gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{40,255})(?![A-Za-z0-9_])"),
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        10,
        None,
        _ALNUM,
    ),
    Rule(
        "npm_token",
        lazy(r"(?P<v>npm_[A-Za-z0-9]{36})(?![A-Za-z0-9_])"),
        ("npm_",),
        10,
        _group_random("v"),
        _ALNUM,
    ),
    Rule(
        "aws_access_key",
        lazy(r"(?P<v>A(?:KIA|SIA|BIA|CCA)[A-Z0-9]{16})(?![A-Za-z0-9])"),
        ("akia", "asia", "abia", "acca"),
        10,
        None,
        _ALNUM,
    ),
    Rule(
        "aws_secret_key",
        lazy(
            r"(?i)aws[_\-.]?secret[_\-.]?(?:access[_\-.]?)?key"
            + _SEP
            + r"(?P<v>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
        ),
        ("aws",),
        12,
    ),
    Rule("google_api_key", lazy(r"(?P<v>AIza[0-9A-Za-z_\-]{35})" + _R), ("aiza",), 10, None, _WORDY),
    Rule(
        "slack_token",
        lazy(r"(?P<v>xox[abprse]-[A-Za-z0-9\-]{10,})" + _R),
        ("xox",),
        10,
        _bearer_ok,
        _WORDY,
    ),
    Rule(
        "slack_webhook",
        lazy(r"https://hooks\.slack\.com/services/(?P<v>T[A-Z0-9]+/B[A-Z0-9]+/[A-Za-z0-9]{16,})"),
        ("hooks.slack.com",),
        10,
    ),
    # A JOSE header (`{"` is `eyJ` in base64url) and at least one more segment: JWS, JWE (5 parts),
    # and signed cookies (itsdangerous/Flask: `eyJ<payload>.<time>.<sig>`) whose payload is not JSON.
    Rule(
        "jwt",
        lazy(r"(?P<v>eyJ[A-Za-z0-9_\-]{8,}(?:\.[A-Za-z0-9_\-]*){1,4})" + _R),
        ("eyj",),
        10,
        _jwt_ok,
        _WORDY,
    ),
    Rule(
        "heroku_api_key",
        lazy(
            r"(?i)heroku[\w.\-]*?(?:api[_\-.]?key|token|key)" + _SEP + r"(?P<v>" + _UUID + r")(?![0-9a-fA-F])"
        ),
        ("heroku",),
        12,
    ),
    # The password runs to the LAST `@` of the authority: an unencoded `@` or `/` in a password
    # (a malformed URL, exactly what an error message echoes) must not leave its tail behind.
    Rule(
        "connection_string",
        lazy(
            r"(?i)(?:postgres(?:ql)?|mysql|mariadb|redis|rediss|mongodb(?:\+srv)?"
            r"|amqps?|mssql|sqlserver|cockroachdb|clickhouse)(?:\+[a-z0-9_]+)?://"
            r"[^:@/\s\"']*:(?P<v>[^@\s\"']+(?:@[^@\s/\"']*(?=[^\s\"']*@))*)@"
        ),
        ("://",),
        12,
        _userinfo_ok,
        _SCHEME_LEFT,
    ),
    Rule(
        "url_credentials",
        lazy(r"(?i)(?:https?|ftps?|smtps?|ldaps?|wss?)://[^:@/\s\"']+:(?P<v>[^@\s\"']+)@"),
        ("://",),
        13,
        _userinfo_ok,
        _SCHEME_LEFT,
    ),
    Rule(
        "bearer_token",
        lazy(r"(?i)bearer[ \t]+(?P<v>[A-Za-z0-9._~+/\-]{16,}=*)(?![\w\-])"),
        ("bearer",),
        14,
        _bearer_ok,
        _WORDY,
    ),
    Rule(
        "basic_auth",
        lazy(r"(?i)authorization" + _SEP + r"basic[ \t]+(?P<v>[A-Za-z0-9+/]{8,}={0,2})"),
        ("authorization",),
        14,
    ),
    Rule(
        "authorization",
        lazy(
            r"(?i)authorization" + _SEP + r"(?:token[ \t]+|digest[ \t]+)?"
            r"(?P<v>(?!bearer\b|basic\b)[A-Za-z0-9._~+/\-]{16,}=*)"
        ),
        ("authorization",),
        15,
        _bearer_ok,
    ),
    Rule(
        "basic_auth",  # curl -u user:password, --user=user:password
        lazy(r"(?:(?<=\s)|^)(?:-u|--user)(?:[ \t]+|=)[\"']?[^\s:\"'@/]+:(?P<v>[^\s\"']+)"),
        ("-u ", "--user"),
        14,
        lambda m: plausible_value(m.group("v"), ""),
    ),
    Rule(
        "gitlab_token",
        lazy(r"(?P<v>gl(?:pat|dt|rt|ptt|oas|cbt|ft|imt|soat)-[A-Za-z0-9_\-]{20,})" + _R),
        ("glpat-", "gldt-", "glrt-", "glptt-", "gloas-", "glcbt-", "glft-", "glimt-", "glsoat-"),
        10,
        None,
        _WORDY,
    ),
    Rule(
        "huggingface_token",
        lazy(r"(?P<v>(?:hf_|api_org_)(?P<b>[A-Za-z0-9]{30,}))(?![A-Za-z0-9_])"),
        ("hf_", "api_org_"),
        10,
        _hf_ok,
        _ALNUM,
    ),
    # Azure storage and service-bus connection strings: `...;AccountKey=<base64>;...`.
    Rule(
        "azure_key",
        lazy(r"(?i)(?:account|sharedaccess)key[ \t]*=[ \t]*(?P<v>[A-Za-z0-9+/]{20,}={0,2})"),
        ("accountkey", "sharedaccesskey"),
        10,
        _keyed_ok,
    ),
    # kubeconfig: the client's private key, base64 of a PEM block.
    Rule(
        "private_key",
        lazy(r"(?i)client-key-data[\"']?[ \t]*:[ \t]*[\"']?(?P<v>[A-Za-z0-9+/]{16,}={0,2})"),
        ("client-key-data",),
        10,
    ),
    # docker/podman config.json: `"auth": "<base64 of user:password>"`.
    Rule(
        "docker_auth",
        lazy(r"(?i)[\"']?auth[\"']?[ \t]*[:=][ \t]*[\"']?(?P<v>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])"),
        ('"auth"', "'auth'", "auth:", "auth="),
        12,
        _docker_auth_ok,
        _WORDY,
    ),
    Rule(
        "env_secret",
        lazy(
            r"(?m)^[ \t]*export[ \t]+(?:[A-Za-z0-9]+_)*(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|PASS|PWD"
            r"|CREDENTIALS?|AUTH|DSN|APIKEY)(?:_[A-Za-z0-9]+)*[ \t]*=[ \t]*"
            r"(?P<q>[\"']?)(?P<v>[^\s\"']+)(?P=q)",
            re.IGNORECASE,
        ),
        ("export",),
        16,
        lambda m: plausible_value(m.group("v"), ""),
    ),
)

# The first, global prefilter: every rule trigger contains one of these (a test checks it), so a
# text holding none of them holds no secret. Fewer, shorter strings than the triggers themselves
# (`gh` stands for ghp_/gho_/ghu_/ghs_/ghr_), because most log lines fail every test.
GATE: tuple[str, ...] = (
    "pass",
    "key",
    "token",
    "secret",
    "://",
    "pwd",
    "credential",
    "bearer",
    "authorization",
    "export",
    "eyj",
    "sk-",
    "gh",
    "github",
    "_live_",
    "_test_",
    "npm_",
    "aws",
    "akia",
    "asia",
    "abia",
    "acca",
    "aiza",
    "xox",
    "heroku",
    "hooks.slack",
    "-----begin",
    "-u ",
    "--user",
    "glpat-",
    "gldt-",
    "glrt-",
    "glptt-",
    "gloas-",
    "glcbt-",
    "glft-",
    "glimt-",
    "glsoat-",
    "hf_",
    "api_org_",
    '"auth"',
    "'auth'",
    "auth:",
    "auth=",
)

# Session cookies by name, anywhere (query strings, logs, curl -b): sessionid, session_id, PHPSESSID,
# JSESSIONID, ASP.NET_SessionId, <app>_session, connect.sid. `Cookie:`/`Set-Cookie:` headers are
# handled whole by the engine (every cookie value in them is redacted). Kept out of RULES and GATE:
# "session" is common in logs (`session opened for user`), and letting those lines through the
# global gate ran every rule on them (+30% on the eval logs); the engine tests SESSION_GATE only
# when GATE failed, and then runs only this rule and the header parser.
SESSION_GATE: tuple[str, ...] = ("sess", "cookie", ".sid")
SESSION_RULE = Rule(
    "session_cookie",
    lazy(
        r"(?i)(?P<n>sess(?:ion)?(?:[_.\-]?id)?|connect\.sid)[ \t]*=[ \t]*"
        r"(?P<q>[\"']?)(?P<v>[^\s;,\"'&<>]+)"
    ),
    ("sess", ".sid"),
    15,
    lambda m: _session_ok(m),
)
