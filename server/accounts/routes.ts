// Sign-up, sign-in and the caller's own profile (mounted at /api/auth). These are the only
// responses that carry an email address, and only the caller's own.
import { signedInUser } from '../plugins/auth.ts';
import { LoginBody, Profile, RegisterBody, Session } from '../../contract/users.ts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Conflict, Unauthorized } from '../errors.ts';
import { nextId } from '../events/store.ts';
import { runCommand } from '../http/idempotency.ts';
import { errors } from '../http/schemas.ts';
import { ACCOUNT_GONE } from './commands.ts';
import {
  claimLoginAttempt,
  rememberSignInAddress,
  settleSuccessfulLogin,
  signInNameOf,
} from './login-limits.ts';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from './passwords.ts';
import { checkRegistration } from './rules.ts';
import { duplicateFieldOf, findUserById, findUserBySignInName, insertUser, takenFields } from './users.ts';

const INVALID_CREDENTIALS = 'Invalid username or password';

const DUPLICATE_MESSAGES = {
  username: 'This username is already taken',
  email: 'An account with this email address already exists',
} as const;

function duplicate(fields: ('username' | 'email')[]): Conflict {
  const details = Object.fromEntries(fields.map((f) => [f, DUPLICATE_MESSAGES[f]]));
  return new Conflict(DUPLICATE_MESSAGES[fields[0]!], 'already_registered', details);
}

const accountRoutes: FastifyPluginAsync = async (app) => {
  const { database } = app.services;
  const { db } = database;
  const limits = app.services.config.login;

  app.post<{ Body: RegisterBody }>(
    '/register',
    { schema: { body: RegisterBody, response: { 201: Session, ...errors(400, 409, 503) } } },
    async (request, reply) => {
      const account = checkRegistration(request.body);
      const taken = await takenFields(db, account.username, account.email);
      const takenNames = (['username', 'email'] as const).filter((f) => taken[f]);
      if (takenNames.length > 0) throw duplicate(takenNames);
      // Hashing is slow on purpose: do it before the transaction so that stays short.
      const passwordHash = await hashPassword(account.password);
      try {
        return await runCommand(db, request, reply, {
          locks: [],
          async run({ trx }) {
            const id = await nextId(trx, 'user_ids');
            const user = { id, username: account.username, email: account.email, role: 'member' as const };
            await insertUser(trx, { ...user, passwordHash });
            return { status: 201, body: { access_token: app.issueToken(user), user } };
          },
        });
      } catch (error) {
        // Someone registered the same name between the check above and the insert.
        const field = duplicateFieldOf(error);
        if (field) throw duplicate([field]);
        throw error;
      }
    },
  );

  app.post<{ Body: LoginBody }>(
    '/login',
    { schema: { body: LoginBody, response: { 200: Session, ...errors(400, 401, 429, 503) } } },
    async (request) => {
      const name = request.body.username.trim();
      const found = await findUserBySignInName(db, name);
      const attempt = { address: request.ip, names: [signInNameOf(name, found)] };
      await claimLoginAttempt(db, limits, attempt);
      const valid = found
        ? await verifyPassword(request.body.password, found.passwordHash)
        : await verifyAgainstDecoy(request.body.password);
      if (!found || !valid) throw new Unauthorized(INVALID_CREDENTIALS);
      await settleSuccessfulLogin(db, attempt);
      await rememberSignInAddress(db, limits, attempt);
      const user = { id: found.id, username: found.username, email: found.email, role: found.role };
      return { access_token: app.issueToken(user, found.tokenVersion), user };
    },
  );

  app.get(
    '/profile',
    {
      preHandler: app.requireUser,
      schema: { response: { 200: Profile, ...errors(401) } },
    },
    async (request: FastifyRequest) => {
      const user = await findUserById(db, signedInUser(request).id);
      if (!user) throw new Unauthorized(ACCOUNT_GONE);
      return { user };
    },
  );
};

export default accountRoutes;
