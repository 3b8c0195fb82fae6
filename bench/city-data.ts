// A synthetic city for benchmarks: bodegas clustered around real NYC neighbourhoods and the cats
// that live in them, appended as events through the real store (so the inline projections build
// the read tables exactly as in production). Seeded, so every run sees the same city.
import { sql } from 'kysely';
import type { Services } from '../server/services.ts';
import { streamIds, type CatFields, type NewEvent } from '../server/events/types.ts';

export type CityOptions = {
  cats: number;
  bodegas: number;
  seed?: number;
  /** Concurrent append transactions. */
  writers?: number;
  /** Bodegas (with all their cats) per transaction. */
  bodegasPerTransaction?: number;
  onProgress?(done: { bodegas: number; cats: number }): void;
};

export type CityStats = { bodegas: number; cats: number; events: number; seconds: number };

/** Small, fast, seedable PRNG (mulberry32). */
export function randomSource(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const gaussian = () => {
    const u = Math.max(next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
  };
  return { next, pick, gaussian };
}
type Random = ReturnType<typeof randomSource>;

// [name, lat, lng, spread km, weight, borough, zip]
const NEIGHBOURHOODS: [string, number, number, number, number, string, string][] = [
  ['Midtown', 40.7549, -73.984, 1.2, 8, 'New York', '10036'],
  ['Chelsea', 40.7465, -74.0014, 0.8, 4, 'New York', '10011'],
  ['East Village', 40.7265, -73.9815, 0.7, 5, 'New York', '10009'],
  ['Lower East Side', 40.715, -73.9843, 0.7, 4, 'New York', '10002'],
  ['Upper West Side', 40.787, -73.9754, 1.0, 5, 'New York', '10024'],
  ['Upper East Side', 40.7736, -73.9566, 1.0, 5, 'New York', '10075'],
  ['Harlem', 40.8116, -73.9465, 1.0, 6, 'New York', '10027'],
  ['Washington Heights', 40.8417, -73.9394, 1.0, 5, 'New York', '10033'],
  ['Williamsburg', 40.7081, -73.9571, 1.0, 5, 'Brooklyn', '11211'],
  ['Bushwick', 40.6944, -73.9213, 1.0, 5, 'Brooklyn', '11237'],
  ['Bed-Stuy', 40.6872, -73.9418, 1.2, 6, 'Brooklyn', '11216'],
  ['Park Slope', 40.671, -73.9814, 0.9, 4, 'Brooklyn', '11215'],
  ['Crown Heights', 40.6694, -73.9422, 1.0, 4, 'Brooklyn', '11213'],
  ['Flatbush', 40.6409, -73.9624, 1.2, 4, 'Brooklyn', '11226'],
  ['Sunset Park', 40.6455, -74.0124, 1.0, 3, 'Brooklyn', '11220'],
  ['Astoria', 40.7644, -73.9235, 1.0, 4, 'Queens', '11102'],
  ['Long Island City', 40.7447, -73.9485, 0.8, 3, 'Queens', '11101'],
  ['Jackson Heights', 40.7557, -73.8831, 1.0, 4, 'Queens', '11372'],
  ['Flushing', 40.7675, -73.833, 1.3, 4, 'Queens', '11354'],
  ['Jamaica', 40.7027, -73.7889, 1.5, 3, 'Queens', '11432'],
  ['Ridgewood', 40.7043, -73.9018, 0.9, 2, 'Queens', '11385'],
  ['Mott Haven', 40.8091, -73.9229, 0.9, 4, 'Bronx', '10454'],
  ['Fordham', 40.8615, -73.8905, 1.1, 4, 'Bronx', '10458'],
  ['Parkchester', 40.8383, -73.8608, 1.0, 3, 'Bronx', '10462'],
  ['St. George', 40.6437, -74.0736, 1.2, 2, 'Staten Island', '10301'],
];
export const STREETS = [
  'Broadway',
  'Amsterdam Ave',
  'Lexington Ave',
  'Atlantic Ave',
  'Myrtle Ave',
  'Flatbush Ave',
  'Fulton St',
  'Bedford Ave',
  'Graham Ave',
  'Grand St',
  'Delancey St',
  'Houston St',
  'Canal St',
  'Steinway St',
  'Roosevelt Ave',
  'Main St',
  'Jamaica Ave',
  'Grand Concourse',
  'Fordham Rd',
  'Westchester Ave',
  'Nostrand Ave',
  'Knickerbocker Ave',
  '5th Ave',
  '7th Ave',
  '8th Ave',
  'W 45th St',
  'E 14th St',
  'W 125th St',
  'St Nicholas Ave',
  'Court St',
  'Smith St',
  'Ditmars Blvd',
  '31st Ave',
  'Queens Blvd',
  'Victory Blvd',
  'Bay St',
  'Dekalb Ave',
  'Wyckoff Ave',
];
export const SHOP_FIRST = [
  'Sunny',
  'Golden',
  'Lucky',
  'Corner',
  'Green',
  'Star',
  'Happy',
  'Royal',
  'Liberty',
  'Empire',
  'Metro',
  'Park',
  'Village',
  'Ocean',
  'Garden',
  'Family',
  'Friendly',
  'Sunrise',
  'Blue Moon',
  'Red Apple',
  'Big Apple',
  "Jay's",
  "Tony's",
  "Maria's",
  "Ali's",
  "Kim's",
  "Rosa's",
  "Sam's",
  'Nueva',
  'El Mundo',
  'Brother',
  'Twin',
  'Crown',
  'Bridge',
  'Avenue',
  'Uptown',
  'Downtown',
];
export const SHOP_SECOND = [
  'Deli',
  'Grocery',
  'Bodega',
  'Market',
  'Deli & Grocery',
  'Food Market',
  'Mini Mart',
];
export const CAT_NAMES = [
  'Whiskers',
  'Mittens',
  'Shadow',
  'Tiger',
  'Luna',
  'Oliver',
  'Leo',
  'Milo',
  'Simba',
  'Nala',
  'Chloe',
  'Bella',
  'Lucy',
  'Max',
  'Charlie',
  'Smokey',
  'Oreo',
  'Ginger',
  'Pumpkin',
  'Peanut',
  'Boots',
  'Socks',
  'Felix',
  'Garfield',
  'Salem',
  'Midnight',
  'Pepper',
  'Cleo',
  'Loki',
  'Jasper',
  'Mango',
  'Biscuit',
  'Noodle',
  'Papi',
  'Mami',
  'Chairman Meow',
  'Sir Pounce',
  'Bodega Bob',
  'Tostada',
  'Empanada',
  'Churro',
  'Bagel',
  'Lox',
  'Knish',
  'Pretzel',
  'Hero',
  'Chopped Cheese',
  'Penny',
  'Dollar',
  'Lotto',
  'Scratch',
  'Bandit',
  'Rascal',
  'Duchess',
  'Princess',
  'Boss',
  'Gordo',
  'Flaca',
  'Negrito',
  'Blanca',
  'Tigre',
  'Misu',
  'Mochi',
  'Sushi',
  'Dumpling',
  'Boba',
];
export const NAME_SUFFIX = ['', '', '', '', ' Jr.', ' II', ' the Great', ' the Third', ' the Elder'];
// A few case variants on purpose: the filter options must merge them.
export const BREEDS = [
  'Tabby',
  'Tabby',
  'Tabby',
  'Domestic Shorthair',
  'Domestic Shorthair',
  'Domestic Longhair',
  'Tuxedo',
  'Calico',
  'Tortoiseshell',
  'Siamese',
  'Maine Coon',
  'Persian',
  'Russian Blue',
  'Bengal',
  'Bombay',
  'Ragdoll',
  'British Shorthair',
  'Orange Tabby',
  'Sphynx',
  'Mixed',
  'tabby',
  'calico',
  'maine coon',
  'TUXEDO',
  '',
];
export const PERSONALITIES = [
  'Friendly',
  'Shy',
  'Playful',
  'Lazy',
  'Curious',
  'Grumpy',
  'Affectionate',
  'Independent',
  'Vocal',
  'Sleepy',
  'Mischievous',
  'Protective',
  'Calm',
  'friendly',
  'playful',
  'LAZY',
  '',
];
const COLORS = [
  'Orange',
  'Black',
  'White',
  'Gray',
  'Black and white',
  'Brown',
  'Cream',
  'Calico',
  'Tabby brown',
];
const PLACES = [
  'the bread rack',
  'the register',
  'the chip shelf',
  'the window',
  'the ice cream freezer',
  'a stack of newspapers',
  'the cat food aisle',
  'the door mat',
];
const HABITS = [
  'greets every customer',
  'guards the lottery tickets',
  'hunts mice at night',
  'ignores everyone until noon',
  'demands chin scratches',
  'naps all afternoon',
  'watches the street',
  'steals turkey from the slicer',
];

function point(rnd: Random, hood: (typeof NEIGHBOURHOODS)[number]) {
  const [, lat, lng, spreadKm] = hood;
  const dLat = (rnd.gaussian() * spreadKm) / 111.2;
  const dLng = (rnd.gaussian() * spreadKm) / (111.2 * Math.cos((lat * Math.PI) / 180));
  return { latitude: round6(lat + dLat), longitude: round6(lng + dLng) };
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function pickHood(rnd: Random) {
  const total = NEIGHBOURHOODS.reduce((sum, h) => sum + h[4], 0);
  let r = rnd.next() * total;
  for (const hood of NEIGHBOURHOODS) {
    r -= hood[4];
    if (r <= 0) return hood;
  }
  return NEIGHBOURHOODS[0]!;
}

export function bodegaEvents(rnd: Random, id: number): NewEvent[] {
  const hood = pickHood(rnd);
  // A few shops were never geocoded: they must stay out of nearby search only.
  const coordinates = rnd.next() < 0.02 ? { latitude: null, longitude: null } : point(rnd, hood);
  const events: NewEvent[] = [
    {
      type: 'BodegaAdded',
      data: {
        bodega_id: id,
        created_by: null,
        name: `${rnd.pick(SHOP_FIRST)} ${rnd.pick(SHOP_SECOND)}`,
        address: `${1 + Math.floor(rnd.next() * 2400)} ${rnd.pick(STREETS)}, ${hood[5]}, NY ${hood[6]}`,
        ...coordinates,
        description: `Open late in ${hood[0]}. Cats usually near ${rnd.pick(PLACES)}.`,
        phone: `(${rnd.pick(['212', '718', '347', '646'])}) 555-${String(1000 + Math.floor(rnd.next() * 9000))}`,
        hours: rnd.pick(['24/7', '6am-2am', '7am-11pm', '5am-1am']),
      },
    },
  ];
  if (rnd.next() < 0.15) events.push({ type: 'BodegaVerified', data: { bodega_id: id, is_verified: true } });
  return events;
}

export function catFields(rnd: Random): CatFields {
  const name = `${rnd.pick(CAT_NAMES)}${rnd.pick(NAME_SUFFIX)}`;
  return {
    name,
    description: `${name.split(' ')[0]} ${rnd.pick(HABITS)} and sleeps on ${rnd.pick(PLACES)}.`,
    age: rnd.pick(['', 'kitten', '1', '2', '3 years', '5', '7 years', 'old', '12']),
    breed: rnd.pick(BREEDS),
    sex: rnd.pick(['Male', 'Female', 'Unknown', ''] as const),
    personality: rnd.pick(PERSONALITIES),
    color: rnd.pick(COLORS),
    weight: rnd.pick(['', '8 lb', '10 lb', '12 lb', 'chonky', '4 kg']),
    is_friendly: rnd.next() < 0.8,
  };
}

function rating(rnd: Random) {
  const reviews = 1 + Math.floor(rnd.next() * 30);
  return { rating: Math.round((1 + rnd.next() * 4) * 10) / 10, review_count: reviews };
}

/** Draws `count` ids from an entity sequence in one round trip (same sequence as `nextId`). */
async function drawIds(services: Services, sequence: 'cat_ids' | 'bodega_ids', count: number) {
  const { rows } = await sql<{ id: number }>`
    select nextval(${sequence}) as id from generate_series(1, ${count})`.execute(services.database.db);
  return rows.map((r) => Number(r.id));
}

type Stream = { streamId: string; events: NewEvent[] };

/** One bodega's streams: the shop, each cat, and the ratings the ratings worker would append. */
function shopStreams(rnd: Random, bodegaId: number, catIds: number[]): Stream[] {
  const streams: Stream[] = [{ streamId: streamIds.bodega(bodegaId), events: bodegaEvents(rnd, bodegaId) }];
  if (rnd.next() < 0.6) {
    streams.push({
      streamId: streamIds.rating('bodega', bodegaId),
      events: [
        { type: 'RatingRecomputed', data: { target_type: 'bodega', target_id: bodegaId, ...rating(rnd) } },
      ],
    });
  }
  for (const catId of catIds) {
    streams.push({
      streamId: streamIds.cat(catId),
      events: [
        {
          type: 'CatAdded',
          data: { cat_id: catId, bodega_id: bodegaId, created_by: null, ...catFields(rnd) },
        },
      ],
    });
    if (rnd.next() < 0.6) {
      streams.push({
        streamId: streamIds.rating('cat', catId),
        events: [
          { type: 'RatingRecomputed', data: { target_type: 'cat', target_id: catId, ...rating(rnd) } },
        ],
      });
    }
  }
  return streams;
}

/** Spreads `cats` over `bodegas` (every shop has at least one cat when cats >= bodegas). */
export function catsPerShop(rnd: Random, bodegas: number, cats: number): number[] {
  const counts = new Array<number>(bodegas).fill(cats >= bodegas ? 1 : 0);
  let left = cats - (cats >= bodegas ? bodegas : 0);
  while (left > 0) {
    // Mildly skewed: a few shops keep a whole clowder (about a dozen cats at most).
    const i = Math.floor(Math.pow(rnd.next(), 1.15) * bodegas);
    counts[i] = counts[i]! + 1;
    left--;
  }
  return counts;
}

/**
 * Appends the whole city. Each transaction holds whole shops (a shop and its cats), so concurrent
 * writers never contend for the same bodega row.
 */
export async function generateCity(services: Services, options: CityOptions): Promise<CityStats> {
  const started = Date.now();
  const rnd = randomSource(options.seed ?? 20261121);
  const perShop = catsPerShop(rnd, options.bodegas, options.cats);
  const bodegaIds = await drawIds(services, 'bodega_ids', options.bodegas);
  const catIds = await drawIds(services, 'cat_ids', options.cats);
  const shops: Stream[][] = [];
  let nextCat = 0;
  for (let i = 0; i < options.bodegas; i++) {
    const ids = catIds.slice(nextCat, nextCat + perShop[i]!);
    nextCat += ids.length;
    shops.push(shopStreams(rnd, bodegaIds[i]!, ids));
  }
  const batchSize = options.bodegasPerTransaction ?? 100;
  const batches: Stream[][][] = [];
  for (let i = 0; i < shops.length; i += batchSize) batches.push(shops.slice(i, i + batchSize));

  let events = 0;
  let doneShops = 0;
  let doneCats = 0;
  let next = 0;
  const writer = async () => {
    for (;;) {
      const index = next++;
      const batch = batches[index];
      if (!batch) return;
      await services.database.db.transaction().execute(async (trx) => {
        for (const shop of batch) {
          for (const stream of shop) await services.store.append(trx, stream.streamId, 0, stream.events);
        }
      });
      for (const shop of batch) {
        doneShops++;
        for (const stream of shop) {
          events += stream.events.length;
          if (stream.events[0]!.type === 'CatAdded') doneCats++;
        }
      }
      options.onProgress?.({ bodegas: doneShops, cats: doneCats });
    }
  };
  const writers = services.database.kind === 'pglite' ? 1 : (options.writers ?? 4);
  await Promise.all(Array.from({ length: writers }, writer));
  return { bodegas: doneShops, cats: doneCats, events, seconds: (Date.now() - started) / 1000 };
}
