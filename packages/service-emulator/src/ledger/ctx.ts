/** What every operation receives, and its usual answer. */
import type { ApiResult, Params, UploadedFile } from '../types.js';
import type { UserRecord } from './model.js';
import type { State } from './state.js';

export interface Ctx {
  state: State;
  actor: UserRecord;
  params: Params;
  pathId: string | undefined;
  files: UploadedFile[];
}

export const ok = (body: unknown): ApiResult => ({ status: 200, body });
