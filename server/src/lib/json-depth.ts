import { MAX_JSON_DEPTH } from '@nimbus/contract';
import type { FastifyInstance } from 'fastify';
import { badParameter } from './errors.ts';

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * How deep the `{}`/`[]` of a JSON text nest, read in one pass without recursion and stopping at
 * `limit + 1`: a cheap look before parsing, so no parser, validator or handler ever recurses
 * through a body thousands of levels deep.
 */
export function jsonDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return deepest;
}

/**
 * JSON bodies are parsed as Fastify parses them (prototype poisoning refused), after a look at
 * their depth: deeper than MAX_JSON_DEPTH is the client's mistake, a 422 naming the body.
 */
export function installJsonDepthLimit(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      done(badParameter(`The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`), undefined);
      return;
    }
    void parse(request, text, done);
  });
}
