// The signed-in user's credentials (mounted at /api/auth): changing the password, signing out
// everywhere and deleting the account. None takes an Idempotency-Key: a retry would carry a token
// the first request revoked (401), and a stored answer would keep a live token in the database.
import type { FastifyPluginAsync } from 'fastify';
import {
  AccountDeleted,
  AccountDeletion,
  FreshToken,
  PasswordChange,
  SignedOutEverywhere,
} from '../../contract/users.ts';
import { Forbidden, Unauthorized } from '../errors.ts';
import { writeTransaction } from '../events/store.ts';
import { errors } from '../http/schemas.ts';
import { requestMetadata, signedInUser } from '../plugins/auth.ts';
import { ACCOUNT_GONE, changePassword, signOutEverywhere, WRONG_CURRENT_PASSWORD } from './commands.ts';
import { deleteAccount, WRONG_PASSWORD } from './deletion.ts';
import { claimLoginAttempt, namesOfAccount, settleSuccessfulLogin } from './login-limits.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { PersonalData } from './personal-data.ts';
import { checkNewPassword } from './rules.ts';
import { findCredentialsById } from './users.ts';

/** Options: every domain's part of a person's data, for deleting an account (server/personal-data.ts). */
const credentialRoutes: FastifyPluginAsync<{ personalData: readonly PersonalData[] }> = async (
  app,
  { personalData },
) => {
  const { database, store, config } = app.services;
  const { db } = database;

  app.put<{ Body: PasswordChange }>(
    '/password',
    {
      preHandler: app.requireUser,
      schema: { body: PasswordChange, response: { 200: FreshToken, ...errors(400, 401, 403, 429, 503) } },
    },
    async (request) => {
      const user = signedInUser(request);
      const newPassword = checkNewPassword(request.body.new_password, 'new_password');
      const account = await findCredentialsById(db, user.id);
      if (!account) throw new Unauthorized(ACCOUNT_GONE);
      // The current password is guessed like a sign-in's: the counters of the account's names.
      const attempt = { address: request.ip, names: namesOfAccount(user.id) };
      await claimLoginAttempt(db, config.login, attempt);
      if (!(await verifyPassword(request.body.current_password, account.passwordHash)))
        throw new Forbidden(WRONG_CURRENT_PASSWORD);
      await settleSuccessfulLogin(db, attempt);
      // Hashing is slow on purpose: done before the transaction so that stays short.
      const newHash = await hashPassword(newPassword);
      const version = await writeTransaction(db, (tx) =>
        changePassword(tx, store, {
          userId: user.id,
          metadata: requestMetadata(request),
          previousHash: account.passwordHash,
          newHash,
        }),
      );
      return { access_token: app.issueToken(user, version) };
    },
  );

  app.delete<{ Body: AccountDeletion }>(
    '/account',
    {
      preHandler: app.requireUser,
      schema: {
        body: AccountDeletion,
        response: { 200: AccountDeleted, ...errors(400, 401, 403, 429, 503) },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const account = await findCredentialsById(db, user.id);
      if (!account) throw new Unauthorized(ACCOUNT_GONE);
      // Guessed like a sign-in's password: the counters of the account's names.
      const attempt = { address: request.ip, names: namesOfAccount(user.id) };
      await claimLoginAttempt(db, config.login, attempt);
      if (!(await verifyPassword(request.body.password, account.passwordHash)))
        throw new Forbidden(WRONG_PASSWORD);
      await settleSuccessfulLogin(db, attempt);
      const metadata = requestMetadata(request);
      const deletion = await writeTransaction(db, (tx) =>
        deleteAccount(tx, store, { userId: user.id, metadata }, personalData),
      );
      // Committed: the files can go now. The photos jobs their deletions dispatched remove them too,
      // should this process stop first.
      await deletion.afterCommit(app.services);
      return { message: 'Your account and your personal data have been deleted.' };
    },
  );

  app.post(
    '/logout-all',
    {
      preHandler: app.requireUser,
      schema: { response: { 200: SignedOutEverywhere, ...errors(401, 429, 503) } },
    },
    async (request) => {
      const user = signedInUser(request);
      await writeTransaction(db, (tx) =>
        signOutEverywhere(tx, store, { userId: user.id, metadata: requestMetadata(request) }),
      );
      return {};
    },
  );
};

export default credentialRoutes;
