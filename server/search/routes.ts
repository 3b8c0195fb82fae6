// Public search: cats, bodegas, nearby (either, with every filter of its type) and filter options.
import { BodegaList, CatList, FilterOptions, NearbyList, SuggestionList } from '../../contract/search.ts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { DB } from '../db/schema.ts';
import { errors, pagination } from '../http/schemas.ts';
import { searchBodegas } from './bodegas.ts';
import { searchCats } from './cats.ts';
import { listFilterOptions } from './filter-options.ts';
import {
  BodegaSearchQuery,
  CatSearchQuery,
  NearbyQuery,
  bodegaFiltersOf,
  catFiltersOf,
  optionalBoxOf,
  pageOf,
  rejectFiltersOfOtherType,
  type Page,
} from './params.ts';
import { suggest } from './suggest.ts';
import { parseTextQuery } from './text.ts';

function searchPagination(found: { total: number; exact: boolean }, page: Page) {
  return { ...pagination(found.total, page.page, page.perPage), total_exact: found.exact };
}
const SuggestQuery = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 100 }),
  type: Type.Optional(Type.Union([Type.Literal('cats'), Type.Literal('bodegas'), Type.Literal('all')])),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })),
});

const searchRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config } = app.services;
  /**
   * Answers from the search cache, which keeps the body as the route's response serializer wrote
   * it. The key is the route and its parsed, validated query (defaults filled in). Every search is
   * a public read that may lag: it runs on the server the request's reader names, and the cache
   * checks its answer against that server.
   */
  const cached = async (
    request: FastifyRequest,
    reply: FastifyReply,
    route: string,
    search: object,
    compute: (db: Kysely<DB>) => Promise<object>,
  ) => {
    const key = `${route} ${JSON.stringify(search)}`;
    const reader = await request.reader();
    const body = await app.searchCache.get(
      key,
      async (db) => reply.serialize(await compute(db)) as string,
      reader,
    );
    return reply.type('application/json; charset=utf-8').send(body);
  };
  const reads = { reads: 'public' } as const;

  app.get(
    '/filters',
    { config: reads, schema: { response: { 200: FilterOptions } } },
    async (request, reply) => cached(request, reply, 'filters', {}, (db) => listFilterOptions(db)),
  );

  app.get(
    '/suggest',
    {
      config: reads,
      schema: { querystring: SuggestQuery, response: { 200: SuggestionList, ...errors(400) } },
    },
    async (request, reply) => {
      const text = parseTextQuery(request.query.q);
      const search = {
        words: text?.words ?? [],
        type: request.query.type ?? 'all',
        limit: request.query.limit ?? 8,
      };
      return cached(request, reply, 'suggest', search, async (db) => ({
        suggestions: await suggest(db, { words: search.words }, search.type, search.limit),
      }));
    },
  );

  app.get(
    '/cats',
    { config: reads, schema: { querystring: CatSearchQuery, response: { 200: CatList, ...errors(400) } } },
    async (request, reply) => {
      const search = {
        text: parseTextQuery(request.query.q),
        filters: catFiltersOf(request.query),
        box: optionalBoxOf(request.query),
        circle: null,
        page: pageOf(request.query),
      };
      return cached(request, reply, 'cats', search, async (db) => {
        const found = await searchCats(db, search);
        return { cats: found.cats, pagination: searchPagination(found, search.page) };
      });
    },
  );

  app.get(
    '/bodegas',
    {
      config: reads,
      schema: { querystring: BodegaSearchQuery, response: { 200: BodegaList, ...errors(400) } },
    },
    async (request, reply) => {
      const search = {
        text: parseTextQuery(request.query.q),
        filters: bodegaFiltersOf(request.query),
        box: optionalBoxOf(request.query),
        circle: null,
        page: pageOf(request.query),
      };
      return cached(request, reply, 'bodegas', search, async (db) => {
        const found = await searchBodegas(db, search);
        return { bodegas: found.bodegas, pagination: searchPagination(found, search.page) };
      });
    },
  );

  app.get(
    '/nearby',
    { config: reads, schema: { querystring: NearbyQuery, response: { 200: NearbyList, ...errors(400) } } },
    async (request, reply) => {
      const { query } = request;
      const type = query.type ?? 'cats';
      rejectFiltersOfOtherType(query, type);
      const page = pageOf(query);
      const circle = { lat: query.lat, lng: query.lng, radiusKm: query.radius ?? config.nearbyRadiusKm };
      const text = parseTextQuery(query.q);
      if (type === 'bodegas') {
        const search = { text, filters: bodegaFiltersOf(query), circle, page };
        return cached(request, reply, 'nearby bodegas', search, async (db) => {
          const found = await searchBodegas(db, search);
          return { bodegas: found.bodegas, pagination: searchPagination(found, page) };
        });
      }
      const search = { text, filters: catFiltersOf(query), circle, page };
      return cached(request, reply, 'nearby cats', search, async (db) => {
        const found = await searchCats(db, search);
        return { cats: found.cats, pagination: searchPagination(found, page) };
      });
    },
  );
};

export default searchRoutes;
