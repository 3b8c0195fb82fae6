// Reports (any signed-in user) and the moderators' queue and decisions.
import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  Decision,
  DecisionResponse,
  ModerationTargetType,
  NewReport,
  QueueResponse,
  QueueStatus,
  ReportResponse,
} from '../../contract/moderation.ts';
import { andThen } from '../events/store.ts';
import { runCommand } from '../http/idempotency.ts';
import { PageQuery, errors, pagination, pathIdOr404 } from '../http/schemas.ts';
import { cleanFreeText } from '../http/text.ts';
import { requestMetadata, signedInUser } from '../plugins/auth.ts';
import { decide, fileReport } from './commands.ts';
import { findQueueItem, listQueue } from './read.ts';
import { contentNotFound } from './target.ts';

const DecisionParams = Type.Object({
  target_type: ModerationTargetType,
  target_id: Type.String({ maxLength: 100 }),
});

/** Optional text, normalized and trimmed; the schema has bounded its length. */
function textOf(field: string, raw: string | null | undefined): string {
  return cleanFreeText(field, raw ?? '');
}

const moderationRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { database, store, config } = app.services;

  app.post(
    '/reports',
    {
      onRequest: app.requireUser,
      schema: { body: NewReport, response: { 201: ReportResponse, ...errors(400, 401, 404, 409, 429, 503) } },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const { target_type, target_id, reason } = request.body;
      const comment = textOf('comment', request.body.comment);
      const command = {
        userId: user.id,
        role: user.role,
        target: { type: target_type, id: target_id },
        reason,
        comment,
        threshold: config.reportsToHide,
      };
      const report = fileReport(store, command, config.reports, requestMetadata(request));
      await runCommand(
        database.db,
        request,
        reply,
        andThen(report, (filed) => {
          const created_at = filed.createdAt.toISOString();
          return {
            status: 201,
            body: { report: { id: filed.id, target_type, target_id, reason, created_at } },
          };
        }),
      );
    },
  );

  app.get(
    '/moderation/queue',
    {
      onRequest: app.requireModerator,
      schema: {
        querystring: Type.Object({ status: Type.Optional(QueueStatus), ...PageQuery }),
        response: { 200: QueueResponse, ...errors(400, 401, 403) },
      },
    },
    async (request) => {
      const page = request.query.page ?? 1;
      const perPage = request.query.per_page ?? 20;
      const { items, total } = await listQueue(database.db, request.query.status ?? 'open', page, perPage);
      return { items, pagination: pagination(total, page, perPage) };
    },
  );

  app.post(
    '/moderation/:target_type/:target_id',
    {
      onRequest: app.requireModerator,
      schema: {
        params: DecisionParams,
        body: Decision,
        response: { 200: DecisionResponse, ...errors(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request, reply) => {
      const moderator = signedInUser(request);
      const type = request.params.target_type;
      const id = pathIdOr404(request.params.target_id, contentNotFound({ type, id: 0 }).message);
      const target = { type, id };
      const note = textOf('note', request.body.note);
      const command = { moderatorId: moderator.id, target, action: request.body.action, note };
      const decision = decide(store, command, requestMetadata(request));
      await runCommand(
        database.db,
        request,
        reply,
        andThen(decision, async (_, tx) => {
          const item = await findQueueItem(tx.trx, target);
          if (!item) throw contentNotFound(target);
          return { status: 200, body: { item } };
        }),
      );
    },
  );
};

export default moderationRoutes;
