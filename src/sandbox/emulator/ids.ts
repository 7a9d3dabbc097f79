/**
 * Opaque, prefixed identifiers (`pst_3f9a0c1b2d4e5f60`): unique, not sequential-looking,
 * and deterministic for one namespace (the organization), so a reseed yields the same ids.
 */
import { createHash } from 'node:crypto';

export type IdPrefix = 'pst' | 'cmt' | 'thr' | 'msg' | 'mbr' | 'usr' | 'chn' | 'app';

export class IdGenerator {
  readonly #namespace: string;
  #counter = 0;

  constructor(namespace: string) {
    this.#namespace = namespace;
  }

  next(prefix: IdPrefix): string {
    this.#counter += 1;
    const digest = createHash('sha256').update(`${this.#namespace}:${prefix}:${this.#counter}`).digest('hex');
    return `${prefix}_${digest.slice(0, 16)}`;
  }

  reset(): void {
    this.#counter = 0;
  }
}
