/**
 * Values at rest (API keys, installations with their bot tokens) are sealed with AES-256-GCM.
 *
 * A sealed value reads `enc:v1:<key id>:<iv>:<tag>:<ciphertext>` (base64url parts); the key id is
 * a short hash of the key, so a value sealed with the previous key (`ENCRYPTION_KEY_PREVIOUS`)
 * is recognised, opened, and reported stale so the caller re-seals it with the current key.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1';

/** 32 bytes as 64 hex digits, or as base64 (padded or not); undefined for anything else. */
export function decodeEncryptionKey(value: string): Buffer | undefined {
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return bytes.length === 32 ? bytes : undefined;
  }
  return undefined;
}

export interface Opened {
  plain: string;
  /** sealed with the previous key: seal it again with the current one */
  stale: boolean;
}

export interface Cipher {
  seal(plain: string, context: string): string;
  /** Throws when no configured key opens the value (a wrong key, a tampered value). */
  open(sealed: string, context: string): Opened;
}

export class DecryptionError extends Error {
  override readonly name = 'DecryptionError';
}

interface Key {
  id: string;
  bytes: Buffer;
}

function keyOf(text: string, name: string): Key {
  const bytes = decodeEncryptionKey(text);
  if (!bytes) throw new TypeError(`${name} must be 32 bytes, as 64 hex digits or base64`);
  return { id: createHash('sha256').update(bytes).digest('base64url').slice(0, 8), bytes };
}

/**
 * `context` (e.g. the team id and what the value is) is bound as additional authenticated data:
 * a sealed value copied under another team's key does not open.
 */
export function createCipher(keys: { encryptionKey: string; encryptionKeyPrevious?: string }): Cipher {
  const current = keyOf(keys.encryptionKey, 'ENCRYPTION_KEY');
  const previous = keys.encryptionKeyPrevious
    ? keyOf(keys.encryptionKeyPrevious, 'ENCRYPTION_KEY_PREVIOUS')
    : undefined;
  return {
    seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current.bytes, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url'));
      return `${PREFIX}:${current.id}:${parts.join(':')}`;
    },
    open(sealed, context) {
      const parts = sealed.split(':');
      if (parts.length !== 6 || `${parts[0]}:${parts[1]}` !== PREFIX) {
        throw new DecryptionError('not a sealed value');
      }
      const [, , id, iv, tag, data] = parts as [string, string, string, string, string, string];
      const key = id === current.id ? current : id === previous?.id ? previous : undefined;
      if (!key) throw new DecryptionError('sealed with a key that is not configured');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key.bytes, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        const plain = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]);
        return { plain: plain.toString('utf8'), stale: key !== current };
      } catch {
        throw new DecryptionError('the value does not open with its key (tampered, or another context)');
      }
    },
  };
}
