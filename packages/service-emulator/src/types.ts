/**
 * The seam between the emulator's HTTP layer (server.ts: bodies, credentials, OAuth screens,
 * control plane, faults) and its domain (ledger.ts: users, friends, groups, expenses, comments,
 * notifications). The HTTP layer turns a request into an ApiRequest for an authenticated actor;
 * the ledger answers with a status and a JSON body exactly as the real service would.
 *
 * The ledger is synchronous on purpose: Node runs one handler at a time, so a request can never
 * observe or leave half-applied state, whatever the concurrency on the socket.
 */

/** Request parameters after decoding form, multipart or JSON bodies: every scalar as a string. */
export type Params = Record<string, string>;

/**
 * An empty Params. Parameter names are whatever a client sent, so they live in an object without
 * a prototype: `__proto__` or `constructor` is then a parameter like any other (and refused as
 * unknown), not a way to reach Object.prototype.
 */
export function emptyParams(): Params {
  return Object.create(null) as Params;
}

export interface UploadedFile {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface ApiRequest {
  /** Operation name as in the path: "get_expenses", "create_expense", ... */
  op: string;
  /** The path segment after the operation, when present ("/get_expense/123" -> "123"). */
  pathId?: string;
  method: 'GET' | 'POST';
  /** Query parameters for GET, body parameters for POST. */
  params: Params;
  files: UploadedFile[];
  /** The authenticated user, or undefined for operations that need no credentials. */
  actorId?: number;
}

export interface ApiResult {
  status: number;
  body: unknown;
}

export interface Operation {
  method: 'GET' | 'POST';
  /** False only for get_currencies and get_categories, the service's two public reads. */
  auth: boolean;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Fields a person or a test gives to create a service account. */
export interface NewUser {
  email: string;
  first_name: string;
  last_name?: string | null;
  default_currency?: string;
}
