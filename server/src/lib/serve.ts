import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import {
  answers,
  confirms,
  type AnswerOf,
  type BareAnswer,
  type BodyOf,
  type Endpoint,
  type ParamsOf,
  type QueryOf,
} from '@nimbus/contract';
import { requireAuthority } from './access.ts';
import { notLoggedIn } from './errors.ts';
import type { Answer } from './reply.ts';

/** A request to endpoint `E`: its path, query and body as the contract's schemas parsed them. */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Params: ParamsOf<E>;
  Querystring: QueryOf<E>;
  Body: BodyOf<E>;
}>;

/**
 * What a handler of `E` answers: the envelope, the answer itself (a bare answer), or (an
 * endpoint of bytes) the reply it sent.
 */
export type Handled<E extends Endpoint> = E['answer'] extends 'bytes'
  ? FastifyReply
  : E['answer'] extends BareAnswer
    ? AnswerOf<E>
    : Answer<AnswerOf<E>>;

const responseOf = (answer: Endpoint['answer']) => {
  if (answer === 'bytes') return {};
  if (answer && 'bare' in answer) return { response: { 200: answer.bare } };
  return { response: answer ? answers(answer) : confirms };
};

/**
 * Registers the route of a contract endpoint: its method, path, schemas (which /api/docs shows
 * and which parse every request) and access come from the definition, so a route file holds
 * only the handler. An endpoint that needs an authority refuses a caller without it before
 * reading the input (the service checks it again: it is the rule on every other path).
 */
export function serve<E extends Endpoint>(
  app: FastifyInstance,
  definition: E,
  handler: (request: EndpointRequest<E>, reply: FastifyReply) => Promise<Handled<E>>,
  /** What the server does before parsing a body (a budget of bytes held at once). */
  hooks: Pick<RouteOptions, 'preParsing'> = {},
): void {
  const { method, path, params, query, body, answer, access, authority } = definition;
  app.route({
    method,
    url: path,
    ...hooks,
    ...(definition.bodyLimit ? { bodyLimit: definition.bodyLimit } : {}),
    ...(authority
      ? {
          preValidation: async (request: FastifyRequest) => {
            if (!request.actor) throw notLoggedIn();
            requireAuthority(request.actor, authority);
          },
        }
      : {}),
    schema: {
      ...(params ? { params } : {}),
      ...(query ? { querystring: query } : {}),
      ...(body ? { body } : {}),
      ...responseOf(answer),
      ...(authority ? { description: `Needs the authority \`${authority}\`.` } : {}),
    },
    config: {
      ...(access === 'public' ? { public: true } : {}),
      ...(access === 'session' || definition.refusesTokens ? { sessionOnly: true } : {}),
      ...(definition.changes ? { changes: true } : {}),
      ...(definition.readsOnly ? { readsOnly: true } : {}),
      ...(definition.cookieAuth ? { cookieAuth: true } : {}),
      ...(definition.formAuth ? { formAuth: true } : {}),
    },
    handler: handler as (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  });
}
