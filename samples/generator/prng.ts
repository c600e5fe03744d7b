// Seeded pseudo-random numbers (sfc32 over a 128-bit string hash): every choice the generator
// makes comes from here, so a scenario's seed alone fixes its bytes.

/** Hashes a string to four 32-bit words (cyrb128), the state of a new generator. */
function hash128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}

const HEX = '0123456789abcdef';
const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A deterministic generator; `fork(label)` gives an independent stream for one purpose. */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(readonly seed: string) {
    [this.a, this.b, this.c, this.d] = hash128(seed);
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** A new generator whose stream depends only on this seed and the label. */
  fork(label: string): Prng {
    return new Prng(`${this.seed}/${label}`);
  }

  /** Uniform 32-bit unsigned integer. */
  u32(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    const t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    const r = (t + this.d) | 0;
    this.c = (this.c + r) | 0;
    return r >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)];
  }

  /** Picks by weight: `[[value, weight], ...]`. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let x = this.float() * total;
    for (const [v, w] of items) {
      x -= w;
      if (x < 0) return v;
    }
    return items[items.length - 1][0];
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.float() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  hex(length: number): string {
    let s = '';
    for (let i = 0; i < length; i++) s += HEX[this.u32() & 15];
    return s;
  }

  /** Lower-case letters and digits, as Kubernetes name suffixes use. */
  alnum(length: number): string {
    let s = '';
    for (let i = 0; i < length; i++) s += ALNUM[this.u32() % ALNUM.length];
    return s;
  }

  /** A version-4 UUID. */
  uuid(): string {
    const h = this.hex(32).split('');
    h[12] = '4';
    h[16] = HEX[(parseInt(h[16], 16) & 3) | 8];
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }

  /** Fills a buffer with pseudo-random bytes. */
  bytes(length: number): Buffer {
    const out = Buffer.alloc(length);
    for (let i = 0; i < length; i += 4) {
      const v = this.u32();
      for (let k = 0; k < 4 && i + k < length; k++) out[i + k] = (v >>> (8 * k)) & 255;
    }
    return out;
  }
}
