// GET /api/map: clusters of the matching cats or bodegas in the visible box (API.md "Map at city
// scale"), with every filter of that type's search.
import { MapAnswer } from '../../contract/map.ts';
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { Type, type Static } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { DB } from '../db/schema.ts';
import { errors } from '../http/schemas.ts';
import {
  BoxFields,
  EitherTypeFields,
  bodegaConditions,
  bodegaFiltersOf,
  boxOf,
  catConditions,
  catFiltersOf,
  parseTextQuery,
  rejectFiltersOfOtherType,
  resolveText,
} from '../search/index.ts';
import { mapClusters, type MapSearch } from './clusters.ts';

export const MapQuery = Type.Object({
  ...BoxFields,
  zoom: Type.Integer({ minimum: 0, maximum: 20 }),
  ...EitherTypeFields,
});
export type MapQuery = Static<typeof MapQuery>;

/** The query as a map search: the box checked, the type's filters and resolved text as SQL. */
export async function mapSearchOf(db: Kysely<DB>, query: MapQuery): Promise<MapSearch> {
  const box = boxOf(query);
  const type = query.type ?? 'cats';
  rejectFiltersOfOtherType(query, type);
  const text = await resolveText(db, parseTextQuery(query.q));
  if (type === 'bodegas') {
    const conditions = bodegaConditions({ text, filters: bodegaFiltersOf(query) });
    return { type, box, zoom: query.zoom, conditions, labelled: false };
  }
  const filters = catFiltersOf(query);
  const conditions = catConditions({ text, filters });
  const labelled = filters.breed !== null || filters.personality !== null;
  return { type, box, zoom: query.zoom, conditions, labelled };
}

const mapRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/map',
    {
      config: { reads: 'public' },
      schema: { querystring: MapQuery, response: { 200: MapAnswer, ...errors(400) } },
    },
    async (request) => {
      const { db } = await request.reader();
      return mapClusters(db, await mapSearchOf(db, request.query));
    },
  );
};

export default mapRoutes;
