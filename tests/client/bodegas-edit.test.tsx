import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../client/src/features/auth/stores/session.ts';
import BodegaEditPage from '../../client/src/features/bodegas/routes/BodegaEditPage.tsx';
import { CREATOR, detailOf, SUNNY_DELI } from './fixtures.ts';
import type { Responder, SentRequest } from './helpers.ts';
import { cleanUpScreen, renderEditPage, stubConfirm } from './screens.tsx';

const bodega = {
  ...detailOf(SUNNY_DELI, 5),
  cat_count: 2,
  rating: 4.25,
  review_count: 4,
  is_verified: false,
};

const renderEdit = (respond: Responder) => renderEditPage('bodega', 4, <BodegaEditPage />, respond);

const loaded = (r: SentRequest) =>
  r.method === 'GET' ? { status: 200, body: { bodega, cats: [] } } : undefined;

beforeEach(() => useSession.setState({ user: CREATOR, token: 't', loading: false }));
afterEach(cleanUpScreen);

describe('the bodega edit page', () => {
  it('shows the editable fields and the read-only rating, cat count and status', async () => {
    renderEdit((r) => loaded(r)!);
    expect(((await screen.findByLabelText('Bodega Name')) as HTMLInputElement).required).toBe(true);
    expect((screen.getByLabelText('Address') as HTMLInputElement).required).toBe(true);
    expect((screen.getByLabelText('Phone') as HTMLInputElement).value).toBe('212-555-0100');
    expect((screen.getByLabelText('Hours') as HTMLInputElement).value).toBe('24/7');
    const stats = screen.getByLabelText('Bodega statistics');
    expect(within(stats).getByText('4.3')).toBeTruthy();
    expect(within(stats).getByText('2')).toBeTruthy();
    expect(within(stats).getByText('Pending')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete Bodega' })).toBeTruthy();
  });

  it('saves with If-Match and confirms', async () => {
    const { sent, router } = renderEdit((r) => loaded(r) ?? { status: 200, body: { bodega, cats: [] } });
    fireEvent.change(await screen.findByLabelText('Hours'), { target: { value: '7am-11pm' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Bodega updated successfully!')).toBeTruthy();
    const put = sent.find((r) => r.method === 'PUT')!;
    expect(put).toMatchObject({ url: '/api/bodegas/4', headers: { 'If-Match': '5' } });
    expect(put.body).toEqual({
      name: 'Sunny Deli',
      address: '1 Broadway, New York',
      description: 'Corner shop.',
      phone: '212-555-0100',
      hours: '7am-11pm',
    });
    expect(router.state.location.pathname).toBe('/bodega/4');
  });

  it("says 'Failed to update bodega' when saving fails", async () => {
    renderEdit((r) => loaded(r) ?? { status: 500 });
    fireEvent.click(await screen.findByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Failed to update bodega')).toBeTruthy();
  });

  it('warns that its cats go too, and does nothing on no', async () => {
    const confirm = stubConfirm(false);
    const { sent } = renderEdit((r) => loaded(r) ?? { status: 200, body: {} });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Bodega' }));
    expect(confirm).toHaveBeenCalledWith(
      'Are you sure you want to delete this bodega? This will also delete all associated cats and cannot be undone.',
    );
    expect(sent.filter((r) => r.method === 'DELETE')).toHaveLength(0);
  });

  it('deletes on yes, confirms and goes to search', async () => {
    stubConfirm(true);
    const { sent, router } = renderEdit((r) => loaded(r) ?? { status: 200, body: {} });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Bodega' }));
    expect(await screen.findByText('Bodega deleted successfully!')).toBeTruthy();
    expect(sent.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/bodegas/4' });
    expect(router.state.location.pathname).toBe('/search');
  });

  it("says 'Failed to delete bodega' when the delete fails", async () => {
    stubConfirm(true);
    renderEdit((r) => loaded(r) ?? { status: 500 });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Bodega' }));
    expect(await screen.findByText('Failed to delete bodega')).toBeTruthy();
  });

  it("shows 'Unauthorized' to anyone but the creator", async () => {
    useSession.setState({ user: { id: 42, username: 'other' } });
    renderEdit((r) => loaded(r)!);
    expect(await screen.findByRole('heading', { name: 'Unauthorized' })).toBeTruthy();
    expect(screen.getByText('You can only edit bodegas that you created.')).toBeTruthy();
  });

  it("shows 'Bodega Not Found' for a missing bodega, and goes to /search when loading fails", async () => {
    renderEdit(() => ({ status: 404, body: { error: 'Bodega not found', code: 'not_found' } }));
    expect(await screen.findByRole('heading', { name: 'Bodega Not Found' })).toBeTruthy();
    cleanup();
    const { router } = renderEdit(() => ({ status: 503 }));
    expect(await screen.findByText('Failed to load bodega details')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/search');
  });
});
