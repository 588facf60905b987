import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Actor } from '../../lib/access.ts';
import type { IfList } from './webdav-headers.ts';

/** One request being answered: who, where, and the lock tokens it holds. */
export interface DavRequest {
  req: IncomingMessage;
  res: ServerResponse;
  actor: Actor;
  path: string;
  ifLists: IfList[];
  /** Lock tokens the If header names (not negated): the locks this request may write through. */
  submitted: Set<string>;
}

/** A request header's (first) value. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
