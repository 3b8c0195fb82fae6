// Serves processed photo variants under /uploads. Only the variant objects of the cats/ and
// bodegas/ folders are reachable: originals keep their EXIF (GPS included) and are never served.
import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { NotFound } from '../errors.ts';
import { errors } from '../http/schemas.ts';
import type { ObjectKey } from './storage.ts';

const FOLDERS = new Set(['cats', 'bodegas']);
// No dots or separators before the suffix, so no name can climb out of its folder.
const VARIANT_NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,127}_(thumb|large)\.webp$/;
export const VARIANT_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** The object a /uploads path names (its key is the path), or null when it is not a servable variant. */
export function variantKeyFor(requested: string): ObjectKey | null {
  const [folder, name, ...rest] = requested.split('/');
  if (rest.length > 0 || !folder || !name || !FOLDERS.has(folder) || !VARIANT_NAME.test(name)) return null;
  return `${folder}/${name}`;
}

const photoFiles: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { photoStorage } = app.services;

  app.get(
    '/uploads/*',
    {
      schema: {
        params: Type.Object({ '*': Type.String() }),
        response: { 200: Type.Unknown(), ...errors(404) },
      },
    },
    async (request, reply) => {
      const key = variantKeyFor(request.params['*']);
      const variant = key ? await photoStorage.open(key) : null;
      if (!variant) throw new NotFound('No such photo');
      return reply
        .type('image/webp')
        .header('cache-control', VARIANT_CACHE_CONTROL)
        .header('content-length', variant.size)
        .header('last-modified', variant.modifiedAt.toUTCString())
        .header('x-content-type-options', 'nosniff')
        .send(variant.body);
    },
  );
};

export default photoFiles;
