import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import toast from 'react-hot-toast/headless';
import { Toaster } from '../../client/src/components/Toaster.tsx';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../client/src/features/auth/stores/session.ts';
import SavedPage from '../../client/src/features/saved/routes/SavedPage.tsx';
import { scriptedFetch, type SentRequest } from './helpers.ts';

type Reply = ReturnType<Parameters<typeof scriptedFetch>[0]>;

const savedCat = (id: number, name: string) => ({
  id,
  name,
  bodega_id: 1,
  bodega_name: 'Sunny Deli',
  address: '1 Broadway',
  latitude: null,
  longitude: null,
  description: 'Naps all day.',
  age: '',
  breed: '',
  sex: '',
  personality: '',
  color: '',
  weight: '',
  is_friendly: true,
  rating: 4,
  review_count: 3,
  primary_photo: `/uploads/cats/c${id}_large.webp`,
  primary_thumb: `/uploads/cats/c${id}_thumb.webp`,
  created_by: 1,
  created_at: '2026-11-20T10:00:00.000Z',
  saved_at: '2026-11-21T10:00:00.000Z',
});
const savedBodega = {
  id: 1,
  name: 'Sunny Deli',
  address: '1 Broadway',
  latitude: null,
  longitude: null,
  description: '',
  phone: '',
  hours: '',
  cat_count: 2,
  rating: 0,
  review_count: 0,
  is_verified: true,
  primary_photo: null,
  primary_thumb: null,
  created_by: 1,
  created_at: '2026-11-20T10:00:00.000Z',
  saved_at: '2026-11-21T10:00:00.000Z',
};
const page = (total: number) => ({ page: 1, per_page: 50, total, pages: total ? 1 : 0 });

function renderSaved(extra: (r: SentRequest) => Reply | undefined = () => undefined) {
  const fetch = scriptedFetch((r) => {
    const own = extra(r);
    if (own) return own;
    if (r.url.startsWith('/api/users/savedcats'))
      return {
        status: 200,
        body: { saved_cats: [savedCat(5, 'Whiskers'), savedCat(6, 'Mango')], pagination: page(2) },
      };
    if (r.url.startsWith('/api/users/savedbodegas'))
      return { status: 200, body: { saved_bodegas: [savedBodega], pagination: page(1) } };
    return { status: 200, body: { saved: false } };
  });
  render(
    <MemoryRouter>
      <SavedPage />
      <Toaster />
    </MemoryRouter>,
  );
  return fetch;
}

beforeEach(() => useSession.setState({ user: { id: 1, username: 'alice' }, token: 't', loading: false }));
afterEach(() => {
  cleanup();
  act(() => toast.remove());
  vi.unstubAllGlobals();
});

describe('Saved', () => {
  it('shows both tabs with their counts and the saved cats first', async () => {
    renderSaved();
    expect(screen.getByRole('heading', { name: 'Your Saved Items' })).toBeTruthy();
    await screen.findByRole('tab', { name: 'Saved Cats (2)' });
    expect(screen.getByRole('tab', { name: 'Saved Bodegas (1)' }).getAttribute('aria-selected')).toBe(
      'false',
    );
    expect(screen.getByRole('heading', { name: 'Whiskers' })).toBeTruthy();
    const photo = screen.getByRole('img', { name: 'Whiskers' });
    expect(photo.getAttribute('src')).toBe('/uploads/cats/c5_thumb.webp');
    expect(screen.getByRole('heading', { name: 'Whiskers' }).closest('a')!.getAttribute('href')).toBe(
      '/cat/5',
    );
  });

  it('switches tabs with the arrow keys as well as by clicking', async () => {
    renderSaved();
    const cats = await screen.findByRole('tab', { name: 'Saved Cats (2)' });
    fireEvent.keyDown(cats, { key: 'ArrowRight' });
    const bodegas = screen.getByRole('tab', { name: 'Saved Bodegas (1)' });
    expect(bodegas.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(bodegas);
    expect(screen.getByRole('heading', { name: 'Sunny Deli' })).toBeTruthy();
    expect(screen.getByText('Verified')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Saved Cats (2)' }));
    expect(screen.getByRole('heading', { name: 'Mango' })).toBeTruthy();
  });

  it('removes a cat with its trash button, updates the count, and confirms', async () => {
    const { sent } = renderSaved();
    await screen.findByRole('heading', { name: 'Whiskers' });
    fireEvent.click(screen.getByRole('button', { name: 'Remove Whiskers from saved cats' }));
    expect(await screen.findByText('Removed from saved cats')).toBeTruthy();
    expect(sent.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/cats/5/save' });
    expect(screen.queryByRole('heading', { name: 'Whiskers' })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Saved Cats (1)' })).toBeTruthy();
  });

  it('removes a bodega and then shows the empty state', async () => {
    const { sent } = renderSaved();
    fireEvent.click(await screen.findByRole('tab', { name: 'Saved Bodegas (1)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Sunny Deli from saved bodegas' }));
    expect(await screen.findByText('Removed from saved bodegas')).toBeTruthy();
    expect(sent.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/bodegas/1/save' });
    expect(screen.getByText('No saved bodegas yet')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Saved Bodegas (0)' })).toBeTruthy();
  });

  it("keeps the item and says 'Failed to remove from saved cats' when removing fails", async () => {
    renderSaved((r) => (r.method === 'DELETE' ? { status: 500 } : undefined));
    await screen.findByRole('heading', { name: 'Whiskers' });
    fireEvent.click(screen.getByRole('button', { name: 'Remove Whiskers from saved cats' }));
    expect(await screen.findByText('Failed to remove from saved cats')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Whiskers' })).toBeTruthy();
  });

  it('shows the empty states', async () => {
    renderSaved((r) =>
      r.url.startsWith('/api/users/savedcats')
        ? { status: 200, body: { saved_cats: [], pagination: page(0) } }
        : r.url.startsWith('/api/users/savedbodegas')
          ? { status: 200, body: { saved_bodegas: [], pagination: page(0) } }
          : undefined,
    );
    expect(await screen.findByText('No saved cats yet')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Saved Bodegas (0)' }));
    expect(screen.getByText('No saved bodegas yet')).toBeTruthy();
  });

  it("says 'Failed to load saved items' when the lists cannot be loaded", async () => {
    renderSaved(() => ({ status: 500 }));
    expect(await screen.findByText('Failed to load saved items')).toBeTruthy();
  });

  it('asks a signed-out visitor to log in', () => {
    useSession.setState({ user: null, token: null });
    renderSaved();
    expect(screen.getByText('Please log in to view your saved cats and bodegas.')).toBeTruthy();
  });
});
