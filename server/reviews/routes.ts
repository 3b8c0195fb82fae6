// Reviews: list a cat's or a bodega's reviews (public), post one (signed-in, one per target),
// delete one's own. Ratings are not touched here: the ratings worker recomputes them from the log.
import { requestMetadata, signedInUser } from '../plugins/auth.ts';
import { Message } from '../../contract/common.ts';
import { NewReviewBody, PostedReview, ReviewPage } from '../../contract/reviews.ts';
import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TargetType } from '../db/schema.ts';
import { Invalid } from '../errors.ts';
import { andThen } from '../events/store.ts';
import { runCommand } from '../http/idempotency.ts';
import { PageQuery, errors, pagination, pathIdOr404, pathTarget } from '../http/schemas.ts';
import { cleanFreeText } from '../http/text.ts';
import { requireShownTarget, type Target } from '../events/targets.ts';
import { deleteReview, postReview } from './commands.ts';
import { TEXT_LIMITS } from '../../contract/text-limits.ts';
import { listReviews } from './read.ts';

// Any text is accepted as an id so that an id that cannot exist reads as "no such thing" (404),
// the same as for cats and bodegas themselves.
const TargetParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

function targetOf(body: NewReviewBody): Target {
  const cat = body.cat_id ?? null;
  const bodega = body.bodega_id ?? null;
  if ((cat === null) === (bodega === null)) {
    const message = 'Give exactly one of cat_id or bodega_id';
    throw new Invalid(message, { cat_id: message, bodega_id: message });
  }
  return cat !== null ? { type: 'cat', id: cat } : { type: 'bodega', id: bodega! };
}

function commentOf(raw: string | null | undefined): string {
  return cleanFreeText('comment', raw ?? '', TEXT_LIMITS.comment);
}

const reviewsRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { database, store } = app.services;

  for (const type of ['cat', 'bodega'] as const satisfies readonly TargetType[]) {
    app.get(
      `/${type}/:id`,
      {
        config: { reads: 'public' },
        schema: {
          params: TargetParams,
          querystring: Type.Object(PageQuery),
          response: { 200: ReviewPage, ...errors(400, 404) },
        },
      },
      async (request) => {
        const target = pathTarget(type, request.params.id);
        const { db } = await request.reader();
        // A hidden cat's or bodega's reviews are as hidden as its page.
        await requireShownTarget(db, target, request.currentUser);
        const page = request.query.page ?? 1;
        const perPage = request.query.per_page ?? 20;
        const { reviews, total } = await listReviews(db, target, page, perPage);
        return { reviews, pagination: pagination(total, page, perPage) };
      },
    );
  }

  app.post(
    '/',
    {
      onRequest: app.requireUser,
      schema: {
        body: NewReviewBody,
        response: { 201: PostedReview, ...errors(400, 401, 404, 409, 503) },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const target = targetOf(request.body);
      const comment = commentOf(request.body.comment);
      const input = { userId: user.id, role: user.role, target, rating: request.body.rating, comment };
      const post = postReview(store, input, requestMetadata(request));
      await runCommand(
        database.db,
        request,
        reply,
        andThen(post, (review) => ({ status: 201, body: { review } })),
      );
    },
  );

  app.delete(
    '/:id',
    {
      onRequest: app.requireUser,
      schema: {
        params: TargetParams,
        response: { 200: Message, ...errors(401, 403, 404, 409, 503) },
      },
    },
    async (request, reply) => {
      const reviewId = pathIdOr404(request.params.id, 'Review not found');
      const userId = signedInUser(request).id;
      const remove = deleteReview(store, { userId, reviewId }, requestMetadata(request));
      await runCommand(
        database.db,
        request,
        reply,
        andThen(remove, () => ({ status: 200, body: { message: 'Review deleted' } })),
      );
    },
  );
};

export default reviewsRoutes;
