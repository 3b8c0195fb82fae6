// Photos of cats and bodegas: upload (signed-in), switch the primary photo (the item's creator or a
// moderator) and delete (the photo's uploader or the item's creator). Processing happens in the
// photos worker.
import { requestMetadata, signedInUser } from '../plugins/auth.ts';
import { PhotoAnswer } from '../../contract/catalogue.ts';
import { Message } from '../../contract/common.ts';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TargetType } from '../db/schema.ts';
import { UnsupportedMediaType } from '../errors.ts';
import { andThen } from '../events/store.ts';
import { runCommand } from '../http/idempotency.ts';
import { errors, pathIdOr404, pathTarget } from '../http/schemas.ts';
import { admitUpload, deletePhoto, setPrimaryPhoto, uploadPhoto, type PrimaryChange } from './commands.ts';
import { deletePhotoObjects, discardQuietly } from './objects.ts';
import { toPhoto } from './read.ts';
import { NOT_MULTIPART, isMultipartRequest, receivePhotoUpload } from './upload.ts';

// Any text is accepted as an id so that an id that cannot exist reads as "no such thing" (404).
const TargetParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const PhotoParams = Type.Object({
  id: Type.String({ maxLength: 100 }),
  photoId: Type.String({ maxLength: 100 }),
});

const FOLDERS = { cats: 'cat', bodegas: 'bodega' } as const satisfies Record<string, TargetType>;

/**
 * File work that must happen once the transaction has settled but before the client hears back,
 * so that what a client sees next (a retry, a listing of the folder) already reflects it.
 */
const beforeReply = new WeakMap<FastifyRequest, (reply: FastifyReply) => Promise<void>>();

async function runBeforeReply(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const work = beforeReply.get(request);
  beforeReply.delete(request);
  await work?.(reply);
}

/** The photo a `/:id/photos/:photoId` path names, as the signed-in reader asks to change it. */
function photoChange(
  type: TargetType,
  params: Static<typeof PhotoParams>,
  request: FastifyRequest,
): PrimaryChange {
  const actor = signedInUser(request);
  return {
    target: pathTarget(type, params.id),
    photoId: pathIdOr404(params.photoId, 'Photo not found'),
    actorId: actor.id,
    actorRole: actor.role,
  };
}

async function requireMultipart(request: FastifyRequest): Promise<void> {
  if (!isMultipartRequest(request)) throw new UnsupportedMediaType(NOT_MULTIPART);
}

const photosRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { database, store, config, logger, photoStorage } = app.services;
  const { db } = database;
  await app.register(multipart, { throwFileSizeLimit: false });

  async function upload(type: TargetType, rawId: string, request: FastifyRequest, reply: FastifyReply) {
    const target = pathTarget(type, rawId);
    const uploader = signedInUser(request);
    await admitUpload(
      db,
      config.uploads,
      { target, uploader },
      request.headers['idempotency-key'] !== undefined,
    );
    const file = await receivePhotoUpload(request, photoStorage, config.uploadPace);
    // Gone already when it was kept as the original; otherwise (an error, a replay) not needed.
    beforeReply.set(request, () => discardQuietly(file.staged, logger));
    try {
      const recorded = uploadPhoto(app.services, {
        target,
        uploader,
        file,
        metadata: requestMetadata(request),
      });
      await runCommand(
        db,
        request,
        reply,
        andThen(recorded, (photo) => ({ status: 201, body: { photo: toPhoto(photo) } })),
      );
      // Returning the reply makes Fastify wait for the send (and its onSend work) to finish.
      return reply;
    } finally {
      await discardQuietly(file.staged, logger);
    }
  }

  for (const [folder, type] of Object.entries(FOLDERS) as [keyof typeof FOLDERS, TargetType][]) {
    app.post(
      `/${folder}/:id/photos`,
      {
        onRequest: [app.requireUser, requireMultipart],
        onSend: async (request, reply) => runBeforeReply(request, reply),
        schema: {
          params: TargetParams,
          response: { 201: PhotoAnswer, ...errors(400, 401, 404, 409, 413, 415, 429) },
        },
      },
      (request, reply) => upload(type, request.params.id, request, reply),
    );

    app.put(
      `/${folder}/:id/photos/:photoId/primary`,
      {
        preHandler: app.requireUser,
        schema: { params: PhotoParams, response: { 200: PhotoAnswer, ...errors(400, 401, 403, 404, 409) } },
      },
      async (request, reply) => {
        const change = photoChange(type, request.params, request);
        const primary = setPrimaryPhoto(store, change, requestMetadata(request));
        await runCommand(
          db,
          request,
          reply,
          andThen(primary, (photo) => ({ status: 200, body: { photo: toPhoto(photo) } })),
        );
        return reply;
      },
    );

    app.delete(
      `/${folder}/:id/photos/:photoId`,
      {
        preHandler: app.requireUser,
        onSend: async (request, reply) => runBeforeReply(request, reply),
        schema: {
          params: PhotoParams,
          response: { 200: Message, ...errors(400, 401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const change = photoChange(type, request.params, request);
        const remove = deletePhoto(store, change, requestMetadata(request));
        await runCommand(
          db,
          request,
          reply,
          andThen(remove, (photo) => {
            // A success reply means the event committed. The photos job that PhotoDeleted dispatches
            // removes the same objects again, so a failure here or a crash before it leaves nothing.
            beforeReply.set(request, async (sent) => {
              if (sent.statusCode === 200) await deletePhotoObjects(photoStorage, photo, logger);
            });
            return { status: 200, body: { message: 'Photo deleted successfully' } };
          }),
        );
        return reply;
      },
    );
  }
};

export default photosRoutes;
