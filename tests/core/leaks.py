"""The leak classes found by adversarial reviews (docs/scrubbing.md), one realistic line each, with the secret
substrings that must never survive scrubbing. Shared by the unit tests and the path tests."""

from __future__ import annotations

KEY1 = "MIIEowIBAAKCAQEA7xq3Zr0pGd5Lk2nQ9vW1xYz8a4b6c0d2e3f4g5h6"
KEY2 = "q9R8s7T6u5V4w3X2y1Z0aBcDeFgHiJkLmNoPqRsTuVwXyZ01234567"
TOKEN = "ghp_R8x2Kq7LmN4pZ1vB6tY3wC9sD0fG5hJ2kL8a"
DASHED = (
    "MIIEow-IBAAKCAQEA7xq3Zr0p_Gd5Lk2nQ9vW1xYz8a4b6c0d",
    "q9R8s7T6-u5V4w3X2y1Z0_aBcDeFgHiJkLmNoPqRs",
    "Tu-_",
)
SSH_BODY = ("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ.AAAA!Bl", "AAAAC3NzaC1lZDI1NTE5AAAAIKq-w7Jz_Lm")
AZURE_KEY = "q8Zr3T1mNc7Vx0Bf5Lh2Kp9Wd4Ys6Ua1Ge8Jt3Rb5Xn7Mv0Qc2Hk4Lz6Pw9Sd1Fg3Aj5Ey8Tu0Io2Kl4Nm6Bv8Cx1Zq=="
GLPAT = "glpat-xK9mP2vQ7rT4wZ8nB3cD"
HF = "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"
URL_TOKEN = "ghp_Zt5Yw2Vx8Uq1Ps4Or7Nm0Lk3Jh6Gf9Ed2Cb5A"
KUBE_KEY = (
    "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFcEFJQkFBS0NBUUVBejhZYjNLcTFMdzlSdDJYdjdOYzRN"
    "aDZQajBEczVHYThGZTFVYjNXeTlaawotLS0tLUVORCBSU0EgUFJJVkFURSBLRVktLS0tLQo="
)
DOCKER_AUTH = "ZGVwbG95OlM0bHR5LUJyZWV6ZS05OQ=="  # deploy:S4lty-Breeze-99
COPIED = "Qz8vN3kLp2Wx9Rt4"
ENV_BLOB = "REJfSE9TVD1kYi5pbnRlcm5hbApEQl9QQVNTV09SRD1XNGxydXMtVHVzay03N3gKTE9HX0xFVkVMPWluZm8K"
FULLWIDTH = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in TOKEN)

# name -> (text, secrets that must not appear in the scrubbed text)
LEAKS: dict[str, tuple[str, tuple[str, ...]]] = {
    "fullwidth token": (f"pushed with {FULLWIDTH} from CI", (FULLWIDTH[4:20], TOKEN[4:20])),
    "zero-width split token": (
        f"pushed with {TOKEN[:16]}\u200b{TOKEN[16:]} from CI",
        (TOKEN[4:16], TOKEN[16:]),
    ),
    "bidi-split token": (
        f"pushed with {TOKEN[:16]}\u202e\u202c{TOKEN[16:]} from CI",
        (TOKEN[4:16], TOKEN[16:]),
    ),
    "PEM inside a traceback line": (
        f"ValueError: bad key '-----BEGIN RSA PRIVATE KEY-----\n{KEY1}\n{KEY2}\n"
        "-----END RSA PRIVATE KEY-----'",
        (KEY1, KEY2),
    ),
    "PEM with log-prefixed body": (
        f"2026-11-29 ERROR loading -----BEGIN PRIVATE KEY-----\n2026-11-29 ERROR {KEY1}\n"
        f"2026-11-29 ERROR {KEY2}\n2026-11-29 ERROR -----END PRIVATE KEY-----",
        (KEY1, KEY2),
    ),
    "nested structured key": (
        'Loaded credential: db.password: "Hunter2Hunter2x" from vault',
        ("Hunter2Hunter2x",),
    ),
    "dotted key path": ("Loaded a.b.password=Tr0ub4dor-and-3 from vault", ("Tr0ub4dor-and-3",)),
    "JWT with a non-JSON payload": (
        "Signed cookie eyJ1c2VyX2lkIjo0Mn0.Zx9YzA.kD3mN8pQ2rS7tV1wX4yZ6aB9cE0fG was rejected",
        ("Zx9YzA.kD3mN8", "kD3mN8pQ2rS7tV1wX4yZ6aB9cE0fG"),
    ),
    "Cookie header": (
        "Request had Cookie: sessionid=k7Qm2Zp9Xw4Rt8Ln; theme=dark-mode-x",
        ("k7Qm2Zp9Xw4Rt8Ln",),
    ),
    "Set-Cookie header": (
        "Response Set-Cookie: connect.sid=s%3AaB3dE5fG7hJ9kL.m2N4pQ6rS8tV0wX; Path=/; HttpOnly",
        ("aB3dE5fG7hJ9kL", "m2N4pQ6rS8tV0wX"),
    ),
    "sessionid parameter": (
        "Request GET /app?sessionid=9f8e7d6c5b4a3928 returned 302",
        ("9f8e7d6c5b4a3928",),
    ),
    "connect.sid cookie": (
        "Saw connect.sid=s%3Ab7C9d1E3f5G7h9.J2k4L6m8N0p2Q4 in the log",
        ("b7C9d1E3f5G7h9",),
    ),
    "PEM body with - and _": (
        f"-----BEGIN RSA PRIVATE KEY-----\n{DASHED[0]}\n{DASHED[1]}\n{DASHED[2]}\n"
        "-----END RSA PRIVATE KEY-----",
        (DASHED[0][8:30], DASHED[1][8:30], DASHED[2]),
    ),
    "OpenSSH block, any alphabet": (
        f"-----BEGIN OPENSSH PRIVATE KEY-----\n{SSH_BODY[0]}\n{SSH_BODY[1]}\n"
        "-----END OPENSSH PRIVATE KEY-----",
        (SSH_BODY[0][8:30], SSH_BODY[1][8:30]),
    ),
    "Azure AccountKey": (
        f"DefaultEndpointsProtocol=https;AccountName=shopdata;AccountKey={AZURE_KEY};EndpointSuffix=core.windows.net",
        (AZURE_KEY[8:40],),
    ),
    "GitLab glpat-": (f"remote: HTTP Basic: access denied for {GLPAT}", (GLPAT[6:],)),
    "Hugging Face hf_": (f"Loaded the hub client with {HF} from the cache", (HF[3:],)),
    "URL-encoded token": (
        f"GET /oauth/cb?next=%2Fhome%3Ftoken%3D{URL_TOKEN}&x=1 HTTP/1.1",
        (URL_TOKEN[4:24],),
    ),
    "kubeconfig client-key-data": (f"    client-key-data: {KUBE_KEY}", (KUBE_KEY[10:60],)),
    "docker config auth": (
        f'{{"auths": {{"registry.example.com": {{"auth": "{DOCKER_AUTH}"}}}}}}',
        (DOCKER_AUTH[:20],),
    ),
    "a copy before the named secret": (
        f"login failed for '{COPIED}': DB_PASSWORD={COPIED} was rejected",
        (COPIED,),
    ),
    "base64 .env blob": (f"Loaded ENV_B64={ENV_BLOB} into the pod", (ENV_BLOB[8:48],)),
    "URL password with / and @": (
        "Could not reach redis://:pa55/w0rd@x@cache.internal:6379/0 from the worker",
        ("pa55/w0rd", "w0rd@x"),
    ),
}

# Lines the new rules must leave alone.
NEGATIVES = (
    "sshd[4242]: pam_unix(sshd:session): session opened for user root by (uid=0)",
    "sessions=3 active, session_count=12",
    "Set-Cookie: lang=en; Path=/; Max-Age=3600",
    "session=prod-eu",
    "The token was eyJhbGciOiJIUzI1NiJ9.",
    "npm http fetch GET 200 https://registry.npmjs.org:443/@types/node 120ms",
    "DB_PASSWORD=${DB_PASSWORD:-changeme-in-prod}",
    "café naïve résumé — 2026-11-29 ｜ ok",
    "see tests/test_session.py::test_session_id_rotates PASSED",
    "from huggingface_hub import hf_hub_download; hf_hub_download(repo_id)",
    "auth: required, oauth: enabled, auth=none",
    "commit 59807616e1fa2540724bfbac14d7976d7e4a3860 at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/lib",
    "progress 100% done, 50%25 of %2Fhome ok",
    "-----BEGIN CERTIFICATE----- is expected in ca.pem; got nothing",
)
