// Deterministic RSA key pairs from the seeded generator (Miller-Rabin over BigInt), so the
// certificates in rendered-assets are real, verifiable X.509 without any key in the source.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { bigintBytes } from './der.js';
import type { Prng } from './prng.js';

const SMALL_PRIMES: number[] = (() => {
  const out: number[] = [];
  for (let n = 3; out.length < 1500; n += 2) {
    if (out.every((p) => p * p > n || n % p !== 0)) out.push(n);
  }
  return out;
})();

function modPow(base: bigint, exp: bigint, mod: bigint): bigint {
  let result = 1n;
  let b = base % mod;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % mod;
    b = (b * b) % mod;
    e >>= 1n;
  }
  return result;
}

function randomBits(prng: Prng, bits: number): bigint {
  const bytes = prng.bytes(bits / 8);
  bytes[0] |= 0xc0;
  bytes[bytes.length - 1] |= 1;
  return BigInt(`0x${bytes.toString('hex')}`);
}

function probablyPrime(n: bigint, prng: Prng, rounds: number): boolean {
  for (const p of SMALL_PRIMES) if (n % BigInt(p) === 0n) return false;
  let d = n - 1n;
  let r = 0;
  while ((d & 1n) === 0n) {
    d >>= 1n;
    r++;
  }
  for (let i = 0; i < rounds; i++) {
    const a = 2n + (BigInt(`0x${prng.hex(32)}`) % (n - 4n));
    let x = modPow(a, d, n);
    if (x === 1n || x === n - 1n) continue;
    let witness = true;
    for (let j = 1; j < r; j++) {
      x = (x * x) % n;
      if (x === n - 1n) {
        witness = false;
        break;
      }
    }
    if (witness) return false;
  }
  return true;
}

function prime(prng: Prng, bits: number): bigint {
  let candidate = randomBits(prng, bits);
  for (;;) {
    if (probablyPrime(candidate, prng, 24)) return candidate;
    candidate += 2n;
  }
}

function modInverse(a: bigint, m: bigint): bigint {
  let [oldR, r] = [a % m, m];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return ((oldS % m) + m) % m;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b) [a, b] = [b, a % b];
  return a;
}

function b64url(v: bigint): string {
  return bigintBytes(v).toString('base64url');
}

const cache = new Map<string, KeyObject>();

/** A 2048-bit RSA private key determined by the generator's seed. */
export function rsaKey(prng: Prng): KeyObject {
  const hit = cache.get(prng.seed);
  if (hit) return hit;
  const e = 65537n;
  let p: bigint;
  let q: bigint;
  do {
    p = prime(prng, 1024);
    q = prime(prng, 1024);
  } while (p === q || gcd(e, (p - 1n) * (q - 1n)) !== 1n);
  if (p < q) [p, q] = [q, p];
  const n = p * q;
  const d = modInverse(e, (p - 1n) * (q - 1n));
  const key = createPrivateKey({
    key: {
      kty: 'RSA',
      n: b64url(n),
      e: b64url(e),
      d: b64url(d),
      p: b64url(p),
      q: b64url(q),
      dp: b64url(d % (p - 1n)),
      dq: b64url(d % (q - 1n)),
      qi: b64url(modInverse(q, p)),
    },
    format: 'jwk',
  });
  cache.set(prng.seed, key);
  return key;
}
