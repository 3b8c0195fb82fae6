import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SEARCH_STATE } from '../../../../client/src/features/search/model/search-state.ts';
import { scriptedFetch } from '../../helpers.ts';

/** SearchMap with a fresh runtime config (it is read once per page, so once per module load). */
async function renderMap(mapStyleUrl: string | null) {
  vi.resetModules();
  scriptedFetch(() => ({
    status: 200,
    body: {
      product_name: 'Bodega Cats',
      google_maps_api_key: null,
      map_style_url: mapStyleUrl,
      nearby_radius_km: 10,
    },
  }));
  const { SearchMap } = await import('../../../../client/src/features/search/components/map/SearchMap.tsx');
  render(
    <MemoryRouter>
      <SearchMap
        state={DEFAULT_SEARCH_STATE}
        area={null}
        onSearchArea={() => {}}
        locations={[]}
        userLocation={null}
        highlightedKey={null}
        onHighlight={() => {}}
        onMarkerClick={() => {}}
      />
    </MemoryRouter>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('which map the search screen shows without a Google key', () => {
  it('draws its own map, saying the street map is off, when the site has no style', async () => {
    await renderMap(null);
    await screen.findByText('Street map turned off on this site: showing a drawn map.');
    expect(screen.getByRole('application', { name: /^Map of 0 locations/ })).toBeTruthy();
  });

  it('draws its own map, saying why, when the browser has no WebGL', async () => {
    vi.stubGlobal('WebGLRenderingContext', undefined);
    await renderMap('https://tiles.example.org/style.json');
    await screen.findByText(
      'Street map needs WebGL, which this browser does not offer: showing a drawn map.',
    );
    expect(screen.getByRole('application', { name: /^Map of 0 locations/ })).toBeTruthy();
  });
});
