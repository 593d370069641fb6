#!/bin/sh
# Test-only keys and certificates for src/net/*.test.ts (valid for 100 years; never use them
# for anything else). Regenerate with: cd src/net/testdata && sh gen.sh
set -e
days=36500
ec() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"; }
ec ca.key
openssl req -x509 -new -key ca.key -days $days -subj "/CN=riodp test CA" -out ca.pem
ec other-ca.key
openssl req -x509 -new -key other-ca.key -days $days -subj "/CN=riodp other CA" -out other-ca.pem
leaf() { # name cn ca san
  ec "$1.key"
  openssl req -new -key "$1.key" -subj "/CN=$2" -out "$1.csr"
  printf 'subjectAltName=%s\nextendedKeyUsage=serverAuth,clientAuth\n' "$4" > "$1.ext"
  openssl x509 -req -in "$1.csr" -CA "$3.pem" -CAkey "$3.key" -CAcreateserial -days $days -extfile "$1.ext" -out "$1.pem"
  rm -f "$1.csr" "$1.ext"
}
leaf server riodp-switch ca "IP:127.0.0.1,IP:::1,DNS:riodp-switch"
leaf client riodp-endpoint ca "DNS:riodp-endpoint"
leaf stranger riodp-stranger other-ca "DNS:riodp-stranger"
rm -f ca.key other-ca.key ca.srl other-ca.srl
