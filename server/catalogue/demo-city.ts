// Demo data: a made-up but plausible New York of bodegas and their cats, in all five boroughs.
// Generated from a fixed seed, so every run produces the same city, and appended as ordinary
// domain events through the event store, so replay, search and the live stream treat it like
// anything users add. Phone numbers are in the fictional 555-01xx range.
import { bodegaNameLock } from '../events/locks.ts';
import { writeTransaction } from '../events/store.ts';
import type { BodegaFields, CatFields } from '../events/types.ts';
import { addBodega, addCat, findBodegaIdByKey, verifyBodega } from './commands.ts';
import { bodegaMatchKey } from './normalize.ts';
import type { Services } from '../services.ts';

type Borough = 'Manhattan' | 'Brooklyn' | 'Queens' | 'Bronx' | 'Staten Island';
type Neighborhood = {
  name: string;
  borough: Borough;
  /** The town line of a postal address; Queens addresses use the neighborhood. */
  town: string;
  zip: string;
  center: [number, number];
  streets: string[];
  /** How many bodegas the demo puts here. */
  shops: number;
};

// prettier-ignore
const NEIGHBORHOODS: Neighborhood[] = [
  { name: 'East Village', borough: 'Manhattan', town: 'New York', zip: '10009', center: [40.7265, -73.9815], streets: ['Avenue A', 'Avenue B', 'E 7th St', '1st Ave'], shops: 3 },
  { name: 'Lower East Side', borough: 'Manhattan', town: 'New York', zip: '10002', center: [40.715, -73.9843], streets: ['Orchard St', 'Rivington St', 'Essex St', 'Clinton St'], shops: 2 },
  { name: 'Harlem', borough: 'Manhattan', town: 'New York', zip: '10027', center: [40.8116, -73.9465], streets: ['Lenox Ave', 'W 125th St', 'Frederick Douglass Blvd'], shops: 3 },
  { name: 'Washington Heights', borough: 'Manhattan', town: 'New York', zip: '10033', center: [40.85, -73.935], streets: ['St Nicholas Ave', 'Broadway', 'W 181st St', 'Audubon Ave'], shops: 3 },
  { name: 'Upper West Side', borough: 'Manhattan', town: 'New York', zip: '10025', center: [40.799, -73.968], streets: ['Amsterdam Ave', 'Columbus Ave', 'Broadway'], shops: 2 },
  { name: "Hell's Kitchen", borough: 'Manhattan', town: 'New York', zip: '10036', center: [40.7638, -73.9918], streets: ['9th Ave', '10th Ave', 'W 46th St'], shops: 2 },
  { name: 'East Harlem', borough: 'Manhattan', town: 'New York', zip: '10029', center: [40.7957, -73.9389], streets: ['Lexington Ave', 'E 116th St', '3rd Ave'], shops: 2 },
  { name: 'Inwood', borough: 'Manhattan', town: 'New York', zip: '10034', center: [40.8677, -73.9212], streets: ['Dyckman St', 'Broadway', 'Sherman Ave'], shops: 1 },
  { name: 'Williamsburg', borough: 'Brooklyn', town: 'Brooklyn', zip: '11211', center: [40.7081, -73.9571], streets: ['Bedford Ave', 'Grand St', 'Metropolitan Ave', 'Graham Ave'], shops: 3 },
  { name: 'Bushwick', borough: 'Brooklyn', town: 'Brooklyn', zip: '11237', center: [40.7044, -73.9213], streets: ['Knickerbocker Ave', 'Wyckoff Ave', 'Myrtle Ave', 'Irving Ave'], shops: 3 },
  { name: 'Bedford-Stuyvesant', borough: 'Brooklyn', town: 'Brooklyn', zip: '11216', center: [40.6872, -73.9418], streets: ['Nostrand Ave', 'Fulton St', 'Tompkins Ave', 'Lewis Ave'], shops: 3 },
  { name: 'Park Slope', borough: 'Brooklyn', town: 'Brooklyn', zip: '11215', center: [40.671, -73.9814], streets: ['5th Ave', '7th Ave', 'Union St'], shops: 2 },
  { name: 'Crown Heights', borough: 'Brooklyn', town: 'Brooklyn', zip: '11225', center: [40.6694, -73.9422], streets: ['Franklin Ave', 'Nostrand Ave', 'Rogers Ave'], shops: 2 },
  { name: 'Greenpoint', borough: 'Brooklyn', town: 'Brooklyn', zip: '11222', center: [40.7305, -73.9515], streets: ['Manhattan Ave', 'Nassau Ave', 'Franklin St'], shops: 2 },
  { name: 'Sunset Park', borough: 'Brooklyn', town: 'Brooklyn', zip: '11220', center: [40.6455, -74.0124], streets: ['5th Ave', '8th Ave', '4th Ave'], shops: 1 },
  { name: 'Flatbush', borough: 'Brooklyn', town: 'Brooklyn', zip: '11226', center: [40.6409, -73.959], streets: ['Flatbush Ave', 'Church Ave', 'Cortelyou Rd'], shops: 1 },
  { name: 'Red Hook', borough: 'Brooklyn', town: 'Brooklyn', zip: '11231', center: [40.6755, -74.009], streets: ['Van Brunt St', 'Columbia St'], shops: 1 },
  { name: 'Astoria', borough: 'Queens', town: 'Astoria', zip: '11103', center: [40.7644, -73.9235], streets: ['Steinway St', '31st St', 'Broadway', 'Ditmars Blvd'], shops: 3 },
  { name: 'Jackson Heights', borough: 'Queens', town: 'Jackson Heights', zip: '11372', center: [40.7557, -73.8831], streets: ['37th Ave', 'Roosevelt Ave', '82nd St'], shops: 2 },
  { name: 'Ridgewood', borough: 'Queens', town: 'Ridgewood', zip: '11385', center: [40.7043, -73.9018], streets: ['Myrtle Ave', 'Fresh Pond Rd', 'Seneca Ave'], shops: 2 },
  { name: 'Sunnyside', borough: 'Queens', town: 'Sunnyside', zip: '11104', center: [40.7434, -73.9196], streets: ['Queens Blvd', 'Skillman Ave', 'Greenpoint Ave'], shops: 2 },
  { name: 'Flushing', borough: 'Queens', town: 'Flushing', zip: '11354', center: [40.7596, -73.8303], streets: ['Main St', 'Roosevelt Ave', 'Union St'], shops: 2 },
  { name: 'Long Island City', borough: 'Queens', town: 'Long Island City', zip: '11101', center: [40.7447, -73.9485], streets: ['Vernon Blvd', 'Jackson Ave', '21st St'], shops: 2 },
  { name: 'Jamaica', borough: 'Queens', town: 'Jamaica', zip: '11432', center: [40.7027, -73.789], streets: ['Jamaica Ave', 'Hillside Ave', 'Parsons Blvd'], shops: 1 },
  { name: 'Mott Haven', borough: 'Bronx', town: 'Bronx', zip: '10454', center: [40.8091, -73.9229], streets: ['Willis Ave', 'E 138th St', 'Alexander Ave'], shops: 3 },
  { name: 'Fordham', borough: 'Bronx', town: 'Bronx', zip: '10458', center: [40.8615, -73.8906], streets: ['E Fordham Rd', 'Webster Ave', 'Arthur Ave'], shops: 2 },
  { name: 'Kingsbridge', borough: 'Bronx', town: 'Bronx', zip: '10463', center: [40.878, -73.905], streets: ['W 231st St', 'Broadway', 'Kingsbridge Ave'], shops: 2 },
  { name: 'Parkchester', borough: 'Bronx', town: 'Bronx', zip: '10462', center: [40.8383, -73.861], streets: ['Castle Hill Ave', 'Westchester Ave'], shops: 2 },
  { name: 'St. George', borough: 'Staten Island', town: 'Staten Island', zip: '10301', center: [40.6437, -74.0736], streets: ['Bay St', 'Victory Blvd', 'Hyatt St'], shops: 2 },
  { name: 'Port Richmond', borough: 'Staten Island', town: 'Staten Island', zip: '10302', center: [40.6336, -74.1375], streets: ['Port Richmond Ave', 'Richmond Terrace', 'Castleton Ave'], shops: 2 },
  { name: 'New Dorp', borough: 'Staten Island', town: 'Staten Island', zip: '10306', center: [40.5731, -74.1176], streets: ['New Dorp Ln', 'Hylan Blvd'], shops: 2 },
];

// prettier-ignore
const SHOP_NAMES = ['Sunny', 'Lucky Star', 'Golden', 'Green Apple', 'Happy', 'Liberty', 'Metro', 'Corner', 'Brothers', 'Family', 'Angel', 'Paradise', 'El Primo', 'La Estrella', 'Super', 'Royal', 'Friendly', 'Morning Glory', 'Blue Moon', 'Empire', 'Sunrise', 'Los Hermanos', 'Tropical', 'Red Rose', 'Crown', 'Diamond', 'Hometown', 'Garden', 'La Familia', 'Lotto King', 'Tres Amigos', 'City Line', 'Neighborhood', 'Express', 'Uptown', 'Harbor', 'Eagle', 'Daily Fresh'];
// prettier-ignore
const SHOP_KINDS = ['Deli', 'Deli & Grocery', 'Bodega', 'Grocery', 'Mini Market', 'Food Market', 'Gourmet Deli', 'Candy Store', 'Convenience'];
// prettier-ignore
const SPECIALTIES = ['the best bacon, egg and cheese on the block', 'a chopped cheese worth crossing the borough for', 'a wall of cold beer', 'fresh empanadas every morning', 'Jamaican beef patties', 'buckets of flowers out front', 'strong coffee for a dollar', 'a sandwich counter that never closes', 'homemade tamales on weekends', 'every kind of plantain chip'];
// prettier-ignore
const HOURS = ['Open 24 hours', '6am - 11pm daily', '7am - 12am daily', 'Mon-Sat 6am-10pm, Sun 8am-8pm', '5am - 2am daily', '24/7, cash preferred after midnight'];

// prettier-ignore
const CAT_NAMES = ['Mango', 'Whiskers', 'Oreo', 'Bodega Bob', 'Chopped Cheese', 'Tiger', 'Lucy', 'Smokey', 'Luna', 'Milo', 'Simba', 'Cleo', 'Pepper', 'Shadow', 'Ginger', 'Princess', 'Papi', 'Mami', 'Gordo', 'Flaca', 'Negrito', 'Blanca', 'Nacho', 'Churro', 'Coco', 'Taco', 'Biscuit', 'Mittens', 'Socks', 'Boots', 'Felix', 'Garfield', 'Sylvester', 'Pumpkin', 'Peanut', 'Chairman Meow', 'Sergeant Whiskers', 'Lotto', 'Scratch', 'Pickles', 'Muffin', 'Bagel', 'Lox', 'Knish', 'Pastrami', 'Salami', 'Mozzarella', 'Provolone', 'Ziggy', 'Bowie', 'Biggie', 'Frankie', 'Sinatra', 'Tabasco', 'Sriracha', 'Kimchi', 'Mochi', 'Boba', 'Dumpling', 'Bao', 'Wonton', 'Tofu', 'Miso', 'Ramen', 'Plátano', 'Yuca', 'Mofongo', 'Tostón', 'Café', 'Cortadito', 'Espresso', 'Latte', 'Mocha', 'Cheddar', 'Brie', 'Gouda', 'Feta', 'Olive', 'Pistachio', 'Cashew', 'Almond', 'Hazel', 'Maple', 'Honey', 'Sugar', 'Cinnamon', 'Nutmeg', 'Paprika', 'Saffron', 'Basil', 'Sage', 'Rosemary', 'Thyme', 'Clover', 'Daisy', 'Lily', 'Rosie', 'Violet', 'Jasmine', 'Poppy', 'Willow', 'Juniper', 'Penny', 'Nickel', 'Dime', 'Quarter', 'Lucky', 'Jackpot', 'Scratchy', 'Powerball', 'Mega', 'Boss', 'Jefe', 'Chief', 'Mayor', 'Duke', 'Duchess', 'Baron', 'Count', 'Empress', 'Queenie', 'King', 'Prince', 'Rocco', 'Vinny', 'Sal', 'Tony', 'Gus', 'Mr. Jenkins', 'Mrs. Chen', 'Señor Gato', 'Doña Rosa', 'Big Mike', 'Little Mike', 'Junior', 'Pops', 'Abuela', 'Tío', 'Nena', 'Chula', 'Bebé', 'Chico', 'Chiquita', 'Fluffy', 'Stripes', 'Patches', 'Spot', 'Smudge', 'Ash', 'Soot', 'Ember', 'Blaze', 'Rusty', 'Copper', 'Goldie', 'Silver', 'Misty', 'Stormy', 'Thunder', 'Bandit', 'Rascal', 'Trouble', 'Chaos'];
// prettier-ignore
const BREEDS = ['Domestic Shorthair', 'Domestic Shorthair', 'Domestic Shorthair', 'Domestic Shorthair', 'Domestic Longhair', 'Domestic Mediumhair', 'American Shorthair', 'Maine Coon', 'Maine Coon mix', 'Siamese', 'Siamese mix', 'Russian Blue', 'Bengal', 'Persian', 'Ragdoll', 'Bombay', 'British Shorthair', 'Turkish Van', 'Norwegian Forest Cat', 'Abyssinian', 'Scottish Fold'];
/** Breeds that come in one look. */
const BREED_COLORS: Record<string, string> = {
  Bombay: 'Black',
  'Russian Blue': 'Gray',
  Siamese: 'Seal point',
  'Turkish Van': 'White and red',
};
// prettier-ignore
const COLORS = ['Orange tabby', 'Gray tabby', 'Brown tabby', 'Black', 'White', 'Black and white', 'Calico', 'Tortoiseshell', 'Gray', 'Cream', 'Orange and white', 'Seal point', 'Smoke gray'];
// prettier-ignore
const PERSONALITIES = ['Friendly', 'Playful', 'Lazy', 'Shy', 'Grumpy', 'Curious', 'Affectionate', 'Independent', 'Vocal', 'Sleepy', 'Bossy', 'Mellow', 'Mischievous', 'Aloof', 'Cuddly'];
const WARY = new Set(['Shy', 'Grumpy', 'Aloof', 'Independent']);
// prettier-ignore
const HABITS = ['sleeps on the bread shelf every afternoon', 'guards the register and demands chin scratches', 'patrols the aisles at night and keeps the mice away', 'naps in the window next to the lotto sign', 'greets every customer at the door', 'sits on top of the beer fridge and judges everyone', 'has claimed the bag of cat food by the counter as a bed', 'ignores everyone except the owner', 'comes running at the sound of the slicer', 'follows customers around until someone buys treats', 'sleeps on the newspapers and will not move', 'watches the street from the milk crates outside'];
// prettier-ignore
const EXTRAS = ['Please do not feed the cat chips.', 'Has lived here for years.', 'The owner took this one in off the street.', 'Known on the block as the mayor.', 'Regulars bring treats on Fridays.', 'Ask before picking up.', '', ''];

const BOROUGH_AREA_CODE: Record<Borough, string> = {
  Manhattan: '212',
  Brooklyn: '718',
  Queens: '718',
  Bronx: '718',
  'Staten Island': '718',
};

/** mulberry32: a small, fast PRNG; the same seed gives the same city every time. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = ReturnType<typeof prng>;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low + 1));
const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

export type DemoBodega = BodegaFields & { borough: Borough; verified: boolean; cats: CatFields[] };

export const DEMO_CAT_COUNT = 150;

/** The whole demo city, as plain data. */
export function demoCity(seed = 20261121): DemoBodega[] {
  const random = prng(seed);
  const usedNames = new Set<string>();
  const bodegas: DemoBodega[] = [];
  for (const place of NEIGHBORHOODS) {
    for (let i = 0; i < place.shops; i++) bodegas.push(demoBodega(random, place, usedNames));
  }
  const catNames = shuffled(random, CAT_NAMES).slice(0, DEMO_CAT_COUNT);
  // Every bodega has at least one cat; the rest go where they go, a few shops get a crowd.
  const homes = bodegas.map((_, i) => i);
  while (homes.length < DEMO_CAT_COUNT) homes.push(between(random, 0, bodegas.length - 1));
  catNames.forEach((name, i) => bodegas[homes[i]!]!.cats.push(demoCat(random, name)));
  for (const bodega of bodegas)
    bodega.description += bodega.cats.length > 1 ? ' The cats keep' : ' The shop cat keeps';
  for (const bodega of bodegas)
    bodega.description += bodega.borough === 'Manhattan' ? ' an eye on the avenue.' : ' an eye on the block.';
  return bodegas;
}

function demoBodega(random: Random, place: Neighborhood, usedNames: Set<string>): DemoBodega {
  const name = uniqueShopName(random, usedNames);
  const street = pick(random, place.streets);
  // Cross streets are short; avenues and boulevards run long.
  const crossStreet = /^(E |W |\d)/.test(street) || / (St|Ln|Pl)$/.test(street);
  const number = crossStreet ? between(random, 5, 420) : between(random, 10, 1200);
  return {
    name,
    address: `${number} ${street}, ${place.town}, NY ${place.zip}`,
    latitude: round(place.center[0] + (random() - 0.5) * 0.008, 6),
    longitude: round(place.center[1] + (random() - 0.5) * 0.01, 6),
    description: `${place.name} corner store with ${pick(random, SPECIALTIES)}.`,
    phone:
      random() < 0.85
        ? `(${BOROUGH_AREA_CODE[place.borough]}) 555-01${String(between(random, 0, 99)).padStart(2, '0')}`
        : '',
    hours: pick(random, HOURS),
    borough: place.borough,
    verified: random() < 0.3,
    cats: [],
  };
}

function uniqueShopName(random: Random, usedNames: Set<string>): string {
  for (;;) {
    const name = `${pick(random, SHOP_NAMES)} ${pick(random, SHOP_KINDS)}`;
    if (usedNames.has(name)) continue;
    usedNames.add(name);
    return name;
  }
}

function demoCat(random: Random, name: string): CatFields {
  const breed = pick(random, BREEDS);
  const color = BREED_COLORS[breed] ?? pick(random, COLORS);
  const personality = pick(random, PERSONALITIES);
  return {
    name,
    description: `${name} ${pick(random, HABITS)}. ${pick(random, EXTRAS)}`.trim(),
    age: demoAge(random),
    breed,
    sex: demoSex(random, color),
    personality,
    color,
    weight: random() < 0.8 ? `${between(random, 7, 18)} lbs` : '',
    is_friendly: random() < (WARY.has(personality) ? 0.3 : 0.92),
  };
}

function demoAge(random: Random): string {
  const r = random();
  if (r < 0.08) return `${between(random, 4, 11)} months`;
  if (r < 0.2) return `About ${between(random, 3, 12)} years`;
  if (r < 0.25) return '';
  const years = between(random, 1, 16);
  return years === 1 ? '1 year' : `${years} years`;
}

/** Calicos and tortoiseshells are nearly always female, orange cats mostly male. */
function demoSex(random: Random, color: string): CatFields['sex'] {
  const r = random();
  if (r < 0.05) return 'Unknown';
  if (r < 0.08) return '';
  if (color === 'Calico' || color === 'Tortoiseshell') return 'Female';
  const maleShare = color.startsWith('Orange') ? 0.8 : 0.5;
  return random() < maleShare ? 'Male' : 'Female';
}

function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Appends the demo city in one transaction (all or nothing). Entries have no creator, so no one
 * can edit them. Does nothing when the city is already there (its first bodega is).
 */
export async function seedDemoData(services: Services): Promise<{ bodegas: number; cats: number }> {
  const city = demoCity();
  const keys = city.map((bodega) => bodegaMatchKey(bodega.name, bodega.address));
  // The name lock of every bodega the city adds, together in their order (each add would take its
  // own): two processes seeding at once, the second waits here, then finds the city there.
  const locks = keys.map(bodegaNameLock);
  return writeTransaction(
    services.database.db,
    async (tx) => {
      const firstKey = keys[0]!;
      if ((await findBodegaIdByKey(tx.trx, firstKey, 'operator')) !== null) return { bodegas: 0, cats: 0 };
      const ctx = { tx, store: services.store, metadata: { actor_id: null, request_id: 'demo-seed' } };
      let cats = 0;
      for (const { borough: _, verified, cats: residents, ...fields } of city) {
        const bodegaId = await addBodega(ctx, fields, null);
        if (verified) await verifyBodega(ctx, bodegaId, true);
        for (const cat of residents) {
          await addCat(ctx, bodegaId, cat, null);
          cats += 1;
        }
      }
      return { bodegas: city.length, cats };
    },
    { locks },
  );
}

/** Seeds a database whose event log is empty, so a first `npm start` shows a living city. */
export async function seedIfEmpty(services: Services): Promise<{ bodegas: number; cats: number } | null> {
  const any = await services.database.db
    .selectFrom('events')
    .select('global_position')
    .limit(1)
    .executeTakeFirst();
  return any ? null : seedDemoData(services);
}
