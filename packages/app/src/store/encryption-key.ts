import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** AES-256 needs exactly 32 bytes of key. */
export const KEY_BYTES = 32;
export const KEY_FILE_NAME = 'encryption.key';

export class EncryptionKeyError extends Error {
  override name = 'EncryptionKeyError';
}

/**
 * Reads a 32-byte key written as 64 hex digits or as base64 (standard or URL-safe). Returns
 * undefined when the text is neither, so callers can word their own message. The text itself is
 * never put into an error: it is a secret.
 */
export function decodeEncryptionKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) {
    const bytes = Buffer.from(
      trimmed,
      trimmed.includes('-') || trimmed.includes('_') ? 'base64url' : 'base64',
    );
    if (bytes.length === KEY_BYTES) return bytes;
  }
  return undefined;
}

export interface LoadEncryptionKeyOptions {
  /** ENCRYPTION_KEY as given; when absent a key is generated once and kept in dataDir. */
  encryptionKey?: string | undefined;
  /** Directory for the generated key file: the SQLite file's, or ./data (created 0700). */
  dataDir: string;
}

/**
 * The key that encrypts tokens at rest. An explicit ENCRYPTION_KEY wins; otherwise the key lives
 * in `<dataDir>/encryption.key` (mode 0600), generated on the first start and reused after, so a
 * restart can still read the tokens it stored. Losing that file means every user links again.
 */
export async function loadEncryptionKey(options: LoadEncryptionKeyOptions): Promise<Buffer> {
  if (options.encryptionKey !== undefined && options.encryptionKey !== '') {
    const key = decodeEncryptionKey(options.encryptionKey);
    if (!key) {
      throw new EncryptionKeyError(
        'ENCRYPTION_KEY must be 32 bytes written as 64 hex digits or as base64 (44 characters)',
      );
    }
    return key;
  }
  const file = join(options.dataDir, KEY_FILE_NAME);
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  // Written to a private temporary file and then hard-linked into place: link() fails when the
  // name exists, so two processes starting together never overwrite each other's key (the loser
  // reads the winner's) and nobody can read a half-written file.
  const generated = randomBytes(KEY_BYTES);
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, `${generated.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await chmod(temporary, 0o600);
    await link(temporary, file);
    return generated;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  const stored = decodeEncryptionKey(await readFile(file, 'utf8'));
  if (!stored) {
    throw new EncryptionKeyError(
      `${file} does not hold a 32-byte key in base64 or hex; restore it or set ENCRYPTION_KEY`,
    );
  }
  return stored;
}
