// Bearer-token sessions: HS256 JWTs signed with JWT_SECRET. Every request gets `currentUser`
// (null when signed out); routes that need a user add `preHandler: app.requireUser`.
import fastifyJwt from '@fastify/jwt';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Unauthorized } from '../errors.ts';

export type AuthUser = { id: number; username: string };

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sub: string; username: string };
    user: { sub: string; username: string };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    requireUser(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    issueToken(user: AuthUser): string;
  }
  interface FastifyRequest {
    currentUser: AuthUser | null;
    authProblem: string | null;
  }
}

export default fp(
  async (app, opts: { secret: string; lifetimeSeconds: number }) => {
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
      try {
        const payload = await request.jwtVerify<{ sub: string; username: string }>();
        const id = Number(payload.sub);
        if (!Number.isSafeInteger(id) || id <= 0 || typeof payload.username !== 'string')
          throw new Error('bad claims');
        request.currentUser = { id, username: payload.username };
      } catch (error) {
        const code = (error as { code?: string }).code ?? '';
        request.authProblem = code.includes('EXPIRED')
          ? 'Your session has expired. Please log in again.'
          : 'Invalid or malformed token. Please log in again.';
      }
    });

    app.decorate('requireUser', async (request: FastifyRequest) => {
      if (!request.currentUser) throw new Unauthorized(request.authProblem ?? 'Please log in to continue');
    });
    app.decorate('issueToken', (user: AuthUser) =>
      app.jwt.sign({ sub: String(user.id), username: user.username }),
    );
  },
  { name: 'auth' },
);
