/**
 * A message's files as Slack gives them (a message_action payload, conversations.replies): the
 * fields the expense form reads to offer one as the receipt, and nothing else.
 */

/** A file as Slack's message object carries it (the fields read here). */
export interface MessageFile {
  id?: string;
  name?: string;
  title?: string;
  mimetype?: string;
  size?: number;
}

/**
 * A message the expense form is filled from ("Split this", or a thread's first message): its text
 * (Slack's markup), its author, and its files, one of which may be offered as the receipt.
 */
export interface SourceMessage {
  text: string;
  author?: string | undefined;
  files?: readonly MessageFile[] | undefined;
}

/** The message's files as Slack sent them; anything else there is ignored. */
export function filesOf(message: unknown): MessageFile[] {
  const files = (message as { files?: unknown }).files;
  if (!Array.isArray(files)) return [];
  return files
    .filter((f): f is Record<string, unknown> => typeof f === 'object' && f !== null)
    .map((f) => ({
      ...(typeof f.id === 'string' ? { id: f.id } : {}),
      ...(typeof f.name === 'string' ? { name: f.name } : {}),
      ...(typeof f.title === 'string' ? { title: f.title } : {}),
      ...(typeof f.mimetype === 'string' ? { mimetype: f.mimetype } : {}),
      ...(typeof f.size === 'number' ? { size: f.size } : {}),
    }));
}
