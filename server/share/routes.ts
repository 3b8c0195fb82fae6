// Share links, outside /api: GET /c/{id} and /b/{id} (a page of preview tags that sends people on
// to the app) and /c/{id}/card.png, /b/{id}/card.png (its preview card). What they show is what a
// signed-out visitor sees; anything else is the same bare 404 page.
import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TargetType } from '../db/schema.ts';
import { variantKey } from '../photos/index.ts';
import { createCardCache } from './card-cache.ts';
import { renderCard } from './card.ts';
import { cardVersion, findShareItem, shareId, type ShareItem } from './item.ts';
import { notFoundPage, REDIRECT_SCRIPT, REDIRECT_SCRIPT_PATH, sharePage, sharePath } from './page.ts';

/**
 * Short, so that an item moderation hides or its creator deletes leaves link previews and caches
 * within minutes; the ETag lets a cache check again without the body.
 */
export const SHARE_CACHE_CONTROL = 'public, max-age=300';
/** Made cards kept per process (about 30 photo cards; a drawn card is far smaller). */
export const CARD_CACHE_BYTES = 32 * 1024 * 1024;

const PREFIXES: [string, TargetType][] = [
  ['c', 'cat'],
  ['b', 'bodega'],
];
const HOST = /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

/**
 * The absolute address share links are given under: PUBLIC_BASE_URL when set; otherwise the
 * address the request came to (its scheme and Host, or X-Forwarded-Proto and X-Forwarded-Host
 * from a proxy TRUST_PROXY names), so a link made locally points back at the same server.
 */
export function shareBaseUrl(publicBaseUrl: string | null, request: FastifyRequest): string {
  if (publicBaseUrl) return publicBaseUrl.replace(/\/+$/, '');
  const host = HOST.test(request.host) ? request.host : 'localhost';
  return `${request.protocol === 'https' ? 'https' : 'http'}://${host}`;
}

/** Whether the request's If-None-Match names `etag` (or is `*`). */
function notModified(request: FastifyRequest, etag: string): boolean {
  const given = request.headers['if-none-match'];
  if (!given) return false;
  return given
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}

function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  etag: string,
  type: string,
  body: string | Buffer,
) {
  reply.header('cache-control', SHARE_CACHE_CONTROL).header('etag', etag).header('vary', 'accept-encoding');
  if (notModified(request, etag)) return reply.code(304).send();
  return reply.type(type).send(body);
}

export type ShareRouteOptions = { cardCacheBytes?: number };

const shareRoutes: FastifyPluginAsync<ShareRouteOptions> = async (fastify, options) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { photoStorage, config } = app.services;
  const cards = createCardCache(options.cardCacheBytes ?? CARD_CACHE_BYTES);
  const missing = notFoundPage(config.productName);

  const notFound = (reply: FastifyReply) =>
    reply
      .code(404)
      .type('text/html; charset=utf-8')
      .header('cache-control', SHARE_CACHE_CONTROL)
      .send(missing);

  /** The item a share path names, as a visitor sees it, or null for anything that is not one. */
  async function itemOf(type: TargetType, rawId: string, request: FastifyRequest): Promise<ShareItem | null> {
    const id = shareId(rawId);
    return id === null ? null : findShareItem((await request.reader()).db, type, id);
  }

  async function page(type: TargetType, id: string, request: FastifyRequest, reply: FastifyReply) {
    const item = await itemOf(type, id, request);
    if (!item) return notFound(reply);
    const base = shareBaseUrl(config.publicBaseUrl, request);
    const path = sharePath(item);
    const html = sharePage(item, config.productName, {
      url: `${base}${path}`,
      // The version in the address makes a preview that cached an older card fetch the new one.
      image: `${base}${path}/card.png?v=${cardVersion(item)}`,
    });
    const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
    return sendCached(request, reply, etag, 'text/html; charset=utf-8', html);
  }

  async function card(type: TargetType, id: string, request: FastifyRequest, reply: FastifyReply) {
    const item = await itemOf(type, id, request);
    if (!item) return notFound(reply);
    const version = cardVersion(item);
    const etag = `"${version}"`;
    if (notModified(request, etag))
      return reply.code(304).header('cache-control', SHARE_CACHE_CONTROL).header('etag', etag).send();
    const made = await cards.get(version, async () => {
      const key = item.primaryFilename ? variantKey(item.type, item.primaryFilename, 'large') : null;
      const photo = key ? await photoStorage.get(key) : null;
      return renderCard(item, config.productName, photo, (error) =>
        request.log.warn(
          { err: error, key },
          'share card: the primary photo could not be read; drawn instead',
        ),
      );
    });
    // Whether this request made the card (miss), found it kept (hit) or waited for another's (wait).
    reply.header('x-card-cache', made.source);
    return sendCached(request, reply, etag, 'image/png', made.card);
  }

  // Not part of the JSON API: kept out of its OpenAPI document. Any id is taken as a string, so a
  // malformed one gets the same 404 page as an unknown one. A visitor's view that may lag a little
  // (it is cached for minutes anyway): a public read, which may go to a replica.
  const schema = { params: Type.Object({ id: Type.String() }), hide: true };
  const reads = { reads: 'public' as const };
  for (const [prefix, type] of PREFIXES) {
    app.get(`/${prefix}/:id`, { schema, config: reads }, (request, reply) =>
      page(type, request.params.id, request, reply),
    );
    app.get(`/${prefix}/:id/card.png`, { schema, config: reads }, (request, reply) =>
      card(type, request.params.id, request, reply),
    );
  }

  app.get(REDIRECT_SCRIPT_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .send(REDIRECT_SCRIPT),
  );
};

export default shareRoutes;
