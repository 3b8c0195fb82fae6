// Serves processed photo variants under /uploads. Only the variant files in the cats/ and bodegas/
// folders are reachable: originals keep their EXIF (GPS included) and are never served.
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { NotFound } from '../errors.ts';
import { errors } from '../http/schemas.ts';

const FOLDERS = new Set(['cats', 'bodegas']);
// No dots or separators before the suffix, so no name can climb out of its folder.
const VARIANT_NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,127}_(thumb|large)\.webp$/;
export const VARIANT_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** The file a /uploads path names, or null when it is not a servable variant. */
export function variantFileFor(uploadDir: string, requested: string): string | null {
  const [folder, name, ...rest] = requested.split('/');
  if (rest.length > 0 || !folder || !name || !FOLDERS.has(folder) || !VARIANT_NAME.test(name)) return null;
  return path.join(uploadDir, folder, name);
}

const photoFiles: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { uploadDir } = app.services.config;

  app.get(
    '/uploads/*',
    {
      schema: {
        params: Type.Object({ '*': Type.String() }),
        response: { 200: Type.Unknown(), ...errors(404) },
      },
    },
    async (request, reply) => {
      const file = variantFileFor(uploadDir, request.params['*']);
      const stat = file ? await fs.stat(file).catch(() => null) : null;
      if (!file || !stat?.isFile()) throw new NotFound('No such photo');
      return reply
        .type('image/webp')
        .header('cache-control', VARIANT_CACHE_CONTROL)
        .header('content-length', stat.size)
        .header('last-modified', stat.mtime.toUTCString())
        .header('x-content-type-options', 'nosniff')
        .send(createReadStream(file));
    },
  );
};

export default photoFiles;
