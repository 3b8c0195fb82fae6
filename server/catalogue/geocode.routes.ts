// GET /api/geocode/reverse: the street address at a position, for a form's Location button, from
// the server's geocoder (so it works without a browser maps key, and the user's position goes to
// one service only). Signed-in only: it spends a public service's allowance.
import { ReverseGeocodeAnswer } from '../../contract/map.ts';
import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AppError, NotFound, Unavailable } from '../errors.ts';
import { errors } from '../http/schemas.ts';
import { createGeocoder } from './geocoder.ts';

const ReverseQuery = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lng: Type.Number({ minimum: -180, maximum: 180 }),
});

const geocodeRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config, logger } = app.services;
  const geocoder = createGeocoder(config, logger);

  app.get(
    '/reverse',
    {
      preHandler: app.requireUser,
      schema: {
        querystring: ReverseQuery,
        response: { 200: ReverseGeocodeAnswer, ...errors(400, 401, 404, 503) },
      },
    },
    async (request) => {
      if (geocoder.kind === 'none')
        throw new AppError(503, 'geocoding_off', 'Address lookup is turned off on this server.');
      const found = await geocoder.reverse({ latitude: request.query.lat, longitude: request.query.lng });
      if (found === 'none') throw new NotFound('No street address was found at this position.');
      if (found === 'failed')
        throw new Unavailable('The address lookup service did not answer. Please type the address.');
      return found;
    },
  );
};

export default geocodeRoutes;
