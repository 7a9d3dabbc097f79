/** Sealing values at rest: AES-256-GCM, bound to their context, and key rotation. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCipher, DecryptionError } from '../../src/store/crypto.ts';

const hexKey = () => randomBytes(32).toString('hex');

describe('sealed values', () => {
  it('round-trips, never shows the clear value, and differs every time', () => {
    const cipher = createCipher({ encryptionKey: hexKey() });
    const a = cipher.seal('test-api-key', 'connection:T1');
    const b = cipher.seal('test-api-key', 'connection:T1');
    expect(a).not.toContain('test-api-key');
    expect(a).not.toBe(b);
    expect(cipher.open(a, 'connection:T1')).toEqual({ plain: 'test-api-key', stale: false });
  });

  it('accepts a base64 key', () => {
    const cipher = createCipher({ encryptionKey: randomBytes(32).toString('base64') });
    expect(cipher.open(cipher.seal('x', 'c'), 'c').plain).toBe('x');
  });

  it('refuses another context (a value copied to another team), a tampered value, an unknown key', () => {
    const key = hexKey();
    const cipher = createCipher({ encryptionKey: key });
    const sealed = cipher.seal('test-api-key', 'connection:T1');
    expect(() => cipher.open(sealed, 'connection:T2')).toThrow(DecryptionError);
    const parts = sealed.split(':');
    parts[5] = Buffer.from('tampered').toString('base64url');
    expect(() => cipher.open(parts.join(':'), 'connection:T1')).toThrow(DecryptionError);
    expect(() => createCipher({ encryptionKey: hexKey() }).open(sealed, 'connection:T1')).toThrow(
      /not configured/,
    );
  });

  it('rotates: the previous key still opens old values, reported stale so they are sealed again', () => {
    const oldKey = hexKey();
    const sealed = createCipher({ encryptionKey: oldKey }).seal('test-api-key', 'c');
    const rotated = createCipher({ encryptionKey: hexKey(), encryptionKeyPrevious: oldKey });
    expect(rotated.open(sealed, 'c')).toEqual({ plain: 'test-api-key', stale: true });
    expect(rotated.open(rotated.seal('test-api-key', 'c'), 'c').stale).toBe(false);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => createCipher({ encryptionKey: 'short' })).toThrow(/32 bytes/);
  });
});
