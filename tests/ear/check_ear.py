#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""An EAR (docs/ear.md) checked as a relying party would: with ordinary
JWT code (Debian's python3-jwt) against the verifier's public key.

  check_ear.py keygen DIR
      DIR/key.pem (P-256, mode 0600), DIR/pub.pem, and a second pair
      DIR/other.pem, DIR/other-pub.pem; DIR/p384.pem (mode 0600), a key
      ES256 cannot use.
  check_ear.py check TOKEN PUB.pem OTHER-PUB.pem NAME=VALUE...
      TOKEN's signature verifies under PUB.pem and its claims hold, and
      its twins are refused: a byte flipped in each of its three parts,
      the other key, alg "none", and HS256 keyed with the public key.
      NAME is a claim of the "ara" submodule, tv.CLAIM of its vector,
      rtm.FIGURE of its ear.ara.rtm, eat_nonce (hex given, base64url
      compared) or build (the program ear.verifier-id's build names;
      ara-verify if not given); a VALUE of "absent" means the claim must
      not be there. Exit 0, or 1 naming the first check that failed.
"""
import base64
import hashlib
import hmac
import json
import os
import sys

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

PROFILE = "tag:github.com,2023:veraison/ear"


def fail(msg):
    print(f"check_ear: FAIL: {msg}")
    sys.exit(1)


def write_key(path, curve, pub_path=None):
    key = ec.generate_private_key(curve)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM,
                                  serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption()))
    if pub_path:
        with open(pub_path, "wb") as f:
            f.write(key.public_key().public_bytes(
                serialization.Encoding.PEM,
                serialization.PublicFormat.SubjectPublicKeyInfo))


def keygen(d):
    write_key(os.path.join(d, "key.pem"), ec.SECP256R1(), os.path.join(d, "pub.pem"))
    write_key(os.path.join(d, "other.pem"), ec.SECP256R1(), os.path.join(d, "other-pub.pem"))
    write_key(os.path.join(d, "p384.pem"), ec.SECP384R1())


def b64url(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def refused(token, key, algorithms, what):
    try:
        jwt.decode(token, key, algorithms=algorithms)
    except jwt.InvalidTokenError:
        return
    fail(f"{what}: accepted")


def twins(token, pub, other):
    parts = token.split(".")
    for i, name in enumerate(("header", "payload", "signature")):
        p = list(parts)
        # The middle character: every bit of it is significant in base64url.
        c = p[i][len(p[i]) // 2]
        p[i] = p[i][:len(p[i]) // 2] + ("A" if c != "A" else "B") + p[i][len(p[i]) // 2 + 1:]
        refused(".".join(p), pub, ["ES256"], f"a byte flipped in the {name}")
    refused(token, other, ["ES256"], "the token under another key")
    none = b64url(b'{"alg":"none","typ":"JWT"}') + "." + parts[1] + "."
    refused(none, pub, ["ES256"], 'alg "none"')
    # The classic confusion: HS256 keyed with the verifier's public key.
    head = b64url(b'{"alg":"HS256","typ":"JWT"}')
    mac = hmac.new(pub.encode(), (head + "." + parts[1]).encode(), hashlib.sha256).digest()
    refused(head + "." + parts[1] + "." + b64url(mac), pub, ["ES256"], "HS256 with the public key")


def check(token_path, pub_path, other_path, expects):
    token = open(token_path).read()
    if not token.endswith("\n") or token.count("\n") != 1:
        fail(f"{token_path}: not one line")
    token = token.strip()
    pub, other = open(pub_path).read(), open(other_path).read()
    header = jwt.get_unverified_header(token)
    if header != {"alg": "ES256", "typ": "JWT"}:
        fail(f"header {header}")
    try:
        claims = jwt.decode(token, pub, algorithms=["ES256"])
    except jwt.InvalidTokenError as e:
        fail(f"the token does not verify: {e}")
    if claims.get("eat_profile") != PROFILE:
        fail(f"eat_profile {claims.get('eat_profile')!r}")
    if not isinstance(claims.get("iat"), int):
        fail("iat is not a number")
    program = "ara-verify"
    for e in expects:
        if e.startswith("build="):
            program = e[len("build="):]
    expects = [e for e in expects if not e.startswith("build=")]
    vid = claims.get("ear.verifier-id", {})
    if not vid.get("build", "").startswith(program + " ") or not vid.get("developer"):
        fail(f"ear.verifier-id {vid}")
    sub = claims.get("submods", {}).get("ara")
    if sub is None or len(claims["submods"]) != 1:
        fail(f"submods {claims.get('submods')}")
    for e in expects:
        name, _, want = e.partition("=")
        if name == "eat_nonce":
            got, want = claims.get(name), b64url(bytes.fromhex(want))
        elif "." in name and name.split(".")[0] == "tv":
            got = sub.get("ear.trustworthiness-vector", {}).get(name.split(".", 1)[1])
        elif name.startswith("rtm."):
            got = sub.get("ear.ara.rtm", {}).get(name[4:])
        else:
            got = sub.get(name)
        if want == "absent":
            if got is not None:
                fail(f"{name} is {got!r}, expected absent")
            continue
        if not isinstance(got, str):
            got = json.dumps(got)
        if got != want:
            fail(f"{name} is {got!r}, expected {want!r}")
    twins(token, pub, other)
    print(f"check_ear: {token_path}: verified, {len(expects)} claims as expected, 6 twins refused")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "keygen":
        keygen(sys.argv[2])
    elif len(sys.argv) >= 5 and sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
