/**
 * Opaque identifiers shaped like the real service's: 12 characters of `0-9a-z` for every object
 * (the bot never relies on this). Deterministic for one namespace (the organization), so a
 * reseed yields the same ids; the kind of object is part of the hash, not of the id.
 */
import { createHash } from 'node:crypto';

export type IdKind = 'pst' | 'cmt' | 'thr' | 'msg' | 'mbr' | 'usr' | 'chn' | 'app';

export const ID_LENGTH = 12;

export class IdGenerator {
  readonly #namespace: string;
  #counter = 0;

  constructor(namespace: string) {
    this.#namespace = namespace;
  }

  next(kind: IdKind): string {
    this.#counter += 1;
    const digest = createHash('sha256').update(`${this.#namespace}:${kind}:${this.#counter}`).digest();
    // 8 bytes are 64 bits; base 36 of them has up to 13 digits: keep 12, left-padded.
    const value = digest.readBigUInt64BE(0).toString(36).padStart(13, '0');
    return value.slice(-ID_LENGTH);
  }

  reset(): void {
    this.#counter = 0;
  }
}
