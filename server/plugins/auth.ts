// Bearer-token sessions: HS256 JWTs signed with JWT_SECRET. Every request gets `currentUser`
// (null when signed out); routes that need a user add `preHandler: app.requireUser`.
// A token carries its user's token version (claim `tv`; tokens from before it existed count as 0)
// and is good only while the user exists with that version: each signed-in request looks it up
// (one primary-key read), so raising the version or removing the user ends every session at once.
import fastifyJwt from '@fastify/jwt';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Forbidden, Unauthorized } from '../errors.ts';
import type { EventMetadata } from '../events/types.ts';
import type { Role } from '../../contract/users.ts';

export type AuthUser = { id: number; username: string };
/** The signed-in caller, with their role as of this request. */
export type CurrentUser = AuthUser & { role: Role };

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sub: string; username: string; tv?: number };
    user: { sub: string; username: string; tv?: number };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    requireUser(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** 401 when signed out, 403 for a signed-in member. */
    requireModerator(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** `tokenVersion` is the user's current token_version (0 for a new account). */
    issueToken(user: AuthUser, tokenVersion?: number): string;
  }
  interface FastifyRequest {
    currentUser: CurrentUser | null;
    authProblem: string | null;
  }
}

export type AuthOptions = {
  secret: string;
  lifetimeSeconds: number;
  /** The user's current token version and role, or null when the user does not exist. */
  sessionStateOf(userId: number): Promise<{ tokenVersion: number; role: Role } | null>;
};

const REVOKED = 'Your session has ended. Please log in again.';

export default fp(
  async (app, opts: AuthOptions) => {
    await app.register(fastifyJwt, {
      secret: opts.secret,
      sign: { algorithm: 'HS256', expiresIn: opts.lifetimeSeconds },
      verify: { algorithms: ['HS256'] },
    });
    app.decorateRequest('currentUser', null);
    app.decorateRequest('authProblem', null);

    app.addHook('onRequest', async (request) => {
      const header = request.headers.authorization;
      if (!header) return;
      if (!/^Bearer\s+\S+$/i.test(header)) {
        request.authProblem = 'Authorization header must be "Bearer <token>"';
        return;
      }
      let claims: { id: number; username: string; version: number };
      try {
        const payload = await request.jwtVerify<{ sub: string; username: string; tv?: unknown }>();
        const id = Number(payload.sub);
        const version = payload.tv === undefined ? 0 : payload.tv;
        if (
          !Number.isSafeInteger(id) ||
          id <= 0 ||
          typeof payload.username !== 'string' ||
          typeof version !== 'number' ||
          !Number.isSafeInteger(version) ||
          version < 0
        )
          throw new Error('bad claims');
        claims = { id, username: payload.username, version };
      } catch (error) {
        const code = (error as { code?: string }).code ?? '';
        request.authProblem = code.includes('EXPIRED')
          ? 'Your session has expired. Please log in again.'
          : 'Invalid or malformed token. Please log in again.';
        return;
      }
      // Outside the try: a database that cannot answer is a 503, not a bad token.
      const current = await opts.sessionStateOf(claims.id);
      if (current === null || current.tokenVersion !== claims.version) {
        request.authProblem = REVOKED;
        return;
      }
      request.currentUser = { id: claims.id, username: claims.username, role: current.role };
    });

    app.decorate('requireUser', async (request: FastifyRequest) => {
      if (!request.currentUser) throw new Unauthorized(request.authProblem ?? 'Please log in to continue');
    });
    app.decorate('requireModerator', async (request: FastifyRequest) => {
      if (!request.currentUser) throw new Unauthorized(request.authProblem ?? 'Please log in to continue');
      if (request.currentUser.role !== 'moderator') throw new Forbidden('Only moderators can do this');
    });
    app.decorate('issueToken', (user: AuthUser, tokenVersion = 0) =>
      app.jwt.sign({ sub: String(user.id), username: user.username, tv: tokenVersion }),
    );
  },
  { name: 'auth' },
);

/**
 * The caller on a route whose preHandler is `app.requireUser` (which answered 401 for anyone
 * signed out): the one way routes read who is writing.
 */
export function signedInUser(request: FastifyRequest): CurrentUser {
  return request.currentUser!;
}

/** What every event a request appends records about it: who asked (if anyone) and which request. */
export function requestMetadata(request: FastifyRequest): EventMetadata {
  return { actor_id: request.currentUser?.id ?? null, request_id: request.id };
}
