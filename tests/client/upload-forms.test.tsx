import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { scriptedFetch, type SentRequest } from './helpers.ts';

type Reply = ReturnType<Parameters<typeof scriptedFetch>[0]>;
type FakePosition = { coords: { latitude: number; longitude: number } } | { code: number };

const HERE = { latitude: 40.758, longitude: -73.9855 };
const created = (name: string) => ({ id: 9, name });

/** The device's position service, answering as the user's device would. */
function stubGeolocation(answer: FakePosition | null) {
  const getCurrentPosition = vi.fn((ok: PositionCallback, fail?: PositionErrorCallback | null) => {
    if (answer && 'coords' in answer) ok(answer as GeolocationPosition);
    else fail?.(answer as GeolocationPositionError);
  });
  Object.defineProperty(navigator, 'geolocation', {
    configurable: true,
    value: answer === null ? undefined : { getCurrentPosition },
  });
  return getCurrentPosition;
}

/**
 * Fresh modules per test: the runtime config (and its maps key) is fetched once per page load,
 * so each test gets its own "page load".
 */
async function renderForms(respond: (request: SentRequest) => Reply) {
  vi.resetModules();
  const fetch = scriptedFetch(respond);
  const { setBearerToken } = await import('../../client/src/lib/api.ts');
  setBearerToken('secret-api-token');
  const { Toaster } = await import('../../client/src/components/Toaster.tsx');
  const { CatUploadForm } = await import('../../client/src/features/upload/components/CatUploadForm.tsx');
  const { BodegaUploadForm } =
    await import('../../client/src/features/upload/components/BodegaUploadForm.tsx');
  const { QueryProvider } = await import('./query.tsx');
  const onCat = vi.fn();
  const onBodega = vi.fn();
  render(
    <QueryProvider>
      <CatUploadForm onAdded={onCat} />
      <BodegaUploadForm onAdded={onBodega} />
      <Toaster />
    </QueryProvider>,
  );
  const cat = screen.getByRole('form', { name: 'Upload Cat' });
  const bodega = screen.getByRole('form', { name: 'Upload Bodega' });
  return { ...fetch, cat, bodega, onCat, onBodega };
}

const field = (form: HTMLElement, label: string) =>
  form.querySelector(`#${CSS.escape(labelFor(form, label))}`) as HTMLInputElement;

function labelFor(form: HTMLElement, text: string): string {
  const label = [...form.querySelectorAll('label')].find((l) => l.textContent?.trim() === text);
  if (!label) throw new Error(`no field labelled ${text}`);
  return label.getAttribute('for') ?? label.querySelector('input')!.id;
}

function type(form: HTMLElement, label: string, value: string) {
  fireEvent.change(field(form, label), { target: { value } });
}

const buttonIn = (form: HTMLElement, name: RegExp | string) =>
  [...form.querySelectorAll('button')].find((b) =>
    typeof name === 'string' ? b.textContent?.trim() === name : name.test(b.textContent ?? ''),
  )!;

beforeEach(() => localStorage.clear());
afterEach(async () => {
  cleanup();
  const { default: toast } = await import('react-hot-toast/headless');
  act(() => toast.remove());
  vi.unstubAllGlobals();
});

describe('the Upload Cat form', () => {
  it('has every field with its requirement and default', async () => {
    const { cat } = await renderForms(() => ({ status: 500 }));
    for (const label of ['Cat Name', 'Bodega Name', 'Address']) expect(field(cat, label).required).toBe(true);
    for (const label of ['Description', 'Age', 'Breed', 'Color', 'Weight', 'Personality'])
      expect(field(cat, label).required).toBe(false);
    const sex = field(cat, 'Sex') as unknown as HTMLSelectElement;
    expect([...sex.options].map((o) => o.value)).toEqual(['', 'Male', 'Female', 'Unknown']);
    const friendly = cat.querySelector('input[name="is_friendly"]') as HTMLInputElement;
    expect(friendly.checked).toBe(true);
    expect(buttonIn(cat, 'Location')).toBeTruthy();
  });

  it('sends the cat, confirms, and resets the form', async () => {
    const { sent, cat, onCat } = await renderForms((r) =>
      r.url === '/api/cats'
        ? { status: 201, body: { cat: created('Whiskers'), bodega: {} } }
        : { status: 500 },
    );
    type(cat, 'Cat Name', ' Whiskers ');
    type(cat, 'Bodega Name', 'Sunny Deli');
    type(cat, 'Address', '1 Broadway');
    type(cat, 'Breed', 'Tabby');
    fireEvent.change(field(cat, 'Sex'), { target: { value: 'Female' } });
    fireEvent.click(cat.querySelector('input[name="is_friendly"]')!);
    fireEvent.submit(cat);
    expect(await screen.findByText('Cat uploaded successfully!')).toBeTruthy();
    expect(sent.find((r) => r.url === '/api/cats')!.body).toEqual({
      name: 'Whiskers',
      bodega_name: 'Sunny Deli',
      address: '1 Broadway',
      description: '',
      age: '',
      breed: 'Tabby',
      sex: 'Female',
      personality: '',
      color: '',
      weight: '',
      is_friendly: false,
    });
    expect(onCat).toHaveBeenCalledWith(created('Whiskers'));
    expect(field(cat, 'Cat Name').value).toBe('');
    expect(field(cat, 'Breed').value).toBe('');
    expect((cat.querySelector('input[name="is_friendly"]') as HTMLInputElement).checked).toBe(true);
  });

  it("shows 'Failed to upload cat' and keeps what was typed", async () => {
    const { cat } = await renderForms(() => ({ status: 500 }));
    type(cat, 'Cat Name', 'Whiskers');
    fireEvent.submit(cat);
    expect(await screen.findByText('Failed to upload cat')).toBeTruthy();
    expect(field(cat, 'Cat Name').value).toBe('Whiskers');
  });
});

describe('the Location button', () => {
  it('without a maps key or a server geocoder keeps the position, sends it with the cat, and asks for the address', async () => {
    stubGeolocation({ coords: HERE });
    const { sent, cat } = await renderForms((r) => {
      if (r.url === '/api/config')
        return {
          status: 200,
          body: { product_name: 'Bodega Cats', google_maps_api_key: null, nearby_radius_km: 10 },
        };
      if (r.url.startsWith('/api/geocode/reverse'))
        return {
          status: 503,
          body: { error: 'Address lookup is turned off on this server.', code: 'geocoding_off' },
        };
      return { status: 201, body: { cat: created('Whiskers'), bodega: {} } };
    });
    fireEvent.click(buttonIn(cat, 'Location'));
    expect(
      await screen.findByText('Your position was saved with this entry. Please type the address.'),
    ).toBeTruthy();
    expect(cat.textContent).toContain('Position 40.75800, -73.98550');
    expect(sent.some((r) => r.url.includes('maps.googleapis.com'))).toBe(false);
    type(cat, 'Cat Name', 'Whiskers');
    type(cat, 'Bodega Name', 'Sunny Deli');
    type(cat, 'Address', '1 Broadway');
    fireEvent.submit(cat);
    await screen.findByText('Cat uploaded successfully!');
    expect(sent.find((r) => r.url === '/api/cats')!.body).toMatchObject({
      latitude: 40.758,
      longitude: -73.9855,
    });
  });

  it('without a maps key asks the server for the address at the position and fills it in', async () => {
    stubGeolocation({ coords: HERE });
    const { sent, bodega } = await renderForms((r) => {
      if (r.url === '/api/config') return { status: 200, body: { google_maps_api_key: null } };
      if (r.url.startsWith('/api/geocode/reverse'))
        return { status: 200, body: { address: '1560 BROADWAY, Manhattan, New York, NY, USA' } };
      return { status: 500 };
    });
    fireEvent.click(buttonIn(bodega, 'Location'));
    await vi.waitFor(() =>
      expect(field(bodega, 'Address').value).toBe('1560 BROADWAY, Manhattan, New York, NY, USA'),
    );
    expect(
      await screen.findByText('Address filled in from your position. Check it before you submit.'),
    ).toBeTruthy();
    const asked = new URL(sent.find((r) => r.url.startsWith('/api/geocode/reverse'))!.url, 'http://x');
    expect([asked.searchParams.get('lat'), asked.searchParams.get('lng')]).toEqual(['40.758', '-73.9855']);
    expect(sent.some((r) => r.url.includes('maps.googleapis.com'))).toBe(false);
  });

  it('without a maps key says when the server finds no address there, or fails', async () => {
    stubGeolocation({ coords: HERE });
    let answer = {
      status: 404,
      body: { error: 'No street address was found at this position.', code: 'not_found' },
    };
    const { cat } = await renderForms((r) => {
      if (r.url === '/api/config') return { status: 200, body: { google_maps_api_key: null } };
      return answer;
    });
    fireEvent.click(buttonIn(cat, 'Location'));
    expect(await screen.findByText('Could not find address for current location')).toBeTruthy();
    answer = {
      status: 503,
      body: { error: 'The address lookup service did not answer.', code: 'unavailable' },
    };
    fireEvent.click(buttonIn(cat, 'Location'));
    expect(await screen.findByText('Error getting address from location')).toBeTruthy();
    expect(field(cat, 'Address').value).toBe('');
  });

  it('with a working key fills the address, and never sends the API token to the maps service', async () => {
    stubGeolocation({ coords: HERE });
    const { sent, bodega } = await renderForms((r) => {
      if (r.url === '/api/config')
        return {
          status: 200,
          body: { product_name: 'Bodega Cats', google_maps_api_key: 'maps-key', nearby_radius_km: 10 },
        };
      if (r.url.startsWith('https://maps.googleapis.com/'))
        return {
          status: 200,
          body: {
            status: 'OK',
            results: [
              { formatted_address: '1560 Broadway, New York, NY 10036, USA' },
              { formatted_address: 'Midtown' },
            ],
          },
        };
      return { status: 201, body: { bodega: created('Sunny Deli'), cats: [] } };
    });
    fireEvent.click(buttonIn(bodega, 'Location'));
    await vi.waitFor(() =>
      expect(field(bodega, 'Address').value).toBe('1560 Broadway, New York, NY 10036, USA'),
    );
    const maps = sent.find((r) => r.url.startsWith('https://maps.googleapis.com/'))!;
    expect(new URL(maps.url).searchParams.get('latlng')).toBe('40.758,-73.9855');
    expect(new URL(maps.url).searchParams.get('key')).toBe('maps-key');
    expect(JSON.stringify(maps)).not.toContain('secret-api-token');
    expect(maps.headers.Authorization).toBeUndefined();
    const config = sent.find((r) => r.url === '/api/config')!;
    expect(config.headers.Authorization).toBe('Bearer secret-api-token');
  });

  it("says 'Could not find address for current location' when the service finds none", async () => {
    stubGeolocation({ coords: HERE });
    const { cat } = await renderForms((r) => {
      if (r.url === '/api/config') return { status: 200, body: { google_maps_api_key: 'maps-key' } };
      return { status: 200, body: { status: 'ZERO_RESULTS', results: [] } };
    });
    fireEvent.click(buttonIn(cat, 'Location'));
    expect(await screen.findByText('Could not find address for current location')).toBeTruthy();
    expect(field(cat, 'Address').value).toBe('');
  });

  it("says 'Error getting address from location' when the service fails", async () => {
    stubGeolocation({ coords: HERE });
    const { cat } = await renderForms((r) => {
      if (r.url === '/api/config') return { status: 200, body: { google_maps_api_key: 'bad-key' } };
      return {
        status: 200,
        body: { status: 'REQUEST_DENIED', error_message: 'The provided API key is invalid.' },
      };
    });
    fireEvent.click(buttonIn(cat, 'Location'));
    expect(await screen.findByText('Error getting address from location')).toBeTruthy();
  });

  it('gives the geolocation messages, and after a denial only repeats how to enable it', async () => {
    const ask = stubGeolocation({ code: 1 });
    const { cat } = await renderForms(() => ({ status: 500 }));
    fireEvent.click(buttonIn(cat, 'Location'));
    const denied = await screen.findByText(/^Location access denied/);
    expect(denied).toBeTruthy();
    fireEvent.click(buttonIn(cat, 'Location'));
    await vi.waitFor(() => expect(screen.getAllByText(/^Location access denied/).length).toBeGreaterThan(0));
    expect(ask).toHaveBeenCalledOnce();
  });

  it.each([
    [2, 'Location unavailable. Please check your device settings and try again.'],
    [3, 'Location request timed out. Please try again.'],
    [9, 'Unable to get your location. Results will not be sorted by distance.'],
  ])('position error %i: %s', async (code, message) => {
    stubGeolocation({ code });
    const { cat } = await renderForms(() => ({ status: 500 }));
    fireEvent.click(buttonIn(cat, 'Location'));
    expect(await screen.findByText(message)).toBeTruthy();
  });

  it('without geolocation support says so', async () => {
    stubGeolocation(null);
    const { cat } = await renderForms(() => ({ status: 500 }));
    fireEvent.click(buttonIn(cat, 'Location'));
    expect(await screen.findByText('Geolocation is not supported by this browser')).toBeTruthy();
  });
});

describe('the Upload Bodega form', () => {
  it('has Number of Cats (min 0, default 1) that is not sent, and resets after success', async () => {
    const { sent, bodega } = await renderForms(() => ({
      status: 201,
      body: { bodega: created('Sunny Deli'), cats: [] },
    }));
    const count = field(bodega, 'Number of Cats');
    expect(count.value).toBe('1');
    expect(count.min).toBe('0');
    expect(field(bodega, 'Bodega Name').required).toBe(true);
    expect(field(bodega, 'Address').required).toBe(true);
    expect(field(bodega, 'Phone').required).toBe(false);
    type(bodega, 'Bodega Name', 'Sunny Deli');
    type(bodega, 'Address', '1 Broadway');
    type(bodega, 'Hours', '24/7');
    type(bodega, 'Number of Cats', '3');
    fireEvent.submit(bodega);
    expect(await screen.findByText('Bodega uploaded successfully!')).toBeTruthy();
    expect(sent.at(-1)).toMatchObject({ method: 'POST', url: '/api/bodegas' });
    expect(sent.at(-1)!.body).toEqual({
      name: 'Sunny Deli',
      phone: '',
      address: '1 Broadway',
      description: '',
      hours: '24/7',
    });
    expect(field(bodega, 'Bodega Name').value).toBe('');
    expect(field(bodega, 'Number of Cats').value).toBe('1');
  });

  it("shows the server's error, else 'Failed to upload bodega'", async () => {
    const { bodega } = await renderForms(() => ({
      status: 400,
      body: { error: 'address must not be blank', code: 'invalid' },
    }));
    fireEvent.submit(bodega);
    expect(await screen.findByText('address must not be blank')).toBeTruthy();
    cleanup();
    const again = await renderForms(() => ({ status: 500 }));
    fireEvent.submit(again.bodega);
    expect(await screen.findByText('Failed to upload bodega')).toBeTruthy();
  });
});
