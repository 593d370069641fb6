import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PSK_TLS12_CIPHERS, checkSecurity, clientTlsOptions, isLoopback, serverTlsOptions } from './security.ts';

const key = new Uint8Array(32).fill(7);

test('riodp link §5.1: loopback is 127.0.0.0/8 and ::1 (also written long, or IPv4-mapped); names and other addresses are not', () => {
  for (const h of ['127.0.0.1', '127.1.2.3', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) assert.equal(isLoopback(h), true, h);
  for (const h of ['localhost', '0.0.0.0', '::', '10.0.0.1', '::ffff:10.0.0.1', '::2', 'fe80::1%eth0', '128.0.0.1', '']) assert.equal(isLoopback(h), false, h);
});

test('issue 8 §3 "Listen on loopback by default. Any other address requires TLS": the default host is 127.0.0.1; another address without tls is a RangeError', () => {
  assert.equal(checkSecurity(undefined, undefined, 'listen'), '127.0.0.1');
  assert.equal(checkSecurity('::1', undefined, 'connect'), '::1');
  assert.throws(() => checkSecurity('0.0.0.0', undefined, 'listen'), /^RangeError: host must be a loopback address \(127\.0\.0\.0\/8 or ::1\) to listen on 0\.0\.0\.0 without tls; configure tls\.psk or tls\.cert$/);
  assert.throws(() => checkSecurity('192.168.1.20', undefined, 'connect'), /to connect to 192\.168\.1\.20 without tls/);
  assert.throws(() => checkSecurity('localhost', undefined, 'listen'), RangeError);
  assert.equal(checkSecurity('0.0.0.0', { psk: { identity: 'fabric', key } }, 'listen'), '0.0.0.0');
  assert.throws(() => checkSecurity('', undefined, 'listen'), /^RangeError: host must be a non-empty string$/);
});

test('riodp link §5.2–§5.3: a TLS configuration has exactly one of psk and cert, each checked field by field', () => {
  const cert = { cert: 'PEM', key: 'PEM', ca: 'PEM' };
  assert.throws(() => checkSecurity('10.0.0.1', {}, 'listen'), /^RangeError: tls must have exactly one of psk, cert$/);
  assert.throws(() => checkSecurity('10.0.0.1', { psk: { identity: 'a', key }, cert }, 'listen'), /exactly one of psk, cert/);
  assert.throws(() => checkSecurity('10.0.0.1', null, 'listen'), /^RangeError: tls must be an object with psk or cert$/);
  assert.throws(() => checkSecurity('10.0.0.1', { psk: { identity: '', key } }, 'listen'), /^RangeError: tls\.psk\.identity must be 1 to 128 bytes of UTF-8$/);
  assert.throws(() => checkSecurity('10.0.0.1', { psk: { identity: 'x'.repeat(129), key } }, 'listen'), /tls\.psk\.identity/);
  assert.throws(() => checkSecurity('10.0.0.1', { psk: { identity: 'a', key: new Uint8Array(15) } }, 'listen'), /^RangeError: tls\.psk\.key must be 16 to 64 bytes$/);
  assert.throws(() => checkSecurity('10.0.0.1', { psk: { identity: 'a', key: new Uint8Array(65) } }, 'listen'), /tls\.psk\.key/);
  assert.throws(() => checkSecurity('10.0.0.1', { cert: { ...cert, ca: '' } }, 'listen'), /^RangeError: tls\.cert\.ca must be PEM text or bytes$/);
  assert.throws(() => checkSecurity('10.0.0.1', { cert: { ...cert, serverName: '' } }, 'connect'), /^RangeError: tls\.cert\.serverName must be a non-empty string$/);
  assert.equal(checkSecurity('10.0.0.1', { cert }, 'listen'), '10.0.0.1');
});

test('riodp link §5.2: PSK offers TLS 1.3 and, for TLS 1.2, only ECDHE-PSK suites; the server knows one identity', () => {
  const s = serverTlsOptions({ psk: { identity: 'fabric', key } });
  assert.equal(s.minVersion, 'TLSv1.2');
  assert.equal(s.ciphers, PSK_TLS12_CIPHERS);
  assert.ok(PSK_TLS12_CIPHERS.split(':').every((c) => c.startsWith('ECDHE-PSK-')));
  const find = s.pskCallback;
  assert.ok(find !== undefined);
  assert.deepEqual(find({} as never, 'fabric'), Buffer.from(key));
  assert.equal(find({} as never, 'intruder'), null);
  const c = clientTlsOptions({ psk: { identity: 'fabric', key } });
  assert.deepEqual(c.pskCallback?.(null), { psk: Buffer.from(key), identity: 'fabric' });
});

test('riodp link §5.3: certificates are mutual: the server requests and verifies the client\'s, the client verifies the server\'s', () => {
  const s = serverTlsOptions({ cert: { cert: 'C', key: 'K', ca: 'A' } });
  assert.equal(s.requestCert, true);
  assert.equal(s.rejectUnauthorized, true);
  const c = clientTlsOptions({ cert: { cert: 'C', key: 'K', ca: 'A', serverName: 'riodp-switch' } });
  assert.equal(c.rejectUnauthorized, true);
  assert.equal(c.servername, 'riodp-switch');
  assert.equal(c.checkServerIdentity, undefined);
});
