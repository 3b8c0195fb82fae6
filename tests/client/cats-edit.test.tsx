import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../client/src/features/auth/stores/session.ts';
import CatEditPage from '../../client/src/features/cats/routes/CatEditPage.tsx';
import { CREATOR, detailOf, SUNNY_DELI, WHISKERS } from './fixtures.ts';
import type { Responder, SentRequest } from './helpers.ts';
import { cleanUpScreen, renderEditPage, stubConfirm } from './screens.tsx';

const cat = detailOf(WHISKERS, 2);
const bodega = {
  ...SUNNY_DELI,
  description: '',
  phone: '',
  hours: '',
  rating: 0,
  review_count: 0,
  is_verified: false,
};

const renderEdit = (respond: Responder) => renderEditPage('cat', 12, <CatEditPage />, respond);

const loads = (request: SentRequest) =>
  request.method === 'GET' ? { status: 200, body: { cat, bodega } } : undefined;

beforeEach(() => useSession.setState({ user: CREATOR, token: 't', loading: false }));
afterEach(cleanUpScreen);

describe('the cat edit page', () => {
  it("shows the cat's fields, and its bodega read-only with the note", async () => {
    renderEdit((r) => loads(r)!);
    expect(((await screen.findByLabelText('Cat Name')) as HTMLInputElement).value).toBe('Whiskers');
    expect((screen.getByLabelText('Breed') as HTMLInputElement).value).toBe('Tabby');
    expect((screen.getByLabelText('Sex') as HTMLSelectElement).value).toBe('Male');
    expect((screen.getByLabelText('Friendly with customers') as HTMLInputElement).checked).toBe(true);
    const bodegaName = screen.getByLabelText('Bodega Name') as HTMLInputElement;
    expect(bodegaName.value).toBe('Sunny Deli');
    expect(bodegaName.readOnly).toBe(true);
    expect((screen.getByLabelText('Address') as HTMLInputElement).readOnly).toBe(true);
    expect(screen.getByText('Bodega information cannot be changed from this form')).toBeTruthy();
    for (const name of ['Cancel', 'Save Changes', 'Delete Cat'])
      expect(screen.getByRole('button', { name })).toBeTruthy();
  });

  it('saves with the loaded version in If-Match, confirms and returns to the cat', async () => {
    const { sent, router } = renderEdit((r) => loads(r) ?? { status: 200, body: { cat, bodega } });
    fireEvent.change(await screen.findByLabelText('Cat Name'), { target: { value: ' Sir Whiskers ' } });
    fireEvent.click(screen.getByLabelText('Friendly with customers'));
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Cat updated successfully!')).toBeTruthy();
    const put = sent.find((r) => r.method === 'PUT')!;
    expect(put.url).toBe('/api/cats/12');
    expect(put.headers['If-Match']).toBe('2');
    expect(put.body).toEqual({
      name: 'Sir Whiskers',
      description: 'Guards the bread.',
      age: '3 years',
      breed: 'Tabby',
      sex: 'Male',
      personality: 'Bossy',
      color: 'Orange',
      weight: '12 lbs',
      is_friendly: false,
    });
    expect(router.state.location.pathname).toBe('/cat/12');
  });

  it('tells the user the cat changed meanwhile (409) and can load the latest version', async () => {
    let version = 2;
    const { sent } = renderEdit((r) => {
      if (r.method === 'GET')
        return {
          status: 200,
          body: { cat: { ...cat, name: version > 2 ? 'Tom' : 'Whiskers', version }, bodega },
        };
      version = 3;
      return {
        status: 409,
        body: {
          error: 'This item was changed by someone else. Reload and try again.',
          code: 'version_conflict',
        },
      };
    });
    fireEvent.change(await screen.findByLabelText('Cat Name'), { target: { value: 'Mine' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(
      await screen.findByText('This item was changed by someone else. Reload and try again.'),
    ).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain(
      'This cat was changed by someone else while you were editing it.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Load latest version' }));
    await screen.findByDisplayValue('Tom');
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await vi.waitFor(() => expect(sent.filter((r) => r.method === 'PUT')).toHaveLength(2));
    expect(sent.filter((r) => r.method === 'PUT')[1]!.headers['If-Match']).toBe('3');
  });

  it("shows the server's error, else 'Failed to update cat'", async () => {
    renderEdit((r) => loads(r) ?? { status: 500 });
    fireEvent.click(await screen.findByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Failed to update cat')).toBeTruthy();
  });

  it('asks before deleting and does nothing on no', async () => {
    const confirm = stubConfirm(false);
    const { sent } = renderEdit((r) => loads(r) ?? { status: 200, body: { message: 'Cat deleted' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Cat' }));
    expect(confirm).toHaveBeenCalledWith(
      'Are you sure you want to delete this cat? This action cannot be undone.',
    );
    expect(sent.filter((r) => r.method === 'DELETE')).toHaveLength(0);
  });

  it('deletes on yes, confirms and goes to search', async () => {
    stubConfirm(true);
    const { sent, router } = renderEdit((r) => loads(r) ?? { status: 200, body: { message: 'Cat deleted' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Cat' }));
    expect(await screen.findByText('Cat deleted successfully!')).toBeTruthy();
    expect(sent.at(-1)).toMatchObject({
      method: 'DELETE',
      url: '/api/cats/12',
      headers: { 'If-Match': '2' },
    });
    expect(router.state.location.pathname).toBe('/search');
  });

  it("says 'Failed to delete cat' when the delete fails", async () => {
    stubConfirm(true);
    renderEdit((r) => loads(r) ?? { status: 500 });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Cat' }));
    expect(await screen.findByText('Failed to delete cat')).toBeTruthy();
  });

  it("shows 'Unauthorized' to anyone but the creator", async () => {
    useSession.setState({ user: { id: 99, username: 'someone' } });
    renderEdit((r) => loads(r)!);
    expect(await screen.findByRole('heading', { name: 'Unauthorized' })).toBeTruthy();
    expect(screen.getByText('You can only edit cats that you created.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save Changes' })).toBeNull();
  });

  it("shows 'Unauthorized' to a signed-out visitor", async () => {
    useSession.setState({ user: null, token: null });
    renderEdit((r) => loads(r)!);
    expect(await screen.findByText('You can only edit cats that you created.')).toBeTruthy();
  });

  it("shows 'Cat Not Found' for a missing cat", async () => {
    renderEdit(() => ({ status: 404, body: { error: 'Cat not found', code: 'not_found' } }));
    expect(await screen.findByRole('heading', { name: 'Cat Not Found' })).toBeTruthy();
  });

  it('goes to /search with a toast when loading fails', async () => {
    const { router } = renderEdit(() => ({ status: 500 }));
    expect(await screen.findByText('Failed to load cat details')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/search');
  });
});
