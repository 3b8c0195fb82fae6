import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../client/src/features/auth/stores/session.ts';
import BodegaDetailPage from '../../client/src/features/bodegas/routes/BodegaDetailPage.tsx';
import { CREATOR, detailOf, SUNNY_DELI, WHISKERS } from './fixtures.ts';
import { cleanUpScreen, fakeLiveStream, renderItemPage, type PartialResponder } from './screens.tsx';

const bodega = {
  ...detailOf(SUNNY_DELI, 1),
  latitude: 40.705,
  longitude: -74.0134,
  cat_count: 0,
  created_at: '2026-11-20T23:30:00.000Z',
};
const cat = {
  ...WHISKERS,
  latitude: 40.705,
  longitude: -74.0134,
  personality: '',
  color: '',
  weight: '',
  rating: 0,
  review_count: 0,
  created_at: '2026-11-21T10:00:00.000Z',
};

let live: ReturnType<typeof fakeLiveStream>;

const renderPage = (respond?: PartialResponder) =>
  renderItemPage('bodega', 4, <BodegaDetailPage />, { bodega, cats: [] }, respond);

beforeEach(() => {
  live = fakeLiveStream('open');
  useSession.setState({ user: null, token: null, loading: false });
});
afterEach(cleanUpScreen);

describe('the bodega page', () => {
  it('shows its details, Contact & Hours, location, Added date and the empty cats grid', async () => {
    renderPage();
    expect(screen.getByText('Loading bodega details...')).toBeTruthy();
    const title = await screen.findByRole('heading', { level: 1 });
    expect(title.textContent).toContain('Sunny Deli');
    expect(within(title).getByText('Verified')).toBeTruthy();
    expect(screen.getByText('Added November 20, 2026')).toBeTruthy();
    expect(screen.getByText('Corner shop.')).toBeTruthy();
    const contact = screen.getByRole('region', { name: 'Contact & Hours' });
    expect(within(contact).getByText('212-555-0100')).toBeTruthy();
    expect(within(contact).getByText('24/7')).toBeTruthy();
    const location = screen.getByRole('region', { name: 'Location' });
    expect(within(location).getByText('Map will be displayed here')).toBeTruthy();
    expect(location.textContent).toContain('40.705000, -74.013400');
    expect(screen.getByRole('heading', { name: 'Cats (0)' })).toBeTruthy();
    expect(screen.getByText('No cats listed yet.')).toBeTruthy();
    const quick = screen.getByRole('region', { name: 'Quick Actions' });
    expect(within(quick).getByRole('link', { name: 'Search More Bodegas' })).toBeTruthy();
    expect(within(quick).getByRole('button', { name: 'Save Bodega' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Edit bodega' })).toBeNull();
  });

  it('shows the edit pencil to its creator only', async () => {
    useSession.setState({ user: CREATOR, token: 't' });
    renderPage();
    const pencil = await screen.findByRole('link', { name: 'Edit bodega' });
    expect(pencil.getAttribute('href')).toBe('/bodega/4/edit');
  });

  it("shows 'Bodega Not Found' for a missing bodega", async () => {
    renderPage((r) =>
      r.url === '/api/bodegas/4'
        ? { status: 404, body: { error: 'Bodega not found', code: 'not_found' } }
        : undefined,
    );
    expect(await screen.findByRole('heading', { name: 'Bodega Not Found' })).toBeTruthy();
  });

  it('adds a cat listed there live, and follows its rating', async () => {
    renderPage();
    await screen.findByText('No cats listed yet.');
    // The stream's summary of a new cat comes without a thumb.
    const { primary_thumb: _thumb, ...added } = cat;
    live('cat.added', added);
    expect(screen.getByRole('heading', { name: 'Cats (1)' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Whiskers (no photo)' })).toBeTruthy();
    const card = screen.getByRole('heading', { name: 'Whiskers' }).closest('a')!;
    expect(card.getAttribute('href')).toBe('/cat/12');
    expect(card.textContent).toContain('Tabby · 3 years');
    expect(within(screen.getByRole('region', { name: 'Contact & Hours' })).getByText('1')).toBeTruthy();
    live('rating.updated', { target_type: 'cat', target_id: 12, rating: 5, review_count: 1 });
    expect(card.textContent).toContain('1 review');
    live('cat.added', { ...cat, id: 13, name: 'Elsewhere', bodega_id: 99 });
    expect(screen.queryByRole('heading', { name: 'Elsewhere' })).toBeNull();
    live('rating.updated', { target_type: 'bodega', target_id: 4, rating: 3, review_count: 3 });
    expect(screen.getByText('(3 reviews)')).toBeTruthy();
    live('cat.deleted', { id: 12, bodega_id: 4 });
    expect(screen.getByText('No cats listed yet.')).toBeTruthy();
  });

  it('knows the bodega is already saved from the page itself, and toggles it', async () => {
    useSession.setState({ user: { id: 77, username: 'visitor' }, token: 't' });
    const { sent } = renderPage((r) => {
      if (r.url === '/api/bodegas/4')
        return { status: 200, body: { bodega: { ...bodega, saved: true }, cats: [] } };
      if (r.url === '/api/bodegas/4/save') return { status: 200, body: { saved: r.method === 'POST' } };
      return undefined;
    });
    await screen.findByRole('heading', { level: 1 });
    const hearts = screen.getAllByRole('button', { name: 'Remove from Saved' });
    expect(hearts).toHaveLength(2);
    fireEvent.click(hearts[0]!);
    expect(await screen.findByText('Removed from saved bodegas')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Save Bodega' })).toHaveLength(2);
    expect(sent.filter((r) => r.url.startsWith('/api/users/'))).toEqual([]);
  });

  it("shows each cat's thumb in the grid", async () => {
    const withPhoto = {
      ...cat,
      primary_photo: '/uploads/cats/p7_large.webp',
      primary_thumb: '/uploads/cats/p7_thumb.webp',
    };
    renderPage((r) =>
      r.url === '/api/bodegas/4'
        ? {
            status: 200,
            body: {
              bodega: { ...bodega, cat_count: 2 },
              cats: [withPhoto, { ...cat, id: 13, name: 'Mango' }],
            },
          }
        : undefined,
    );
    await screen.findByRole('heading', { name: 'Cats (2)' });
    expect(screen.getByRole('img', { name: 'Whiskers' }).getAttribute('src')).toBe(
      '/uploads/cats/p7_thumb.webp',
    );
    expect(screen.getByRole('img', { name: 'Mango (no photo)' })).toBeTruthy();
  });
});

describe('the bodega page, live photos of its cats', () => {
  const ready = {
    id: 7,
    filename: 'p7',
    caption: '',
    is_primary: true,
    status: 'ready',
    url: '/uploads/cats/p7_large.webp',
    thumb_url: '/uploads/cats/p7_thumb.webp',
    width: 1280,
    height: 960,
    uploaded_by: CREATOR.id,
    created_at: '2026-11-21T20:00:00.000Z',
    target_type: 'cat',
    target_id: 12,
    primary_photo: '/uploads/cats/p7_large.webp',
    primary_thumb: '/uploads/cats/p7_thumb.webp',
  };

  it("puts a cat's first photo on its card as soon as it is ready", async () => {
    renderPage((r) =>
      r.url === '/api/bodegas/4' ? { status: 200, body: { bodega, cats: [cat] } } : undefined,
    );
    await screen.findByRole('img', { name: 'Whiskers (no photo)' });
    // A second photo is ready while none is primary-and-ready yet: the card keeps its placeholder.
    live('photo.ready', { ...ready, is_primary: false, id: 6, primary_photo: null, primary_thumb: null });
    expect(screen.getByRole('img', { name: 'Whiskers (no photo)' })).toBeTruthy();
    live('photo.ready', ready);
    expect(screen.getByRole('img', { name: 'Whiskers' }).getAttribute('src')).toBe(
      '/uploads/cats/p7_thumb.webp',
    );
  });

  it("follows a listed cat's primary photo as it moves or goes, without fetching again", async () => {
    const { sent } = renderPage((r) =>
      r.url === '/api/bodegas/4'
        ? {
            status: 200,
            body: { bodega, cats: [{ ...cat, primary_photo: ready.url, primary_thumb: ready.thumb_url }] },
          }
        : undefined,
    );
    await screen.findByRole('img', { name: 'Whiskers' });
    const loads = () => sent.filter((r) => r.url === '/api/bodegas/4').length;
    const before = loads();

    live('photo.primary', {
      id: 8,
      target_type: 'cat',
      target_id: 99,
      primary_photo: '/uploads/cats/x_large.webp',
      primary_thumb: '/uploads/cats/x_thumb.webp',
    });
    expect(screen.getByRole('img', { name: 'Whiskers' }).getAttribute('src')).toBe(
      '/uploads/cats/p7_thumb.webp',
    );

    live('photo.primary', {
      id: 8,
      target_type: 'cat',
      target_id: 12,
      primary_photo: '/uploads/cats/p8_large.webp',
      primary_thumb: '/uploads/cats/p8_thumb.webp',
    });
    expect(screen.getByRole('img', { name: 'Whiskers' }).getAttribute('src')).toBe(
      '/uploads/cats/p8_thumb.webp',
    );

    live('photo.deleted', {
      id: 8,
      target_type: 'cat',
      target_id: 12,
      primary_photo: null,
      primary_thumb: null,
    });
    expect(await screen.findByRole('img', { name: 'Whiskers (no photo)' })).toBeTruthy();
    expect(loads()).toBe(before);
  });
});
