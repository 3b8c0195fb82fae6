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

const STREET_MAP = '../../../../client/src/features/search/components/map/StreetMapView.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.doUnmock(STREET_MAP);
  vi.restoreAllMocks();
});

/** The street map's module replaced (maplibre cannot draw here); the spy tells whether it was loaded. */
function streetMapStandIn() {
  const loaded = vi.fn();
  vi.doMock(STREET_MAP, () => {
    loaded();
    return { default: () => <p>street map stand-in</p> };
  });
  return loaded;
}

describe('which map the search screen shows without a Google key', () => {
  it('draws its own map, saying the street map is off, when the site has no style', async () => {
    await renderMap(null);
    await screen.findByText('Street map turned off on this site: showing a drawn map.');
    expect(screen.getByRole('application', { name: /^Map of 0 locations/ })).toBeTruthy();
  });

  it('draws its own map, saying why, when the browser has no WebGL, without loading the street map', async () => {
    const loaded = streetMapStandIn();
    vi.stubGlobal('WebGLRenderingContext', undefined);
    await renderMap('https://tiles.example.org/style.json');
    await screen.findByText(
      'Street map needs WebGL, which this browser does not offer: showing a drawn map.',
    );
    expect(screen.getByRole('application', { name: /^Map of 0 locations/ })).toBeTruthy();
    expect(loaded).not.toHaveBeenCalled();
  });

  it('loads the street map when the browser has the WebGL API, making no context to test it', async () => {
    const loaded = streetMapStandIn();
    vi.stubGlobal('WebGLRenderingContext', class {});
    const getContext = vi.spyOn(HTMLCanvasElement.prototype, 'getContext');
    await renderMap('https://tiles.example.org/style.json');
    await screen.findByText('street map stand-in');
    expect(loaded).toHaveBeenCalled();
    expect(getContext).not.toHaveBeenCalled();
  });
});
