// Public search: cats, bodegas, nearby (either, with every filter of its type) and filter options.
import { BodegaList, CatList, FilterOptions, NearbyList, SuggestionList } from '../../contract/search.ts';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
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
  const { database, config } = app.services;
  /**
   * Answers from the search cache, which keeps the body as the route's response serializer wrote
   * it. The key is the route and its parsed, validated query (defaults filled in).
   */
  const cached = async (
    reply: FastifyReply,
    route: string,
    search: object,
    compute: () => Promise<object>,
  ) => {
    const key = `${route} ${JSON.stringify(search)}`;
    const body = await app.searchCache.get(key, async () => reply.serialize(await compute()) as string);
    return reply.type('application/json; charset=utf-8').send(body);
  };

  app.get('/filters', { schema: { response: { 200: FilterOptions } } }, async (_request, reply) =>
    cached(reply, 'filters', {}, () => listFilterOptions(database.db)),
  );

  app.get(
    '/suggest',
    { schema: { querystring: SuggestQuery, response: { 200: SuggestionList, ...errors(400) } } },
    async (request, reply) => {
      const text = parseTextQuery(request.query.q);
      const search = {
        words: text?.words ?? [],
        type: request.query.type ?? 'all',
        limit: request.query.limit ?? 8,
      };
      return cached(reply, 'suggest', search, async () => ({
        suggestions: await suggest(database.db, { words: search.words }, search.type, search.limit),
      }));
    },
  );

  app.get(
    '/cats',
    { schema: { querystring: CatSearchQuery, response: { 200: CatList, ...errors(400) } } },
    async (request, reply) => {
      const search = {
        text: parseTextQuery(request.query.q),
        filters: catFiltersOf(request.query),
        box: optionalBoxOf(request.query),
        circle: null,
        page: pageOf(request.query),
      };
      return cached(reply, 'cats', search, async () => {
        const found = await searchCats(database.db, search);
        return { cats: found.cats, pagination: searchPagination(found, search.page) };
      });
    },
  );

  app.get(
    '/bodegas',
    { schema: { querystring: BodegaSearchQuery, response: { 200: BodegaList, ...errors(400) } } },
    async (request, reply) => {
      const search = {
        text: parseTextQuery(request.query.q),
        filters: bodegaFiltersOf(request.query),
        box: optionalBoxOf(request.query),
        circle: null,
        page: pageOf(request.query),
      };
      return cached(reply, 'bodegas', search, async () => {
        const found = await searchBodegas(database.db, search);
        return { bodegas: found.bodegas, pagination: searchPagination(found, search.page) };
      });
    },
  );

  app.get(
    '/nearby',
    { schema: { querystring: NearbyQuery, response: { 200: NearbyList, ...errors(400) } } },
    async (request, reply) => {
      const { query } = request;
      const type = query.type ?? 'cats';
      rejectFiltersOfOtherType(query, type);
      const page = pageOf(query);
      const circle = { lat: query.lat, lng: query.lng, radiusKm: query.radius ?? config.nearbyRadiusKm };
      const text = parseTextQuery(query.q);
      if (type === 'bodegas') {
        const search = { text, filters: bodegaFiltersOf(query), circle, page };
        return cached(reply, 'nearby bodegas', search, async () => {
          const found = await searchBodegas(database.db, search);
          return { bodegas: found.bodegas, pagination: searchPagination(found, page) };
        });
      }
      const search = { text, filters: catFiltersOf(query), circle, page };
      return cached(reply, 'nearby cats', search, async () => {
        const found = await searchCats(database.db, search);
        return { cats: found.cats, pagination: searchPagination(found, page) };
      });
    },
  );
};

export default searchRoutes;
